/* l2: a GPU's L2 cache controller. Write-back cache of the GPU's own (local) memory,
 * and, when `remote` is on, of lines of other GPUs' memory fetched by this GPU's CUs
 * (REC paper 003 section 2.2: hardware-coherent caching of remote data in L2), with
 * LADM's insertion policy for lines the home requests on behalf of other GPUs
 * (SPEC.md 5, paper 002). The coherence directory (dir_*) sits in front of `up`.
 *
 * Ports (see docs/blocks.md "l2" for the wiring):
 *   up   towards xbar.local (or a directory's down): requests for local data from this
 *        GPU's CUs and from other GPUs in, responses out;
 *   mem  to the memory: line fills, write-backs and uncached accesses;
 *   rq   (optional) towards xbar.remote: this GPU's requests for remote data and
 *        controls in, their responses out; egress traffic of the home side passes
 *        through (responses to other GPUs, invalidates) towards net, and requests of
 *        other GPUs come out here towards the xbar;
 *   net  (optional) towards the RDMA engine (rdma.gpu).
 *
 * Modelled: a set-associative array (`size`, `ways`, `line`, LRU) holding local and
 * remote lines together, with per-byte valid and dirty masks; `latency` on every
 * lookup (hits, misses and write-throughs leave `latency` after they are taken);
 * fills of whole lines with any number of merged readers (MSHR without a limit);
 * write-back, write-allocate without fetch for local data (a read needing bytes that
 * are not valid fetches the line and merges it under the dirty bytes); for remote
 * data, read-allocate and write-through: a write updates a present copy and goes on
 * to the home (no allocation on a write miss); invalidates (TXN_INVALIDATE with
 * dst == this GPU, from net or up) drop the line (`inv_hits` counts those that
 * found one) and keep a fill in flight for it from being inserted; one that asks
 * for it (inv_ack = 1, from a directory with `acks`) is answered at once with an
 * inv_ack to its home (hw/coherence/dir_cmds.h), sent back out of the port the
 * invalidate came in on (`inv_acks` counts them).
 * Set index (`index`, l2_array.h): modulo by default; xor folds the line number's
 * upper bits onto the set bits, so strided lines (a GPU's lines of pages interleaved
 * across GPUs, a cu's `owned` lines) do not crowd into a fraction of the sets.
 * Not modelled: banks, tag-pipeline throughput, MSHR limits, replacement other
 * than LRU, sectoring.
 *
 * Decisions:
 * - Atomics and accesses crossing a line boundary are not cached: the lines they
 *   overlap are written back and dropped and the access goes on (to memory or to
 *   the home) unchanged; its response passes back through.
 * - A write or atomic to a line with a fill in flight waits until the fill is done
 *   (per-line order; models an MSHR conflict stall): on `up` at the head of the input
 *   (its fills come from local memory, which always answers); on `rq` it is parked
 *   off the input with every later request to its lines (l2_park.c), because the
 *   rq FIFO also carries responses that other GPUs' fills wait for, and a stall at
 *   its head could deadlock two GPUs. Parked requests proceed in order as soon as
 *   they can; `parked` counts them.
 * - A dirty line evicted while a fill of it is in flight (a partly valid line that a
 *   read needed more bytes of) is written back, and the fill keeps a copy of the
 *   written-back bytes, which override the fill's (older) data when it arrives.
 * - Fills answer their waiting readers as they arrive (no second `latency`); the
 *   data is the line after the merge (dirty bytes win), or the fill data if the line
 *   was not inserted.
 * - Insertion: remote lines iff `remote`; local lines always under `twice`; under
 *   `once` a line is inserted only if one of its requesters is this GPU (a write from
 *   another GPU that misses goes to memory uncached); `auto` selects once when the
 *   kernel_hint of the last kernel_begin seen on rq equals `once_hint` (LADM:
 *   intra-thread locality), else twice.
 * - Remote lines are never dirty; evicting one is silent (the home's directory keeps
 *   the sharer; a later invalidate misses).
 * - Pass-through traffic (responses not for a fill, invalidates for other GPUs,
 *   inv_acks, controls, requests of other GPUs) takes no time here; inv_acks, like
 *   responses and invalidates, are always taken (the responses held at the home
 *   directory wait for them). Each output keeps order.
 * - Backpressure: a request is taken only while fewer than `buffer` transactions
 *   wait on the output it needs; responses and invalidates are always taken.
 * - kernel_end / release need no action for the cache (coherence is by
 *   invalidation); controls go on to net (the rdma consumes them) or are consumed
 *   here if net is unbound.
 * - Fences (l2_fence.c, with `remote` on): a read must not pass a posted write to the
 *   same home, and the sm's flush read after kernel_end relies on it (docs/cores.md).
 *   After a release or kernel_end of a unit that sent posted writes to a home since
 *   its last one, the unit's next read to that home goes on to the home unchanged
 *   instead of hitting a copy or joining a fill (`fenced_reads`). The data check found
 *   it: FinePack with REC's or the baseline directory's L2 on 16 GPUs read stale bytes
 *   on BFS because the flush reads hit the writer's own copies. */
