/* codec: DualOpt's RDMA CoDec (paper 000 section 4.1.3, SPEC.md 1.4), a coalescer of
 * this GPU's outgoing fine-grained read responses and a de-coalescer of incoming
 * coalesced packets. It sits on the RDMA engine's network side, between rdma.net
 * (port `gpu`) and the GPU's link (port `net`).
 *
 * Modelled, egress (gpu -> net):
 * - A fine-grained response (resp to a read, status ok, with data, mask != 0 and
 *   every masked word inside [addr, addr + len), codec_is_fine) whose dst is another
 *   GPU is taken into the staging buffer of its destination (one per GPU, `entries`
 *   6 B entries each) as one entry per masked word, ascending, all at once. A buffer
 *   that cannot take all of a response's entries stops the input (backpressure: the
 *   response stays in the port buffer, head-of-line).
 * - A buffer is ready when it holds `packet_entries` (10) entries, or when it holds
 *   any and `timeout` has passed since its last insertion (the timer restarts on
 *   every insertion), or when the codec is disabled. A ready buffer emits one packet
 *   of min(count, packet_entries) entries, oldest first (layout: codec_pkt.h; wire =
 *   len = 4 + 6 n bytes, parent = ids of the carried responses).
 * - Every other transaction passes through unchanged, in order. The output `net`
 *   sends at most one transaction per clock cycle; the sources (buffers in GPU order,
 *   then the pass-through input) are served round-robin, starting after the source
 *   served last. A transaction the peer refuses is held and sent first when the
 *   peer frees a slot (on_free).
 * - Fine-grained read requests leaving this GPU are recorded (codec_track.h), so the
 *   de-coalescer can rebuild their responses.
 * Modelled, ingress (net -> gpu): a coalesced packet (resp with codec_packet
 * CODEC_PACKET_TAG) is split at arrival: entry k of a response fills the k-th masked
 * word of its record; a response whose words are all in leaves as a resp with the
 * request's id, addr, len, mask, unit and dst = its src, carrying the masked words
 * (other bytes zero), in packet order. Everything else passes through; a regular
 * response to a recorded request ends its record. Ingress adds no delay; what the
 * `gpu` side refuses waits in an internal queue, and `net` is taken only while that
 * queue holds fewer than `buffer` transactions.
 * Not modelled: compression algorithms (the field is fixed), the paper's response id
 * allocation (the low 16 bits of the transaction id stand for it).
 *
 * Timing (exact): C1 (SPEC 1.4): entries arrive at 0, 1, 2 ns -> one packet of 3
 * entries (22 B) at 2 + 30 = 32 ns. C2: 12 entries at 0..11 ns -> 10 at 9 ns, 2 at
 * 11 + 30 = 41 ns. A buffer reaching 10 entries at t emits at t unless the output
 * sent something in (t - 1 cycle, t].
 *
 * Decisions:
 * - Mode: `enabled` is the initial state; a transaction on the optional port `mode`
 *   sets enabled = (dualopt_mode == DUALOPT_MODE_COALESCE) (dualopt_mode.h) and is
 *   released (never answered). On disabling, buffered entries drain (every non-empty
 *   buffer is ready) and new fine-grained responses pass through uncoalesced.
 *   De-coalescing and request recording work in every mode.
 * - Response id = low 16 bits of the response's id. A second outstanding request
 *   with the same 16 bits cannot be told apart: counted in the model-error counter
 *   tag_errors. An entry whose response id names no record, or a malformed packet,
 *   is counted in the model-error counters unknown_entry_errors / packet_errors.
 * - Header count: 4 bits (SPEC.md 1.4: the paper's 3 bits cannot count 10).
 * - Fine-grained responses to this GPU itself (or to no valid GPU) pass through.
 * - The packet's addr is the address of its first entry's word; src = this GPU.
 * - A coalesced packet is one transaction with a fresh id. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/dualopt/codec_pkt.h"
#include "hw/dualopt/codec_track.h"
#include "hw/dualopt/dualopt_mode.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"

typedef struct CodecSlot {
    CodecEntry e;
    uint64_t id;   /* id of the response the word belongs to */
    uint64_t addr; /* address of the word */
} CodecSlot;

typedef struct CodecBuf {
    CodecSlot *slot; /* ring of `entries` slots, owned */
    uint32_t head, count;
    SimTime deadline; /* last insertion + timeout */
} CodecBuf;

