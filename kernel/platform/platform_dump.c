/* platform_dump: the flat form with every parameter of every instance (value or
 * default) in canonical form, in the type's table order followed by "buffer"; the
 * trace folder only when the run has one (so cu dumps are as before).
 * Loading a dump and dumping it again gives the same bytes. A built platform's
 * description holds the parameters as the realized blocks hold them
 * (platform_build.c), so its dump shows what realize resolved (a link's protocol
 * preset). */
#include <stdlib.h>

#include "kernel/units.h"
#include "params.h"
#include "platform_priv.h"

/* {"p": canonical value, ...} for one instance; the params as given if they do not
 * apply (possible only for a description that was never checked). New reference. */
json_t *platform_dump_state(const BlockType *t, const void *state)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i <= t->nparams; i++) {
        const ParamDef *d = i < t->nparams ? &t->params[i] : params_buffer_def();
        json_object_set_new(o, d->key, params_to_json(state, d));
    }
    return o;
}

static json_t *platform_dump_params(const PlatformInstance *in, const PlatformInfo *pi)
{
    const char *bad;
    void *state = platform_state_new(in, pi, &bad, NULL);
    if (!state) {
        return json_deep_copy(in->params);
    }
    json_t *o = platform_dump_state(in->type, state);
    platform_state_free(in->type, state);
    return o;
}

static json_t *platform_dump_instance(const PlatformInstance *in, const PlatformInfo *pi)
{
    return json_pack("{s:s, s:s, s:i, s:i, s:o}", "name", in->name, "type",
                     in->type->name, "gpu", in->gpu, "index", in->index, "params",
                     platform_dump_params(in, pi));
}

json_t *platform_dump(const PlatformDesc *d)
{
    char mem[UNITS_BUF], clock[UNITS_BUF];
    json_t *inst = json_array(), *wires = json_array();
    for (size_t i = 0; inst && i < d->ninst; i++) {
        json_array_append_new(inst, platform_dump_instance(&d->inst[i], &d->info));
    }
    for (size_t i = 0; wires && i < d->nwires; i++) {
        char lat[UNITS_BUF];
        json_array_append_new(
            wires, json_pack("{s:s, s:s, s:s}", "a", d->wires[i].a, "b", d->wires[i].b,
                             "latency", units_format_time(d->wires[i].latency, lat)));
    }
    json_t *flat = json_pack(
        "{s:s, s:s, s:i, s:s, s:s, s:I}", "format", PLATFORM_FLAT_FORMAT, "name",
        d->name ? d->name : "", "gpus", (int)d->info.gpus, "mem_bytes",
        units_format_size(d->info.mem_bytes, mem), "clock",
        units_format_freq(d->info.clock ? 1000000000000ULL / d->info.clock : 0, clock),
        "seed", (json_int_t)d->info.seed);
    if (flat && d->info.trace) {
        json_object_set_new(flat, "trace", json_string(d->info.trace));
    }
    if (flat) {
        json_object_set_new(flat, "instances", inst);
        json_object_set_new(flat, "wires", wires);
        if (d->partitions) {
            json_object_set_new(flat, "partitions", json_deep_copy(d->partitions));
        }
    } else {
        json_decref(inst);
        json_decref(wires);
    }
    return flat;
}
