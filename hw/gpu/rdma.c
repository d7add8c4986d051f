/* rdma: a GPU's RDMA engine, the bridge between the GPU side (xbar.remote) and the
 * network (the GPU's link). Baseline DCA path of DualOpt (paper 000); later blocks
 * (CoDec, RDMA$, remote write queue) sit beside or in front of it.
 *
 * Modelled: an egress lane (gpu -> net) and an ingress lane (net -> gpu), each a FIFO
 * that forwards one transaction after another with a fixed `latency`
 * (port_send_after), with backpressure; tracking of every egress transaction that
 * needs a response (by id), matching of each ingress response against it, and the
 * latency of remote reads (egress send to ingress arrival of the response).
 * Not modelled: queue pairs, doorbells, packetisation (the link adds overhead),
 * address translation, bandwidth limits of the engine itself.
 *
 * Decisions:
 * - An ingress response must match exactly one outstanding egress request id; an
 *   unknown or duplicate response is counted in the model-error counter
 *   resp_unmatched_errors and released (not forwarded). An egress request whose id is
 *   already outstanding is counted in the model-error counter id_errors (and
 *   forwarded; the first entry stays).
 * - Egress responses (answers to requests other GPUs made here) and posted writes are
 *   not tracked. Ingress requests are forwarded to the GPU (counted in served).
 * - read_latency runs from the egress send of a read to the moment its response
 *   leaves the ingress lane (equal to the response's arrival unless the GPU side
 *   applies backpressure).
 * - release/kernel_begin/kernel_end reaching the rdma from either side end here
 *   (counted in controls): this engine has no state they act on.
 * - bytes_out / bytes_in count data bytes (len of transactions that carry data).
 * - DualOpt fine-grained reads (SPEC 1.4): a read response leaving towards another
 *   GPU whose mask is non-zero returns only the masked 4-byte words: the other bytes
 *   are cleared, wire = 6 B per masked word (4 B data + 2 B response id; the link
 *   adds its packet overhead unless a CoDec packs the entries), and bytes_out counts
 *   4 B per word. Reads without a mask are unchanged.
 * - Throughput (`interval`, default 0 = unlimited): each lane forwards at most one
 *   transaction per interval (a transaction that ends here costs nothing); the next
 *   one waits until interval after the previous send. */
#include <stddef.h>

#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/event.h"
#include "kernel/idmap.h"

typedef struct RdmaLane {
    struct Rdma *r;
    Port *in, *out;
    bool egress;
    SimTime next; /* earliest time of the next send (interval) */
    SimEvent ev;
} RdmaLane;

typedef struct Rdma {
    Block base;
    SimTime latency;
    SimTime interval;
    RdmaLane lane[2]; /* 0 egress (gpu -> net), 1 ingress (net -> gpu) */
    IdMap pending;    /* egress request id -> send time */
    uint64_t *reads, *writes, *atomics, *other_out, *served, *resp_out, *resp_in;
    uint64_t *bytes_out, *bytes_in, *outstanding, *resp_unmatched, *id_errors;
    uint64_t *controls;
    StatHist *read_latency;
    double *read_latency_mean;
} Rdma;

static const ParamDef rdma_params[] = {
    {.key = "latency",
     .offset = offsetof(Rdma, latency),
     .type = PT_TIME,
     .def = "20ns",
     .doc = "forwarding latency of each lane (egress and ingress)"},
    {.key = "interval",
     .offset = offsetof(Rdma, interval),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "throughput: one transaction per interval per lane (0 = no limit)"},
};

static const PortDef rdma_ports[] = {
    {.name = "gpu",
     .required = true,
     .doc = "GPU side: remote requests and responses in, remote traffic out"},
    {.name = "net",
     .required = true,
     .doc = "network side (the GPU's link): egress out, ingress in"},
};

static bool rdma_is_control(TxnCmd c)
{
    return c == TXN_RELEASE || c == TXN_KERNEL_BEGIN || c == TXN_KERNEL_END;
}

