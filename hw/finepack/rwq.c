/* rwq: the FinePack remote write queue (paper 001 section IV-B, SPEC.md 2.1), a
 * bump-in-the-wire block between the crossbar's remote port (`up`) and the egress
 * path (`down`, towards the packetizer).
 *
 * Modelled: one partition per destination GPU (N-1 of them), each with `entries`
 * fully associative 128 B entries (tag, data, byte enables), a window register and
 * an exact payload counter (rwq_part.h); every flush trigger of SPEC.md 2.1: a store
 * outside the partition's window, a store needing an entry when all are used, a store
 * that would push the payload over `max_payload`, release / kernel_end (all
 * partitions, ascending destination), a remote read, atomic or non-posted write whose
 * bytes overlap queued bytes (that partition, before the request proceeds), and the
 * optional inactivity `timeout` (restarted by every insertion). A flush sends the
 * partition's runs of contiguous enabled bytes downstream, in packet order, as posted
 * writes tagged for the packetizer (fp_format.h: fp_run = FP_TAG_RUN | subhdr << 12 |
 * runs still to come); each run's parents are the ids of the stores whose bytes it
 * carries (last writer of each byte, in order of first appearance).
 * Not modelled: SRAM access time (queueing is instantaneous), the FSM's cycles.
 *
 * Decisions:
 * - Only posted writes to another GPU are queued (a non-posted write needs its
 *   response from the home GPU: it passes through like a read). Atomics are never
 *   queued. A store whose destination names no other GPU passes through.
 * - A store crossing a 128 B boundary is split into its pieces, each queued on its
 *   own (SPEC.md 2.1); with subhdr 2 the window (64 B) is smaller than an entry, so
 *   stores are also split at window boundaries. A piece without enabled bytes is
 *   dropped from the queue (it writes nothing); a store of length 0 passes
 *   through.
 * - max_payload is at least 448 = 64 x (6 + 1), so one entry always fits an empty
 *   partition; it is at most 4096 (the 10-bit DW length of a TLP).
 * - enable false: every transaction passes through (plain P2P stores, the baseline).
 * - Stores still queued when the run ends (the workload sent no release after them)
 *   never reach memory, as in the hardware without a timeout: counted in unflushed.
 * - Traffic from `down` to `up` passes through unchanged, in order, with
 *   backpressure. Downstream backpressure stops the queue from taking further
 *   transactions from `up` until everything it has to send is accepted. */
#include <stddef.h>
#include <stdlib.h>

#include "hw/finepack/rwq_part.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"

enum {
    RWQ_WHY_WINDOW,
    RWQ_WHY_ENTRIES,
    RWQ_WHY_PAYLOAD,
    RWQ_WHY_RELEASE,
    RWQ_WHY_READ,
    RWQ_WHY_ATOMIC,
    RWQ_WHY_WRITE,
    RWQ_WHY_TIMEOUT,
    RWQ_WHY_COUNT
};

typedef struct RwqSlot {
    struct Rwq *q;
    int dst;
    RwqPart part;
    SimTime last; /* time of the last insertion */
    SimEvent ev;  /* inactivity timeout */
} RwqSlot;

typedef struct Rwq {
    Block base;
    bool enable;
    uint64_t entries;
    uint64_t subhdr;
    uint64_t max_payload;
    SimTime timeout;
    RwqConfig cfg;
    Port *up, *down;
    int own;
    uint32_t nslots;
    RwqSlot *slot; /* slot[i] serves GPU i (i < own) or i + 1 (i >= own) */
    RwqRun *runs;  /* scratch for one flush */
    uint64_t *ids; /* scratch for one run's parents */
    Egress outq;   /* waiting to leave through `down` */
    uint64_t *stores, *store_bytes, *split, *overwritten, *runs_out, *payload_out;
    uint64_t *flushes, *why[RWQ_WHY_COUNT], *passed, *upstream, *unflushed;
    StatHist *stores_per_flush;
} Rwq;

