/* SimError: one-line error messages written only on failure. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool sim_error_set(SimError *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool sim_error_prefix(SimError *err, const char *prefix)
{
    if (err) {
        char tmp[SIM_ERROR_MAX];
        memcpy(tmp, err->msg, sizeof tmp);
        tmp[SIM_ERROR_MAX - 1] = '\0';
        int n = snprintf(err->msg, sizeof err->msg, "%s: ", prefix);
        if (n >= 0 && (size_t)n < sizeof err->msg) {
            size_t room = sizeof err->msg - (size_t)n;
            size_t len = strlen(tmp);
            if (len >= room) {
                len = room - 1;
            }
            memcpy(err->msg + n, tmp, len);
            err->msg[(size_t)n + len] = '\0';
        }
    }
    return false;
}