typedef struct Codec {
    Block base;
    bool enabled;
    uint64_t entries, packet_entries;
    SimTime timeout;
    Port *gpu, *net, *mode;
    uint32_t nbuf;
    CodecBuf *buf; /* one per GPU (the own GPU's stays empty) */
    uint32_t rr;   /* first source to consider */
    SimTime next_out;
    Txn *held;     /* chosen for net but refused: sent first after on_free */
    Egress to_gpu; /* ingress waiting to leave through `gpu` */
    CodecTrack track;
    SimEvent ev;
    uint64_t *entries_in, *packets_out, *entries_out, *timeout_packets, *passed_out;
    uint64_t *fine_uncoalesced, *full_stalls, *packets_in, *rebuilt, *passed_in;
    uint64_t *mode_changes, *outstanding, *tag_errors, *unknown_errors, *packet_errors;
    StatHist *packet_hist;
} Codec;

static const ParamDef codec_params[] = {
    {.key = "enabled",
     .offset = offsetof(Codec, enabled),
     .type = PT_BOOL,
     .def = "true",
     .doc = "coalesce at start (a transaction on `mode` switches it)"},
    {.key = "entries",
     .offset = offsetof(Codec, entries),
     .type = PT_U64,
     .def = "64",
     .min = 16,
     .max = 65536,
     .doc = "6 B entries per staging buffer (one buffer per destination GPU)"},
    {.key = "packet_entries",
     .offset = offsetof(Codec, packet_entries),
     .type = PT_U64,
     .def = "10",
     .min = 1,
     .max = CODEC_MAX_ENTRIES,
     .doc = "entries that make a buffer emit a packet (also the most per packet)"},
    {.key = "timeout",
     .offset = offsetof(Codec, timeout),
     .type = PT_TIME,
     .def = "30cycles",
     .min = 1,
     .doc = "a buffer idle this long since its last insertion emits what it holds"},
};

static const PortDef codec_ports[] = {
    {.name = "gpu", .required = true, .doc = "RDMA engine side (rdma.net)"},
    {.name = "net", .required = true, .doc = "network side (the GPU's link)"},
    {.name = "mode", .doc = "mode transactions from the decision engine (dualopt_mode)"},
};

/* True if the egress transaction t goes into a staging buffer. */
static bool codec_coalescible(const Codec *c, const Txn *t)
{
    return c->enabled && t->cmd == TXN_RESP && t->req_cmd == TXN_READ &&
           t->status == TXN_STATUS_OK && t->data != NULL &&
           t->codec_packet != CODEC_PACKET_TAG && t->dst >= 0 &&
           (uint32_t)t->dst < c->nbuf && t->dst != c->base.gpu && codec_is_fine(t);
}

static bool codec_buf_ready(const Codec *c, const CodecBuf *b, SimTime now)
{
    return b->count >= c->packet_entries ||
           (b->count > 0 && (!c->enabled || now >= b->deadline));
}

static void codec_insert(Codec *c, Txn *t, SimTime now)
{
    CodecBuf *b = &c->buf[t->dst];
    uint64_t line = t->addr & ~(uint64_t)(CODEC_LINE_BYTES - 1);
    for (uint32_t w = 0; w < CODEC_WORDS; w++) {
        if (!(t->mask >> w & 1u)) {
            continue;
        }
        CodecSlot *s = &b->slot[(b->head + b->count) % c->entries];
        uint64_t a = line + 4u * w;
        memcpy(s->e.data, t->data + (a - t->addr), CODEC_WORD_BYTES);
        s->e.rid = (uint16_t)(t->id & 0xffffu);
        s->id = t->id;
        s->addr = a;
        b->count++;
        (*c->entries_in)++;
    }
    b->deadline = now + c->timeout;
}

/* Takes fine-grained responses at the head of the input into their buffers. */
static void codec_take_heads(Codec *c, SimTime now)
{
    Txn *t;
    while ((t = port_peek(c->gpu)) != NULL && codec_coalescible(c, t)) {
        const CodecBuf *b = &c->buf[t->dst];
        if (b->count + bits_popcount32(t->mask) > c->entries) {
            (*c->full_stalls)++;
            return;
        }
        codec_insert(c, port_take(c->gpu), now);
        txn_unref(t);
    }
}