static const ParamDef rwq_params[] = {
    {.key = "enable",
     .offset = offsetof(Rwq, enable),
     .type = PT_BOOL,
     .def = "true",
     .doc = "queue stores (false: every transaction passes through, plain P2P stores)"},
    {.key = "entries",
     .offset = offsetof(Rwq, entries),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = 4096,
     .doc = "128 B entries per partition (one partition per destination GPU)"},
    {.key = "subhdr",
     .offset = offsetof(Rwq, subhdr),
     .type = PT_U64,
     .def = "5",
     .min = FP_SUBHDR_MIN,
     .max = FP_SUBHDR_MAX,
     .doc = "sub-header bytes: 10-bit length + (8*subhdr-10)-bit offset, window "
            "2^(8*subhdr-10) bytes"},
    {.key = "max_payload",
     .offset = offsetof(Rwq, max_payload),
     .type = PT_SIZE,
     .def = "4096",
     .min = 448,
     .max = FP_MAX_PAYLOAD,
     .doc = "largest packet payload (sub-headers + data) in bytes"},
    {.key = "timeout",
     .offset = offsetof(Rwq, timeout),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "flush a partition this long after its last insertion (0 = off)"},
};

static const PortDef rwq_ports[] = {
    {.name = "up",
     .required = true,
     .doc = "crossbar side: remote traffic in, ingress out"},
    {.name = "down",
     .required = true,
     .doc = "egress side: runs, packets and pass-through traffic out, ingress in"},
};

static void rwq_timeout(void *subject, void *obj);

static bool rwq_realize(Block *b, SimError *err)
{
    Rwq *q = (Rwq *)b;
    q->cfg.subhdr = (uint32_t)q->subhdr;
    q->cfg.offset_bits = fp_offset_bits(q->cfg.subhdr);
    q->cfg.max_payload = (uint32_t)q->max_payload;
    q->up = block_port(b, "up", -1);
    q->down = block_port(b, "down", -1);
    egress_init(&q->outq, b, q->down, NULL);
    q->own = b->gpu < 0 ? 0 : b->gpu;
    q->nslots = b->plat->gpus > 1 ? b->plat->gpus - 1 : 0;
    q->slot = calloc(q->nslots ? q->nslots : 1, sizeof *q->slot);
    /* a flush has at most max_payload / (subhdr + 1) runs (each >= 1 byte) */
    q->runs = calloc(q->max_payload / (q->subhdr + 1) + 1, sizeof *q->runs);
    q->ids = calloc(FP_LINE, sizeof *q->ids);
    if (!q->slot || !q->runs || !q->ids) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    for (uint32_t i = 0; i < q->nslots; i++) {
        RwqSlot *s = &q->slot[i];
        s->q = q;
        s->dst = (int)i < q->own ? (int)i : (int)i + 1;
        rwq_part_init(&s->part, (uint32_t)q->entries);
        sim_event_init(&s->ev, b->sim, SIM_PRIO_DEFAULT, rwq_timeout, q, s);
    }
    return true;
}

static RwqSlot *rwq_slot_of(Rwq *q, int dst)
{
    if (dst < 0 || dst == q->own || (uint32_t)dst > q->nslots) {
        return NULL;
    }
    return &q->slot[dst < q->own ? dst : dst - 1];
}

/* Parents of a run: distinct last writers in order of first appearance. */
static uint32_t rwq_run_parents(Rwq *q, const RwqRun *r)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->len; i++) {
        uint32_t k = 0;
        while (k < n && q->ids[k] != r->writer[i]) {
            k++;
        }
        if (k == n) {
            q->ids[n++] = r->writer[i];
        }
    }
    return n;
}

static void rwq_flush(Rwq *q, RwqSlot *s, int why)
{
    if (s->part.n == 0) {
        return;
    }
    uint32_t n = rwq_part_runs(&s->part, q->runs);
    for (uint32_t i = 0; i < n; i++) {
        const RwqRun *r = &q->runs[i];
        Txn *t = txn_new(q->base.sim, TXN_WRITE, r->addr, r->len);
        txn_set_data(t, r->data);
        t->posted = true;
        t->src = (int16_t)q->own;
        t->dst = (int16_t)s->dst;
        t->fp_run = fp_run_header(q->cfg.subhdr, n - 1u - i);
        txn_set_parents(t, q->ids, rwq_run_parents(q, r));
        egress_add(&q->outq, t, 0);
    }
    (*q->flushes)++;
    (*q->why[why])++;
    *q->runs_out += n;
    *q->payload_out += s->part.payload;
    stat_hist_add(q->stores_per_flush, s->part.stores);
    rwq_part_clear(&s->part);
}

