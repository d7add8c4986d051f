/* Testbench sink ("sink"): terminates a port, standing for whatever would sit on the
 * other side (not hardware; docs/testbench-format.md).
 * - Takes every transaction arriving at "in". With take_delay = 0 (default) it
 *   takes on arrival; otherwise a transaction is taken take_delay after it reaches
 *   the head of the receive buffer, so the buffer (param "buffer") fills and the
 *   sender sees backpressure: a slow consumer.
 * - respond (default true): a transaction needing a response (read, non-posted
 *   write, atomic) is answered when taken, out of "in", with txn_new_response
 *   (status ok); reads and atomics carry len bytes of zeros, writes no data.
 *   Decision: answering by default keeps requesters from waiting forever; set
 *   respond=false to absorb requests (the driver's check then reports them).
 * - A refused response is resent on on_free; until it goes out the sink takes
 *   nothing more (backpressure propagates), and the head's take_delay starts again
 *   once it is sent.
 * Stats: received, responses. */
#include <stddef.h>

#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"

typedef struct Sink {
    Block base;
    SimTime take_delay;
    bool respond;
    Port *in;
    SimEvent take_ev;
    Egress out; /* a response refused by the peer, until on_free */
    uint64_t *received, *responses;
} Sink;

static void sink_take_one(Sink *s)
{
    Txn *t = port_take(s->in);
    (*s->received)++;
    if (s->respond && txn_needs_response(t)) {
        Txn *r = txn_new_response(s->base.sim, t);
        if (t->cmd != TXN_WRITE) {
            txn_set_data(r, NULL);
        }
        (*s->responses)++;
        (void)egress_push(&s->out, r, 0);
    }
    txn_unref(t);
}

static void sink_service(Sink *s)
{
    if (egress_len(&s->out) > 0 || sim_event_pending(&s->take_ev)) {
        return;
    }
    if (s->take_delay > 0) {
        if (port_count(s->in) > 0) {
            sim_event_notify(&s->take_ev, s->take_delay);
        }
        return;
    }
    while (egress_len(&s->out) == 0 && port_count(s->in) > 0) {
        sink_take_one(s);
    }
}

static void sink_take(void *subject, void *obj)
{
    (void)obj;
    sink_take_one(subject);
    sink_service(subject);
}

static void sink_recv(Block *b, Port *p)
{
    (void)p;
    sink_service((Sink *)b);
}

static void sink_free_slot(Block *b, Port *p)
{
    Sink *s = (Sink *)b;
    (void)p;
    if (egress_len(&s->out) > 0 && egress_pump(&s->out)) {
        sink_service(s);
    }
}

static bool sink_realize(Block *b, SimError *err)
{
    Sink *s = (Sink *)b;
    s->in = block_port(b, "in", -1);
    if (!s->in) {
        return sim_error_set(err, "%s: has no port in", b->name);
    }
    sim_event_init(&s->take_ev, b->sim, SIM_PRIO_DEFAULT, sink_take, s, NULL);
    egress_init(&s->out, b, s->in, NULL);
    return true;
}

static void sink_finalize(Block *b)
{
    egress_destroy(&((Sink *)b)->out);
}

static const ParamDef sink_params[] = {
    {.key = "take_delay",
     .offset = offsetof(Sink, take_delay),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "time a transaction waits at the head before it is taken"},
    {.key = "respond",
     .offset = offsetof(Sink, respond),
     .type = PT_BOOL,
     .def = "true",
     .doc = "answer reads (zero data), non-posted writes and atomics"},
};

static const PortDef sink_ports[] = {
    {.name = "in",
     .required = true,
     .doc = "receives transactions (any class refused when full); sends the responses",
     .bounded_answers = true},
};

static const StatDef sink_stat_defs[] = {
    STAT(Sink, received, "received", STAT_COUNTER, "", "transactions taken"),
    STAT(Sink, responses, "responses", STAT_COUNTER, "", "responses sent"),
};

const BlockType sink_type = {
    .name = "sink",
    .doc = "testbench sink: takes transactions (optionally slowly) and answers them",
    .size = sizeof(Sink),
    .params = sink_params,
    .nparams = sizeof sink_params / sizeof sink_params[0],
    .ports = sink_ports,
    .nports = 1,
    .stat_defs = sink_stat_defs,
    .nstat_defs = sizeof sink_stat_defs / sizeof sink_stat_defs[0],
    .realize = sink_realize,
    .on_recv = sink_recv,
    .on_free = sink_free_slot,
    .finalize = sink_finalize,
};