static bool rdma_fine(const Txn *t)
{
    return t->cmd == TXN_RESP && t->req_cmd == TXN_READ && t->mask && t->data;
}

static uint64_t rdma_data_bytes(const Txn *t)
{
    if (rdma_fine(t)) {
        return 4 * (uint64_t)bits_popcount32(t->mask);
    }
    return t->data ? t->len : 0;
}

/* Keeps only the masked words of a fine-grained read response (SPEC 1.4; bit i =
 * word i counted from the response's line address). */
static void rdma_trim(Txn *t)
{
    for (uint32_t i = 0; i < t->len; i++) {
        if (!((t->mask >> (i / 4)) & 1)) {
            t->data[i] = 0;
        }
    }
    t->wire = 6 * (uint32_t)bits_popcount32(t->mask);
}

/* Bookkeeping for t about to leave through lane ln at now. */
static void rdma_account(Rdma *r, const RdmaLane *ln, const Txn *t, SimTime now)
{
    if (ln->egress) {
        *r->bytes_out += rdma_data_bytes(t);
        if (t->cmd == TXN_RESP) {
            (*r->resp_out)++;
            return;
        }
        if (t->cmd == TXN_READ) {
            (*r->reads)++;
        } else if (t->cmd == TXN_WRITE) {
            (*r->writes)++;
        } else if (t->cmd == TXN_ATOMIC) {
            (*r->atomics)++;
        } else {
            (*r->other_out)++;
        }
        if (txn_needs_response(t) && !idmap_insert(&r->pending, t->id, now)) {
            (*r->id_errors)++;
        }
        return;
    }
    *r->bytes_in += rdma_data_bytes(t);
    if (t->cmd == TXN_RESP) {
        (*r->resp_in)++;
    } else {
        (*r->served)++;
    }
}

/* True if t, at the head of lane ln, must end here instead of being forwarded. */
static bool rdma_consume(Rdma *r, const RdmaLane *ln, const Txn *t)
{
    if (rdma_is_control(t->cmd)) {
        (*r->controls)++;
        return true;
    }
    if (ln->egress || t->cmd != TXN_RESP) {
        return false;
    }
    if (!idmap_get(&r->pending, t->id, NULL)) {
        (*r->resp_unmatched)++;
        return true;
    }
    return false;
}

static void rdma_pump(RdmaLane *ln)
{
    Rdma *r = ln->r;
    SimTime now = sim_now(r->base.sim);
    Txn *t;
    while ((t = port_peek(ln->in)) != NULL) {
        if (rdma_consume(r, ln, t)) {
            txn_unref(port_take(ln->in));
            continue;
        }
        if (ln->egress && rdma_fine(t) && t->wire == 0) {
            rdma_trim(t);
        }
        if (now < ln->next) {
            sim_event_notify_at(&ln->ev, ln->next);
            return;
        }
        /* On success the reference moves from our input buffer to the peer. */
        if (!port_send_after(ln->out, t, r->latency)) {
            return;
        }
        (void)port_take(ln->in);
        ln->next = now + r->interval;
        if (!ln->egress && t->cmd == TXN_RESP) {
            uint64_t sent = 0;
            idmap_remove(&r->pending, t->id, &sent);
            if (t->req_cmd == TXN_READ) {
                stat_hist_add(r->read_latency, now - sent);
            }
        }
        rdma_account(r, ln, t, now);
    }
}

static void rdma_wake(void *subject, void *obj)
{
    (void)obj;
    rdma_pump(subject);
}

static bool rdma_realize(Block *b, SimError *err)
{
    Rdma *r = (Rdma *)b;
    (void)err;
    Port *gpu = block_port(b, "gpu", -1);
    Port *net = block_port(b, "net", -1);
    r->lane[0] = (RdmaLane){.r = r, .in = gpu, .out = net, .egress = true};
    r->lane[1] = (RdmaLane){.r = r, .in = net, .out = gpu, .egress = false};
    for (int i = 0; i < 2; i++) {
        sim_event_init(&r->lane[i].ev, b->sim, SIM_PRIO_DEFAULT, rdma_wake, &r->lane[i],
                       NULL);
    }
    idmap_init_ordered(&r->pending);
    return true;
}

