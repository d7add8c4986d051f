/* Loader errors: which file of the extends chain a JSON pointer belongs to, one-line
 * messages "<file>: <pointer>: <message>", origins of instances and wires, and the
 * checks every object of the schema shares (unknown keys, member types). */
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

bool platform_check_keys(const PlatformLoad *ld, json_t *obj, const char *path,
                         const char *const *allowed, SimError *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], key) != 0) {
            i++;
        }
        if (!allowed[i]) {
            char list[256] = "";
            for (size_t j = 0; allowed[j]; j++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "",
                         allowed[j]);
            }
            char p[PLATFORM_PATH_MAX];
            platform_path(p, sizeof p, path, key);
            return platform_fail(ld, p, err, "unknown key \"%s\" (expected %s)", key,
                                 list);
        }
    }
    return true;
}

static const char *platform_kind_wanted(json_type want)
{
    switch (want) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_TRUE:
    case JSON_FALSE:
        return "true or false";
    default:
        return "a number";
    }
}

bool platform_member(const PlatformLoad *ld, json_t *obj, const char *path,
                     const char *key, json_type want, json_t **out, SimError *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v) {
        return true;
    }
    bool ok = json_typeof(v) == want ||
              ((want == JSON_TRUE || want == JSON_FALSE) && json_is_boolean(v)) ||
              (want == JSON_REAL && json_is_number(v));
    if (!ok) {
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, path, key);
        return platform_fail(ld, p, err, "expected %s, got %s",
                             platform_kind_wanted(want), json_kind(v));
    }
    *out = v;
    return true;
}

bool platform_add(PlatformLoad *ld, const char *name, const char *type, int gpu,
                  json_t *params, const char *path, SimError *err)
{
    PlatformDesc *d = ld->desc;
    char origin[PLATFORM_PATH_MAX + 256];
    char **paths = realloc(ld->paths, (d->ninst + 1) * sizeof *paths);
    if (!paths) {
        return platform_fail(ld, path, err, "out of memory");
    }
    ld->paths = paths;
    paths[d->ninst] = strdup(path);
    json_t *copy = params ? json_deep_copy(params) : json_object();
    if (!paths[d->ninst] || !copy) {
        free(paths[d->ninst]);
        json_decref(copy);
        return platform_fail(ld, path, err, "out of memory");
    }
    bool ok = platform_desc_add_instance(
        d, name, type, gpu, copy, platform_origin(ld, path, origin, sizeof origin), err);
    json_decref(copy);
    if (!ok) {
        free(paths[d->ninst]);
        return platform_fail_prefix(ld, path, err);
    }
    return true;
}
