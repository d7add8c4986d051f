/* A string -> position map for instance and block names (open addressing, FNV-1a).
 * Keys are borrowed: they must outlive the index. Lookups only; never iterated, so
 * nothing observable depends on the hash order. */
#ifndef MGTLM_PLATFORM_INDEX_H
#define MGTLM_PLATFORM_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "platform.h"

/* New empty index (owned by the caller), NULL on OOM. */
PlatformIndex *platform_index_new(void);
void platform_index_free(PlatformIndex *ix);
/* Maps key to pos (replacing an existing mapping). False on OOM. */
bool platform_index_put(PlatformIndex *ix, const char *key, size_t pos);
/* True and *pos if key is mapped. ix may be NULL (empty). */
bool platform_index_get(const PlatformIndex *ix, const char *key, size_t *pos);

#endif
