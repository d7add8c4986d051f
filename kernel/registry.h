/* Block registry: the explicit list in hw/blocks.def, looked up by name. */
#ifndef MGTLM_REGISTRY_H
#define MGTLM_REGISTRY_H

#include <stddef.h>

#include "block.h"

/* All registered block types in list order (borrowed, static). */
const BlockType *const *registry_types(size_t *n);
/* The type called name, or NULL. */
const BlockType *registry_find(const char *name);

#endif
