/* Loader errors: which file of the extends chain a JSON pointer belongs to, one-line
 * messages "<file>: <pointer>: <message>", and origins of instances and wires. With
 * overlays, a GPU template wire is blamed on where it was written (the platform's
 * wires, an overlay's wires, replace or splice entry: PlatformLoad.wire_from). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "platform_priv.h"

/* The most derived source containing path, else its longest existing prefix. */
static const PlatformSrc *platform_blame(const PlatformLoad *ld, const char *path)
{
    char p[PLATFORM_PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (;;) {
        for (size_t i = 0; i < ld->nsrc; i++) {
            if (json_pointer_get(ld->src[i].doc, p)) {
                return &ld->src[i];
            }
        }
        char *slash = strrchr(p, '/');
        if (!slash) {
            return &ld->src[0];
        }
        *slash = '\0';
    }
}

char *platform_path(char *out, size_t n, const char *path, const char *key)
{
    snprintf(out, n, "%s", path);
    return json_pointer_push(out, n, key);
}

char *platform_origin(const PlatformLoad *ld, const char *path, char *buf, size_t n)
{
    static const char wires[] = "/gpu/wires/";
    if (ld->wire_from && strncmp(path, wires, sizeof wires - 1) == 0) {
        char *end;
        unsigned long k = strtoul(path + sizeof wires - 1, &end, 10);
        if (end != path + sizeof wires - 1 && k < ld->nwire_from) {
            snprintf(buf, n, "%s%s", ld->wire_from[k], end);
            return buf;
        }
    }
    const PlatformSrc *s = platform_blame(ld, path);
    const char *shown = (*s->prefix || *path) ? path : "/";
    snprintf(buf, n, "%s: %s%s", s->file, s->prefix, shown);
    return buf;
}

bool platform_fail_prefix(const PlatformLoad *ld, const char *path, SimError *err)
{
    char origin[PLATFORM_PATH_MAX + 256];
    return sim_error_prefix(err, platform_origin(ld, path, origin, sizeof origin));
}

bool platform_fail(const PlatformLoad *ld, const char *path, SimError *err,
                   const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return platform_fail_prefix(ld, path, err);
}
