/* Directory block common to dir_baseline, dir_hmg and dir_rec (SPEC.md 3.1, REC
 * paper 003 section 2.2 and 4): sits at the home GPU's L2 controller, in front of the
 * L2's local-data port.
 *
 * Modelled: the SPEC 3.1 actions on every read, write and atomic passing from `up`
 * to `down` (local data of this GPU): a read from another GPU is a remote read, a
 * write or atomic from this GPU a local write, one from another GPU a remote write;
 * each line of [addr, addr + len) is handled in ascending order. Invalidates leave
 * through `up` (TXN_INVALIDATE, addr = line, len = line, src = home, dst = sharer)
 * before the request that caused them is passed down, both after `latency`.
 * Acknowledgements (`acks`, default on; HMG and REC papers: a write completes when
 * its invalidations are acknowledged): every invalidate carries inv_ack = 1 and the
 * sharer's L2 answers it with an inv_ack (dir_cmds.h), which arrives on `up` and is
 * consumed here. A write's response waits here until its write-invalidates are
 * acknowledged, and also, for each of its lines, until the invalidates of an
 * eviction that dropped that line are (a write that finds no entry must not
 * complete while a copy it did not invalidate may still be hit); then it passes up.
 * Eviction invalidates hold nobody else: the read whose allocation evicted goes on
 * (a read of an evicted line only loses a copy). Every other response from `down`
 * passes up unchanged. Without `acks` invalidates are posted and nothing waits.
 * Not modelled: directory access bandwidth and bank conflicts, transient states
 * (a line with acknowledgements pending takes new requests; the response order per
 * request is what the check relies on).
 *
 * Decisions:
 * - Atomics are writes for the directory (they modify the line).
 * - Local reads take no directory action (SPEC 3.1 lists none).
 * - Anything else arriving from `up` (an invalidate for this GPU's own L2, a control)
 *   passes down untouched and is counted in `passed`.
 * - Requests are taken from `up` only while fewer than `buffer` transactions wait to
 *   go down; invalidates and responses are always queued (no protocol deadlock).
 * - A posted write has no response to hold: its invalidates are acknowledged and
 *   counted like the others. Its writer learns that it is done from a later read
 *   (the sm's flush read at kernel_end, docs/cores.md), which must not pass it: with
 *   `acks`, the response of every later request of the same source that expects one
 *   waits here until the invalidates of the source's earlier posted writes are
 *   acknowledged (`fenced` counts those held for it). Requests of other sources do
 *   not wait.
 * - An inv_ack matching no invalidate sent here is a model error (ack_errors). */
#include "hw/coherence/dir_block.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/coherence/dir_cmds.h"
#include "hw/lib/addr.h"
#include "kernel/bits.h"
#include "kernel/xalloc.h"

const char *const dir_block_repl_choices[] = {"lru", "fifo", NULL};

const PortDef dir_block_ports[DIR_BLOCK_NPORTS] = {
    {.name = "up",
     .required = true,
     .doc = "towards xbar.local: requests for this GPU's memory in, responses and "
            "invalidates out"},
    {.name = "down",
     .required = true,
     .doc = "towards the L2's local-data port (l2.up): requests out, responses in"},
};

/* Buckets of the coalesced histogram: 0 to range / line lines (range as realize
 * settles it: the baseline's and an unset one are one line). */
static uint32_t dir_block_coalesced_buckets(const Block *b)
{
    const DirBlock *d = (const DirBlock *)b;
    uint64_t range = d->range ? d->range : d->line;
    return (uint32_t)(range / d->line + 1);
}