/* A packet of the oldest entries of buffer d (new transaction, caller's reference). */
static Txn *codec_packet(Codec *c, uint32_t d, SimTime now)
{
    CodecBuf *b = &c->buf[d];
    uint32_t n = b->count < c->packet_entries ? b->count : (uint32_t)c->packet_entries;
    CodecEntry e[CODEC_MAX_ENTRIES];
    uint64_t parents[CODEC_MAX_ENTRIES];
    uint32_t np = 0;
    uint64_t addr = b->slot[b->head].addr;
    for (uint32_t i = 0; i < n; i++) {
        const CodecSlot *s = &b->slot[(b->head + i) % c->entries];
        e[i] = s->e;
        if (np == 0 || parents[np - 1] != s->id) {
            parents[np++] = s->id;
        }
    }
    if (b->count < c->packet_entries && c->enabled && now >= b->deadline) {
        (*c->timeout_packets)++;
    }
    b->head = (uint32_t)((b->head + n) % c->entries);
    b->count -= n;
    Txn *p = txn_new(c->base.sim, TXN_RESP, addr, codec_pkt_bytes(n));
    p->req_cmd = TXN_READ;
    p->status = TXN_STATUS_OK;
    p->src = (int16_t)c->base.gpu;
    p->dst = (int16_t)d;
    p->codec_packet = CODEC_PACKET_TAG;
    p->wire = codec_pkt_bytes(n);
    codec_pkt_encode(txn_set_data(p, NULL), e, n);
    txn_set_parents(p, parents, np);
    (*c->packets_out)++;
    *c->entries_out += n;
    stat_hist_add(c->packet_hist, n);
    return p;
}

/* Source index s < nbuf is buffer s; s == nbuf is the pass-through input. */
static bool codec_source_ready(const Codec *c, uint32_t s, SimTime now)
{
    if (s < c->nbuf) {
        return codec_buf_ready(c, &c->buf[s], now);
    }
    const Txn *t = port_peek(c->gpu);
    return t != NULL && !codec_coalescible(c, t);
}

/* The next transaction of the round-robin (new reference to the caller), NULL if
 * no source is ready. */
static Txn *codec_pick(Codec *c, SimTime now)
{
    uint32_t nsrc = c->nbuf + 1;
    for (uint32_t k = 0; k < nsrc; k++) {
        uint32_t s = (c->rr + k) % nsrc;
        if (!codec_source_ready(c, s, now)) {
            continue;
        }
        c->rr = (s + 1) % nsrc;
        if (s < c->nbuf) {
            return codec_packet(c, s, now);
        }
        Txn *t = port_take(c->gpu);
        if (t->cmd == TXN_READ && codec_is_fine(t)) {
            bool clash;
            if (codec_track_add(&c->track, t, &clash) && clash) {
                (*c->tag_errors)++;
            }
        }
        if (t->cmd == TXN_RESP && t->req_cmd == TXN_READ && codec_is_fine(t)) {
            (*c->fine_uncoalesced)++;
        }
        (*c->passed_out)++;
        return t;
    }
    return NULL;
}

/* Sends one transaction out of net if the output may send now; true if it did. A
 * refused transaction is held and sent first when the peer frees a slot. */
static bool codec_output(Codec *c, SimTime now)
{
    if (now < c->next_out) {
        return false;
    }
    if (c->held == NULL && (c->held = codec_pick(c, now)) == NULL) {
        return false;
    }
    if (!port_send(c->net, c->held)) {
        return false;
    }
    c->held = NULL;
    c->next_out = now + c->base.plat->clock;
    return true;
}

/* Earliest future time at which the egress side has work, SIM_TIME_MAX if none. */
static SimTime codec_next_wake(const Codec *c, SimTime now)
{
    SimTime wake = SIM_TIME_MAX;
    for (uint32_t s = 0; s <= c->nbuf; s++) {
        if (codec_source_ready(c, s, now)) {
            wake = c->held != NULL ? SIM_TIME_MAX : c->next_out;
            break;
        }
    }
    for (uint32_t d = 0; d < c->nbuf; d++) {
        const CodecBuf *b = &c->buf[d];
        if (b->count > 0 && b->deadline > now && b->deadline < wake) {
            wake = b->deadline;
        }
    }
    return wake;
}

static void codec_egress(void *subject, void *obj)
{
    Codec *c = subject;
    (void)obj;
    SimTime now = sim_now(c->base.sim);
    do {
        codec_take_heads(c, now);
    } while (codec_output(c, now));
    codec_take_heads(c, now);
    SimTime wake = codec_next_wake(c, now);
    if (wake != SIM_TIME_MAX && wake > now) {
        sim_event_notify_at(&c->ev, wake);
    }
}

