/* Scratch state structs: an instance's parameters applied to a zeroed state struct
 * of its type exactly as the builder will apply them, so that the loader can check
 * values, print canonical ones (--dump) and read port counts before anything is
 * built. */
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "platform_priv.h"

void *platform_state_alloc(const BlockType *t)
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
    json_object_foreach(in->params, key, v) {
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

/* The value of parameter d of in (default when in does not set it), as its state
 * field holds it: size bytes (a uint64_t for PT_U64 and the unit types, in base
 * units; a bool for PT_BOOL) copied to out. */
static bool state_read(const PlatformInstance *in, const PlatformInfo *pi,
                       const ParamDef *d, void *out, size_t size, SimError *err)
{
    void *state = platform_state_alloc(in->type);
    if (!state) {
        return sim_error_set(err, "out of memory");
    }
    bool ok = params_apply(state, d, json_object_get(in->params, d->key), pi, err);
    if (ok) {
        memcpy(out, (const char *)state + d->offset, size);
    }
    free(state);
    return ok;
}

bool platform_state_u64(const PlatformInstance *in, const PlatformInfo *pi,
                        const char *key, uint64_t *out, SimError *err)
{
    const ParamDef *d = params_find(in->type, key);
    if (!d || d->type != PT_U64 || d == params_buffer_def()) {
        return sim_error_set(err,
                             "block type %s: port count parameter \"%s\" is not a u64 "
                             "parameter",
                             in->type->name, key);
    }
    return state_read(in, pi, d, out, sizeof *out, err);
}

bool platform_state_size(const PlatformInstance *in, const PlatformInfo *pi,
                         const char *key, bool *has, uint64_t *out, SimError *err)
{
    const ParamDef *d = params_find(in->type, key);
    *has = d && d->type == PT_SIZE;
    return !*has || state_read(in, pi, d, out, sizeof *out, err);
}

bool platform_state_bool(const PlatformInstance *in, const PlatformInfo *pi,
                         const char *key, bool *out, SimError *err)
{
    const ParamDef *d = params_find(in->type, key);
    *out = false;
    return !d || d->type != PT_BOOL || state_read(in, pi, d, out, sizeof *out, err);
}
