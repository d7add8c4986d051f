/* platform_build: blocks and connections from a flat description. Per instance, in
 * description order: allocate the state struct (zeroed), fill the Block fields,
 * apply every parameter (value or default) and "buffer", create the ports (table
 * order, arrays expanded, counts from their count parameter, buffer capacity =
 * block->buffer), realize. A block that fails on the way is released at once
 * without finalize. Then each type's `agree` check runs over its instances, each
 * instance's parameters in the description become those its realized block holds
 * (what realize resolved, e.g. a link's protocol preset, shows in dumps), the wires
 * are connected and required ports checked.
 * Errors start with the origin of the instance or wire at fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "params.h"
#include "platform_index.h"
#include "platform_priv.h"

/* Releases a block that never got through realize (no finalize). */
static void platform_block_discard(Block *b)
{
    for (size_t i = 0; i < b->nports; i++) {
        port_destroy(&b->ports[i]);
    }
    params_release(b, b->type->params, b->type->nparams);
    free(b->ports);
    free(b->name);
    free(b);
}

static bool platform_build_params(Block *b, const PlatformInstance *in,
                                  const PlatformInfo *pi, SimError *err)
{
    const BlockType *t = b->type;
    const char *key;
    json_t *v;
    char where[PLATFORM_PATH_MAX + 256];
    json_object_foreach(in->params, key, v) {
        if (!params_find(t, key)) {
            platform_path(where, sizeof where, in->origin, "params");
            json_pointer_push(where, sizeof where, key);
            sim_error_set(err, "unknown parameter \"%s\" of block type %s", key, t->name);
            return sim_error_prefix(err, where);
        }
    }
    for (size_t i = 0; i <= t->nparams; i++) {
        const ParamDef *d = i < t->nparams ? &t->params[i] : params_buffer_def();
        if (!params_apply(b, d, json_object_get(in->params, d->key), pi, err)) {
            platform_path(where, sizeof where, in->origin, "params");
            json_pointer_push(where, sizeof where, d->key);
            return sim_error_prefix(err, where);
        }
    }
    return true;
}

/* Number of ports created for port-table entry pd. */
static bool platform_port_count(const Block *b, const PortDef *pd, size_t *n,
                                SimError *err)
{
    *n = 1;
    if (!pd->count_param) {
        return true;
    }
    const ParamDef *d = params_find(b->type, pd->count_param);
    if (!d || d->type != PT_U64 || d == params_buffer_def()) {
        return sim_error_set(err,
                             "block type %s: port count parameter \"%s\" is not a u64 "
                             "parameter",
                             b->type->name, pd->count_param);
    }
    *n = (size_t) * (const uint64_t *)((const char *)b + d->offset);
    return true;
}

static bool platform_build_ports(Block *b, SimError *err)
{
    const BlockType *t = b->type;
    size_t total = 0;
    for (size_t i = 0; i < t->nports; i++) {
        size_t n;
        if (!platform_port_count(b, &t->ports[i], &n, err)) {
            return false;
        }
        total += n;
    }
    b->ports = total ? calloc(total, sizeof *b->ports) : NULL;
    if (total && !b->ports) {
        return sim_error_set(err, "out of memory");
    }
    for (size_t i = 0; i < t->nports; i++) {
        const PortDef *pd = &t->ports[i];
        size_t n;
        platform_port_count(b, pd, &n, err);
        for (size_t k = 0; k < n; k++) {
            char name[512];
            if (pd->count_param) {
                snprintf(name, sizeof name, "%s.%s[%zu]", b->name, pd->name, k);
            } else {
                snprintf(name, sizeof name, "%s.%s", b->name, pd->name);
            }
            if (!port_init(&b->ports[b->nports], b, (uint32_t)b->nports, name,
                           b->buffer)) {
                return sim_error_set(err, "out of memory");
            }
            b->ports[b->nports].bounded_answers = pd->bounded_answers;
            b->nports++;
        }
    }
    return true;
}

/* Creates and realizes the block of instance in on kernel sim (NULL on failure,
 * nothing kept). */