/* Rebuilds the response of a completed record r (new transaction, caller's ref). */
static Txn *codec_rebuild(Codec *c, const CodecReq *r)
{
    Txn req;
    memset(&req, 0, sizeof req);
    req.id = r->id;
    req.cmd = TXN_READ;
    req.addr = r->addr;
    req.len = r->len;
    req.src = r->src;
    req.unit = r->unit;
    req.mask = r->mask;
    Txn *t = txn_new_response(c->base.sim, &req);
    uint8_t *data = txn_set_data(t, NULL);
    uint64_t line = r->addr & ~(uint64_t)(CODEC_LINE_BYTES - 1);
    for (uint32_t w = 0; w < CODEC_WORDS; w++) {
        if (r->mask >> w & 1u) {
            uint64_t a = line + 4u * w;
            memcpy(data + (a - r->addr), r->line + 4u * w, CODEC_WORD_BYTES);
        }
    }
    (*c->rebuilt)++;
    return t;
}

static void codec_split(Codec *c, const Txn *p)
{
    CodecEntry e[CODEC_MAX_ENTRIES];
    uint32_t n;
    (*c->packets_in)++;
    if (!codec_pkt_decode(p->data, p->data ? p->len : 0, e, &n)) {
        (*c->packet_errors)++;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        CodecReq *r = codec_track_by_tag(&c->track, e[i].rid);
        uint32_t rest = r ? r->mask & ~r->got : 0;
        if (rest == 0) {
            (*c->unknown_errors)++;
            continue;
        }
        uint32_t w = (uint32_t)__builtin_ctz(rest);
        memcpy(r->line + 4u * w, e[i].data, CODEC_WORD_BYTES);
        r->got |= 1u << w;
        if (r->got == r->mask) {
            egress_add(&c->to_gpu, codec_rebuild(c, r), 0);
            codec_track_remove(&c->track, r);
        }
    }
}

static void codec_ingress(Codec *c)
{
    for (;;) {
        Txn *t;
        (void)egress_pump(&c->to_gpu);
        if (egress_len(&c->to_gpu) >= c->base.buffer || (t = port_take(c->net)) == NULL) {
            return;
        }
        if (t->cmd == TXN_RESP && t->codec_packet == CODEC_PACKET_TAG) {
            codec_split(c, t);
            txn_unref(t);
            continue;
        }
        CodecReq *r = t->cmd == TXN_RESP ? codec_track_by_id(&c->track, t->id) : NULL;
        if (r != NULL) {
            codec_track_remove(&c->track, r);
        }
        (*c->passed_in)++;
        egress_add(&c->to_gpu, t, 0);
    }
}

static void codec_set_mode(Codec *c)
{
    Txn *t;
    while ((t = port_take(c->mode)) != NULL) {
        bool on = t->dualopt_mode == DUALOPT_MODE_COALESCE;
        if (on != c->enabled) {
            (*c->mode_changes)++;
        }
        c->enabled = on;
        txn_unref(t);
    }
}

static bool codec_realize(Block *b, SimError *err)
{
    Codec *c = (Codec *)b;
    (void)err;
    c->gpu = block_port(b, "gpu", -1);
    c->net = block_port(b, "net", -1);
    c->mode = block_port(b, "mode", -1);
    egress_init(&c->to_gpu, b, c->gpu, NULL);
    c->nbuf = b->plat->gpus;
    c->buf = calloc(c->nbuf, sizeof *c->buf);
    if (c->buf == NULL) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    for (uint32_t d = 0; d < c->nbuf; d++) {
        c->buf[d].slot = calloc(c->entries, sizeof *c->buf[d].slot);
        if (c->buf[d].slot == NULL) {
            return sim_error_set(err, "%s: out of memory", b->name);
        }
    }
    sim_event_init(&c->ev, b->sim, SIM_PRIO_DEFAULT, codec_egress, c, NULL);
    return true;
}

static void codec_reset(Block *b)
{
    Codec *c = (Codec *)b;
    for (uint32_t d = 0; d < c->nbuf; d++) {
        c->buf[d].head = c->buf[d].count = 0;
    }
    c->rr = 0;
    c->next_out = 0;
    if (c->held != NULL) {
        txn_unref(c->held);
        c->held = NULL;
    }
    egress_clear(&c->to_gpu);
    codec_track_destroy(&c->track);
}

