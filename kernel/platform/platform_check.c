/* Parameter checks at load time: every instance's parameters are applied to a
 * temporary, zeroed state struct of its type, exactly as the builder will apply them,
 * so bad values are reported with the file and JSON path before anything is built.
 * The same temporary state gives canonical values for the dump and the counts of
 * array ports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "params.h"
#include "platform_priv.h"

static void *platform_state_alloc(const BlockType *t)
{
    return calloc(1, t->size < sizeof(Block) ? sizeof(Block) : t->size);
}

void platform_state_free(const BlockType *t, void *state)
{
    if (state) {
        params_release(state, t->params, t->nparams);
        free(state);
    }
}

void *platform_state_new(const PlatformInstance *in, const PlatformInfo *pi,
                         const char **bad_key, SimError *err)
{
    const BlockType *t = in->type;
    *bad_key = NULL;
    const char *key;
    json_t *v;
    json_object_foreach(in->params, key, v)
    {
        if (!params_find(t, key)) {
            *bad_key = key;
            sim_error_set(err, "unknown parameter \"%s\" of block type %s", key, t->name);
            return NULL;
        }
    }
    void *state = platform_state_alloc(t);
    if (!state) {
        sim_error_set(err, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i <= t->nparams; i++) {
        const ParamDef *d = i < t->nparams ? &t->params[i] : params_buffer_def();
        if (!params_apply(state, d, json_object_get(in->params, d->key), pi, err)) {
            *bad_key = d->key;
            platform_state_free(t, state);
            return NULL;
        }
    }
    return state;
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
    for (size_t i = 0; i < d->ninst; i++) {
        const char *bad;
        void *state = platform_state_new(&d->inst[i], &d->info, &bad, err);
        if (!state) {
            char p[PLATFORM_PATH_MAX];
            platform_path(p, sizeof p, ld->paths[i], "params");
            if (bad) {
                json_pointer_push(p, sizeof p, bad);
            }
            return platform_fail_prefix(ld, p, err);
        }
        platform_state_free(d->inst[i].type, state);
    }
    return true;
}

bool platform_param_u64(const PlatformInstance *in, const PlatformInfo *pi,
                        const char *key, uint64_t *out, SimError *err)
{
    const ParamDef *d = params_find(in->type, key);
    if (!d || d->type != PT_U64 || d == params_buffer_def()) {
        return sim_error_set(err,
                             "block type %s: port count parameter \"%s\" is not a u64 "
                             "parameter",
                             in->type->name, key);
    }
    void *state = platform_state_alloc(in->type);
    if (!state) {
        return sim_error_set(err, "out of memory");
    }
    bool ok = params_apply(state, d, json_object_get(in->params, key), pi, err);
    if (ok) {
        *out = *(const uint64_t *)((const char *)state + d->offset);
    }
    free(state);
    return ok;
}