static Block *platform_build_block(Platform *p, const PlatformInstance *in, Sim *sim,
                                   SimError *err)
{
    const BlockType *t = in->type;
    Block *b = calloc(1, t->size < sizeof(Block) ? sizeof(Block) : t->size);
    if (!b || !(b->name = strdup(in->name))) {
        free(b);
        sim_error_set(err, "out of memory");
        sim_error_prefix(err, in->origin);
        return NULL;
    }
    b->type = t;
    b->sim = sim;
    b->plat = &p->desc.info;
    b->stats = p->stats;
    b->gpu = in->gpu;
    b->index = in->index;
    if (!platform_build_params(b, in, &p->desc.info, err)) {
        platform_block_discard(b);
        return NULL;
    }
    if (!platform_build_ports(b, err) || !block_realize(b, err)) {
        sim_error_prefix(err, in->origin);
        platform_block_discard(b);
        return NULL;
    }
    return b;
}

/* The port called full, or NULL with err naming what is missing. */
static Port *platform_build_find_port(const Platform *p, const char *full, SimError *err)
{
    char inst[512], port[512];
    int k;
    if (!platform_name_split_port(full, inst, port, sizeof inst, &k)) {
        sim_error_set(err, "\"%s\" is not a port name (<instance>.<port>)", full);
        return NULL;
    }
    Block *b = platform_block(p, inst);
    if (!b) {
        sim_error_set(err, "no instance %s (port %s)", inst, full);
        return NULL;
    }
    Port *pt = block_port(b, port, k);
    if (!pt) {
        sim_error_set(err, "unknown port %s (block type %s)", full, b->type->name);
    }
    return pt;
}

static bool platform_build_wire(Platform *p, const PlatformWire *w, SimError *err)
{
    Port *a = platform_build_find_port(p, w->a, err);
    Port *b = a ? platform_build_find_port(p, w->b, err) : NULL;
    if (!a || !b) {
        return sim_error_prefix(err, w->origin);
    }
    if (a == b) {
        sim_error_set(err, "wire joins port %s to itself", w->a);
        return sim_error_prefix(err, w->origin);
    }
    Port *ends[2] = {a, b};
    for (int e = 0; e < 2; e++) {
        const Port *x = ends[e];
        if (x->peer) {
            const PlatformWire *first = platform_desc_wire_of(&p->desc, x->name);
            sim_error_set(err, "port %s is already connected to %s (%s)", x->name,
                          x->peer->name, first ? first->origin : "?");
            return sim_error_prefix(err, w->origin);
        }
    }
    if (!port_connect(a, b, w->latency, err)) {
        return sim_error_prefix(err, w->origin);
    }
    return true;
}

/* Fails on the first unbound port whose table entry is required. */
static bool platform_build_required(const Platform *p, SimError *err)
{
    for (size_t i = 0; i < p->nblocks; i++) {
        const Block *b = p->blocks[i];
        for (size_t j = 0; j < b->nports; j++) {
            const Port *pt = &b->ports[j];
            const char *local = pt->name + strlen(b->name) + 1;
            size_t len = strcspn(local, "[");
            for (size_t d = 0; !pt->peer && d < b->type->nports; d++) {
                const PortDef *pd = &b->type->ports[d];
                if (pd->required && strlen(pd->name) == len &&
                    strncmp(pd->name, local, len) == 0) {
                    sim_error_set(err, "port %s is not connected", pt->name);
                    return sim_error_prefix(err, p->desc.inst[i].origin);
                }
            }
        }
    }
    return true;
}

/* Runs BlockType.agree once per type that has one, over that type's instances. */
static bool platform_build_agree(const Platform *p, SimError *err)
{
    Block **same = calloc(p->nblocks ? p->nblocks : 1, sizeof *same);
    size_t *where = calloc(p->nblocks ? p->nblocks : 1, sizeof *where);
    bool ok = same && where;
    if (!ok) {
        sim_error_set(err, "out of memory");
    }
    for (size_t i = 0; ok && i < p->nblocks; i++) {
        const BlockType *t = p->blocks[i]->type;
        bool first = t->agree != NULL;
        for (size_t j = 0; j < i && first; j++) {
            first = p->blocks[j]->type != t;
        }
        if (!first) {
            continue;
        }
        size_t n = 0;
        for (size_t j = i; j < p->nblocks; j++) {
            if (p->blocks[j]->type == t) {
                where[n] = j;
                same[n++] = p->blocks[j];
            }
        }
        size_t bad = 0;
        if (!t->agree(same, n, &bad, err)) {
            sim_error_prefix(err, p->desc.inst[where[bad < n ? bad : 0]].origin);
            ok = false;
        }
    }
    free(same);
    free(where);
    return ok;
}

