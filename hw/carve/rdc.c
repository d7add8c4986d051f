/* rdc: CARVE's remote data cache in local DRAM (paper 004 "Remote Data Cache (RDC)
 * Design", "Efficient RDC Invalidation"; SPEC.md 4.1 and 4.2).
 *
 * A bump in the wire on a GPU's remote path: port `gpu` faces the crossbar's remote
 * side (through the epoch block), port `net` faces the RDMA engine. Modelled: a
 * direct-mapped (Alloy) cache of `size` bytes in `line`-byte lines, tag + epoch +
 * valid stored with each line, functional data (sparse host storage, rdc_store.h),
 * write-through without allocation, line fills, epoch-checked hits, GPU-VI
 * write-invalidates (hwc), the physical reset on an epoch wrap, and the local DRAM
 * access every lookup costs. Not modelled: contention of lookups with the memory
 * block's own accesses (the RDC has its own access pipe with the same latency and
 * bandwidth parameters), the DRAM capacity the cache takes from the GPU (only
 * reported by `mgtlm cost`), merging of misses to one line, ECC.
 *
 * Egress (from `gpu`), in one in-order pipe, so no request overtakes another:
 * - read, write, atomic with dst != own GPU (a remote access): a lookup. Taken at T =
 *   max(arrival, busy_until), it occupies the pipe for ser(line, bandwidth) and
 *   completes at T + ser(line) + latency (busy_until = T + ser(line)). The outcome is
 *   decided at T:
 *   * read within one line: hit if the set holds this line, valid, and (coherence !=
 *     none) its stored epoch equals the read's `epoch` (stamped by the epoch block);
 *     a hit is answered from the cache at completion (out of `gpu`). A miss sends a
 *     fill read of the whole line (new id, parent = the read's id, same src/dst/unit,
 *     same epoch) out of `net` at completion; its response inserts the line with the
 *     read's epoch (evicting whatever the set held) and the read is answered with its
 *     bytes. A tag match with an old epoch counts as a stale miss.
 *   * write: the bytes it enables update the cached copy of every line it touches
 *     that would hit; absent lines are not allocated. The write leaves out of `net`
 *     at completion (write-through to the home).
 *   * atomic: invalidates the cached copies of the lines it touches and leaves out of
 *     `net` at completion.
 *   * a write or atomic marks an outstanding fill of a line it touches not to insert
 *     (the home read that line before this write reached it).
 *   * a read crossing a line boundary, or marked uncached (the sm's flush reads),
 *     bypasses the cache (counted in bypass) but keeps its place in the pipe (leaves
 *     at max(now, the previous pipe item's time)).
 * - release / kernel_begin / kernel_end: keep their place in the pipe and leave out
 *   of `net` (after the writes before them), taking no pipe time.
 * - invalidate with dst == own GPU: the epoch block's reset on an EPCTR wrap. Every
 *   line is invalidated (valid 0, epoch 0: the store is cleared) and the pipe stalls
 *   for ser(size, bandwidth) (counted in reset_stall_ps). Consumed.
 * - responses and invalidates with dst != own (home-side traffic of this GPU for
 *   other GPUs) and requests for the own GPU pass straight to `net`, in order.
 * Ingress (from `net`):
 * - the response to a fill: inserts the line (unless a write-invalidate or a reset
 *   for the line arrived while it was outstanding) and answers the read; consumed.
 * - invalidate with dst == own GPU (a GPU-VI write-invalidate from a home IMST): the
 *   copy of the line(s) is dropped if present (coherence swc/hwc; in `none` it is
 *   ignored: the upper bound is never invalidated), and an outstanding fill of the
 *   line is marked not to insert. Consumed, takes no pipe time.
 * - everything else passes straight to `gpu`, in order.
 *
 * Decisions:
 * - The lookup cost is modelled inside the block (`latency`, `bandwidth` = the local
 *   DRAM's), not by sending the lookup to the memory block: the crossbar has one
 *   local port, and a separate pipe keeps the timing hand-derivable.
 * - Writes pay the lookup too (tag check before the update) so that a read miss and
 *   a later write to the same line reach the home in program order.
 * - The set index is a parameter: `modulo` is the plain Alloy mapping; `hash` maps
 *   line n to fill_mix(n) mod sets (rdc_store.h), so that regions placed at the same
 *   offset of every GPU's power-of-two range do not all collide on the same sets.
 * - `size` 0 disables the cache: no lookup, every transaction passes straight
 *   through (a baseline with the same wiring; a reset request is still consumed).
 * - coherence: `none` never invalidates (hits ignore epochs, invalidates are ignored);
 *   `swc` relies on the epoch block incrementing at kernel boundaries; `hwc` keeps
 *   lines across kernels and applies write-invalidates. The epoch and imst blocks
 *   have the same parameter; a platform sets all three alike.
 * - A fill response with a non-ok status is passed to the read unchanged in status
 *   and nothing is inserted. */
