/* l1: the vector L1 cache of one CU with the DualOpt SCBU and bitmask MSHR (paper 000
 * sections 4.1-4.2, Table 1; SPEC.md 1.2, 1.3).
 *
 * Modelled: a set-associative cache (`size` 16 KiB, `ways` 4, `line` 64 B, LRU) with
 * functional data, write-through without write-allocate, invalidated completely on
 * kernel_begin; the SCBU registers [start, end) = this GPU's memory range; an MSHR of
 * `mshr` (32) entries with word masks (mshr.h); a mode register set by `mode`
 * transactions from the decision engine (port `decision`, dualopt_mode = mode as in
 * hw/dualopt/dualopt_mode.h); one `monitor` record per read or write on port
 * `monitor` until a mode arrives (dualopt_access bits in dualopt_monitor.h).
 * Not modelled: banks and tag/data array ports (any number of lookups per cycle), the
 * scalar L1, coherence beyond kernel_begin invalidation, replacement other than LRU.
 *
 * Reads of one whole aligned line (from the bgu, mask = words used):
 * - remote and mode coalesce: bypass (no lookup, no fill); the MSHR is searched with
 *   the request's mask and a new entry sends a fine-grained read (mask set) down;
 * - else lookup: a hit answers after `hit_latency` with the line; a miss searches the
 *   MSHR with the full mask and a new entry sends a whole-line read (mask 0) down,
 *   whose response fills the line and answers every waiting request.
 * A new MSHR entry's request is a new transaction (parent = the first request, dst =
 * the home GPU of the line).
 * Full MSHR: the head request waits in the port buffer (backpressure).
 *
 * Decisions:
 * - Writes update a present line's bytes (byte enables) and go down unchanged; the
 *   MSHR entries of that line lose their fill right (the fetched line may predate the
 *   write) and take no more waiters, so a later read of the line sends a new request
 *   down behind the write (else it would be answered with data older than a write
 *   this CU issued before it). Atomics drop the line and likewise bar fills.
 *   kernel_begin drops every line and bars every outstanding fill. All of these are
 *   passed down in order.
 * - Requests that are not one aligned whole line pass through uncached.
 * - An invalidate arriving from the memory side drops the line (counted) and ends
 *   here; other responses not matching an MSHR entry pass up to the CU.
 * - Monitor records: addr = line, mask = the request's mask (full for mask 0),
 *   dualopt_access = DUALOPT_MON_* bits; the hit bit is the lookup result (false
 *   when bypassed). Records stop once a mode has been declared (the engine decides
 *   once). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/dualopt/dualopt_mode.h"
#include "hw/dualopt/dualopt_monitor.h"
#include "hw/dualopt/scbu.h"
#include "hw/gpu/mshr.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"

#define L1_QUEUE_LIMIT 64

typedef struct L1Way {
    bool valid;
    uint64_t line;
    uint64_t used; /* LRU stamp */
} L1Way;

typedef struct L1 {
    Block base;
    uint64_t size, ways, line, nmshr;
    SimTime hit_latency;
    Port *cu, *mem, *monitor, *decision;
    Egress down, up, mon;
    uint64_t sets;
    L1Way *way;    /* sets * ways */
    uint8_t *data; /* sets * ways * line */
    uint64_t stamp;
    uint32_t full_mask;
    Scbu scbu;
    Mshr mshr;
    int mode;
    bool monitoring;
    bool stalled;
    uint64_t *reads, *writes, *hits, *misses, *remote, *bypassed, *merges, *stalls;
    uint64_t *fills, *dropped, *records, *mode_stat, *passed, *unbound;
} L1;