const StatDef dir_block_stat_defs[DIR_BLOCK_NSTATS] = {
    STAT(DirBlock, remote_reads, "remote_reads", STAT_COUNTER, "",
         "reads from other GPUs tracked"),
    STAT(DirBlock, local_writes, "local_writes", STAT_COUNTER, "",
         "writes/atomics from this GPU"),
    STAT(DirBlock, remote_writes, "remote_writes", STAT_COUNTER, "",
         "writes/atomics from others"),
    STAT(DirBlock, passed, "passed", STAT_COUNTER, "",
         "other transactions passed down untouched"),
    STAT(DirBlock, allocations, "allocations", STAT_COUNTER, "", "entries allocated"),
    STAT(DirBlock, evictions, "evictions", STAT_COUNTER, "", "valid entries evicted"),
    STAT(DirBlock, inv_write, "inv_write", STAT_COUNTER, "",
         "write-initiated invalidates sent"),
    STAT(DirBlock, inv_evict, "inv_evict", STAT_COUNTER, "",
         "eviction-initiated invalidates sent"),
    STAT(DirBlock, invalidates, "invalidates", STAT_COUNTER, "",
         "invalidate transactions sent"),
    STAT(DirBlock, valid_entries, "valid_entries", STAT_GAUGE, "",
         "valid entries at the end"),
    STAT(DirBlock, positions, "positions", STAT_GAUGE, "", "lines tracked at the end"),
    STAT(DirBlock, route_errors, "route_errors", STAT_COUNTER, "",
         "model error: transactions for an unbound port", .is_error = true),
    STAT(DirBlock, inv_acks, "inv_acks", STAT_COUNTER, "",
         "invalidate acknowledgements received"),
    STAT(DirBlock, resp_held, "resp_held", STAT_COUNTER, "",
         "responses held until their invalidates were acknowledged"),
    STAT(DirBlock, fenced, "fenced", STAT_COUNTER, "",
         "responses held for the acknowledgements of earlier posted writes of their "
         "source"),
    STAT(DirBlock, ack_waiting, "ack_waiting", STAT_GAUGE, "",
         "invalidates not acknowledged at the end"),
    STAT(DirBlock, ack_errors, "ack_errors", STAT_COUNTER, "",
         "model error: acknowledgements of no invalidate sent here", .is_error = true),
    STAT(DirBlock, coalesced, "coalesced", STAT_HIST, "",
         "lines tracked by an entry when it was evicted", .width = 1,
         .buckets_of = dir_block_coalesced_buckets),
};

/* Adds delta to the count of key in m (a count that reaches 0 is removed); returns
 * the new count. */
static uint64_t dir_block_count(IdMap *m, uint64_t key, int delta)
{
    uint64_t n = 0;
    (void)idmap_remove(m, key, &n);
    n = (uint64_t)((int64_t)n + delta);
    if (n) {
        (void)idmap_insert(m, key, n);
    }
    return n;
}

static void dir_block_inv(void *ctx, uint64_t line_addr, int gpu, DirCause cause)
{
    DirBlock *d = ctx;
    Txn *t = txn_new(d->base.sim, TXN_INVALIDATE, line_addr, (uint32_t)d->line);
    t->src = (int16_t)d->own;
    t->dst = (int16_t)gpu;
    if (d->acks && cause == DIR_CAUSE_EVICT) {
        t->inv_ack = 1;
        (void)idmap_insert(&d->evict_inv, t->id, line_addr);
        dir_block_count(&d->line_acks, line_addr, 1);
    } else if (d->acks && d->cur) {
        t->inv_ack = 1;
        (void)idmap_insert(&d->inv_req, t->id, d->cur->id);
        dir_block_count(&d->req_wait, d->cur->id, 1);
    }
    (*d->invalidates)++;
    egress_push(&d->qup, t, d->latency);
}

static void dir_block_process(Block *b);

