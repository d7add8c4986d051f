/* Load-time checks: the keys and member types every object of the schema shares,
 * and parameter values against the block types (applied to scratch states, see
 * platform_state.c), so bad values are reported with the file and JSON path before
 * anything is built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "params.h"
#include "platform_priv.h"

bool platform_check_keys(const PlatformLoad *ld, json_t *obj, const char *path,
                         const char *const *allowed, SimError *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
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

static const char *platform_check_wanted(json_type want)
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

bool platform_check_member(const PlatformLoad *ld, json_t *obj, const char *path,
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
                             platform_check_wanted(want), json_kind(v));
    }
    *out = v;
    return true;
}

bool platform_check_value(const BlockType *t, const ParamDef *d, json_t *v,
                          const PlatformInfo *pi, SimError *err)
{
    void *state = platform_state_alloc(t);
    if (!state) {
        return sim_error_set(err, "out of memory");
    }
    bool ok = params_apply(state, d, v, pi, err);
    if (ok) {
        params_release(state, d, 1);
    }
    free(state);
    return ok;
}

bool platform_check_instances(PlatformLoad *ld, SimError *err)
{
    const PlatformDesc *d = ld->desc;
    PlatformOneValue ov;
    if (!platform_one_value_init(&ov)) {
        return sim_error_set(err, "out of memory");
    }
    bool ok = true;
    for (size_t i = 0; ok && i < d->ninst; i++) {
        const char *bad;
        void *state = platform_state_new(&d->inst[i], &d->info, &bad, err);
        if (!state) {
            char p[PLATFORM_PATH_MAX];
            platform_path(p, sizeof p, ld->paths[i], "params");
            if (bad) {
                json_pointer_push(p, sizeof p, bad);
            }
            ok = platform_fail_prefix(ld, p, err);
            break;
        }
        ok = platform_one_value_add(&ov, ld, i, state, err);
        platform_state_free(d->inst[i].type, state);
    }
    platform_one_value_free(&ov);
    return ok;
}
