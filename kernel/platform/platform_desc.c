/* The flat platform description: growing the instance and wire arrays, name lookups
 * through the name index (and of a block type's port), removing a wire, and freeing. */
#include <stdlib.h>
#include <string.h>

#include "kernel/registry.h"
#include "kernel/xalloc.h"
#include "platform_index.h"
#include "platform_priv.h"

PlatformInstance *platform_desc_find(const PlatformDesc *d, const char *name)
{
    size_t pos;
    return platform_index_get(d->index, name, &pos) ? &d->inst[pos] : NULL;
}

const PortDef *platform_type_port(const BlockType *t, const char *name)
{
    for (size_t i = 0; i < t->nports; i++) {
        if (strcmp(t->ports[i].name, name) == 0) {
            return &t->ports[i];
        }
    }
    return NULL;
}

bool platform_desc_add_instance(PlatformDesc *d, const char *name, const char *type,
                                int gpu, json_t *params, const char *origin,
                                SimError *err)
{
    if (!platform_name_valid(name)) {
        return sim_error_set(err, "invalid instance name \"%s\"", name);
    }
    if (platform_desc_find(d, name)) {
        return sim_error_set(err, "duplicate instance name %s", name);
    }
    const BlockType *t = registry_find(d->registry, type);
    if (!t) {
        return sim_error_set(err, "unknown block type \"%s\" (see mgtlm blocks)", type);
    }
    if (!d->index && !(d->index = platform_index_new())) {
        return sim_error_set(err, "out of memory");
    }
    d->inst = xgrow(d->inst, &d->inst_cap, d->ninst + 1, sizeof *d->inst, 16);
    PlatformInstance *in = &d->inst[d->ninst];
    in->name = strdup(name);
    in->origin = strdup(origin);
    in->params = params ? json_incref(params) : json_object();
    if (!in->name || !in->origin || !in->params ||
        !platform_index_put(d->index, in->name, d->ninst)) {
        free(in->name);
        free(in->origin);
        json_decref(in->params);
        return sim_error_set(err, "out of memory");
    }
    in->type = t;
    in->gpu = gpu;
    in->index = platform_name_index(name);
    d->ninst++;
    return true;
}

bool platform_desc_add_wire(PlatformDesc *d, const char *a, const char *b,
                            SimTime latency, const char *origin, SimError *err)
{
    d->wires = xgrow(d->wires, &d->wire_cap, d->nwires + 1, sizeof *d->wires, 16);
    PlatformWire *w = &d->wires[d->nwires];
    w->a = strdup(a);
    w->b = strdup(b);
    w->origin = strdup(origin);
    w->latency = latency;
    if (!w->a || !w->b || !w->origin) {
        free(w->a);
        free(w->b);
        free(w->origin);
        return sim_error_set(err, "out of memory");
    }
    d->nwires++;
    return true;
}

PlatformWire *platform_desc_wire_of(const PlatformDesc *d, const char *port)
{
    for (size_t i = 0; i < d->nwires; i++) {
        if (strcmp(d->wires[i].a, port) == 0 || strcmp(d->wires[i].b, port) == 0) {
            return &d->wires[i];
        }
    }
    return NULL;
}

bool platform_desc_unwire(PlatformDesc *d, const char *port)
{
    PlatformWire *w = platform_desc_wire_of(d, port);
    if (!w) {
        return false;
    }
    free(w->a);
    free(w->b);
    free(w->origin);
    size_t i = (size_t)(w - d->wires);
    memmove(w, w + 1, (d->nwires - i - 1) * sizeof *w);
    d->nwires--;
    return true;
}

void platform_desc_free(PlatformDesc *d)
{
    for (size_t i = 0; i < d->ninst; i++) {
        free(d->inst[i].name);
        free(d->inst[i].origin);
        json_decref(d->inst[i].params);
    }
    for (size_t i = 0; i < d->nwires; i++) {
        free(d->wires[i].a);
        free(d->wires[i].b);
        free(d->wires[i].origin);
    }
    free(d->inst);
    free(d->wires);
    free(d->file);
    free(d->name);
    free(d->trace);
    json_decref(d->partitions);
    free(d->partitions_origin);
    platform_index_free(d->index);
    const Registry *r = d->registry;
    memset(d, 0, sizeof *d);
    d->registry = r;
}