#include <stddef.h>
#include <stdlib.h>

#include "hw/carve/rdc_store.h"
#include "hw/carve/swc_cost.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"
#include "kernel/xalloc.h"

/* Indices of rdc_coherence_choices and rdc_index_choices. */
enum { RDC_NONE, RDC_SWC, RDC_HWC };
enum { RDC_INDEX_MODULO, RDC_INDEX_HASH };

typedef struct RdcFill {
    uint64_t id; /* the fill read's id */
    uint64_t line;
    uint32_t epoch;
    bool poisoned; /* do not insert */
    Txn *orig;     /* the read to answer (owned) */
} RdcFill;

typedef struct Rdc {
    Block base;
    int coherence;
    uint64_t size;
    uint64_t line;
    int index;
    SimTime latency;
    uint64_t bandwidth;
    uint64_t queue;
    uint64_t remote_bandwidth;
    uint64_t l2_size;
    uint64_t l2_banks;

    Port *gpu, *net;
    int own;
    RdcStore *store; /* NULL when size is 0 */
    Egress pipe;     /* at most `queue` items, out of `net` or `gpu` (woken by ev) */
    SimTime busy_until, last_ready;
    RdcFill *fills;
    size_t nfills, fills_cap;
    SimEvent ev;

    uint64_t *lookups, *hits, *misses, *stale_misses, *fills_sent, *fills_dropped;
    uint64_t *evictions, *writes, *write_updates, *write_absent, *atomics, *bypass;
    uint64_t *invalidates, *invalidate_hits, *invalidates_ignored, *resets;
    uint64_t *reset_stall_ps, *busy_ps, *passed_out, *passed_in, *lines_valid;
    uint64_t *sets_used, *host_bytes;
    double *hit_rate;
} Rdc;

static const char *const rdc_coherence_choices[] = {"none", "swc", "hwc", NULL};
static const char *const rdc_index_choices[] = {"modulo", "hash", NULL};

