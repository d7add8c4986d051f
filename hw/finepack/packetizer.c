/* packetizer: the FinePack packetizer (paper 001 section IV-B, SPEC.md 2.2), a
 * bump-in-the-wire block between the remote write queue (`up`) and the egress path
 * (`down`).
 *
 * Modelled: a flush of the remote write queue arrives as its runs (posted writes
 * whose fp_run header has the tag FP_TAG_RUN, fp_format.h), in packet order; the
 * last run (no runs still to come) closes the packet. The packet is one transaction: cmd
 * write, posted, addr = window base, data = the exact TLP bytes (16-byte outer header of
 * Table I, then per run a sub-header of subhdr bytes with the 10-bit length and the
 * offset from the base, then the run's data, then zero padding to a whole DW), len =
 * those bytes, wire = payload bytes before padding (sub-headers + data; the link adds the
 * protocol's framing, header and CRC and pads to its flit), fp_packet =
 * FP_TAG_PACKET | subhdr, parent = the ids of the stores it carries (first appearance
 * order). Everything else passes through in order, in both directions, with backpressure.
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
#include "kernel/egress.h"
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
    Egress outq; /* waiting to leave through `down` */
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
    egress_init(&k->outq, b, k->down, NULL);
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
    p->fp_packet = fp_packet_header(sh);
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
    egress_add(&k->outq, p, 0);
}

static bool pk_is_run(const Txn *t)
{
    uint32_t sh = (t->fp_run >> 12) & 0xfu;
    return t->cmd == TXN_WRITE && (t->fp_run & FP_TAG_MASK) == FP_TAG_RUN &&
           sh >= FP_SUBHDR_MIN && sh <= FP_SUBHDR_MAX;
}

static void pk_run(Packetizer *k, Txn *t)
{
    uint32_t sh = (t->fp_run >> 12) & 0xfu;
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
    if ((t->fp_run & FP_RUN_MAX_REST) == 0) {
        pk_close(k);
    }
}

static void pk_pump(Packetizer *k)
{
    for (;;) {
        if (!egress_pump(&k->outq)) {
            return;
        }
        if (!port_peek(k->up)) {
            return;
        }
        Txn *t = port_take(k->up);
        if (pk_is_run(t)) {
            pk_run(k, t);
            continue;
        }
        if (k->open.count > 0) {
            (*k->format_errors)++;
            pk_close(k);
        }
        (*k->passed)++;
        egress_add(&k->outq, t, 0);
    }
}

static void pk_pump_up(Packetizer *k)
{
    *k->upstream += port_forward(k->down, k->up);
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
    egress_destroy(&k->outq);
    free(k->ids);
}

static const StatDef packetizer_stat_defs[] = {
    STAT(Packetizer, packets, "packets", STAT_COUNTER, "", "FinePack packets sent"),
    STAT(Packetizer, runs, "runs", STAT_COUNTER, "", "sub-packets in the packets"),
    STAT(Packetizer, stores, "stores", STAT_COUNTER, "",
         "store ids carried (packet parents)"),
    STAT(Packetizer, payload, "payload_bytes", STAT_COUNTER, "B",
         "payload bytes (sub-headers + data)"),
    STAT(Packetizer, subhdr_bytes, "subhdr_bytes", STAT_COUNTER, "B", "sub-header bytes"),
    STAT(Packetizer, data_bytes, "data_bytes", STAT_COUNTER, "B", "store data bytes"),
    STAT(Packetizer, pad_bytes, "pad_bytes", STAT_COUNTER, "B",
         "DW padding bytes after the payload"),
    STAT(Packetizer, passed, "passed", STAT_COUNTER, "",
         "egress transactions passed through"),
    STAT(Packetizer, upstream, "upstream", STAT_COUNTER, "",
         "ingress transactions passed through"),
    STAT(Packetizer, format_errors, "format_errors", STAT_COUNTER, "",
         "runs that did not fit the open packet (model error)", .is_error = true),
    STAT(Packetizer, stores_per_packet, "stores_per_packet", STAT_HIST, "",
         "stores carried by each packet", .width = 8, .buckets = 64),
    STAT(Packetizer, payload_hist, "payload_hist", STAT_HIST, "B",
         "payload bytes per packet", .width = 128, .buckets = 33),
};

const BlockType packetizer_type = {
    .name = "packetizer",
    .doc =
        "FinePack packetizer: queue flushes to TLP packets with sub-packets (SPEC 2.2)",
    .size = sizeof(Packetizer),
    .ports = pk_ports,
    .nports = sizeof pk_ports / sizeof pk_ports[0],
    .stat_defs = packetizer_stat_defs,
    .nstat_defs = sizeof packetizer_stat_defs / sizeof packetizer_stat_defs[0],
    .realize = pk_realize,
    .on_recv = pk_on_recv,
    .on_free = pk_on_free,
    .stats = pk_stats,
    .finalize = pk_finalize,
};
