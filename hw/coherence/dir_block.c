/* Directory block common to dir_baseline, dir_hmg and dir_rec (SPEC.md 3.1, REC
 * paper 003 section 2.2 and 4): sits at the home GPU's L2 controller, in front of the
 * L2's local-data port.
 *
 * Modelled: the SPEC 3.1 actions on every read, write and atomic passing from `up`
 * to `down` (local data of this GPU): a read from another GPU is a remote read, a
 * write or atomic from this GPU a local write, one from another GPU a remote write;
 * each line of [addr, addr + len) is handled in ascending order. Invalidates leave
 * through `up` (TXN_INVALIDATE, addr = line, len = line, src = home, dst = sharer,
 * posted: never answered) before the request that caused them is passed down, both
 * after `latency`. Everything arriving from `down` (responses) passes up unchanged.
 * Not modelled: directory access bandwidth and bank conflicts, invalidate
 * acknowledgements (SPEC 3.1 lists none), transient states.
 *
 * Decisions:
 * - Atomics are writes for the directory (they modify the line).
 * - Local reads take no directory action (SPEC 3.1 lists none).
 * - Anything else arriving from `up` (an invalidate for this GPU's own L2, a control)
 *   passes down untouched and is counted in `passed`.
 * - Requests are taken from `up` only while fewer than `buffer` transactions wait to
 *   go down; invalidates and responses are always queued (no protocol deadlock). */
#include "hw/coherence/dir_block.h"

#include <stdio.h>

#include "hw/lib/addr.h"
#include "kernel/bits.h"

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
    STAT(DirBlock, coalesced, "coalesced", STAT_HIST, "",
         "lines tracked by an entry when it was evicted", .width = 1,
         .buckets_of = dir_block_coalesced_buckets),
};

static void dir_block_inv(void *ctx, uint64_t line_addr, int gpu, DirCause cause)
{
    DirBlock *d = ctx;
    (void)cause;
    Txn *t = txn_new(d->base.sim, TXN_INVALIDATE, line_addr, (uint32_t)d->line);
    t->src = (int16_t)d->own;
    t->dst = (int16_t)gpu;
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

void dir_block_reset(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    dir_core_clear(&d->core);
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
    for (uint64_t a = first; a < end; a += line) {
        if (t->cmd == TXN_READ) {
            if (!local) {
                dir_core_remote_read(&d->core, a, t->src);
                (*d->remote_reads)++;
            }
        } else if (local) {
            dir_core_local_write(&d->core, a);
            (*d->local_writes)++;
        } else {
            dir_core_remote_write(&d->core, a, t->src);
            (*d->remote_writes)++;
        }
    }
}

static void dir_block_process(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    Port *up = d->qup.port, *down = d->qdown.port;
    Txn *t;
    while ((t = port_peek(down)) != NULL) {
        egress_push(&d->qup, port_take(down), 0);
    }
    while ((t = port_peek(up)) != NULL) {
        bool tracked = dir_block_is_access(t->cmd) && t->dst == d->own && t->src >= 0 &&
                       (uint32_t)t->src < b->plat->gpus;
        if (tracked && egress_len(&d->qdown) >= b->buffer) {
            break;
        }
        t = port_take(up);
        if (tracked) {
            dir_block_apply(d, t);
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
}

void dir_block_finalize(Block *b)
{
    DirBlock *d = (DirBlock *)b;
    egress_destroy(&d->qup);
    egress_destroy(&d->qdown);
    dir_core_free(&d->core);
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