bool dir_block_realize(Block *b, bool shared_vector, SimError *err)
{
    DirBlock *d = (DirBlock *)b;
    d->shared_vector = shared_vector;
    d->own = b->gpu >= 0 ? b->gpu : 0;
    if (!shared_vector && d->range == 0) {
        d->range = d->line;
    }
    DirConfig c = {.entries = (uint32_t)d->entries,
                   .ways = (uint32_t)d->ways,
                   .range = (uint32_t)d->range,
                   .line = (uint32_t)d->line,
                   .gpus = b->plat->gpus,
                   .home = d->own,
                   .shared_vector = shared_vector,
                   .repl = (DirRepl)d->repl};
    char msg[256];
    if (!dir_core_init(&d->core, &c, dir_block_inv, d, msg, sizeof msg)) {
        return sim_error_set(err, "%s: %s", b->name, msg);
    }
    d->core.coalesced = d->coalesced;
    EgressOpts opt = {.drained = dir_block_process, .unbound = d->route_errors};
    egress_init(&d->qup, b, block_port(b, "up", -1), &opt);
    egress_init(&d->qdown, b, block_port(b, "down", -1), &opt);
    return true;
}

static void dir_block_drop_held(DirBlock *d)
{
    for (size_t i = 0; i < d->nheld; i++) {
        txn_unref(d->held[i]);
    }
    d->nheld = 0;
    d->nwaiters = 0;
    d->nposted = 0;
    d->nfences = 0;
    idmap_destroy(&d->inv_req);
    idmap_destroy(&d->req_wait);
    idmap_destroy(&d->evict_inv);
    idmap_destroy(&d->line_acks);
}

void dir_block_reset(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    dir_core_clear(&d->core);
    dir_block_drop_held(d);
}

/* A response from down: held while its request waits for acknowledgements. */
static void dir_block_response(DirBlock *d, Txn *t)
{
    if (!d->acks || !idmap_get(&d->req_wait, t->id, NULL)) {
        egress_push(&d->qup, t, 0);
        return;
    }
    if (d->nheld == d->capheld) {
        d->capheld = d->capheld ? 2 * d->capheld : 16;
        d->held = xrealloc_array(d->held, d->capheld, sizeof *d->held);
    }
    d->held[d->nheld++] = t;
    (*d->resp_held)++;
}

static void dir_block_req_acked(DirBlock *d, uint64_t req);

/* True if a posted write of src up to seq still has acknowledgements due. */
static bool dir_block_posted_due(const DirBlock *d, int src, uint64_t seq)
{
    for (size_t i = 0; i < d->nposted && d->posted[i].seq <= seq; i++) {
        if (d->posted[i].src == src) {
            return true;
        }
    }
    return false;
}

/* Request req has all its acknowledgements: if it is a posted write, it is done, and
 * the requests of its source that waited for it and no other go on. */
static void dir_block_posted_done(DirBlock *d, uint64_t req)
{
    size_t i = 0;
    while (i < d->nposted && d->posted[i].req != req) {
        i++;
    }
    if (i == d->nposted) {
        return;
    }
    memmove(&d->posted[i], &d->posted[i + 1], (d->nposted - i - 1) * sizeof *d->posted);
    d->nposted--;
    size_t k = 0;
    for (size_t j = 0; j < d->nfences; j++) {
        DirFence f = d->fences[j];
        if (dir_block_posted_due(d, f.src, f.seq)) {
            d->fences[k++] = f;
        } else {
            dir_block_req_acked(d, f.req);
        }
    }
    d->nfences = k;
}

/* One acknowledgement less for request req: the last one releases its response. */
static void dir_block_req_acked(DirBlock *d, uint64_t req)
{
    if (dir_block_count(&d->req_wait, req, -1) > 0) {
        return;
    }
    dir_block_posted_done(d, req);
    for (size_t i = 0; i < d->nheld; i++) {
        if (d->held[i]->id == req) {
            egress_push(&d->qup, d->held[i], 0);
            memmove(&d->held[i], &d->held[i + 1], (d->nheld - i - 1) * sizeof *d->held);
            d->nheld--;
            return;
        }
    }
}