#include <stddef.h>

#include "hw/gpu/l2_priv.h"
#include "hw/lib/addr.h"
#include "kernel/bits.h"

static const char *const l2_insert_choices[] = {"twice", "once", "auto", NULL};
static const char *const l2_index_choices[] = {"modulo", "xor", NULL};

static const ParamDef l2_params[] = {
    {.key = "size",
     .offset = offsetof(L2, size),
     .type = PT_SIZE,
     .def = "2MiB",
     .min = 64,
     .max = (uint64_t)256 << 20,
     .doc = "capacity in bytes (a multiple of ways x line)"},
    {.key = "ways",
     .offset = offsetof(L2, ways),
     .type = PT_U64,
     .def = "16",
     .min = 1,
     .max = 1024,
     .doc = "associativity (LRU)"},
    {.key = "line",
     .offset = offsetof(L2, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 4,
     .max = L2A_MAX_LINE,
     .doc = "line size in bytes (power of two)"},
    {.key = "index",
     .offset = offsetof(L2, index),
     .type = PT_ENUM,
     .def = "modulo",
     .choices = l2_index_choices,
     .doc = "set of line n = addr / line: modulo (n mod sets) or xor (XOR of n's "
            "log2(sets)-bit fields; a power-of-two set count)"},
    {.key = "latency",
     .offset = offsetof(L2, latency),
     .type = PT_TIME,
     .def = "30ns",
     .doc = "lookup latency: hits are answered and misses leave this long after"},
    {.key = "remote",
     .offset = offsetof(L2, remote),
     .type = PT_BOOL,
     .def = "true",
     .doc = "cache remote lines requested on rq (false: local data only; rq <-> net "
            "is a pass-through)"},
    {.key = "remote_insert",
     .offset = offsetof(L2, insert),
     .type = PT_ENUM,
     .def = "twice",
     .choices = l2_insert_choices,
     .doc = "LADM: twice (insert lines other GPUs request), once (do not), auto "
            "(per kernel, from the kernel_begin hint)"},
    {.key = "once_hint",
     .offset = offsetof(L2, once_hint),
     .type = PT_U64,
     .def = "1",
     .max = UINT32_MAX,
     .doc = "auto: the kernel_begin hint meaning intra-thread locality (-> once)"},
};

static const PortDef l2_ports[] = {
    {.name = "up",
     .required = true,
     .doc = "towards xbar.local / dir.down: local-data requests in, responses out"},
    {.name = "mem",
     .required = true,
     .doc = "to the memory: fills, write-backs, uncached accesses"},
    {.name = "rq",
     .required = false,
     .doc = "towards xbar.remote: remote-data requests and controls in, other GPUs' "
            "requests out"},
    {.name = "net",
     .required = false,
     .doc = "towards rdma.gpu: misses, write-throughs, egress out; ingress in"},
};

static bool l2_is_control(TxnCmd c)
{
    return c == TXN_RELEASE || c == TXN_KERNEL_BEGIN || c == TXN_KERNEL_END;
}

static void l2_process(Block *b);

static bool l2_realize(Block *b, SimError *err)
{
    L2 *c = (L2 *)b;
    char msg[200];
    if (!l2a_init(&c->a, c->size, (uint32_t)c->ways, (uint32_t)c->line, msg,
                  sizeof msg)) {
        return sim_error_set(err, "%s: %s", b->name, msg);
    }
    if (!l2a_set_index(&c->a, (L2Index)c->index, msg, sizeof msg)) {
        l2a_free(&c->a);
        return sim_error_set(err, "%s: %s", b->name, msg);
    }
    c->own = b->gpu >= 0 ? b->gpu : 0;
    c->lo = (uint64_t)c->own * b->plat->mem_bytes;
    c->hi = c->lo + b->plat->mem_bytes;
    c->up = block_port(b, "up", -1);
    c->mem = block_port(b, "mem", -1);
    c->rq = block_port(b, "rq", -1);
    c->net = block_port(b, "net", -1);
    EgressOpts opt = {.drained = l2_process, .unbound = c->route_errors};
    egress_init(&c->qup, b, c->up, &opt);
    egress_init(&c->qmem, b, c->mem, &opt);
    egress_init(&c->qrq, b, c->rq, &opt);
    egress_init(&c->qnet, b, c->net, &opt);
    return true;
}

static void l2_reset(Block *b)
{
    L2 *c = (L2 *)b;
    l2a_clear(&c->a);
    l2_fence_free(c);
    c->once_now = false;
}

static void l2_error(L2 *c, Port *p)
{
    (*c->route_errors)++;
    txn_unref(port_take(p));
}

static void l2_pass(L2 *c, Port *p, Egress *q)
{
    (*c->passed)++;
    egress_push(q, port_take(p), 0);
}

static bool l2_from_mem(L2 *c, Txn *t)
{
    if (t->cmd != TXN_RESP) {
        l2_error(c, c->mem);
        return true;
    }
    port_take(c->mem);
    if (!l2_fill_done(c, t)) {
        (*c->passed)++;
        egress_push(&c->qup, t, 0);
    }
    return true;
}

static bool l2_from_net(L2 *c, Txn *t)
{
    if (t->cmd == TXN_RESP) {
        port_take(c->net);
        if (!l2_fill_done(c, t)) {
            (*c->passed)++;
            egress_push(&c->qrq, t, 0);
        }
        return true;
    }
    if (t->dst != c->own) {
        l2_error(c, c->net);
        return true;
    }
    if (t->cmd == TXN_INVALIDATE) {
        l2_invalidate(c, port_take(c->net), &c->qnet);
        return true;
    }
    if (!l2_is_control(t->cmd) && !txn_is(t, &dir_cmd_inv_ack) &&
        egress_len(&c->qrq) >= c->base.buffer) {
        return false;
    }
    l2_pass(c, c->net, &c->qrq);
    return true;
}

static bool l2_from_up(L2 *c, Txn *t)
{
    if (t->cmd == TXN_RESP) {
        l2_error(c, c->up);
    } else if (t->cmd == TXN_INVALIDATE) {
        l2_invalidate(c, port_take(c->up), &c->qup);
    } else if (l2_is_control(t->cmd)) {
        (*c->controls)++;
        txn_unref(port_take(c->up));
    } else {
        return l2_local_access(c, c->up, t);
    }
    return true;
}

static bool l2_from_rq(L2 *c, Txn *t)
{
    if (l2_is_control(t->cmd)) {
        if (t->cmd == TXN_KERNEL_BEGIN) {
            (*c->kernels)++;
            c->once_now = t->kernel_hint == c->once_hint;
        } else if (c->remote) {
            l2_fence_release(c, t);
        }
        if (egress_bound(&c->qnet)) {
            l2_pass(c, c->rq, &c->qnet);
        } else {
            (*c->controls)++;
            txn_unref(port_take(c->rq));
        }
        return true;
    }
    if (t->dst == c->own) {
        if (t->cmd == TXN_INVALIDATE) {
            l2_invalidate(c, port_take(c->rq), &c->qrq);
        } else {
            l2_error(c, c->rq);
        }
        return true;
    }
    if (t->cmd == TXN_RESP || t->cmd == TXN_INVALIDATE || txn_is(t, &dir_cmd_inv_ack)) {
        l2_pass(c, c->rq, &c->qnet);
        return true;
    }
    if (l2_park_needed(c, t)) {
        l2_park(c, port_take(c->rq));
        return true;
    }
    return l2_remote_access(c, c->rq, t);
}

typedef bool (*L2InputFn)(L2 *c, Txn *t);

/* Takes heads of p while fn accepts them; true if it took any. */
static bool l2_drain(L2 *c, Port *p, L2InputFn fn)
{
    bool any = false;
    Txn *t;
    while ((t = port_peek(p)) != NULL && fn(c, t)) {
        any = true;
    }
    return any;
}

static void l2_process(Block *b)
{
    L2 *c = (L2 *)b;
    bool progress = true;
    while (progress) {
        progress = l2_drain(c, c->mem, l2_from_mem);
        progress = l2_drain(c, c->net, l2_from_net) || progress;
        progress = (c->npark && l2_park_replay(c)) || progress;
        progress = l2_drain(c, c->up, l2_from_up) || progress;
        progress = l2_drain(c, c->rq, l2_from_rq) || progress;
    }
}

static void l2_on_recv(Block *b, Port *p)
{
    (void)p;
    l2_process(b);
}

static void l2_on_free(Block *b, Port *p)
{
    L2 *c = (L2 *)b;
    Egress *qs[] = {&c->qup, &c->qmem, &c->qrq, &c->qnet};
    for (size_t i = 0; i < 4; i++) {
        if (qs[i]->port == p) {
            (void)egress_pump(qs[i]);
        }
    }
    l2_process(b);
}

static void l2_stats(Block *b)
{
    L2 *c = (L2 *)b;
    *c->outstanding = c->nfills;
}

static void l2_finalize(Block *b)
{
    L2 *c = (L2 *)b;
    egress_destroy(&c->qup);
    egress_destroy(&c->qmem);
    egress_destroy(&c->qrq);
    egress_destroy(&c->qnet);
    l2_fills_free(c);
    l2_park_free(c);
    l2_fence_free(c);
    l2a_free(&c->a);
}

static void l2_cost(Block *b, CostReport *r)
{
    L2 *c = (L2 *)b;
    uint64_t lines = (uint64_t)c->a.sets * c->a.ways;
    uint64_t tag =
        (uint64_t)HW_ADDR_BITS - bits_log2_ceil(c->line) - bits_log2_ceil(c->a.sets);
    cost_add_storage(
        r, b->name, "tags", lines, tag + 1 + 2 * c->line + bits_log2_ceil(c->ways),
        HW_ADDR_BITS_STR "-bit address tag + valid + per-byte valid and dirty masks + "
                         "LRU rank");
    cost_add_storage(r, b->name, "data", lines, 8 * c->line, "line data");
}

static const StatDef l2_stat_defs[] = {
    STAT(L2, reads, "reads", STAT_COUNTER, "", "local-data reads taken on up"),
    STAT(L2, writes, "writes", STAT_COUNTER, "", "local-data writes taken on up"),
    STAT(L2, atomics, "atomics", STAT_COUNTER, "", "atomics (local or remote; uncached)"),
    STAT(L2, hits, "hits", STAT_COUNTER, "", "local-data reads/writes that hit"),
    STAT(L2, misses, "misses", STAT_COUNTER, "",
         "local-data misses (fills sent, writes allocated)"),
    STAT(L2, merged, "merged", STAT_COUNTER, "", "reads that joined a fill in flight"),
    STAT(L2, remote_reads, "remote_reads", STAT_COUNTER, "",
         "remote-data reads taken on rq"),
    STAT(L2, remote_writes, "remote_writes", STAT_COUNTER, "",
         "remote-data writes on rq"),
    STAT(L2, remote_hits, "remote_hits", STAT_COUNTER, "", "remote-data reads that hit"),
    STAT(L2, remote_misses, "remote_misses", STAT_COUNTER, "", "remote fills sent"),
    STAT(L2, remote_updates, "remote_updates", STAT_COUNTER, "",
         "remote writes that updated a present copy"),
    STAT(L2, fills_done, "fills", STAT_COUNTER, "", "line fills completed"),
    STAT(L2, evictions, "evictions", STAT_COUNTER, "", "valid lines evicted"),
    STAT(L2, remote_evictions, "remote_evictions", STAT_COUNTER, "",
         "remote lines evicted"),
    STAT(L2, writebacks, "writebacks", STAT_COUNTER, "", "dirty lines written back"),
    STAT(L2, bypasses, "bypasses", STAT_COUNTER, "",
         "uncached accesses (atomics, line-crossing)"),
    STAT(L2, once_skips, "once_skips", STAT_COUNTER, "",
         "lines not inserted under remote_insert once"),
    STAT(L2, inv_received, "inv_received", STAT_COUNTER, "", "invalidates received"),
    STAT(L2, inv_acks, "inv_acks", STAT_COUNTER, "", "invalidate acknowledgements sent"),
    STAT(L2, inv_hits, "inv_hits", STAT_COUNTER, "",
         "invalidates that dropped a valid line"),
    STAT(L2, inv_pending, "inv_pending", STAT_COUNTER, "",
         "invalidates that hit a fill in flight"),
    STAT(L2, kernels, "kernels", STAT_COUNTER, "", "kernel_begin seen on rq"),
    STAT(L2, passed, "passed", STAT_COUNTER, "", "transactions passed through untouched"),
    STAT(L2, controls, "controls", STAT_COUNTER, "",
         "controls consumed here (net unbound)"),
    STAT(L2, outstanding, "outstanding", STAT_GAUGE, "", "fills unanswered at the end"),
    STAT(L2, parked, "parked", STAT_COUNTER, "",
         "remote requests parked behind a fill of their line"),
    STAT(L2, fenced_reads, "fenced_reads", STAT_COUNTER, "",
         "remote reads sent to the home after a release of their unit that followed "
         "its posted writes there"),
    STAT(L2, route_errors, "route_errors", STAT_COUNTER, "",
         "model error: transactions that cannot be routed", .is_error = true),
};

const BlockType l2_type = {
    .name = "l2",
    .doc = "L2 cache: write-back for local data, coherent caching of remote lines, LADM "
           "insertion",
    .size = sizeof(L2),
    .params = l2_params,
    .nparams = sizeof l2_params / sizeof l2_params[0],
    .ports = l2_ports,
    .nports = sizeof l2_ports / sizeof l2_ports[0],
    .stat_defs = l2_stat_defs,
    .nstat_defs = sizeof l2_stat_defs / sizeof l2_stat_defs[0],
    .realize = l2_realize,
    .reset = l2_reset,
    .on_recv = l2_on_recv,
    .on_free = l2_on_free,
    .stats = l2_stats,
    .finalize = l2_finalize,
    .cost = l2_cost,
};