static void rdma_reset(Block *b)
{
    Rdma *r = (Rdma *)b;
    idmap_destroy(&r->pending);
    r->lane[0].next = r->lane[1].next = 0;
}

static void rdma_on_recv(Block *b, Port *p)
{
    Rdma *r = (Rdma *)b;
    rdma_pump(&r->lane[p == r->lane[0].in ? 0 : 1]);
}

static void rdma_on_free(Block *b, Port *p)
{
    Rdma *r = (Rdma *)b;
    rdma_pump(&r->lane[p == r->lane[0].out ? 0 : 1]);
}

static void rdma_stats(Block *b)
{
    Rdma *r = (Rdma *)b;
    *r->outstanding = idmap_count(&r->pending);
    const StatHist *h = r->read_latency;
    *r->read_latency_mean = h->count ? (double)h->sum / (double)h->count : 0.0;
}

static void rdma_finalize(Block *b)
{
    idmap_destroy(&((Rdma *)b)->pending);
}

static const StatDef rdma_stat_defs[] = {
    STAT(Rdma, reads, "remote_reads", STAT_COUNTER, "",
         "read requests sent to other GPUs"),
    STAT(Rdma, writes, "remote_writes", STAT_COUNTER, "",
         "write requests sent to other GPUs"),
    STAT(Rdma, atomics, "remote_atomics", STAT_COUNTER, "", "atomics sent to other GPUs"),
    STAT(Rdma, other_out, "remote_other", STAT_COUNTER, "",
         "other requests sent (invalidate)"),
    STAT(Rdma, served, "served", STAT_COUNTER, "",
         "requests from other GPUs passed to this GPU"),
    STAT(Rdma, resp_out, "resp_out", STAT_COUNTER, "",
         "responses sent back to other GPUs"),
    STAT(Rdma, resp_in, "resp_in", STAT_COUNTER, "", "responses received and matched"),
    STAT(Rdma, bytes_out, "bytes_out", STAT_COUNTER, "B",
         "data bytes sent to the network"),
    STAT(Rdma, bytes_in, "bytes_in", STAT_COUNTER, "B",
         "data bytes received from the network"),
    STAT(Rdma, outstanding, "outstanding", STAT_GAUGE, "",
         "egress requests still waiting for a response at the end"),
    STAT(Rdma, resp_unmatched, "resp_unmatched_errors", STAT_COUNTER, "",
         "model error: responses matching no outstanding request", .is_error = true),
    STAT(Rdma, id_errors, "id_errors", STAT_COUNTER, "",
         "model error: egress requests reusing an outstanding id", .is_error = true),
    STAT(Rdma, controls, "controls", STAT_COUNTER, "", "control commands ended here"),
    STAT(Rdma, read_latency, "read_latency", STAT_HIST, "ps",
         "remote read latency, egress send to response (ps)", .width = 10 * SIM_NS,
         .buckets = 200),
    STAT(Rdma, read_latency_mean, "read_latency_mean", STAT_TIME, "ps",
         "mean remote read latency (ps)"),
};

const BlockType rdma_type = {
    .name = "rdma",
    .doc = "RDMA engine: egress/ingress lanes with latency, response matching by id",
    .size = sizeof(Rdma),
    .params = rdma_params,
    .nparams = sizeof rdma_params / sizeof rdma_params[0],
    .ports = rdma_ports,
    .nports = sizeof rdma_ports / sizeof rdma_ports[0],
    .stat_defs = rdma_stat_defs,
    .nstat_defs = sizeof rdma_stat_defs / sizeof rdma_stat_defs[0],
    .realize = rdma_realize,
    .reset = rdma_reset,
    .on_recv = rdma_on_recv,
    .on_free = rdma_on_free,
    .stats = rdma_stats,
    .finalize = rdma_finalize,
};