static const ParamDef l1_params[] = {
    {.key = "size",
     .offset = offsetof(L1, size),
     .type = PT_SIZE,
     .def = "16KiB",
     .min = 64,
     .max = (uint64_t)16 << 20,
     .doc = "capacity in bytes"},
    {.key = "ways",
     .offset = offsetof(L1, ways),
     .type = PT_U64,
     .def = "4",
     .min = 1,
     .max = 64,
     .doc = "associativity"},
    {.key = "line",
     .offset = offsetof(L1, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 4,
     .max = 128,
     .doc = "line size (power of two; one MSHR mask bit per 4-byte word)"},
    {.key = "mshr",
     .offset = offsetof(L1, nmshr),
     .type = PT_U64,
     .def = "32",
     .min = 1,
     .max = 4096,
     .doc = "MSHR entries"},
    {.key = "hit_latency",
     .offset = offsetof(L1, hit_latency),
     .type = PT_TIME,
     .def = "10ns",
     .doc = "time from request to response on a hit"},
};

static const PortDef l1_ports[] = {
    {.name = "cu",
     .required = true,
     .doc = "from the bgu: line requests in, responses out"},
    {.name = "mem", .required = true, .doc = "to the crossbar: misses and writes out"},
    {.name = "monitor",
     .required = false,
     .doc = "access records (monitor) to the decision engine"},
    {.name = "decision",
     .required = false,
     .doc = "mode declarations (mode) from the decision engine"},
};

static L1Way *l1_find(L1 *c, uint64_t line, size_t *slot)
{
    uint64_t set = (line / c->line) % c->sets;
    for (uint64_t w = 0; w < c->ways; w++) {
        L1Way *x = &c->way[set * c->ways + w];
        if (x->valid && x->line == line) {
            *slot = set * c->ways + w;
            return x;
        }
    }
    return NULL;
}

static void l1_fill(L1 *c, uint64_t line, const uint8_t *data)
{
    size_t slot;
    L1Way *x = l1_find(c, line, &slot);
    if (!x) {
        uint64_t set = (line / c->line) % c->sets;
        slot = set * c->ways;
        for (uint64_t w = 0; w < c->ways; w++) {
            L1Way *y = &c->way[set * c->ways + w];
            if (!y->valid) {
                slot = set * c->ways + w;
                break;
            }
            if (y->used < c->way[slot].used) {
                slot = set * c->ways + w;
            }
        }
        x = &c->way[slot];
    }
    x->valid = true;
    x->line = line;
    x->used = ++c->stamp;
    memcpy(c->data + slot * c->line, data, c->line);
    (*c->fills)++;
}

static void l1_drop(L1 *c, uint64_t line)
{
    size_t slot;
    L1Way *x = l1_find(c, line, &slot);
    if (x) {
        x->valid = false;
        (*c->dropped)++;
    }
}

static void l1_monitor(L1 *c, const Txn *t, bool remote, bool hit)
{
    if (!c->monitoring || !egress_bound(&c->mon)) {
        return;
    }
    Txn *m = txn_new_declared(c->base.sim, &dualopt_cmd_monitor, t->addr, 0);
    m->src = m->dst = (int16_t)(c->base.gpu >= 0 ? c->base.gpu : 0);
    m->unit = t->unit;
    m->mask = t->mask ? t->mask : c->full_mask;
    m->dualopt_access = (remote ? DUALOPT_MON_REMOTE : 0u) |
                        (hit ? DUALOPT_MON_HIT : 0u) |
                        (t->cmd == TXN_WRITE ? DUALOPT_MON_WRITE : 0u);
    (*c->records)++;
    egress_push(&c->mon, m, 0);
}

static bool l1_whole_line(const L1 *c, const Txn *t)
{
    return t->len == c->line && (t->addr & (c->line - 1)) == 0;
}

/* A read of a whole line; false if it must wait (MSHR full). Takes t on success. */
static bool l1_read(L1 *c, Txn *t)
{
    bool remote = scbu_is_remote(&c->scbu, t->addr);
    bool bypass = remote && c->mode == DUALOPT_MODE_COALESCE;
    size_t slot = 0;
    L1Way *x = bypass ? NULL : l1_find(c, t->addr, &slot);
    uint32_t want = bypass && t->mask ? t->mask : c->full_mask;
    int i = x ? -1 : mshr_match(&c->mshr, t->addr, want);
    if (!x && i < 0 && mshr_full(&c->mshr)) {
        if (!c->stalled) {
            (*c->stalls)++;
        }
        c->stalled = true;
        return false;
    }
    c->stalled = false;
    (void)port_take(c->cu);
    (*c->reads)++;
    *c->remote += remote;
    *c->bypassed += bypass;
    l1_monitor(c, t, remote, x != NULL);
    if (x) {
        (*c->hits)++;
        x->used = ++c->stamp;
        Txn *r = txn_new_response(c->base.sim, t);
        txn_set_data(r, c->data + slot * c->line);
        egress_push(&c->up, r, c->hit_latency);
        txn_unref(t);
        return true;
    }
    (*c->misses)++;
    if (i >= 0) {
        (*c->merges)++;
        mshr_wait(&c->mshr, i, t);
        return true;
    }
    Txn *d = txn_new(c->base.sim, TXN_READ, t->addr, (uint32_t)c->line);
    d->src = t->src;
    d->dst = (int16_t)block_home(&c->base, t->addr);
    d->unit = t->unit;
    d->mask = bypass ? want : 0;
    txn_set_parents(d, &t->id, 1);
    i = mshr_alloc(&c->mshr, t->addr, want, d->id);
    c->mshr.e[i].fill = !bypass;
    mshr_wait(&c->mshr, i, t);
    egress_push(&c->down, d, 0);
    return true;
}

static void l1_write(L1 *c, const Txn *t)
{
    (*c->writes)++;
    bool remote = scbu_is_remote(&c->scbu, t->addr);
    uint64_t line = t->addr & ~(c->line - 1);
    size_t slot;
    L1Way *x = l1_find(c, line, &slot);
    l1_monitor(c, t, remote, x != NULL);
    mshr_no_fill(&c->mshr, line, false);
    if (!x || !t->data || t->addr + t->len > line + c->line) {
        if (x) {
            l1_drop(c, line);
        }
        return;
    }
    uint8_t *d = c->data + slot * c->line + (t->addr - line);
    for (uint32_t k = 0; k < t->len; k++) {
        if (!t->be || t->be[k]) {
            d[k] = t->data[k];
        }
    }
}

/* Takes BGU requests while there is room. Runs again whenever a queue sent
 * something (drained, or a push outside this loop that sent: see l1_pass_up). */
static void l1_pump_in(L1 *c)
{
    Txn *t;
    while ((t = port_peek(c->cu)) != NULL && egress_len(&c->down) < L1_QUEUE_LIMIT) {
        if (t->cmd == TXN_READ && l1_whole_line(c, t)) {
            if (!l1_read(c, t)) {
                break;
            }
            continue;
        }
        if (t->cmd == TXN_WRITE) {
            l1_write(c, t);
        } else if (t->cmd == TXN_ATOMIC) {
            l1_drop(c, t->addr & ~(c->line - 1));
            mshr_no_fill(&c->mshr, t->addr & ~(c->line - 1), false);
        } else if (t->cmd == TXN_KERNEL_BEGIN) {
            for (uint64_t k = 0; k < c->sets * c->ways; k++) {
                if (c->way[k].valid) {
                    c->way[k].valid = false;
                    (*c->dropped)++;
                }
            }
            mshr_no_fill(&c->mshr, 0, true);
        }
        (*c->passed)++;
        egress_push(&c->down, port_take(c->cu), 0);
    }
}

/* Sends t up; room it made may let BGU requests in (as drained would). */
static void l1_pass_up(L1 *c, Txn *t)
{
    if (egress_push(&c->up, t, 0)) {
        l1_pump_in(c);
    }
}

static void l1_response(L1 *c, Txn *t)
{
    int i = mshr_find_id(&c->mshr, t->id);
    if (i < 0) {
        l1_pass_up(c, t);
        return;
    }
    MshrEntry *e = &c->mshr.e[i];
    bool whole = t->status == TXN_STATUS_OK && t->data && t->len == c->line;
    if (e->fill && whole) {
        l1_fill(c, e->line, t->data);
    }
    for (uint32_t k = 0; k < e->nwait; k++) {
        Txn *w = e->wait[k];
        Txn *r = txn_new_response(c->base.sim, w);
        r->status = t->status;
        if (t->data && t->len == r->len) {
            txn_set_data(r, t->data);
        }
        egress_push(&c->up, r, 0);
        txn_unref(w);
    }
    e->nwait = 0;
    mshr_release(&c->mshr, i);
    txn_unref(t);
}

static void l1_from_mem(L1 *c)
{
    Txn *t;
    while ((t = port_take(c->mem)) != NULL) {
        if (t->cmd == TXN_RESP) {
            l1_response(c, t);
            continue;
        }
        if (t->cmd == TXN_INVALIDATE) {
            l1_drop(c, t->addr & ~(c->line - 1));
            mshr_no_fill(&c->mshr, t->addr & ~(c->line - 1), false);
            txn_unref(t);
            continue;
        }
        l1_pass_up(c, t);
    }
    l1_pump_in(c);
}

static void l1_from_decision(L1 *c)
{
    Txn *t;
    while ((t = port_take(c->decision)) != NULL) {
        if (txn_is(t, &dualopt_cmd_mode) && t->dualopt_mode <= DUALOPT_MODE_CACHE) {
            c->mode = (int)t->dualopt_mode;
            c->monitoring = false;
            *c->mode_stat = t->dualopt_mode;
        }
        txn_unref(t);
    }
}

static void l1_drained(Block *b)
{
    l1_pump_in((L1 *)b);
}

static bool l1_realize(Block *b, SimError *err)
{
    L1 *c = (L1 *)b;
    if (!bits_is_pow2(c->line) || c->size % (c->line * c->ways) != 0) {
        return sim_error_set(err,
                             "%s: line must be a power of two and size a multiple of "
                             "line x ways",
                             b->name);
    }
    c->sets = c->size / (c->line * c->ways);
    c->full_mask = (uint32_t)((1ull << (c->line / 4)) - 1);
    c->scbu = scbu_make((uint32_t)(b->gpu >= 0 ? b->gpu : 0), b->plat->mem_bytes);
    c->cu = block_port(b, "cu", -1);
    c->mem = block_port(b, "mem", -1);
    c->monitor = block_port(b, "monitor", -1);
    c->decision = block_port(b, "decision", -1);
    c->way = calloc(c->sets * c->ways, sizeof *c->way);
    c->data = calloc(c->sets * c->ways, c->line);
    if (!c->way || !c->data || !mshr_init(&c->mshr, (uint32_t)c->nmshr)) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    EgressOpts opt = {.drained = l1_drained, .unbound = c->unbound};
    egress_init(&c->down, b, c->mem, &opt);
    egress_init(&c->up, b, c->cu, &opt);
    egress_init(&c->mon, b, c->monitor, &(EgressOpts){.unbound = c->unbound});
    return true;
}

static void l1_reset(Block *b)
{
    L1 *c = (L1 *)b;
    c->mode = DUALOPT_MODE_NONE;
    c->monitoring = true;
}

static void l1_on_recv(Block *b, Port *p)
{
    L1 *c = (L1 *)b;
    if (p == c->cu) {
        l1_pump_in(c);
    } else if (p == c->mem) {
        l1_from_mem(c);
    } else if (p == c->decision) {
        l1_from_decision(c);
    } else {
        txn_unref(port_take(p));
    }
}

static void l1_on_free(Block *b, Port *p)
{
    L1 *c = (L1 *)b;
    (void)egress_pump(p == c->cu ? &c->up : p == c->mem ? &c->down : &c->mon);
}

static void l1_finalize(Block *b)
{
    L1 *c = (L1 *)b;
    free(c->way);
    free(c->data);
    c->way = NULL;
    c->data = NULL;
    mshr_destroy(&c->mshr);
    egress_destroy(&c->down);
    egress_destroy(&c->up);
    egress_destroy(&c->mon);
}

static void l1_cost(Block *b, CostReport *r)
{
    L1 *c = (L1 *)b;
    cost_add_storage(r, b->name, "mshr masks", c->nmshr, c->line / 4,
                     "DualOpt word mask per MSHR entry");
    cost_add_storage(r, b->name, "scbu registers", 2, 64, "start and end address");
}

static const char *const l1_mode_names[] = {"none", "coalesce", "cache", NULL};

static const StatDef l1_stat_defs[] = {
    STAT(L1, reads, "reads", STAT_COUNTER, "", "whole-line reads from the bgu"),
    STAT(L1, writes, "writes", STAT_COUNTER, "", "writes (write-through)"),
    STAT(L1, hits, "hits", STAT_COUNTER, "", "reads that hit"),
    STAT(L1, misses, "misses", STAT_COUNTER, "", "reads that missed or bypassed"),
    STAT(L1, remote, "remote_reads", STAT_COUNTER, "",
         "reads of another GPU's memory (SCBU)"),
    STAT(L1, bypassed, "bypassed", STAT_COUNTER, "",
         "remote reads that skipped the cache"),
    STAT(L1, merges, "mshr_merges", STAT_COUNTER, "", "reads that hit an MSHR entry"),
    STAT(L1, stalls, "mshr_full_stalls", STAT_COUNTER, "",
         "times the full MSHR stalled input"),
    STAT(L1, fills, "fills", STAT_COUNTER, "", "lines written into the cache"),
    STAT(L1, dropped, "invalidated", STAT_COUNTER, "",
         "lines dropped (kernel_begin, atomics)"),
    STAT(L1, records, "monitor_records", STAT_COUNTER, "", "access records sent"),
    STAT(L1, mode_stat, "mode", STAT_ENUM, "",
         "mode in force at the end (0 none, 1 coalesce, 2 cache)",
         .choices = l1_mode_names),
    STAT(L1, passed, "passed", STAT_COUNTER, "",
         "other requests and controls passed down"),
    STAT(L1, unbound, "unbound_errors", STAT_COUNTER, "", "model error: sends to no peer",
         .is_error = true),
};

const BlockType l1_type = {
    .name = "l1",
    .doc = "vector L1 (write-through) with the DualOpt SCBU and bitmask MSHR",
    .size = sizeof(L1),
    .params = l1_params,
    .nparams = sizeof l1_params / sizeof l1_params[0],
    .ports = l1_ports,
    .nports = sizeof l1_ports / sizeof l1_ports[0],
    .stat_defs = l1_stat_defs,
    .nstat_defs = sizeof l1_stat_defs / sizeof l1_stat_defs[0],
    .realize = l1_realize,
    .reset = l1_reset,
    .on_recv = l1_on_recv,
    .on_free = l1_on_free,
    .finalize = l1_finalize,
    .cost = l1_cost,
};
