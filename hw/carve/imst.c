/* imst: CARVE's in-memory sharing tracker at the home GPU (paper 004 "Hardware
 * Coherence", Fig. 12; SPEC.md 4.3), driving GPU-VI write-invalidates (CARVE-HWC).
 *
 * A bump in the wire between the crossbar's local port (`up`) and the memory (`mem`).
 * Modelled: a 2-bit state per `line`-byte line of this GPU's memory (UNCACHED,
 * PRIVATE, READ_SHARED, RW_SHARED), updated by every read, write and atomic passing
 * to the memory, with the transition table of SPEC.md 4.3 (imst_table.h); a write
 * that needs it broadcasts one invalidate per GPU except the writer and the home, out
 * of `up` (the crossbar sends requests with dst != own to the remote side); seeded
 * probabilistic demotion to PRIVATE. Not modelled: the ECC bits themselves (the state
 * is kept sparsely, UNCACHED = absent; no capacity or time cost, as in the paper),
 * the copy of the state in the GPU caches, invalidate acknowledgements.
 *
 * Down (up -> mem), in order: a read/write/atomic inside this GPU's range is
 * forwarded to `mem`; once the memory accepted it, the state of every line it touches
 * moves per the table. An access is local if its src is this GPU (or unset, -1),
 * remote otherwise; an atomic counts as a write. For a transition marked "+ inv", in
 * `hwc` mode, invalidates (addr = line base, len = line, src = home, dst = g, unit
 * unset, parent = the write's id) for every g other than the writer and the home, in
 * ascending g, are queued to leave out of `up` at once. After a broadcast from
 * RW_SHARED on a local write, the state becomes PRIVATE with probability
 * `demote_prob` (one draw of a seeded splitmix64 per such write, hw/lib/rng.h).
 * Controls and out-of-range accesses pass unchanged (the memory answers the latter
 * with address_error). Up (mem -> up): queued invalidates leave first, in order, then
 * the memory's responses. Forwarding takes no time.
 *
 * Decisions:
 * - The table is applied when the access passes the tracker (before the memory
 *   serves it): the invalidates leave while the write is in the memory pipe.
 * - In `none` and `swc` modes the states are tracked (stats) but nothing is sent.
 * - A down transaction is taken only when no invalidate waits, so at most
 *   (lines touched) x (gpus - 2) invalidates are queued. */
#include <stddef.h>

#include "hw/carve/imst_table.h"
#include "hw/lib/rng.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/idmap.h"

/* Indices of imst_coherence_choices. */
enum { IMST_MODE_NONE, IMST_MODE_SWC, IMST_MODE_HWC };

typedef struct Imst {
    Block base;
    int coherence;
    double demote_prob;
    uint64_t seed;
    uint64_t line;

    Port *up, *mem;
    int own;
    uint64_t lo, hi;
    IdMap states; /* line number -> ImstState (absent = UNCACHED) */
    Rng rng;
    Egress inv; /* queued invalidates, out of `up` */

    uint64_t *local_reads, *local_writes, *remote_reads, *remote_writes;
    uint64_t *broadcasts, *invalidates_sent, *demotions, *to_state[IMST_STATES];
    uint64_t *lines_tracked;
} Imst;

static const char *const imst_coherence_choices[] = {"none", "swc", "hwc", NULL};

static const ParamDef imst_params[] = {
    {.key = "coherence",
     .offset = offsetof(Imst, coherence),
     .type = PT_ENUM,
     .one_value = true,
     .def = "hwc",
     .choices = imst_coherence_choices,
     .doc = "only hwc sends write-invalidates; one value for the "
            "platform's rdc, epoch and imst blocks (the loader checks)"},
    {.key = "demote_prob",
     .offset = offsetof(Imst, demote_prob),
     .type = PT_DOUBLE,
     .def = "0.01",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "probability that a local write to a RW_SHARED line leaves it PRIVATE"},
    {.key = "seed",
     .offset = offsetof(Imst, seed),
     .type = PT_U64,
     .def = "1",
     .doc = "PRNG seed of the demotion draws (mixed with the platform seed and GPU)"},
    {.key = "line",
     .offset = offsetof(Imst, line),
     .type = PT_U64,
     .def = "128",
     .min = 16,
     .max = 4096,
     .doc = "tracking granularity in bytes (a power of two)"},
};

static const PortDef imst_ports[] = {
    {.name = "up",
     .required = true,
     .doc = "crossbar side: accesses in, responses and invalidates out"},
    {.name = "mem", .required = true, .doc = "memory side: accesses out, responses in"},
};

static bool imst_realize(Block *b, SimError *err)
{
    Imst *m = (Imst *)b;
    if (!bits_is_pow2(m->line)) {
        return sim_error_set(err, "%s: line %llu is not a power of two", b->name,
                             (unsigned long long)m->line);
    }
    m->up = block_port(b, "up", -1);
    m->mem = block_port(b, "mem", -1);
    egress_init(&m->inv, b, m->up, NULL);
    m->own = b->gpu >= 0 ? b->gpu : 0;
    m->lo = (uint64_t)m->own * b->plat->mem_bytes;
    m->hi = m->lo + b->plat->mem_bytes;
    idmap_init(&m->states);
    return true;
}

static void imst_reset(Block *b)
{
    Imst *m = (Imst *)b;
    egress_clear(&m->inv);
    idmap_destroy(&m->states);
    rng_seed(&m->rng, m->seed, b->plat->seed, b->gpu, b->index);
}