static void rwq_flush_all(Rwq *q, int why)
{
    for (uint32_t i = 0; i < q->nslots; i++) {
        rwq_flush(q, &q->slot[i], why);
    }
}

static void rwq_insert_piece(Rwq *q, RwqSlot *s, const Txn *t, uint32_t off, uint32_t len)
{
    const uint8_t *be = t->be ? t->be + off : NULL;
    uint32_t enabled = 0;
    for (uint32_t i = 0; i < len; i++) {
        enabled += be == NULL || be[i] != 0;
    }
    if (enabled == 0) {
        return;
    }
    uint64_t addr = t->addr + off;
    switch (rwq_part_check(&s->part, &q->cfg, addr, len, be)) {
    case RWQ_FIT_OK:
        break;
    case RWQ_FIT_WINDOW:
        rwq_flush(q, s, RWQ_WHY_WINDOW);
        break;
    case RWQ_FIT_ENTRIES:
        rwq_flush(q, s, RWQ_WHY_ENTRIES);
        break;
    case RWQ_FIT_PAYLOAD:
        rwq_flush(q, s, RWQ_WHY_PAYLOAD);
        break;
    }
    *q->overwritten += rwq_part_insert(&s->part, &q->cfg, addr, len,
                                       t->data ? t->data + off : NULL, be, t->id);
    *q->store_bytes += enabled;
    SimTime now = sim_now(q->base.sim);
    s->last = now;
    if (q->timeout > 0 && !sim_event_pending(&s->ev)) {
        sim_event_notify(&s->ev, q->timeout);
    }
}

static void rwq_store(Rwq *q, RwqSlot *s, Txn *t)
{
    (*q->stores)++;
    uint32_t off = 0;
    uint32_t unit = q->cfg.offset_bits < 7 ? 1u << q->cfg.offset_bits : FP_LINE;
    if (t->addr / unit != (t->addr + t->len - 1u) / unit) {
        (*q->split)++;
    }
    while (off < t->len) {
        uint64_t a = t->addr + off;
        uint32_t room = unit - (uint32_t)(a % unit);
        uint32_t len = t->len - off < room ? t->len - off : room;
        rwq_insert_piece(q, s, t, off, len);
        off += len;
    }
    txn_unref(t);
}

/* Handles one transaction from `up`; everything it sends goes to outq. */
static void rwq_handle(Rwq *q, Txn *t)
{
    if (!q->enable) {
        (*q->passed)++;
        egress_add(&q->outq, t, 0);
        return;
    }
    RwqSlot *s = rwq_slot_of(q, t->dst);
    switch (t->cmd) {
    case TXN_WRITE:
        if (s && t->posted && t->len > 0) {
            rwq_store(q, s, t);
            return;
        }
        if (s && rwq_part_overlaps(&s->part, t->addr, t->len)) {
            rwq_flush(q, s, RWQ_WHY_WRITE);
        }
        break;
    case TXN_READ:
    case TXN_ATOMIC:
        if (s && rwq_part_overlaps(&s->part, t->addr, t->len)) {
            rwq_flush(q, s, t->cmd == TXN_READ ? RWQ_WHY_READ : RWQ_WHY_ATOMIC);
        }
        break;
    case TXN_RELEASE:
    case TXN_KERNEL_END:
        rwq_flush_all(q, RWQ_WHY_RELEASE);
        break;
    default:
        break;
    }
    (*q->passed)++;
    egress_add(&q->outq, t, 0);
}

static void rwq_pump(Rwq *q)
{
    for (;;) {
        if (!egress_pump(&q->outq)) {
            return;
        }
        if (!port_peek(q->up)) {
            return;
        }
        rwq_handle(q, port_take(q->up));
    }
}

static void rwq_pump_up(Rwq *q)
{
    *q->upstream += port_forward(q->down, q->up);
}

static void rwq_timeout(void *subject, void *obj)
{
    Rwq *q = subject;
    RwqSlot *s = obj;
    if (s->part.n == 0) {
        return;
    }
    SimTime due = s->last + q->timeout;
    if (sim_now(q->base.sim) < due) {
        sim_event_notify_at(&s->ev, due);
        return;
    }
    rwq_flush(q, s, RWQ_WHY_TIMEOUT);
    rwq_pump(q);
}