/* An inv_ack from up: of a write-invalidate (counts for its request) or of an
 * eviction invalidate (counts for its line, whose last one releases the writes
 * waiting for it). */
static void dir_block_ack(DirBlock *d, Txn *a)
{
    uint64_t key;
    uint64_t id = a->inv_ack;
    (*d->inv_acks)++;
    txn_unref(a);
    if (idmap_remove(&d->inv_req, id, &key)) {
        dir_block_req_acked(d, key);
    } else if (!idmap_remove(&d->evict_inv, id, &key)) {
        (*d->ack_errors)++;
    } else if (dir_block_count(&d->line_acks, key, -1) == 0) {
        size_t k = 0;
        for (size_t i = 0; i < d->nwaiters; i++) {
            if (d->waiters[i].line == key) {
                dir_block_req_acked(d, d->waiters[i].req);
            } else {
                d->waiters[k++] = d->waiters[i];
            }
        }
        d->nwaiters = k;
    }
}

/* A write to line a: waits for the eviction acknowledgements still due for a. */
static void dir_block_wait_evicted(DirBlock *d, const Txn *t, uint64_t a)
{
    if (!d->acks || !idmap_get(&d->line_acks, a, NULL)) {
        return;
    }
    if (d->nwaiters == d->capwaiters) {
        d->capwaiters = d->capwaiters ? 2 * d->capwaiters : 16;
        d->waiters = xrealloc_array(d->waiters, d->capwaiters, sizeof *d->waiters);
    }
    d->waiters[d->nwaiters++] = (DirWaiter){.line = a, .req = t->id};
    dir_block_count(&d->req_wait, t->id, 1);
}

static bool dir_block_is_access(TxnCmd c)
{
    return c == TXN_READ || c == TXN_WRITE || c == TXN_ATOMIC;
}

/* SPEC 3.1 actions of request t on every line it touches. */
static void dir_block_apply(DirBlock *d, const Txn *t)
{
    uint64_t line = d->line;
    uint64_t first = t->addr & ~(line - 1);
    uint64_t end = t->addr + (t->len ? t->len : 1);
    bool local = t->src == d->own;
    d->cur = t;
    for (uint64_t a = first; a < end; a += line) {
        if (t->cmd == TXN_READ) {
            if (!local) {
                dir_core_remote_read(&d->core, a, t->src);
                (*d->remote_reads)++;
            }
        } else if (local) {
            dir_block_wait_evicted(d, t, a);
            dir_core_local_write(&d->core, a);
            (*d->local_writes)++;
        } else {
            dir_block_wait_evicted(d, t, a);
            dir_core_remote_write(&d->core, a, t->src);
            (*d->remote_writes)++;
        }
    }
    d->cur = NULL;
}

/* A read does not pass a posted write (PCIe ordering), and a posted write is done
 * only when its invalidates are acknowledged: a posted write t with acknowledgements
 * due is noted; a later request of the same source that expects a response waits
 * for those of every such write before it (one more count in req_wait). */
static void dir_block_order(DirBlock *d, const Txn *t)
{
    if (t->posted) {
        if (idmap_get(&d->req_wait, t->id, NULL)) {
            d->posted =
                xgrow(d->posted, &d->capposted, d->nposted + 1, sizeof *d->posted, 16);
            d->posted[d->nposted++] =
                (DirPosted){.req = t->id, .seq = ++d->posted_seq, .src = t->src};
        }
        return;
    }
    if (!txn_needs_response(t) || !dir_block_posted_due(d, t->src, d->posted_seq)) {
        return;
    }
    d->fences = xgrow(d->fences, &d->capfences, d->nfences + 1, sizeof *d->fences, 16);
    d->fences[d->nfences++] =
        (DirFence){.req = t->id, .seq = d->posted_seq, .src = t->src};
    dir_block_count(&d->req_wait, t->id, 1);
    (*d->fenced)++;
}