static const ParamDef rdc_params[] = {
    {.key = "coherence",
     .offset = offsetof(Rdc, coherence),
     .type = PT_ENUM,
     .one_value = true,
     .def = "hwc",
     .choices = rdc_coherence_choices,
     .doc = "none (never invalidated), swc (epoch per kernel), hwc (GPU-VI "
            "write-invalidates); one value for the "
            "platform's rdc, epoch and imst blocks (the loader checks)"},
    {.key = "size",
     .offset = offsetof(Rdc, size),
     .type = PT_SIZE,
     .def = "2GiB",
     .max = (uint64_t)1 << 40,
     .doc = "cache capacity carved from local DRAM, a multiple of line; 0 disables "
            "the cache (pass-through)"},
    {.key = "line",
     .offset = offsetof(Rdc, line),
     .type = PT_U64,
     .def = "128",
     .min = 16,
     .max = 4096,
     .doc = "line size in bytes (a power of two)"},
    {.key = "index",
     .offset = offsetof(Rdc, index),
     .type = PT_ENUM,
     .def = "modulo",
     .choices = rdc_index_choices,
     .doc = "set of line n: modulo (n mod sets) or hash (splitmix64 finaliser of n, "
            "mod sets)"},
    {.key = "latency",
     .offset = offsetof(Rdc, latency),
     .type = PT_TIME,
     .def = "100ns",
     .doc = "local DRAM access latency of a lookup"},
    {.key = "bandwidth",
     .offset = offsetof(Rdc, bandwidth),
     .type = PT_BW,
     .def = "1TB/s",
     .min = 1,
     .doc = "local DRAM bandwidth: a lookup occupies ser(line), a reset ser(size)"},
    {.key = "queue",
     .offset = offsetof(Rdc, queue),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = 65536,
     .doc = "egress transactions held in the lookup pipe"},
    {.key = "remote_bandwidth",
     .offset = offsetof(Rdc, remote_bandwidth),
     .type = PT_BW,
     .def = "64GB/s",
     .min = 1,
     .doc = "cost model only: bandwidth of a software flush to remote memory"},
    {.key = "l2_size",
     .offset = offsetof(Rdc, l2_size),
     .type = PT_SIZE,
     .def = "8MiB",
     .doc = "cost model only: size of the on-chip L2 compared with (Table IV)"},
    {.key = "l2_banks",
     .offset = offsetof(Rdc, l2_banks),
     .type = PT_U64,
     .def = "16",
     .min = 1,
     .doc = "cost model only: L2 banks, each invalidating one line per cycle"},
};

static const PortDef rdc_ports[] = {
    {.name = "gpu",
     .required = true,
     .doc = "GPU side (crossbar remote / epoch block): remote requests in, answers out"},
    {.name = "net",
     .required = true,
     .doc = "network side (RDMA engine): misses, write-through and fills out"},
};

static void rdc_wake(void *subject, void *obj);

static bool rdc_realize(Block *b, SimError *err)
{
    Rdc *r = (Rdc *)b;
    if (!bits_is_pow2(r->line)) {
        return sim_error_set(err, "%s: line %llu is not a power of two", b->name,
                             (unsigned long long)r->line);
    }
    if (r->size % r->line) {
        return sim_error_set(err, "%s: size %llu is not a multiple of line %llu", b->name,
                             (unsigned long long)r->size, (unsigned long long)r->line);
    }
    r->gpu = block_port(b, "gpu", -1);
    r->net = block_port(b, "net", -1);
    r->own = b->gpu >= 0 ? b->gpu : 0;
    if (r->size) {
        r->store = rdc_store_new(r->size / r->line, (uint32_t)r->line,
                                 r->index == RDC_INDEX_HASH);
    }
    if (r->size && !r->store) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    sim_event_init(&r->ev, b->sim, SIM_PRIO_DEFAULT, rdc_wake, r, NULL);
    egress_init(&r->pipe, b, r->net, &(EgressOpts){.external_wake = true});
    return true;
}

static void rdc_drop_fills(Rdc *r)
{
    for (size_t i = 0; i < r->nfills; i++) {
        txn_unref(r->fills[i].orig);
    }
    r->nfills = 0;
}

static void rdc_reset(Block *b)
{
    Rdc *r = (Rdc *)b;
    rdc_drop_fills(r);
    egress_clear(&r->pipe);
    if (r->store) {
        rdc_store_clear(r->store);
    }
    r->busy_until = 0;
    r->last_ready = 0;
}

static void rdc_push(Rdc *r, Txn *t, SimTime ready, bool to_net)
{
    egress_add_to(&r->pipe, to_net ? r->net : r->gpu, t, ready);
    r->last_ready = ready;
}

