/* Deep merge of JSON documents (platform `extends`). */
#ifndef MGTLM_JSON_MERGE_H
#define MGTLM_JSON_MERGE_H

#include <jansson.h>

/* A new value: when both are objects, base's members (in base's order) merged with
 * over's (over wins; members only in over follow in over's order), recursively;
 * otherwise a copy of over. Neither argument is modified. New reference, NULL on
 * OOM. */
json_t *json_merge(json_t *base, json_t *over);

#endif
