/* Applying parameter tables: JSON values -> fields of a block's state struct. */
#ifndef MGTLM_PARAMS_H
#define MGTLM_PARAMS_H

#include <stdbool.h>

#include <jansson.h>

#include "block.h"

/* Writes value (or the default when value is NULL) into the field of state described
 * by d. Errors name no location; the caller prefixes file and JSON path. */
bool params_apply(void *state, const ParamDef *d, json_t *value, const PlatformInfo *pi,
                  SimError *err);
/* Releases what params_apply allocated (strings, lists) in state. */
void params_release(void *state, const ParamDef *defs, size_t n);
/* The parameter called key in type t (including the common "buffer"), or NULL. */
const ParamDef *params_find(const BlockType *t, const char *key);
/* Parameter value as JSON in canonical form (for --dump). New reference. */
json_t *params_to_json(const void *state, const ParamDef *d);

#endif