/* Occupies the pipe for one lookup at now; returns its completion time. */
static SimTime rdc_lookup_slot(Rdc *r, SimTime now)
{
    SimTime start = r->busy_until > now ? r->busy_until : now;
    SimTime ser = swc_cost_stream(r->line, r->bandwidth);
    r->busy_until = start + ser;
    *r->busy_ps += ser;
    SimTime ready = r->busy_until + r->latency;
    return ready > r->last_ready ? ready : r->last_ready;
}

/* True if line n is cached, valid and usable for a request stamped `epoch`. */
static bool rdc_present(const Rdc *r, uint64_t n, uint32_t epoch, RdcLine *ln)
{
    if (!rdc_store_get(r->store, n, ln) || !ln->valid || ln->tag != n) {
        return false;
    }
    return r->coherence == RDC_NONE || ln->epoch == epoch;
}

static void rdc_add_fill(Rdc *r, RdcFill f)
{
    r->fills = xgrow(r->fills, &r->fills_cap, r->nfills + 1, sizeof *r->fills, 16);
    r->fills[r->nfills++] = f;
}

/* Marks outstanding fills of lines [first, last] not to insert. */
static void rdc_poison(Rdc *r, uint64_t first, uint64_t last)
{
    for (size_t i = 0; i < r->nfills; i++) {
        if (r->fills[i].line >= first && r->fills[i].line <= last) {
            r->fills[i].poisoned = true;
        }
    }
}

static void rdc_read(Rdc *r, Txn *t, SimTime now)
{
    uint64_t n = t->addr / r->line;
    if (t->len == 0 || (t->addr + t->len - 1) / r->line != n || t->uncached) {
        (*r->bypass)++;
        rdc_push(r, t, now > r->last_ready ? now : r->last_ready, true);
        return;
    }
    (*r->lookups)++;
    SimTime ready = rdc_lookup_slot(r, now);
    RdcLine ln;
    if (rdc_present(r, n, t->epoch, &ln)) {
        (*r->hits)++;
        Txn *resp = txn_new_response(r->base.sim, t);
        txn_set_data(resp, ln.data + (t->addr - n * r->line));
        txn_unref(t);
        rdc_push(r, resp, ready, false);
        return;
    }
    (*r->misses)++;
    if (ln.valid && ln.tag == n) {
        (*r->stale_misses)++;
    }
    Txn *fill = txn_new(r->base.sim, TXN_READ, n * r->line, (uint32_t)r->line);
    fill->src = t->src;
    fill->dst = t->dst;
    fill->unit = t->unit;
    fill->epoch = t->epoch;
    txn_set_parents(fill, &t->id, 1);
    rdc_add_fill(r, (RdcFill){fill->id, n, t->epoch, false, t});
    (*r->fills_sent)++;
    rdc_push(r, fill, ready, true);
}

static void rdc_write(Rdc *r, Txn *t, SimTime now)
{
    SimTime ready = rdc_lookup_slot(r, now);
    uint64_t first = t->addr / r->line;
    uint64_t last = t->len ? (t->addr + t->len - 1) / r->line : first;
    if (t->cmd == TXN_ATOMIC) {
        (*r->atomics)++;
        for (uint64_t n = first; n <= last; n++) {
            rdc_store_invalidate(r->store, n);
        }
    } else {
        (*r->writes)++;
        bool updated = false;
        for (uint64_t n = first; n <= last; n++) {
            RdcLine ln;
            if (!rdc_present(r, n, t->epoch, &ln)) {
                continue;
            }
            updated = true;
            for (uint32_t i = 0; i < t->len; i++) {
                uint64_t a = t->addr + i;
                if (a / r->line == n && (!t->be || t->be[i])) {
                    ln.data[a - n * r->line] = t->data ? t->data[i] : 0;
                }
            }
        }
        (*(updated ? r->write_updates : r->write_absent))++;
    }
    rdc_poison(r, first, last);
    rdc_push(r, t, ready, true);
}