/* Records in the description each instance's parameters as its realized block holds
 * them, so that a dump shows the effective platform (a link's preset resolved). */
static bool platform_build_record(Platform *p, SimError *err)
{
    for (size_t i = 0; i < p->desc.ninst; i++) {
        PlatformInstance *in = &p->desc.inst[i];
        json_t *params = platform_dump_state(in->type, p->blocks[i]);
        if (!params) {
            return sim_error_set(err, "out of memory");
        }
        json_decref(in->params);
        in->params = params;
    }
    return true;
}

/* Cuts every wire whose ends are in different partitions of pp. */
static void platform_build_cut(Platform *p, Engine *e, const PlatformPartition *pp)
{
    for (size_t i = 0; i < p->desc.nwires; i++) {
        Port *a = platform_port(p, p->desc.wires[i].a);
        Port *b = platform_port(p, p->desc.wires[i].b);
        size_t ia, ib;
        platform_index_get(p->index, a->owner->name, &ia);
        platform_index_get(p->index, b->owner->name, &ib);
        if (pp->of[ia] != pp->of[ib]) {
            engine_cut(e, a, pp->of[ia], b, pp->of[ib]);
        }
    }
}

/* platform_build with one kernel (e NULL: sim) or the kernels of e (pp's map). */
static Platform *platform_build_on(PlatformDesc *desc, Sim *sim, Engine *e,
                                   const PlatformPartition *pp, SimError *err)
{
    Platform *p = calloc(1, sizeof *p);
    if (!p) {
        platform_desc_free(desc);
        sim_error_set(err, "out of memory");
        return NULL;
    }
    p->desc = *desc;
    memset(desc, 0, sizeof *desc);
    p->desc.info.cmds = p->desc.registry ? registry_cmds(p->desc.registry) : NULL;
    p->sim = e ? engine_sim(e, 0) : sim;
    p->engine = e;
    p->stats = stats_new();
    p->index = platform_index_new();
    p->blocks = calloc(p->desc.ninst ? p->desc.ninst : 1, sizeof *p->blocks);
    if (!p->stats || !p->index || !p->blocks) {
        sim_error_set(err, "out of memory");
        platform_free(p);
        return NULL;
    }
    for (size_t i = 0; i < p->desc.ninst; i++) {
        Sim *on = e ? engine_sim(e, pp->of[i]) : sim;
        Block *b = platform_build_block(p, &p->desc.inst[i], on, err);
        if (!b) {
            platform_free(p);
            return NULL;
        }
        p->blocks[p->nblocks++] = b;
        if (!platform_index_put(p->index, b->name, i)) {
            sim_error_set(err, "out of memory");
            platform_free(p);
            return NULL;
        }
    }
    if (!platform_build_agree(p, err) || !platform_build_record(p, err)) {
        platform_free(p);
        return NULL;
    }
    for (size_t i = 0; i < p->desc.nwires; i++) {
        if (!platform_build_wire(p, &p->desc.wires[i], err)) {
            platform_free(p);
            return NULL;
        }
    }
    if (!platform_build_required(p, err)) {
        platform_free(p);
        return NULL;
    }
    if (e) {
        platform_build_cut(p, e, pp);
    }
    return p;
}

Platform *platform_build(PlatformDesc *desc, Sim *sim, SimError *err)
{
    return platform_build_on(desc, sim, NULL, NULL, err);
}

Platform *platform_build_engine(PlatformDesc *desc, Engine *e,
                                const PlatformPartition *pp, SimError *err)
{
    return platform_build_on(desc, NULL, e, pp, err);
}

SimTime platform_now(const Platform *p)
{
    return p->engine ? engine_now(p->engine) : sim_now(p->sim);
}

uint64_t platform_events(const Platform *p)
{
    return p->engine ? engine_events(p->engine) : sim_events_executed(p->sim);
}

void platform_free(Platform *p)
{
    if (!p) {
        return;
    }
    for (size_t i = 0; i < p->nblocks; i++) {
        if (p->blocks[i]->type->finalize) {
            p->blocks[i]->type->finalize(p->blocks[i]);
        }
    }
    for (size_t i = 0; i < p->nblocks; i++) {
        platform_block_discard(p->blocks[i]);
    }
    free(p->blocks);
    platform_index_free(p->index);
    stats_free(p->stats);
    platform_desc_free(&p->desc);
    free(p);
}
