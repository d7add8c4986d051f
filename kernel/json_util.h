/* Small JSON helpers for error messages and lookups: kind names, JSON pointers,
 * UTF-8 repair of text that goes into a JSON string. */
#ifndef MGTLM_JSON_UTIL_H
#define MGTLM_JSON_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* "object", "array", "string", "integer", "real", "boolean" or "null" (static). */
const char *json_kind(const json_t *v);

/* Appends "/<key>" to the JSON pointer in buf (size n), escaping '~' and '/' as
 * "~0" and "~1". Returns buf (truncated if it does not fit). */
char *json_pointer_push(char *buf, size_t n, const char *key);
/* Appends "/<index>". Returns buf. */
char *json_pointer_push_index(char *buf, size_t n, size_t index);
/* The value at pointer (e.g. "/gpu/blocks/mem") inside root, or NULL (borrowed).
 * The empty pointer names root. */
json_t *json_pointer_get(json_t *root, const char *pointer);
/* Makes s valid UTF-8 in place, as jansson's json_string requires: every byte that
 * does not belong to a well-formed sequence (stray continuation, overlong form,
 * surrogate, above U+10FFFF, cut short) becomes '?'. Returns s. */
char *json_utf8_clean(char *s);

#endif