static void codec_on_recv(Block *b, Port *p)
{
    Codec *c = (Codec *)b;
    if (p == c->net) {
        codec_ingress(c);
        return;
    }
    if (p == c->mode) {
        codec_set_mode(c);
    }
    sim_event_notify(&c->ev, 0);
}

static void codec_on_free(Block *b, Port *p)
{
    Codec *c = (Codec *)b;
    if (p == c->gpu) {
        codec_ingress(c);
        return;
    }
    sim_event_notify(&c->ev, 0);
}

static void codec_stats(Block *b)
{
    Codec *c = (Codec *)b;
    *c->outstanding = codec_track_count(&c->track);
}

static void codec_finalize(Block *b)
{
    Codec *c = (Codec *)b;
    for (uint32_t d = 0; c->buf != NULL && d < c->nbuf; d++) {
        free(c->buf[d].slot);
    }
    free(c->buf);
    if (c->held != NULL) {
        txn_unref(c->held);
    }
    egress_destroy(&c->to_gpu);
    codec_track_destroy(&c->track);
}

static void codec_cost(Block *b, CostReport *r)
{
    const Codec *c = (const Codec *)b;
    uint32_t peers = c->nbuf > 1 ? c->nbuf - 1 : 1;
    cost_add_storage(r, b->name, "staging buffers", peers * c->entries,
                     8u * CODEC_ENTRY_BYTES,
                     "one 6 B entry (4 B data + 2 B response id) per slot, one buffer "
                     "per destination GPU");
}

static const StatDef codec_stat_defs[] = {
    STAT(Codec, entries_in, "entries_in", STAT_COUNTER, "", "fine-grained words staged"),
    STAT(Codec, packets_out, "packets_out", STAT_COUNTER, "", "coalesced packets sent"),
    STAT(Codec, entries_out, "entries_out", STAT_COUNTER, "", "entries sent in packets"),
    STAT(Codec, timeout_packets, "timeout_packets", STAT_COUNTER, "",
         "packets emitted by the timeout (< 10)"),
    STAT(Codec, passed_out, "passed_out", STAT_COUNTER, "",
         "egress transactions passed through"),
    STAT(Codec, fine_uncoalesced, "fine_uncoalesced", STAT_COUNTER, "",
         "fine-grained responses passed through uncoalesced"),
    STAT(Codec, full_stalls, "full_stalls", STAT_COUNTER, "",
         "input stalls on a full staging buffer"),
    STAT(Codec, packets_in, "packets_in", STAT_COUNTER, "", "coalesced packets received"),
    STAT(Codec, rebuilt, "responses_rebuilt", STAT_COUNTER, "",
         "responses split out of packets"),
    STAT(Codec, passed_in, "passed_in", STAT_COUNTER, "",
         "ingress transactions passed through"),
    STAT(Codec, mode_changes, "mode_changes", STAT_COUNTER, "",
         "enable/disable switches"),
    STAT(Codec, outstanding, "outstanding", STAT_GAUGE, "",
         "fine-grained requests still waiting for entries at the end"),
    STAT(Codec, tag_errors, "tag_errors", STAT_COUNTER, "",
         "model error: two outstanding requests share a response id", .is_error = true),
    STAT(Codec, unknown_errors, "unknown_entry_errors", STAT_COUNTER, "",
         "model error: entries naming no waiting request", .is_error = true),
    STAT(Codec, packet_errors, "packet_errors", STAT_COUNTER, "",
         "model error: malformed coalesced packets", .is_error = true),
    STAT(Codec, packet_hist, "packet_entries", STAT_HIST, "",
         "entries per coalesced packet", .width = 1, .buckets = CODEC_MAX_ENTRIES + 1),
};

const BlockType codec_type = {
    .name = "codec",
    .doc = "DualOpt RDMA CoDec: coalesces fine-grained responses, splits packets",
    .size = sizeof(Codec),
    .params = codec_params,
    .nparams = sizeof codec_params / sizeof codec_params[0],
    .ports = codec_ports,
    .nports = sizeof codec_ports / sizeof codec_ports[0],
    .stat_defs = codec_stat_defs,
    .nstat_defs = sizeof codec_stat_defs / sizeof codec_stat_defs[0],
    .realize = codec_realize,
    .reset = codec_reset,
    .on_recv = codec_on_recv,
    .on_free = codec_on_free,
    .stats = codec_stats,
    .finalize = codec_finalize,
    .cost = codec_cost,
};
