/* depacketizer: the FinePack de-packetizer at a destination GPU's ingress (paper 001
 * section IV-B, SPEC.md 2.3), a bump-in-the-wire block between the network side
 * (`down`, from the RDMA engine) and the crossbar side (`up`).
 *
 * Modelled: a FinePack packet (a write with fp_packet = FP_TAG_PACKET | subhdr,
 * fp_format.h) arriving at `down` is split into one posted write per sub-packet
 * (addr = base + offset, the sub-packet's bytes, src/dst of the packet, parent =
 * [packet id]) in packet order, into a buffer of `entries` slots (64 x 128 B: a
 * sub-packet is at most 128 bytes and takes one slot). The buffer drains towards `up` at
 * `drain_per_cycle` transactions per platform clock cycle. When the buffer is full, the
 * packet stays at the head of the `down` port's buffer, which then fills and stops the
 * link (backpressure): a packet leaves the port buffer once all its sub-packets are in
 * the buffer. Every other ingress transaction (plain stores, reads, responses, controls)
 * joins the same buffer in arrival order, so nothing overtakes a store unpacked before it
 * (a read after a flushed store sees the store). Egress traffic (`up` to `down`)
 * passes through in order with backpressure.
 * Not modelled: the L2 side of the drain (the crossbar's backpressure stands for it).
 *
 * Decisions:
 * - A drain cycle starts when the first transaction of it leaves; up to
 *   drain_per_cycle leave in that cycle, the next cycle starts one clock later.
 * - A packet whose bytes do not parse (bad header, sub-packets not adding up to the
 *   payload, a sub-packet over 128 bytes or outside the window) is a model error:
 *   counted in format_errors and released without writing anything.
 * - stall_ps counts the time the head of `down` waits for buffer room (the time the
 *   link is held back). */
#include <stddef.h>
#include <stdlib.h>

#include "hw/finepack/fp_format.h"
#include "kernel/block.h"
#include "kernel/event.h"
#include "kernel/txn_fifo.h"

typedef struct Depacketizer {
    Block base;
    uint64_t entries;
    uint64_t drain;
    Port *up, *down;
    TxnFifo buf;
    uint32_t pos;        /* byte position of the next sub-packet in the head packet */
    FpHeader head;       /* parsed header of the head packet (when pos > 0) */
    SimTime stall_since; /* SIM_TIME_MAX when not stalled */
    SimTime cycle_start;
    uint64_t used; /* transactions sent in the current drain cycle */
    SimEvent ev;
    uint64_t *packets, *stores, *passed, *egress, *format_errors, *stall_ps, *max_fill;
} Depacketizer;

static const ParamDef dp_params[] = {
    {.key = "entries",
     .offset = offsetof(Depacketizer, entries),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = 65536,
     .doc = "buffer slots of 128 B (one per unpacked store or passing transaction)"},
    {.key = "drain_per_cycle",
     .offset = offsetof(Depacketizer, drain),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 1024,
     .doc = "transactions drained towards the crossbar per clock cycle"},
};

static const PortDef dp_ports[] = {
    {.name = "up", .required = true, .doc = "crossbar side: unpacked stores out"},
    {.name = "down", .required = true, .doc = "network side: packets in, egress out"},
};

static void dp_wake(void *subject, void *obj);

static bool dp_realize(Block *b, SimError *err)
{
    Depacketizer *d = (Depacketizer *)b;
    (void)err;
    d->up = block_port(b, "up", -1);
    d->down = block_port(b, "down", -1);
    sim_event_init(&d->ev, b->sim, SIM_PRIO_DEFAULT, dp_wake, d, NULL);
    return true;
}

static void dp_reset(Block *b)
{
    Depacketizer *d = (Depacketizer *)b;
    d->stall_since = SIM_TIME_MAX;
    d->cycle_start = 0;
    d->used = 0;
    d->pos = 0;
}

static bool dp_is_packet(const Txn *t)
{
    uint32_t sh = t->fp_packet & 0xfu;
    return t->cmd == TXN_WRITE && (t->fp_packet & FP_TAG_MASK) == FP_TAG_PACKET &&
           (t->fp_packet & ~(FP_TAG_MASK | 0xfu)) == 0 && sh >= FP_SUBHDR_MIN &&
           sh <= FP_SUBHDR_MAX;
}

static void dp_push(Depacketizer *d, Txn *t)
{
    txn_fifo_push(&d->buf, t);
    if (d->buf.count > *d->max_fill) {
        *d->max_fill = d->buf.count;
    }
}

/* Checks the whole packet before anything is unpacked. */
static bool dp_parse_ok(const Txn *p, FpHeader *h)
{
    uint32_t sh = p->fp_packet & 0xfu, bits = fp_offset_bits(sh);
    if (!p->data || !fp_header_get(p->data, p->len, h) ||
        p->len != FP_HDR_BYTES + fp_pad_dw(h->payload) ||
        (h->base >> bits << bits) != h->base) {
        return false;
    }
    uint32_t pos = 0;
    while (pos < h->payload) {
        uint32_t len;
        uint64_t off;
        if (h->payload - pos < sh) {
            return false;
        }
        fp_subhdr_get(p->data + FP_HDR_BYTES + pos, sh, &len, &off);
        pos += sh;
        if (len == 0 || len > FP_LINE || len > h->payload - pos ||
            (off + len - 1u) >> bits != 0) {
            return false;
        }
        pos += len;
    }
    return true;
}

