/* SimError: one-line error messages written only on failure.
 * Decision: a message stays one line whatever it echoes (keys, values, file names
 * taken from the input), so both writers escape control characters as the message is
 * stored: newline, tab and carriage return as \n, \t and \r, every other byte below
 * 0x20 and 0x7f as \xHH (ESC is \x1b). A backslash is not escaped, which makes the
 * escaping idempotent: a message that embeds another (already escaped) message, or
 * one prefixed several times, is never escaped twice. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends src to dst (n bytes, length *len, always terminated) with control
 * characters escaped; an escape that does not fit whole is left out with the rest of
 * src. */
static void sim_error_escape(char *dst, size_t n, size_t *len, const char *src)
{
    size_t o = *len;
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        char esc[5];
        if (*s == '\n' || *s == '\t' || *s == '\r') {
            snprintf(esc, sizeof esc, "\\%c", *s == '\n' ? 'n' : *s == '\t' ? 't' : 'r');
        } else if (*s < 0x20 || *s == 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", *s);
        } else {
            esc[0] = (char)*s;
            esc[1] = '\0';
        }
        size_t k = strlen(esc);
        if (o + k >= n) {
            break;
        }
        memcpy(dst + o, esc, k);
        o += k;
    }
    dst[o] = '\0';
    *len = o;
}

bool sim_error_set(SimError *err, const char *fmt, ...)
{
    if (err) {
        char raw[SIM_ERROR_MAX];
        size_t len = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        sim_error_escape(err->msg, sizeof err->msg, &len, raw);
    }
    return false;
}

bool sim_error_prefix(SimError *err, const char *prefix)
{
    if (err) {
        char tmp[SIM_ERROR_MAX];
        size_t len = 0;
        memcpy(tmp, err->msg, sizeof tmp);
        tmp[SIM_ERROR_MAX - 1] = '\0';
        sim_error_escape(err->msg, sizeof err->msg, &len, prefix);
        sim_error_escape(err->msg, sizeof err->msg, &len, ": ");
        sim_error_escape(err->msg, sizeof err->msg, &len, tmp);
    }
    return false;
}
