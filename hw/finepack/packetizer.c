/* packetizer: the FinePack packetizer (paper 001 section IV-B, SPEC.md 2.2), a
 * bump-in-the-wire block between the remote write queue (`up`) and the egress path
 * (`down`).
 *
 * Modelled: a flush of the remote write queue arrives as its runs (posted writes
 * tagged FP_HINT_RUN, fp_format.h), in packet order; the last run (no runs still to
 * come) closes the packet. The packet is one transaction: cmd write, posted, addr =
 * window base, data = the exact TLP bytes (16-byte outer header of Table I, then per
 * run a sub-header of subhdr bytes with the 10-bit length and the offset from the
 * base, then the run's data, then zero padding to a whole DW), len = those bytes,
 * wire = payload bytes before padding (sub-headers + data; the link adds the
 * protocol's framing, header and CRC and pads to its flit), hint = FP_HINT_PACKET |
 * subhdr, parent = the ids of the stores it carries (first appearance order).
 * Everything else passes through in order, in both directions, with backpressure.
 * Not modelled: the packetizer's own cycles (a packet leaves when its last run
 * arrives).
 *
 * Decisions:
 * - Requester ID = source GPU << 8 (bus = GPU); Tag = packets sent so far mod 256.
 * - A run that does not fit the packet being built (another destination or
 *   sub-header size, outside the window of the first run, a payload over 4096 bytes,
 *   a length over 1023) is a model error: counted in format_errors; the open packet
 *   is closed before it and the run starts a new one, so nothing is lost. A
 *   non-run transaction arriving while a packet is open closes it first (also a
 *   format error). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/finepack/fp_format.h"
#include "kernel/block.h"
#include "kernel/txn_fifo.h"
#include "kernel/xalloc.h"

typedef struct Packetizer {
    Block base;
    Port *up, *down;
    TxnFifo open; /* runs of the packet being built */
    uint32_t open_payload;
    uint64_t open_base;
    uint32_t open_subhdr;
    int open_dst;
    uint64_t *ids; /* parent scratch */
    size_t ids_cap;
    TxnFifo outq;
    uint8_t tag;
    uint64_t *packets, *runs, *stores, *payload, *subhdr_bytes, *data_bytes;
    uint64_t *pad_bytes, *passed, *upstream, *format_errors;
    StatHist *stores_per_packet, *payload_hist;
} Packetizer;

static const PortDef pk_ports[] = {
    {.name = "up", .required = true, .doc = "remote write queue side: runs in"},
    {.name = "down", .required = true, .doc = "egress side: packets out, ingress in"},
};

static bool pk_realize(Block *b, SimError *err)
{
    Packetizer *k = (Packetizer *)b;
    (void)err;
    k->up = block_port(b, "up", -1);
    k->down = block_port(b, "down", -1);
    k->packets = block_counter(b, "packets", "FinePack packets sent");
    k->runs = block_counter(b, "runs", "sub-packets in the packets");
    k->stores = block_counter(b, "stores", "store ids carried (packet parents)");
    k->payload = block_counter(b, "payload_bytes", "payload bytes (sub-headers + data)");
    k->subhdr_bytes = block_counter(b, "subhdr_bytes", "sub-header bytes");
    k->data_bytes = block_counter(b, "data_bytes", "store data bytes");
    k->pad_bytes = block_counter(b, "pad_bytes", "DW padding bytes after the payload");
    k->passed = block_counter(b, "passed", "egress transactions passed through");
    k->upstream = block_counter(b, "upstream", "ingress transactions passed through");
    k->format_errors = block_counter(
        b, "format_errors", "runs that did not fit the open packet (model error)");
    k->stores_per_packet =
        block_hist(b, "stores_per_packet", 8, 64, "stores carried by each packet");
    k->payload_hist = block_hist(b, "payload_hist", 128, 33, "payload bytes per packet");
    return true;
}

static void pk_need_ids(Packetizer *k, size_t n)
{
    k->ids = xgrow(k->ids, &k->ids_cap, n, sizeof *k->ids, 64);
}

