/* `set` overrides: "<instance glob>.<param>": value, split at the last '.'. The glob
 * (kernel/glob.h, the dialect of every name pattern) matches whole instance names.
 * The value is checked against every matched instance's type at once, so an error
 * names the set entry; a key matching no instance, an unknown parameter, or a
 * parameter a topology generator computes (its `computed` list, on an instance named
 * "fabric.*") is an error.
 * The keys gpus, mem_bytes, clock and seed are platform values, taken earlier by
 * platform_top_read, and skipped here. */
#include <stdio.h>
#include <string.h>

#include "kernel/glob.h"
#include "kernel/json_util.h"
#include "params.h"
#include "platform_priv.h"

bool platform_set_blame(PlatformLoad *ld, PlatformSetFrom from, const PlatformLoadArgs *a,
                        const char *key, SimError *err)
{
    char where[2 * PLATFORM_PATH_MAX + 8];
    switch (from) {
    case PLATFORM_SET_DOC:
        platform_path(where, sizeof where, "/set", key);
        return platform_fail_prefix(ld, where, err);
    case PLATFORM_SET_EXTRA: {
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, a->sets_pointer ? a->sets_pointer : "", key);
        snprintf(where, sizeof where, "%s: %s", a->sets_file ? a->sets_file : a->path, p);
        return sim_error_prefix(err, where);
    }
    case PLATFORM_SET_CLI:
        snprintf(where, sizeof where, "--set %s", key);
        return sim_error_prefix(err, where);
    }
    return false;
}

static bool platform_set_one(PlatformLoad *ld, const char *key, json_t *value,
                             SimError *err)
{
    const char *dot = strrchr(key, '.');
    if (!dot || dot == key || dot[1] == '\0') {
        return sim_error_set(err, "expected <instance-glob>.<param>");
    }
    char glob[PLATFORM_PATH_MAX];
    snprintf(glob, sizeof glob, "%.*s", (int)(dot - key), key);
    const char *param = dot + 1;
    PlatformDesc *d = ld->desc;
    size_t matched = 0;
    for (size_t i = 0; i < d->ninst; i++) {
        PlatformInstance *in = &d->inst[i];
        if (!glob_match(glob, in->name)) {
            continue;
        }
        matched++;
        const ParamDef *p = params_find(in->type, param);
        if (!p) {
            return sim_error_set(err, "unknown parameter \"%s\" of block type %s (in %s)",
                                 param, in->type->name, in->name);
        }
        if (platform_fabric_computed(d->registry, in->name, param)) {
            return sim_error_set(err, "%s of %s is computed from the fabric topology",
                                 param, in->name);
        }
        if (!platform_check_value(in->type, p, value, &d->info, err)) {
            return false;
        }
        if (json_object_set(in->params, param, value) != 0) {
            return sim_error_set(err, "out of memory");
        }
    }
    if (matched == 0) {
        return sim_error_set(err, "\"%s\" matches no instance", glob);
    }
    return true;
}

bool platform_set_apply(PlatformLoad *ld, json_t *sets, PlatformSetFrom from,
                        const PlatformLoadArgs *a, SimError *err)
{
    const char *key;
    json_t *value;
    json_object_foreach(sets, key, value) {
        if (!platform_top_key(key) && !platform_set_one(ld, key, value, err)) {
            return platform_set_blame(ld, from, a, key, err);
        }
    }
    return true;
}