/* The epoch block's reset on a wrap: invalidates everything, stalls the pipe. */
static void rdc_reset_all(Rdc *r, SimTime now)
{
    (*r->resets)++;
    if (!r->store) {
        return;
    }
    rdc_store_clear(r->store);
    rdc_poison(r, 0, UINT64_MAX);
    SimTime start = r->busy_until > now ? r->busy_until : now;
    SimTime stall = swc_cost_stream(r->size, r->bandwidth);
    r->busy_until = start + stall;
    *r->reset_stall_ps += stall;
    *r->busy_ps += stall;
}

static bool rdc_is_request(TxnCmd c)
{
    return c == TXN_READ || c == TXN_WRITE || c == TXN_ATOMIC;
}

static bool rdc_is_control(TxnCmd c)
{
    return c == TXN_RELEASE || c == TXN_KERNEL_BEGIN || c == TXN_KERNEL_END;
}

/* Egress: takes transactions from `gpu` into the pipe or straight out of `net`. */
static void rdc_egress(Rdc *r, SimTime now)
{
    Txn *t;
    while ((t = port_peek(r->gpu)) != NULL) {
        if (t->cmd == TXN_INVALIDATE && t->dst == r->own) {
            rdc_reset_all(r, now);
            txn_unref(port_take(r->gpu));
            continue;
        }
        bool lookup = r->store && rdc_is_request(t->cmd) && t->dst != r->own;
        if (lookup || rdc_is_control(t->cmd)) {
            if (egress_len(&r->pipe) == r->queue) {
                return;
            }
            t = port_take(r->gpu);
            if (!lookup) {
                rdc_push(r, t, now > r->last_ready ? now : r->last_ready, true);
            } else if (t->cmd == TXN_READ) {
                rdc_read(r, t, now);
            } else {
                rdc_write(r, t, now);
            }
            continue;
        }
        if (!port_send(r->net, t)) {
            return;
        }
        (void)port_take(r->gpu);
        (*r->passed_out)++;
    }
}

static RdcFill *rdc_find_fill(Rdc *r, uint64_t id)
{
    for (size_t i = 0; i < r->nfills; i++) {
        if (r->fills[i].id == id) {
            return &r->fills[i];
        }
    }
    return NULL;
}

/* Answers the read behind fill f with the fill response t and inserts the line.
 * False if `gpu` refused the answer (nothing changed). */
static bool rdc_complete_fill(Rdc *r, RdcFill *f, const Txn *t)
{
    Txn *resp = txn_new_response(r->base.sim, f->orig);
    resp->status = t->status;
    bool good = t->status == TXN_STATUS_OK && t->data && t->len == r->line;
    if (good) {
        txn_set_data(resp, t->data + (f->orig->addr - f->line * r->line));
    }
    if (!port_send(r->gpu, resp)) {
        txn_unref(resp);
        return false;
    }
    if (good && !f->poisoned) {
        RdcLine ln;
        if (rdc_store_get(r->store, f->line, &ln) && ln.valid && ln.tag != f->line) {
            (*r->evictions)++;
        }
        rdc_store_fill(r->store, f->line, f->epoch, t->data);
    } else {
        (*r->fills_dropped)++;
    }
    txn_unref(f->orig);
    *f = r->fills[--r->nfills];
    return true;
}

static void rdc_invalidate(Rdc *r, const Txn *t)
{
    (*r->invalidates)++;
    if (r->coherence == RDC_NONE || !r->store) {
        (*r->invalidates_ignored)++;
        return;
    }
    uint64_t first = t->addr / r->line;
    uint64_t last = t->len ? (t->addr + t->len - 1) / r->line : first;
    bool hit = false;
    for (uint64_t n = first; n <= last; n++) {
        hit |= rdc_store_invalidate(r->store, n);
    }
    if (hit) {
        (*r->invalidate_hits)++;
    }
    rdc_poison(r, first, last);
}

