/* Errors: a fixed-size message written only on failure.
 * Functions that can fail return bool (or a pointer, NULL on failure) and take
 * `SimError *err` last. Messages are one line and name what was wrong and where:
 * "platforms/x.json: /gpu/blocks/rwq/params/entries: 0 is below minimum 1". */
#ifndef MGTLM_ERROR_H
#define MGTLM_ERROR_H

#include <stdbool.h>

#define SIM_ERROR_MAX 1024

typedef struct SimError {
    char msg[SIM_ERROR_MAX];
} SimError;

/* Writes a printf-style message into err (err may be NULL), control characters
 * escaped (\n, \t, \r, \xHH) so that it stays one line. Always returns false so
 * that `return sim_error_set(err, ...);` works in bool functions. */
bool sim_error_set(SimError *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prepends "prefix: " to an existing message (used to add file names), control
 * characters of the prefix escaped as by sim_error_set. */
bool sim_error_prefix(SimError *err, const char *prefix);

#endif
