/* Reading a JSON file strictly (duplicate keys rejected) with one-line errors. */
#ifndef MGTLM_JSON_FILE_H
#define MGTLM_JSON_FILE_H

#include <jansson.h>

#include "kernel/error.h"

/* The document in path (new reference), any JSON value at the top. NULL on failure:
 * "<path>: cannot open: <reason>" (also "not a regular file (...)" and "too large
 * (...)", see kernel/input_file.h), "<path>: cannot read: <reason>",
 * "<path>: empty file", or for malformed JSON "<path>:<line>:<column>: <jansson text>"
 * (line and column as jansson counts them, both starting at 1). */
json_t *json_file_load(const char *path, SimError *err);

#endif