/* Ingress: fill responses and invalidates end here, the rest passes to `gpu`. */
static void rdc_ingress(Rdc *r)
{
    Txn *t;
    while ((t = port_peek(r->net)) != NULL) {
        RdcFill *f = t->cmd == TXN_RESP ? rdc_find_fill(r, t->id) : NULL;
        if (f) {
            if (!rdc_complete_fill(r, f, t)) {
                return;
            }
        } else if (t->cmd == TXN_INVALIDATE && t->dst == r->own) {
            rdc_invalidate(r, t);
        } else {
            if (!port_send(r->gpu, t)) {
                return;
            }
            (void)port_take(r->net);
            (*r->passed_in)++;
            continue;
        }
        txn_unref(port_take(r->net));
    }
}

static void rdc_pump(Rdc *r)
{
    SimTime now = sim_now(r->base.sim);
    rdc_ingress(r);
    bool open = egress_pump(&r->pipe);
    rdc_egress(r, now);
    if (open) {
        open = egress_pump(&r->pipe);
    }
    if (open && egress_len(&r->pipe) > 0) {
        sim_event_notify_at(&r->ev, egress_next(&r->pipe));
    }
}

static void rdc_wake(void *subject, void *obj)
{
    (void)obj;
    rdc_pump(subject);
}

static void rdc_on_recv(Block *b, Port *p)
{
    (void)p;
    rdc_pump((Rdc *)b);
}

static void rdc_on_free(Block *b, Port *p)
{
    (void)p;
    rdc_pump((Rdc *)b);
}

static void rdc_stats(Block *b)
{
    Rdc *r = (Rdc *)b;
    if (r->store) {
        *r->lines_valid = rdc_store_valid(r->store);
        *r->sets_used = rdc_store_sets_used(r->store);
        *r->host_bytes = rdc_store_host_bytes(r->store);
    }
    *r->hit_rate = *r->lookups ? (double)*r->hits / (double)*r->lookups : 0.0;
}

static void rdc_finalize(Block *b)
{
    Rdc *r = (Rdc *)b;
    rdc_drop_fills(r);
    egress_destroy(&r->pipe);
    free(r->fills);
    rdc_store_free(r->store);
    r->fills = NULL;
    r->store = NULL;
}

static void rdc_cost(Block *b, CostReport *r)
{
    Rdc *c = (Rdc *)b;
    uint64_t lines = c->size / c->line;
    uint64_t addr_bits = bits_log2_ceil(b->plat->mem_bytes * b->plat->gpus);
    uint64_t low_bits = bits_log2_ceil(lines) + bits_log2_ceil(c->line);
    uint64_t tag = addr_bits > low_bits ? addr_bits - low_bits : 0;
    cost_add_storage(r, b->name, "rdc data", lines, c->line * 8,
                     "line data carved from local DRAM (capacity taken from the GPU)");
    cost_add_storage(r, b->name, "rdc tag+epoch+valid", lines, tag + 20 + 1,
                     "per line in spare ECC bits: tag (physical address bits minus "
                     "index and offset), 20-bit epoch, valid");
    cost_add_time(r, b->name, "swc invalidate rdc",
                  swc_cost_stream(c->size, c->bandwidth),
                  "software coherence: read+clear every RDC line at local bandwidth "
                  "per kernel boundary (Table IV; CARVE's epoch makes it 0)");
    cost_add_time(r, b->name, "swc flush rdc",
                  swc_cost_stream(c->size, c->remote_bandwidth),
                  "software coherence: write every RDC line back at remote_bandwidth "
                  "(Table IV worst case; write-through makes it 0)");
    cost_add_time(r, b->name, "swc invalidate l2",
                  swc_cost_banked(c->l2_size, c->line, c->l2_banks, 1, b->plat->clock),
                  "comparison: on-chip L2 of l2_size, l2_banks banks x 1 line/cycle");
    cost_add_time(r, b->name, "swc flush l2",
                  swc_cost_stream(c->l2_size, c->remote_bandwidth),
                  "comparison: L2 dirty flush at remote_bandwidth (Table IV worst case)");
}