static void imst_broadcast(Imst *m, uint64_t n, const Txn *w)
{
    (*m->broadcasts)++;
    for (uint32_t g = 0; g < m->base.plat->gpus; g++) {
        if ((int)g == m->own || (int)g == w->src) {
            continue;
        }
        Txn *t = txn_new(m->base.sim, TXN_INVALIDATE, n * m->line, (uint32_t)m->line);
        t->src = (int16_t)m->own;
        t->dst = (int16_t)g;
        txn_set_parents(t, &w->id, 1);
        egress_add(&m->inv, t, 0);
        (*m->invalidates_sent)++;
    }
}

/* Applies the table to every line access t touches (t was accepted by the memory). */
static void imst_track(Imst *m, const Txn *t)
{
    bool write = t->cmd != TXN_READ;
    bool local = t->src < 0 || t->src == m->own;
    (*(local ? (write ? m->local_writes : m->local_reads)
             : (write ? m->remote_writes : m->remote_reads)))++;
    uint64_t first = t->addr / m->line;
    uint64_t last = t->len ? (t->addr + t->len - 1) / m->line : first;
    for (uint64_t n = first; n <= last; n++) {
        uint64_t v = IMST_UNCACHED;
        idmap_get(&m->states, n, &v);
        ImstStep st = imst_step((ImstState)v, local, write);
        if (st.invalidate && m->coherence == IMST_MODE_HWC) {
            imst_broadcast(m, n, t);
        }
        if (st.may_demote && rng_unit(&m->rng) < m->demote_prob) {
            st.next = IMST_PRIVATE;
            (*m->demotions)++;
        }
        if (st.next != (ImstState)v) {
            (*m->to_state[st.next])++;
            idmap_remove(&m->states, n, NULL);
            idmap_insert(&m->states, n, st.next);
        }
    }
}

static bool imst_in_range(const Imst *m, const Txn *t)
{
    return t->addr >= m->lo && t->addr < m->hi && t->len <= m->hi - t->addr;
}

static void imst_down(Imst *m)
{
    Txn *t;
    while (egress_len(&m->inv) == 0 && (t = port_peek(m->up)) != NULL) {
        bool access = t->cmd == TXN_READ || t->cmd == TXN_WRITE || t->cmd == TXN_ATOMIC;
        txn_ref(t);
        if (!port_send(m->mem, t)) {
            txn_unref(t);
            return;
        }
        (void)port_take(m->up);
        if (access && imst_in_range(m, t)) {
            imst_track(m, t);
        }
        txn_unref(t);
    }
}

static void imst_up(Imst *m)
{
    if (egress_pump(&m->inv)) {
        (void)port_forward(m->mem, m->up);
    }
}

static void imst_pump(Imst *m)
{
    imst_down(m);
    imst_up(m);
    imst_down(m);
}

static void imst_on_recv(Block *b, Port *p)
{
    (void)p;
    imst_pump((Imst *)b);
}

static void imst_on_free(Block *b, Port *p)
{
    (void)p;
    imst_pump((Imst *)b);
}

static void imst_stats(Block *b)
{
    Imst *m = (Imst *)b;
    *m->lines_tracked = idmap_count(&m->states);
}

static void imst_finalize(Block *b)
{
    Imst *m = (Imst *)b;
    egress_destroy(&m->inv);
    idmap_destroy(&m->states);
}

static void imst_cost(Block *b, CostReport *r)
{
    Imst *m = (Imst *)b;
    cost_add_storage(r, b->name, "imst", b->plat->mem_bytes / m->line, 2,
                     "2-bit sharing state per line of this GPU's memory, in spare ECC "
                     "bits (no data capacity taken)");
}

static const StatDef imst_stat_defs[] = {
    STAT(Imst, local_reads, "local_reads", STAT_COUNTER, "", "reads from this GPU"),
    STAT(Imst, local_writes, "local_writes", STAT_COUNTER, "",
         "writes/atomics from this GPU"),
    STAT(Imst, remote_reads, "remote_reads", STAT_COUNTER, "", "reads from other GPUs"),
    STAT(Imst, remote_writes, "remote_writes", STAT_COUNTER, "",
         "writes/atomics from others"),
    STAT(Imst, broadcasts, "broadcasts", STAT_COUNTER, "", "write-invalidate broadcasts"),
    STAT(Imst, invalidates_sent, "invalidates_sent", STAT_COUNTER, "",
         "invalidate transactions sent (all targets)"),
    STAT(Imst, demotions, "demotions", STAT_COUNTER, "",
         "RW_SHARED -> PRIVATE demotions"),
    STAT(Imst, to_state[IMST_UNCACHED], "to_uncached", STAT_COUNTER, "",
         "transitions into this state"),
    STAT(Imst, to_state[IMST_PRIVATE], "to_private", STAT_COUNTER, "",
         "transitions into this state"),
    STAT(Imst, to_state[IMST_READ_SHARED], "to_read_shared", STAT_COUNTER, "",
         "transitions into this state"),
    STAT(Imst, to_state[IMST_RW_SHARED], "to_rw_shared", STAT_COUNTER, "",
         "transitions into this state"),
    STAT(Imst, lines_tracked, "lines_tracked", STAT_GAUGE, "",
         "lines not UNCACHED at the end"),
};

const BlockType imst_type = {
    .name = "imst",
    .doc =
        "CARVE in-memory sharing tracker at the home: 2-bit states, GPU-VI invalidates",
    .size = sizeof(Imst),
    .params = imst_params,
    .nparams = sizeof imst_params / sizeof imst_params[0],
    .ports = imst_ports,
    .nports = sizeof imst_ports / sizeof imst_ports[0],
    .stat_defs = imst_stat_defs,
    .nstat_defs = sizeof imst_stat_defs / sizeof imst_stat_defs[0],
    .realize = imst_realize,
    .reset = imst_reset,
    .on_recv = imst_on_recv,
    .on_free = imst_on_free,
    .stats = imst_stats,
    .finalize = imst_finalize,
    .cost = imst_cost,
};