static void dir_block_process(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    Port *up = d->qup.port, *down = d->qdown.port;
    Txn *t;
    while ((t = port_peek(down)) != NULL) {
        t = port_take(down);
        if (t->cmd == TXN_RESP) {
            dir_block_response(d, t);
        } else {
            egress_push(&d->qup, t, 0);
        }
    }
    while ((t = port_peek(up)) != NULL) {
        if (txn_is(t, &dir_cmd_inv_ack) && t->dst == d->own) {
            dir_block_ack(d, port_take(up));
            continue;
        }
        bool tracked = dir_block_is_access(t->cmd) && t->dst == d->own && t->src >= 0 &&
                       (uint32_t)t->src < b->plat->gpus;
        if (tracked && egress_len(&d->qdown) >= b->buffer) {
            break;
        }
        t = port_take(up);
        if (tracked) {
            dir_block_apply(d, t);
            if (d->acks) {
                dir_block_order(d, t);
            }
        } else {
            (*d->passed)++;
        }
        egress_push(&d->qdown, t, tracked ? d->latency : 0);
    }
}

void dir_block_on_recv(Block *b, Port *p)
{
    (void)p;
    dir_block_process(b);
}

void dir_block_on_free(Block *b, Port *p)
{
    DirBlock *d = (DirBlock *)b;
    (void)egress_pump(p == d->qup.port ? &d->qup : &d->qdown);
    dir_block_process(b);
}

void dir_block_stats(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    *d->allocations = d->core.allocations;
    *d->evictions = d->core.evictions;
    *d->inv_write = d->core.inv_write;
    *d->inv_evict = d->core.inv_evict;
    *d->valid_entries = dir_core_valid_entries(&d->core);
    *d->positions = dir_core_positions(&d->core);
    *d->ack_waiting = idmap_count(&d->inv_req) + idmap_count(&d->evict_inv);
}

void dir_block_finalize(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    egress_destroy(&d->qup);
    egress_destroy(&d->qdown);
    dir_core_free(&d->core);
    dir_block_drop_held(d);
    free(d->held);
    free(d->waiters);
    free(d->posted);
    free(d->fences);
    d->held = NULL;
    d->waiters = NULL;
    d->posted = NULL;
    d->fences = NULL;
    d->capheld = d->capwaiters = d->capposted = d->capfences = 0;
}

void dir_block_cost(Block *b, CostReport *r)
{
    DirBlock *d = (DirBlock *)b;
    uint32_t gpus = b->plat->gpus;
    uint64_t bits = dir_core_entry_bits((uint32_t)d->range, (uint32_t)d->line, gpus,
                                        d->shared_vector);
    unsigned range_bits = bits_log2_ceil(d->range);
    unsigned base = range_bits < HW_ADDR_BITS ? HW_ADDR_BITS - range_bits : 0;
    char doc[200];
    if (d->shared_vector) {
        snprintf(doc, sizeof doc, "%u-bit base (%u B range) + %u sharer bits + valid",
                 base, (unsigned)d->range, gpus - 1);
    } else if (d->range == d->line) {
        snprintf(doc, sizeof doc, "%u-bit tag + %u sharer bits + valid", HW_ADDR_BITS,
                 gpus - 1);
    } else {
        snprintf(doc, sizeof doc,
                 "%u-bit base + %u lines x (position + %u sharer bits) + valid", base,
                 (unsigned)(d->range / d->line), gpus - 1);
    }
    cost_add_storage(r, b->name, "directory", d->entries, bits, doc);
    uint64_t wbits = bits_log2_ceil(d->ways);
    if (d->repl == DIR_REPL_LRU) {
        cost_add_storage(r, b->name, "replacement", d->entries, wbits,
                         "LRU: age rank of each entry within its set");
    } else {
        cost_add_storage(r, b->name, "replacement", d->entries / d->ways, wbits,
                         "FIFO: next victim pointer per set");
    }
}
