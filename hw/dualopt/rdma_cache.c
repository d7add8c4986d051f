/* rdma_cache: DualOpt's RDMA cache, RDMA$ (paper 000 section 4.2 and 4.4, SPEC.md
 * 1.5). It sits before the RDMA engine, between xbar.remote (port `gpu`) and
 * rdma.gpu (port `net`), holds remote data only and filters remote requests that
 * missed the L1.
 *
 * Modelled: a set-associative array (`size`, `ways`, `line`, LRU; rcache_store.h)
 * with per-byte valid and dirty masks; read hits answered here; read misses
 * forwarded unchanged (same id) and filled from their responses; writes absorbed
 * (write-back, write-allocate without fetch) and acknowledged here; eviction and
 * flush write-backs as writes with byte enables to the home GPU; release/kernel_end
 * write back every dirty byte, invalidate every line and are forwarded once every
 * write-back has been acknowledged.
 * Not modelled: tag/data array ports and banks (unbounded lookups per cycle), MSHR
 * merging of misses to one line (the L1's MSHR does that).
 *
 * Timing (exact): every transaction this block sends arrives at the peer `latency`
 * after it was taken (or created), if the peer has a free slot then; otherwise it
 * waits in an in-order queue per output and leaves `latency` after the peer accepts.
 * The input is taken on arrival while each output queue holds fewer than `buffer`
 * transactions (else backpressure). Example (latency 5 ns, driver and sink wires 0):
 * a read hit arriving at t is answered at t + 5 ns; a miss reaches rdma at t + 5 ns,
 * its response arriving at u reaches the xbar at u + 5 ns.
 *
 * Decisions:
 * - Cacheable: reads with mask 0 and writes, for an address whose home is not this
 *   GPU, with bytes [addr, addr + len) inside one line. A read with a mask is
 *   fine-grained (SPEC 1.4: its response carries only the masked words). Atomics,
 *   fine-grained reads and accesses crossing a line are forwarded after the lines
 *   they touch are evicted (dirty bytes written back first; the path to a home GPU
 *   is in order, so the write-back lands before the access).
 * - Read hit = every byte of the read is valid. Otherwise (no line, or only some
 *   bytes valid) it is a miss: the read is forwarded and recorded with a copy of the
 *   line's dirty bytes; its response gets those dirty bytes laid over the home's
 *   data (a GPU sees its own earlier writes), and fills the line: bytes not dirty
 *   now take the response's value, the read's bytes become valid (allocating the
 *   line, LRU victim written back if dirty). Unwritten or stale bytes are never
 *   returned: a valid byte is either written here or came from the home after the
 *   last invalidate.
 * - A response whose read was forwarded before an invalidate-all (or while the cache
 *   was disabled) is merged but fills nothing; an error response fills nothing.
 * - Writes: the enabled bytes become valid and dirty (a write without data writes
 *   zeros, like the memory); a non-posted write is answered here (status ok).
 * - Write-backs are non-posted writes (fresh ids, src = this GPU, unit -1, be = the
 *   dirty bytes, data = the dirty bytes and zeros); their acks end here (a non-ok
 *   ack is counted in the model-error counter writeback_errors). A release/kernel_end
 *   waits for every outstanding write-back ack before it is forwarded (fence);
 *   meanwhile the coherence traffic from the `gpu` input passes: responses, the
 *   invalidates this GPU's directory sends to sharers and the inv_acks an L2 above
 *   this cache returns for invalidates (dir_cmds.h). Fences here and at other GPUs
 *   may wait for them (a write-back completes only when its home's directory has
 *   the acks of the invalidates it caused), so holding them would deadlock. Other
 *   transactions are kept in order and handled after the fence.
 * - kernel_begin drops every clean byte (dirty bytes stay), makes reads in flight
 *   fill nothing, and is forwarded. Lines filled after this GPU's kernel_end (the
 *   sm's flush reads, sm_ctl.c) may hold a home's bytes from before another GPU's
 *   write-back of the same kernel: GPUs flush independently, only the next launch
 *   waits for all of them. The dirty bytes are this GPU's own writes since its last
 *   flush and stay right.
 * - Invalidate from the network: the clean bytes of the lines it covers are dropped
 *   (dirty bytes stay), and it is forwarded.
 * - Mode: `enabled` is the initial state; a transaction on the optional port `mode`
 *   sets enabled = (dualopt_mode == DUALOPT_MODE_CACHE) (dualopt_mode.h) and is released.
 *   Disabling writes back and invalidates everything; while disabled every
 *   transaction passes through (responses of recorded reads are still merged).
 * - Write-backs of one flush go out in set-major, way-minor order.
 * - An egress request reusing the id of a recorded one is counted in the model-error
 *   counter id_errors and forwarded unrecorded. */