static void rwq_on_recv(Block *b, Port *p)
{
    Rwq *q = (Rwq *)b;
    if (p == q->up) {
        rwq_pump(q);
    } else {
        rwq_pump_up(q);
    }
}

static void rwq_on_free(Block *b, Port *p)
{
    Rwq *q = (Rwq *)b;
    if (p == q->down) {
        rwq_pump(q);
    } else {
        rwq_pump_up(q);
    }
}

static void rwq_stats(Block *b)
{
    Rwq *q = (Rwq *)b;
    *q->unflushed = 0;
    for (uint32_t i = 0; i < q->nslots; i++) {
        *q->unflushed += q->slot[i].part.stores;
    }
}

static void rwq_finalize(Block *b)
{
    Rwq *q = (Rwq *)b;
    if (q->slot) {
        for (uint32_t i = 0; i < q->nslots; i++) {
            rwq_part_free(&q->slot[i].part);
        }
    }
    free(q->slot);
    free(q->runs);
    free(q->ids);
    egress_destroy(&q->outq);
}

static void rwq_cost(Block *b, CostReport *r)
{
    Rwq *q = (Rwq *)b;
    /* tag (64 - 7 address bits) + 128 B data + 128 byte enables */
    cost_add_storage(r, b->name, "entries", (uint64_t)q->nslots * q->entries,
                     57 + FP_LINE * 8 + FP_LINE,
                     "remote write queue entry: 57-bit line tag, 128 B data, 128 byte "
                     "enables");
    cost_add_storage(r, b->name, "registers", q->nslots, 64 + 13 + 13,
                     "per partition: base address, payload and store counters");
}

static const StatDef rwq_stat_defs[] = {
    STAT(Rwq, stores, "stores", STAT_COUNTER, "", "posted remote stores queued"),
    STAT(Rwq, store_bytes, "store_bytes", STAT_COUNTER, "B",
         "enabled bytes of queued stores"),
    STAT(Rwq, split, "split", STAT_COUNTER, "",
         "stores split at a 128 B or window boundary"),
    STAT(Rwq, overwritten, "overwritten", STAT_COUNTER, "B",
         "queued bytes overwritten before leaving (coalesced)"),
    STAT(Rwq, runs_out, "runs_out", STAT_COUNTER, "",
         "runs (sub-packets) sent downstream"),
    STAT(Rwq, payload_out, "payload_out", STAT_COUNTER, "B",
         "payload bytes flushed (sub-headers + data)"),
    STAT(Rwq, flushes, "flushes", STAT_COUNTER, "", "partition flushes (packets)"),
    STAT(Rwq, why[RWQ_WHY_WINDOW], "flush_window", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_ENTRIES], "flush_entries", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_PAYLOAD], "flush_payload", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_RELEASE], "flush_release", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_READ], "flush_read", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_ATOMIC], "flush_atomic", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_WRITE], "flush_write", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, why[RWQ_WHY_TIMEOUT], "flush_timeout", STAT_COUNTER, "",
         "flushes with this trigger"),
    STAT(Rwq, passed, "passed", STAT_COUNTER, "", "egress transactions passed through"),
    STAT(Rwq, upstream, "upstream", STAT_COUNTER, "",
         "ingress transactions passed through"),
    STAT(Rwq, unflushed, "unflushed", STAT_GAUGE, "",
         "store pieces still queued when the run ended (no release or other flush "
         "followed them)"),
    STAT(Rwq, stores_per_flush, "stores_per_flush", STAT_HIST, "",
         "store pieces carried by each flush", .width = 8, .buckets = 64),
};

const BlockType rwq_type = {
    .name = "rwq",
    .doc = "FinePack remote write queue: per-destination store coalescing (SPEC 2.1)",
    .size = sizeof(Rwq),
    .params = rwq_params,
    .nparams = sizeof rwq_params / sizeof rwq_params[0],
    .ports = rwq_ports,
    .nports = sizeof rwq_ports / sizeof rwq_ports[0],
    .stat_defs = rwq_stat_defs,
    .nstat_defs = sizeof rwq_stat_defs / sizeof rwq_stat_defs[0],
    .realize = rwq_realize,
    .on_recv = rwq_on_recv,
    .on_free = rwq_on_free,
    .stats = rwq_stats,
    .finalize = rwq_finalize,
    .cost = rwq_cost,
};