/* Builds the packet from the open runs and queues it. */
static void pk_close(Packetizer *k)
{
    if (k->open.count == 0) {
        return;
    }
    uint32_t sh = k->open_subhdr, payload = k->open_payload;
    uint32_t len = FP_HDR_BYTES + fp_pad_dw(payload);
    Txn *first = txn_fifo_peek(&k->open);
    Txn *p = txn_new(k->base.sim, TXN_WRITE, k->open_base, len);
    uint8_t *d = txn_set_data(p, NULL);
    p->posted = true;
    p->src = first->src;
    p->dst = first->dst;
    p->wire = payload;
    p->hint = fp_hint_packet(sh);
    FpHeader h = {.base = k->open_base,
                  .payload = payload,
                  .requester = (uint16_t)((first->src < 0 ? 0 : first->src) << 8),
                  .tag = k->tag++};
    fp_header_put(d, &h);
    size_t pos = FP_HDR_BYTES, nids = 0, nruns = 0;
    Txn *r;
    while ((r = txn_fifo_pop(&k->open)) != NULL) {
        fp_subhdr_put(d + pos, sh, r->len, r->addr - k->open_base);
        pos += sh;
        if (r->data) {
            memcpy(d + pos, r->data, r->len);
        }
        pos += r->len;
        pk_need_ids(k, nids + r->nparents);
        for (uint32_t i = 0; i < r->nparents; i++) {
            size_t j = 0;
            while (j < nids && k->ids[j] != r->parents[i]) {
                j++;
            }
            if (j == nids) {
                k->ids[nids++] = r->parents[i];
            }
        }
        *k->data_bytes += r->len;
        *k->subhdr_bytes += sh;
        nruns++;
        txn_unref(r);
    }
    txn_set_parents(p, k->ids, (uint32_t)nids);
    (*k->packets)++;
    *k->runs += nruns;
    *k->stores += nids;
    *k->payload += payload;
    *k->pad_bytes += fp_pad_dw(payload) - payload;
    stat_hist_add(k->stores_per_packet, nids);
    stat_hist_add(k->payload_hist, payload);
    k->open_payload = 0;
    txn_fifo_push(&k->outq, p);
}

static bool pk_is_run(const Txn *t)
{
    uint32_t sh = (t->hint >> 12) & 0xfu;
    return t->cmd == TXN_WRITE && (t->hint & FP_HINT_KIND_MASK) == FP_HINT_RUN &&
           sh >= FP_SUBHDR_MIN && sh <= FP_SUBHDR_MAX;
}

static void pk_run(Packetizer *k, Txn *t)
{
    uint32_t sh = (t->hint >> 12) & 0xfu;
    uint32_t bits = fp_offset_bits(sh);
    uint64_t base = t->addr >> bits << bits;
    bool fits = t->len > 0 && t->len < (1u << FP_LEN_BITS) &&
                (t->addr + t->len - 1u) >> bits == t->addr >> bits;
    if (k->open.count > 0 &&
        (sh != k->open_subhdr || t->dst != k->open_dst || base != k->open_base ||
         k->open_payload + sh + t->len > FP_MAX_PAYLOAD)) {
        fits = false;
    }
    if (!fits) {
        (*k->format_errors)++;
        pk_close(k);
    }
    if (k->open.count == 0) {
        k->open_subhdr = sh;
        k->open_dst = t->dst;
        k->open_base = base;
    }
    k->open_payload += sh + t->len;
    txn_fifo_push(&k->open, t);
    if ((t->hint & FP_HINT_RUN_MAX_REST) == 0) {
        pk_close(k);
    }
}

static void pk_pump(Packetizer *k)
{
    for (;;) {
        Txn *t;
        while ((t = txn_fifo_peek(&k->outq)) != NULL) {
            if (!port_send(k->down, t)) {
                return;
            }
            (void)txn_fifo_pop(&k->outq);
        }
        if (!port_peek(k->up)) {
            return;
        }
        t = port_take(k->up);
        if (pk_is_run(t)) {
            pk_run(k, t);
            continue;
        }
        if (k->open.count > 0) {
            (*k->format_errors)++;
            pk_close(k);
        }
        (*k->passed)++;
        txn_fifo_push(&k->outq, t);
    }
}

static void pk_pump_up(Packetizer *k)
{
    Txn *t;
    while ((t = port_peek(k->down)) != NULL) {
        if (!port_send(k->up, t)) {
            return;
        }
        (void)port_take(k->down);
        (*k->upstream)++;
    }
}

static void pk_on_recv(Block *b, Port *p)
{
    Packetizer *k = (Packetizer *)b;
    if (p == k->up) {
        pk_pump(k);
    } else {
        pk_pump_up(k);
    }
}

static void pk_on_free(Block *b, Port *p)
{
    Packetizer *k = (Packetizer *)b;
    if (p == k->down) {
        pk_pump(k);
    } else {
        pk_pump_up(k);
    }
}

/* A packet still open at the end lost its last run: a model error. */
static void pk_stats(Block *b)
{
    Packetizer *k = (Packetizer *)b;
    if (k->open.count > 0) {
        (*k->format_errors)++;
    }
}

static void pk_finalize(Block *b)
{
    Packetizer *k = (Packetizer *)b;
    txn_fifo_free(&k->open);
    txn_fifo_free(&k->outq);
    free(k->ids);
}

const BlockType packetizer_type = {
    .name = "packetizer",
    .doc =
        "FinePack packetizer: queue flushes to TLP packets with sub-packets (SPEC 2.2)",
    .size = sizeof(Packetizer),
    .ports = pk_ports,
    .nports = sizeof pk_ports / sizeof pk_ports[0],
    .realize = pk_realize,
    .on_recv = pk_on_recv,
    .on_free = pk_on_free,
    .stats = pk_stats,
    .finalize = pk_finalize,
};