#include <stddef.h>
#include <string.h>

#include "hw/coherence/dir_cmds.h"
#include "hw/dualopt/dualopt_mode.h"
#include "hw/dualopt/rcache_pending.h"
#include "hw/dualopt/rcache_store.h"
#include "hw/lib/addr.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/txn_fifo.h"

typedef struct RCache {
    Block base;
    bool enabled;
    uint64_t size, ways, line;
    SimTime latency;
    Port *gpu, *net, *mode;
    RcStore store;
    RcPending pending;
    Egress q_net, q_gpu; /* out of `net` / `gpu`, after latency */
    TxnFifo deferred;    /* egress requests waiting behind the fence */
    Txn *fence;          /* release/kernel_end waiting for write-back acks */
    uint64_t wb_wait;    /* write-backs not acknowledged yet */
    uint64_t epoch;      /* invalidate-all count */
    uint64_t *hits, *misses, *partial, *writes, *fills, *evictions, *writebacks;
    uint64_t *wb_bytes, *wb_acks, *flushes, *invalidated, *uncacheable, *passed;
    uint64_t *inval_in, *mode_changes, *wb_errors, *id_errors;
    double *hit_rate;
} RCache;

static const ParamDef rc_params[] = {
    {.key = "enabled",
     .offset = offsetof(RCache, enabled),
     .type = PT_BOOL,
     .def = "true",
     .doc = "cache at start (a transaction on `mode` switches it)"},
    {.key = "size",
     .offset = offsetof(RCache, size),
     .type = PT_SIZE,
     .def = "1.5MiB",
     .min = 64,
     .max = (uint64_t)256 << 20,
     .doc = "capacity in bytes (a multiple of ways x line)"},
    {.key = "ways",
     .offset = offsetof(RCache, ways),
     .type = PT_U64,
     .def = "16",
     .min = 1,
     .max = 1024,
     .doc = "associativity"},
    {.key = "line",
     .offset = offsetof(RCache, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 1,
     .max = RC_MAX_LINE,
     .doc = "line size in bytes (a power of two)"},
    {.key = "latency",
     .offset = offsetof(RCache, latency),
     .type = PT_TIME,
     .def = "5ns",
     .doc = "added to every transaction sent (lookup, hit answer, forwarding)"},
};

static const PortDef rc_ports[] = {
    {.name = "gpu", .required = true, .doc = "GPU side (xbar.remote)"},
    {.name = "net", .required = true, .doc = "RDMA engine side (rdma.gpu)"},
    {.name = "mode", .doc = "mode transactions from the decision engine (dualopt_mode)"},
};

static void rc_drain(RCache *c)
{
    (void)egress_pump(&c->q_net);
    (void)egress_pump(&c->q_gpu);
}

/* Sends the dirty bytes of ln to their home as a write (recorded, acked later). */
static void rc_writeback(RCache *c, RcLine *ln)
{
    if (ln->dirty == 0) {
        return;
    }
    Txn *w = txn_new(c->base.sim, TXN_WRITE, ln->addr, c->store.line);
    uint8_t *data = txn_set_data(w, NULL);
    uint8_t *be = txn_alloc_be(w);
    const uint8_t *d = rc_data(&c->store, ln);
    for (uint32_t i = 0; i < c->store.line; i++) {
        if (ln->dirty >> i & 1u) {
            be[i] = 0xff;
            data[i] = d[i];
        }
    }
    w->src = (int16_t)c->base.gpu;
    w->dst = (int16_t)block_home(&c->base, ln->addr);
    RcPend *p = rc_pending_add(&c->pending, w->id);
    p->kind = RC_WRITEBACK;
    c->wb_wait++;
    (*c->writebacks)++;
    *c->wb_bytes += bits_popcount64(ln->dirty);
    ln->dirty = 0;
    egress_add(&c->q_net, w, 0);
}

/* Writes back and frees ln. */
static void rc_evict(RCache *c, RcLine *ln)
{
    rc_writeback(c, ln);
    ln->valid = 0;
}

/* A line for la, allocated over the set's victim (borrowed). */
static RcLine *rc_alloc(RCache *c, uint64_t la)
{
    RcLine *ln = rc_victim(&c->store, la);
    if (ln->valid != 0) {
        (*c->evictions)++;
        rc_evict(c, ln);
    }
    ln->addr = la;
    ln->valid = 0;
    ln->dirty = 0;
    return ln;
}

static void rc_flush(RCache *c)
{
    uint64_t n = (uint64_t)c->store.sets * c->store.ways;
    for (uint64_t i = 0; i < n; i++) {
        RcLine *ln = rc_line_at(&c->store, i);
        if (ln->valid != 0) {
            rc_evict(c, ln);
            (*c->invalidated)++;
        }
    }
    c->epoch++;
    (*c->flushes)++;
}

/* kernel_begin: drops every clean byte (dirty bytes stay, to be written back at the
 * kernel's end) and makes reads in flight fill nothing. */
static void rc_drop_clean(RCache *c)
{
    uint64_t n = (uint64_t)c->store.sets * c->store.ways;
    for (uint64_t i = 0; i < n; i++) {
        RcLine *ln = rc_line_at(&c->store, i);
        ln->valid = ln->dirty;
    }
    c->epoch++;
}

/* Evicts the lines [addr, addr + len) touches (before an uncacheable access). */
static void rc_evict_range(RCache *c, uint64_t addr, uint32_t len)
{
    uint64_t first = rc_line_addr(&c->store, addr);
    uint64_t last = rc_line_addr(&c->store, len ? addr + len - 1 : addr);
    for (uint64_t la = first; la <= last && la >= first; la += c->store.line) {
        RcLine *ln = rc_lookup(&c->store, la);
        if (ln != NULL) {
            rc_evict(c, ln);
        }
    }
}

static void rc_read(RCache *c, Txn *t)
{
    uint64_t la = rc_line_addr(&c->store, t->addr);
    uint32_t off = (uint32_t)(t->addr - la);
    uint64_t need = rc_byte_mask(&c->store, t->addr, t->len);
    RcLine *ln = rc_lookup(&c->store, la);
    if (ln != NULL && (ln->valid & need) == need) {
        Txn *r = txn_new_response(c->base.sim, t);
        txn_set_data(r, rc_data(&c->store, ln) + off);
        rc_touch(&c->store, ln);
        (*c->hits)++;
        egress_add(&c->q_gpu, r, 0);
        txn_unref(t);
        return;
    }
    (*c->misses)++;
    if (ln != NULL) {
        (*c->partial)++;
    }
    RcPend *p = rc_pending_add(&c->pending, t->id);
    if (p == NULL) {
        (*c->id_errors)++;
    } else {
        p->kind = RC_READ;
        p->fill = true;
        p->epoch = c->epoch;
        if (ln != NULL) {
            p->snap = ln->dirty;
            memcpy(p->snap_data, rc_data(&c->store, ln), c->store.line);
        }
    }
    egress_add(&c->q_net, t, 0);
}

static void rc_write(RCache *c, Txn *t)
{
    uint64_t la = rc_line_addr(&c->store, t->addr);
    uint32_t off = (uint32_t)(t->addr - la);
    RcLine *ln = rc_lookup(&c->store, la);
    if (ln == NULL) {
        ln = rc_alloc(c, la);
    }
    uint8_t *d = rc_data(&c->store, ln);
    for (uint32_t i = 0; i < t->len; i++) {
        if (t->be == NULL || t->be[i] != 0) {
            d[off + i] = t->data ? t->data[i] : 0;
            ln->valid |= (uint64_t)1 << (off + i);
            ln->dirty |= (uint64_t)1 << (off + i);
        }
    }
    rc_touch(&c->store, ln);
    (*c->writes)++;
    if (!t->posted) {
        egress_add(&c->q_gpu, txn_new_response(c->base.sim, t), 0);
    }
    txn_unref(t);
}

static bool rc_is_fence(const Txn *t)
{
    return t->cmd == TXN_RELEASE || t->cmd == TXN_KERNEL_END;
}

/* Handles the egress transaction t (reference moves in). */
static void rc_egress_one(RCache *c, Txn *t)
{
    if (rc_is_fence(t)) {
        rc_flush(c);
        if (c->wb_wait > 0) {
            c->fence = t;
        } else {
            egress_add(&c->q_net, t, 0);
        }
        return;
    }
    if (t->cmd == TXN_KERNEL_BEGIN) {
        rc_drop_clean(c);
    }
    bool access = t->cmd == TXN_READ || t->cmd == TXN_WRITE || t->cmd == TXN_ATOMIC;
    if (!c->enabled || !access || block_home(&c->base, t->addr) == c->base.gpu) {
        (*c->passed)++;
        egress_add(&c->q_net, t, 0);
        return;
    }
    bool one_line = t->len > 0 && rc_line_addr(&c->store, t->addr) ==
                                      rc_line_addr(&c->store, t->addr + t->len - 1);
    if (one_line && t->cmd == TXN_READ && t->mask == 0) {
        rc_read(c, t);
    } else if (one_line && t->cmd == TXN_WRITE) {
        rc_write(c, t);
    } else {
        rc_evict_range(c, t->addr, t->len);
        (*c->uncacheable)++;
        egress_add(&c->q_net, t, 0);
    }
}

/* True for coherence traffic a fence must not hold: responses, invalidates and
 * inv_acks (fences here and at other GPUs may wait for them). */
static bool rc_passes_fence(const Txn *t)
{
    return txn_always_accepted(t) || txn_is(t, &dir_cmd_inv_ack);
}

/* Takes the egress input while both output queues have room. Behind a fence,
 * rc_passes_fence transactions pass at once and everything else waits in
 * `deferred`, which is served, in order, before new input once the fence has
 * left. */
static void rc_egress(RCache *c)
{
    while (egress_len(&c->q_net) < c->base.buffer &&
           egress_len(&c->q_gpu) < c->base.buffer) {
        if (c->fence == NULL && c->deferred.count > 0) {
            rc_egress_one(c, txn_fifo_pop(&c->deferred));
            continue;
        }
        Txn *t = port_take(c->gpu);
        if (t == NULL) {
            break;
        }
        if (c->fence != NULL && !rc_passes_fence(t)) {
            txn_fifo_push(&c->deferred, t);
        } else {
            rc_egress_one(c, t);
        }
    }
    rc_drain(c);
}

/* Lays the recorded dirty bytes over the read response t and fills the line. */
static void rc_merge(RCache *c, const RcPend *p, Txn *t)
{
    if (t->status != TXN_STATUS_OK || t->data == NULL || t->len == 0) {
        return;
    }
    uint64_t la = rc_line_addr(&c->store, t->addr);
    uint32_t off = (uint32_t)(t->addr - la);
    for (uint32_t i = 0; i < t->len; i++) {
        if (p->snap >> (off + i) & 1u) {
            t->data[i] = p->snap_data[off + i];
        }
    }
    if (!p->fill || !c->enabled || p->epoch != c->epoch) {
        return;
    }
    RcLine *ln = rc_lookup(&c->store, la);
    if (ln == NULL) {
        ln = rc_alloc(c, la);
    }
    uint8_t *d = rc_data(&c->store, ln);
    for (uint32_t i = 0; i < t->len; i++) {
        if (!(ln->dirty >> (off + i) & 1u)) {
            d[off + i] = t->data[i];
        }
    }
    ln->valid |= rc_byte_mask(&c->store, t->addr, t->len);
    rc_touch(&c->store, ln);
    (*c->fills)++;
}

/* Drops the clean bytes of the lines an incoming invalidate covers. */
static void rc_invalidate_in(RCache *c, const Txn *t)
{
    (*c->inval_in)++;
    uint64_t first = rc_line_addr(&c->store, t->addr);
    uint64_t last = rc_line_addr(&c->store, t->len ? t->addr + t->len - 1 : t->addr);
    for (uint64_t la = first; la <= last && la >= first; la += c->store.line) {
        RcLine *ln = rc_lookup(&c->store, la);
        if (ln != NULL) {
            ln->valid = ln->dirty;
        }
    }
}

static void rc_writeback_ack(RCache *c, Txn *t)
{
    (*c->wb_acks)++;
    if (t->status != TXN_STATUS_OK) {
        (*c->wb_errors)++;
    }
    rc_pending_remove(&c->pending, t->id);
    txn_unref(t);
    c->wb_wait--;
    if (c->wb_wait == 0 && c->fence != NULL) {
        egress_add(&c->q_net, c->fence, 0);
        c->fence = NULL;
        rc_egress(c);
    }
}

static void rc_ingress(RCache *c)
{
    for (;;) {
        rc_drain(c);
        Txn *t;
        if (egress_len(&c->q_gpu) >= c->base.buffer || (t = port_take(c->net)) == NULL) {
            return;
        }
        RcPend *p = t->cmd == TXN_RESP ? rc_pending_get(&c->pending, t->id) : NULL;
        if (p != NULL && p->kind == RC_WRITEBACK) {
            rc_writeback_ack(c, t);
            continue;
        }
        if (p != NULL) {
            rc_merge(c, p, t);
            rc_pending_remove(&c->pending, t->id);
        }
        if (t->cmd == TXN_INVALIDATE) {
            rc_invalidate_in(c, t);
        }
        egress_add(&c->q_gpu, t, 0);
    }
}

static void rc_set_mode(RCache *c)
{
    Txn *t;
    while ((t = port_take(c->mode)) != NULL) {
        bool on = t->dualopt_mode == DUALOPT_MODE_CACHE;
        if (on != c->enabled) {
            (*c->mode_changes)++;
            if (!on) {
                rc_flush(c);
            }
        }
        c->enabled = on;
        txn_unref(t);
    }
}

static bool rc_realize(Block *b, SimError *err)
{
    RCache *c = (RCache *)b;
    if (!rc_store_init(&c->store, c->size, (uint32_t)c->ways, (uint32_t)c->line, err)) {
        return sim_error_prefix(err, b->name);
    }
    c->gpu = block_port(b, "gpu", -1);
    c->net = block_port(b, "net", -1);
    c->mode = block_port(b, "mode", -1);
    EgressOpts opt = {.extra = c->latency};
    egress_init(&c->q_net, b, c->net, &opt);
    egress_init(&c->q_gpu, b, c->gpu, &opt);
    return true;
}

static void rc_reset(Block *b)
{
    RCache *c = (RCache *)b;
    egress_clear(&c->q_net);
    egress_clear(&c->q_gpu);
    txn_fifo_free(&c->deferred);
    rc_pending_destroy(&c->pending);
    if (c->fence != NULL) {
        txn_unref(c->fence);
        c->fence = NULL;
    }
    c->wb_wait = 0;
}

/* Runs both directions until neither takes anything more: each direction's input
 * waits for room in queues the other direction also fills and drains (a read hit
 * answered on egress goes to q_gpu, which bounds ingress; ingress drains q_gpu,
 * which bounds egress), so one side making room must wake the other. */
static void rc_pump(RCache *c)
{
    for (;;) {
        size_t before = port_count(c->gpu) + port_count(c->net) + egress_len(&c->q_net) +
                        egress_len(&c->q_gpu) + c->deferred.count;
        rc_ingress(c);
        rc_egress(c);
        size_t after = port_count(c->gpu) + port_count(c->net) + egress_len(&c->q_net) +
                       egress_len(&c->q_gpu) + c->deferred.count;
        if (after == before) {
            return;
        }
    }
}

static void rc_on_recv(Block *b, Port *p)
{
    RCache *c = (RCache *)b;
    if (p == c->mode) {
        rc_set_mode(c);
        rc_drain(c);
    }
    rc_pump(c);
}

static void rc_on_free(Block *b, Port *p)
{
    (void)p;
    rc_pump((RCache *)b);
}

static void rc_stats(Block *b)
{
    RCache *c = (RCache *)b;
    uint64_t n = *c->hits + *c->misses;
    *c->hit_rate = n ? (double)*c->hits / (double)n : 0.0;
}

static void rc_finalize(Block *b)
{
    RCache *c = (RCache *)b;
    rc_reset(b);
    egress_destroy(&c->q_net);
    egress_destroy(&c->q_gpu);
    rc_store_destroy(&c->store);
}

static void rc_cost(Block *b, CostReport *r)
{
    const RCache *c = (const RCache *)b;
    uint64_t lines = c->size / c->line;
    uint64_t sets = lines / c->ways;
    uint32_t tag = HW_ADDR_BITS - bits_log2_ceil(c->line) - bits_log2_ceil(sets);
    uint32_t lru = bits_log2_ceil(c->ways);
    cost_add_storage(r, b->name, "tags", lines, tag + lru,
                     HW_ADDR_BITS_STR
                     "-bit address tag above line offset and set index, plus LRU "
                     "rank");
    cost_add_storage(r, b->name, "byte masks", lines, 2 * c->line,
                     "valid and dirty bit per byte");
    cost_add_storage(r, b->name, "data", lines, 8 * c->line, "line data");
}

static const StatDef rdma_cache_stat_defs[] = {
    STAT(RCache, hits, "read_hits", STAT_COUNTER, "", "reads answered here"),
    STAT(RCache, misses, "read_misses", STAT_COUNTER, "", "cacheable reads forwarded"),
    STAT(RCache, partial, "partial_misses", STAT_COUNTER, "",
         "misses on a cached line lacking some of the bytes"),
    STAT(RCache, writes, "writes", STAT_COUNTER, "", "writes absorbed (write-allocate)"),
    STAT(RCache, fills, "fills", STAT_COUNTER, "", "read responses filled into a line"),
    STAT(RCache, evictions, "evictions", STAT_COUNTER, "",
         "lines replaced (LRU victims)"),
    STAT(RCache, writebacks, "writebacks", STAT_COUNTER, "", "write-backs sent"),
    STAT(RCache, wb_bytes, "writeback_bytes", STAT_COUNTER, "B",
         "dirty bytes written back"),
    STAT(RCache, wb_acks, "writeback_acks", STAT_COUNTER, "", "write-back acks received"),
    STAT(RCache, flushes, "flushes", STAT_COUNTER, "",
         "write-back + invalidate-all operations"),
    STAT(RCache, invalidated, "invalidated_lines", STAT_COUNTER, "",
         "lines freed by flushes"),
    STAT(RCache, uncacheable, "uncacheable", STAT_COUNTER, "",
         "remote accesses forwarded uncached (atomic, masked, crossing a line)"),
    STAT(RCache, passed, "passed", STAT_COUNTER, "",
         "egress transactions passed through"),
    STAT(RCache, inval_in, "invalidates_in", STAT_COUNTER, "",
         "invalidates from the network"),
    STAT(RCache, mode_changes, "mode_changes", STAT_COUNTER, "",
         "enable/disable switches"),
    STAT(RCache, wb_errors, "writeback_errors", STAT_COUNTER, "",
         "model error: write-backs answered with an error", .is_error = true),
    STAT(RCache, id_errors, "id_errors", STAT_COUNTER, "",
         "model error: a forwarded read reusing a recorded id", .is_error = true),
    STAT(RCache, hit_rate, "hit_rate", STAT_GAUGE, "",
         "read_hits / (read_hits + read_misses)"),
};

const BlockType rdma_cache_type = {
    .name = "rdma_cache",
    .doc = "DualOpt RDMA$: remote-data cache before the RDMA engine, write-back",
    .size = sizeof(RCache),
    .params = rc_params,
    .nparams = sizeof rc_params / sizeof rc_params[0],
    .ports = rc_ports,
    .nports = sizeof rc_ports / sizeof rc_ports[0],
    .stat_defs = rdma_cache_stat_defs,
    .nstat_defs = sizeof rdma_cache_stat_defs / sizeof rdma_cache_stat_defs[0],
    .realize = rc_realize,
    .reset = rc_reset,
    .on_recv = rc_on_recv,
    .on_free = rc_on_free,
    .stats = rc_stats,
    .finalize = rc_finalize,
    .cost = rc_cost,
};