static const StatDef rdc_stat_defs[] = {
    STAT(Rdc, lookups, "lookups", STAT_COUNTER, "", "remote reads looked up"),
    STAT(Rdc, hits, "hits", STAT_COUNTER, "", "reads served from the cache"),
    STAT(Rdc, misses, "misses", STAT_COUNTER, "", "reads that missed (incl. stale)"),
    STAT(Rdc, stale_misses, "stale_misses", STAT_COUNTER, "",
         "misses on a tag match with an older epoch"),
    STAT(Rdc, fills_sent, "fills", STAT_COUNTER, "", "line fills sent to the home"),
    STAT(Rdc, fills_dropped, "fills_dropped", STAT_COUNTER, "",
         "fills not inserted (invalidated in flight or not ok)"),
    STAT(Rdc, evictions, "evictions", STAT_COUNTER, "",
         "valid lines replaced by another line"),
    STAT(Rdc, writes, "writes", STAT_COUNTER, "", "remote writes (write-through)"),
    STAT(Rdc, write_updates, "write_updates", STAT_COUNTER, "",
         "writes that updated a copy"),
    STAT(Rdc, write_absent, "write_absent", STAT_COUNTER, "",
         "writes to lines not cached (no allocation)"),
    STAT(Rdc, atomics, "atomics", STAT_COUNTER, "", "remote atomics (drop the copy)"),
    STAT(Rdc, bypass, "bypass", STAT_COUNTER, "", "reads crossing a line (not cached)"),
    STAT(Rdc, invalidates, "invalidates", STAT_COUNTER, "", "write-invalidates received"),
    STAT(Rdc, invalidate_hits, "invalidate_hits", STAT_COUNTER, "",
         "write-invalidates that dropped a copy"),
    STAT(Rdc, invalidates_ignored, "invalidates_ignored", STAT_COUNTER, "",
         "write-invalidates ignored (coherence none)"),
    STAT(Rdc, resets, "resets", STAT_COUNTER, "", "physical resets on an epoch wrap"),
    STAT(Rdc, reset_stall_ps, "reset_stall_ps", STAT_TIME, "ps",
         "pipe stall of the resets (ps)"),
    STAT(Rdc, busy_ps, "busy_ps", STAT_TIME, "ps", "time the lookup pipe was busy (ps)"),
    STAT(Rdc, passed_out, "passed_out", STAT_COUNTER, "",
         "transactions passed gpu -> net"),
    STAT(Rdc, passed_in, "passed_in", STAT_COUNTER, "", "transactions passed net -> gpu"),
    STAT(Rdc, lines_valid, "lines_valid", STAT_GAUGE, "", "valid lines at the end"),
    STAT(Rdc, sets_used, "sets_used", STAT_GAUGE, "",
         "sets holding host storage at the end"),
    STAT(Rdc, host_bytes, "host_bytes", STAT_GAUGE, "B",
         "host bytes of the store at the end"),
    STAT(Rdc, hit_rate, "hit_rate", STAT_GAUGE, "", "hits / lookups"),
};

const BlockType rdc_type = {
    .name = "rdc",
    .doc = "CARVE remote data cache in local DRAM: direct-mapped, write-through, epochs",
    .size = sizeof(Rdc),
    .params = rdc_params,
    .nparams = sizeof rdc_params / sizeof rdc_params[0],
    .ports = rdc_ports,
    .nports = sizeof rdc_ports / sizeof rdc_ports[0],
    .stat_defs = rdc_stat_defs,
    .nstat_defs = sizeof rdc_stat_defs / sizeof rdc_stat_defs[0],
    .realize = rdc_realize,
    .reset = rdc_reset,
    .on_recv = rdc_on_recv,
    .on_free = rdc_on_free,
    .stats = rdc_stats,
    .finalize = rdc_finalize,
    .cost = rdc_cost,
};