/* The head of `down` leaves the port: ends a stall that was running. */
static Txn *dp_take(Depacketizer *d, SimTime now)
{
    if (d->stall_since != SIM_TIME_MAX) {
        *d->stall_ps += now - d->stall_since;
        d->stall_since = SIM_TIME_MAX;
    }
    return port_take(d->down);
}

/* Moves ingress transactions from `down` into the buffer while there is room. */
static void dp_fill(Depacketizer *d)
{
    SimTime now = sim_now(d->base.sim);
    Txn *p;
    while ((p = port_peek(d->down)) != NULL) {
        if (!dp_is_packet(p)) {
            if (d->buf.count >= d->entries) {
                break;
            }
            (*d->passed)++;
            dp_push(d, dp_take(d, now));
            continue;
        }
        uint32_t sh = p->fp_packet & 0xfu;
        if (d->pos == 0) {
            if (!dp_parse_ok(p, &d->head)) {
                (*d->format_errors)++;
                txn_unref(dp_take(d, now));
                continue;
            }
        }
        while (d->pos < d->head.payload && d->buf.count < d->entries) {
            uint32_t len;
            uint64_t off;
            const uint8_t *sp = p->data + FP_HDR_BYTES + d->pos;
            fp_subhdr_get(sp, sh, &len, &off);
            Txn *s = txn_new(d->base.sim, TXN_WRITE, d->head.base + off, len);
            txn_set_data(s, sp + sh);
            s->posted = true;
            s->src = p->src;
            s->dst = p->dst;
            txn_set_parents(s, &p->id, 1);
            dp_push(d, s);
            (*d->stores)++;
            d->pos += sh + len;
        }
        if (d->pos < d->head.payload) {
            break;
        }
        d->pos = 0;
        (*d->packets)++;
        txn_unref(dp_take(d, now));
    }
    if (port_peek(d->down) && d->stall_since == SIM_TIME_MAX) {
        d->stall_since = now;
    }
}

/* Drains the buffer towards `up` at drain_per_cycle per clock, refilling as it goes. */
static void dp_drain(Depacketizer *d)
{
    SimTime now = sim_now(d->base.sim), clk = d->base.plat->clock;
    dp_fill(d);
    while (d->buf.count > 0) {
        if (now >= d->cycle_start + clk) {
            d->used = 0;
        }
        if (d->used >= d->drain) {
            sim_event_notify_at(&d->ev, d->cycle_start + clk);
            return;
        }
        if (!port_send(d->up, txn_fifo_peek(&d->buf))) {
            return;
        }
        (void)txn_fifo_pop(&d->buf);
        if (d->used == 0) {
            d->cycle_start = now;
        }
        d->used++;
        dp_fill(d);
    }
}

static void dp_wake(void *subject, void *obj)
{
    (void)obj;
    dp_drain(subject);
}

static void dp_pump_down(Depacketizer *d)
{
    *d->egress += port_forward(d->up, d->down);
}

static void dp_on_recv(Block *b, Port *p)
{
    Depacketizer *d = (Depacketizer *)b;
    if (p == d->down) {
        dp_drain(d);
    } else {
        dp_pump_down(d);
    }
}

static void dp_on_free(Block *b, Port *p)
{
    Depacketizer *d = (Depacketizer *)b;
    if (p == d->up) {
        dp_drain(d);
    } else {
        dp_pump_down(d);
    }
}

static void dp_cost(Block *b, CostReport *r)
{
    Depacketizer *d = (Depacketizer *)b;
    cost_add_storage(r, b->name, "buffer", d->entries, FP_LINE * 8 + 64 + 8,
                     "de-packetizer slot: 128 B data, 64-bit address, 8-bit length");
}

static void dp_finalize(Block *b)
{
    Depacketizer *d = (Depacketizer *)b;
    txn_fifo_free(&d->buf);
}

static const StatDef depacketizer_stat_defs[] = {
    STAT(Depacketizer, packets, "packets", STAT_COUNTER, "", "FinePack packets unpacked"),
    STAT(Depacketizer, stores, "stores", STAT_COUNTER, "", "stores unpacked"),
    STAT(Depacketizer, passed, "passed", STAT_COUNTER, "",
         "ingress transactions passed through"),
    STAT(Depacketizer, egress, "egress", STAT_COUNTER, "",
         "egress transactions passed through"),
    STAT(Depacketizer, format_errors, "format_errors", STAT_COUNTER, "",
         "packets that did not parse (model error)", .is_error = true),
    STAT(Depacketizer, stall_ps, "stall_ps", STAT_TIME, "ps",
         "time the head of down waited for buffer room (ps)"),
    STAT(Depacketizer, max_fill, "max_fill", STAT_GAUGE, "", "largest buffer occupancy"),
};

const BlockType depacketizer_type = {
    .name = "depacketizer",
    .doc =
        "FinePack de-packetizer: packets to stores, 64 x 128 B drain buffer (SPEC 2.3)",
    .size = sizeof(Depacketizer),
    .params = dp_params,
    .nparams = sizeof dp_params / sizeof dp_params[0],
    .ports = dp_ports,
    .nports = sizeof dp_ports / sizeof dp_ports[0],
    .stat_defs = depacketizer_stat_defs,
    .nstat_defs = sizeof depacketizer_stat_defs / sizeof depacketizer_stat_defs[0],
    .realize = dp_realize,
    .reset = dp_reset,
    .on_recv = dp_on_recv,
    .on_free = dp_on_free,
    .finalize = dp_finalize,
    .cost = dp_cost,
};
