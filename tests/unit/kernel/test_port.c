/* Port unit tests: latency, bounded buffers, backpressure and on_free, answers that
 * are never refused (and ports that bound them), port_forward, transaction reference
 * counts and pool accounting, and a cut wire's credits kept by the sender. */
#include <stdlib.h>

#include "kernel/block.h"
#include "kernel/port.h"
#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

typedef struct Sender {
    Block b;
    Port port;
    Txn *held; /* a refused transaction, kept until the port frees */
    int next, total;
    int refused, freed;
} Sender;

typedef struct Receiver {
    Block b;
    Port port;
    SimTime take_every;
    uint64_t ids[64];
    SimTime at[64];
    int n;
    bool taking;
} Receiver;

static void sender_push(Sender *s)
{
    while (s->next < s->total) {
        if (!s->held) {
            s->held = txn_new(s->b.sim, TXN_WRITE, (uint64_t)s->next * 4, 4);
        }
        if (!port_send(&s->port, s->held)) {
            s->refused++;
            return;
        }
        s->held = NULL;
        s->next++;
    }
}

static void sender_on_free(Block *b, Port *p)
{
    Sender *s = (Sender *)b;
    CHECK(p == &s->port);
    s->freed++;
    sender_push(s);
}

static const BlockType sender_type = {
    .name = "test_sender", .size = sizeof(Sender), .on_free = sender_on_free};

static void receiver_take(void *subject, void *obj);

static void receiver_schedule(Receiver *r)
{
    if (!r->taking && port_count(&r->port) > 0) {
        r->taking = true;
        sim_schedule(r->b.sim, r->take_every, SIM_PRIO_DEFAULT, receiver_take, r, NULL);
    }
}

static void receiver_take(void *subject, void *obj)
{
    Receiver *r = subject;
    (void)obj;
    Txn *t = port_take(&r->port);
    r->ids[r->n] = t->id;
    r->at[r->n] = sim_now(r->b.sim);
    r->n++;
    txn_unref(t);
    r->taking = false;
    receiver_schedule(r);
}

static void receiver_on_recv(Block *b, Port *p)
{
    (void)p;
    receiver_schedule((Receiver *)b);
}

static const BlockType receiver_type = {
    .name = "test_receiver", .size = sizeof(Receiver), .on_recv = receiver_on_recv};

static void setup(Sim *sim, Sender *s, Receiver *r, uint32_t cap, SimTime latency)
{
    s->b = (Block){.type = &sender_type, .name = "s", .sim = sim};
    r->b = (Block){.type = &receiver_type, .name = "r", .sim = sim};
    CHECK(port_init(&s->port, &s->b, 0, "s.out", 4));
    CHECK(port_init(&r->port, &r->b, 0, "r.in", cap));
    CHECK(port_connect(&s->port, &r->port, latency, NULL));
}

static void test_latency_and_backpressure(void)
{
    Sim *sim = sim_new();
    Sender s = {.total = 5};
    Receiver r = {.take_every = 10};
    setup(sim, &s, &r, 2, 100);
    sender_push(&s);
    /* two slots: two accepted (in flight), the third refused */
    CHECK_EQ_U64(s.next, 2);
    CHECK_EQ_U64(s.refused, 1);
    CHECK(!port_can_send(&s.port));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 5);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_U64(r.ids[i], (uint64_t)i + 1);
    }
    /* arrivals at 100 (both); takes at 110, 120; the freed slots let ids 3 and 4 go at
     * 110 and 120 -> arrive 210, 220; taken 220 (after arrival 210 + 10), 230;
     * id 5 sent at 220 -> arrives 320, taken 330. */
    SimTime want[] = {110, 120, 220, 230, 330};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_U64(r.at[i], want[i]);
    }
    CHECK(s.freed >= 2);
    CHECK_EQ_U64(s.port.n_sent, 5);
    CHECK_EQ_U64(r.port.n_recv, 5);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    port_destroy(&s.port);
    port_destroy(&r.port);
    sim_free(sim);
}

/* A sender that only asks port_can_send (and never attempts a refused send) must
 * still be woken by on_free when the receiver frees a slot. */
static void test_can_send_registers_wakeup(void)
{
    Sim *sim = sim_new();
    Sender s = {.total = 0};
    Receiver r = {.take_every = 10};
    setup(sim, &s, &r, 1, 5);
    CHECK(port_can_send(&s.port));
    CHECK(port_send(&s.port, txn_new(sim, TXN_WRITE, 0, 4)));
    CHECK(!port_can_send(&s.port));
    CHECK_EQ_U64(s.refused, 0);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(s.freed, 1);
    CHECK_EQ_U64(r.n, 1);
    CHECK_EQ_U64(r.at[0], 15);
    port_destroy(&s.port);
    port_destroy(&r.port);
    sim_free(sim);
}

/* Responses and invalidates are accepted by a full port (the ring grows, order is
 * kept across the growth), while requests are still refused; a port with
 * bounded_answers refuses them like requests. */
static void test_answers_never_refused(void)
{
    Sim *sim = sim_new();
    Sender s = {.total = 0};
    Receiver r = {.take_every = 10};
    setup(sim, &s, &r, 2, 5);
    Txn *w0 = txn_new(sim, TXN_WRITE, 0, 4);
    Txn *w1 = txn_new(sim, TXN_WRITE, 4, 4);
    uint64_t w0_id = w0->id, w1_id = w1->id;
    Txn *req = txn_new(sim, TXN_READ, 0, 4);
    CHECK(port_send(&s.port, w0));
    CHECK(port_send(&s.port, w1));
    CHECK(!port_send(&s.port, req));
    uint64_t inv_id = 0;
    for (int i = 0; i < 6; i++) {
        Txn *a =
            i == 5 ? txn_new(sim, TXN_INVALIDATE, 64, 64) : txn_new_response(sim, req);
        inv_id = a->id;
        CHECK(port_send(&s.port, a));
    }
    CHECK(!port_send(&s.port, req));
    sim_run(sim, 5); /* every send has arrived (latency 5), none is taken yet */
    CHECK_EQ_U64(port_count(&r.port), 8);
    CHECK_EQ_U64(r.port.cap, 2);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 8);
    CHECK_EQ_U64(r.ids[0], w0_id);
    CHECK_EQ_U64(r.ids[1], w1_id);
    for (int i = 2; i < 7; i++) {
        CHECK_EQ_U64(r.ids[i], req->id); /* the responses carry the request's id */
    }
    CHECK_EQ_U64(r.ids[7], inv_id);
    for (int i = 0; i < 8; i++) {
        CHECK_EQ_U64(r.at[i], 15 + 10 * (uint64_t)i);
    }
    CHECK(port_send(&s.port, req));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 9);
    port_destroy(&s.port);
    port_destroy(&r.port);

    Sender s2 = {.total = 0};
    Receiver r2 = {.take_every = 10};
    setup(sim, &s2, &r2, 1, 5);
    r2.port.bounded_answers = true;
    Txn *q = txn_new(sim, TXN_READ, 0, 4);
    Txn *resp = txn_new_response(sim, q);
    CHECK(port_send(&s2.port, q));
    CHECK(!port_send(&s2.port, resp));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(s2.freed, 1);
    CHECK(port_send(&s2.port, resp));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r2.n, 2);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    port_destroy(&s2.port);
    port_destroy(&r2.port);
    sim_free(sim);
}

typedef struct Forwarder {
    Block b;
    Port in, out;
    uint32_t moved;
    int frees;
} Forwarder;

static void forwarder_on_recv(Block *b, Port *p)
{
    Forwarder *f = (Forwarder *)b;
    CHECK(p == &f->in);
    f->moved += port_forward(&f->in, &f->out);
}

static void forwarder_on_free(Block *b, Port *p)
{
    Forwarder *f = (Forwarder *)b;
    CHECK(p == &f->out);
    f->frees++;
    f->moved += port_forward(&f->in, &f->out);
}

static const BlockType forwarder_type = {.name = "test_forwarder",
                                         .size = sizeof(Forwarder),
                                         .on_recv = forwarder_on_recv,
                                         .on_free = forwarder_on_free};

/* s -> f.in (latency 5), f.out -> r (one slot, latency 5, taken every 10): the
 * forwarder passes everything on in order, waiting for on_free when r is full. */
static void test_forward(void)
{
    Sim *sim = sim_new();
    Sender s = {.total = 3};
    Receiver r = {.take_every = 10};
    Forwarder f = {.b = {.type = &forwarder_type, .name = "f", .sim = sim}};
    s.b = (Block){.type = &sender_type, .name = "s", .sim = sim};
    r.b = (Block){.type = &receiver_type, .name = "r", .sim = sim};
    CHECK(port_init(&s.port, &s.b, 0, "s.out", 4));
    CHECK(port_init(&f.in, &f.b, 0, "f.in", 4));
    CHECK(port_init(&f.out, &f.b, 1, "f.out", 4));
    CHECK(port_init(&r.port, &r.b, 0, "r.in", 1));
    CHECK(port_connect(&s.port, &f.in, 5, NULL));
    CHECK(port_connect(&f.out, &r.port, 5, NULL));
    sender_push(&s);
    CHECK_EQ_U64(port_forward(&f.in, &f.out), 0);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(f.moved, 3);
    CHECK(f.frees >= 2);
    CHECK_EQ_U64(port_count(&f.in), 0);
    CHECK_EQ_U64(r.n, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(r.ids[i], (uint64_t)i + 1);
    }
    /* all arrive at f at 5; one reaches r at 10 (taken 20), the next leaves at 20
     * (arrives 25, taken 35), the last leaves at 35 (arrives 40, taken 50) */
    CHECK_EQ_U64(r.at[0], 20);
    CHECK_EQ_U64(r.at[1], 35);
    CHECK_EQ_U64(r.at[2], 50);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    port_destroy(&s.port);
    port_destroy(&f.in);
    port_destroy(&f.out);
    port_destroy(&r.port);
    sim_free(sim);
}

static void test_connect_errors(void)
{
    Sim *sim = sim_new();
    Sender s = {0};
    Receiver r = {0};
    setup(sim, &s, &r, 1, 0);
    Port extra;
    CHECK(port_init(&extra, &s.b, 1, "s.extra", 1));
    SimError err;
    CHECK(!port_connect(&extra, &r.port, 0, &err));
    CHECK_STR(err.msg, "port r.in is already connected to s.out");
    CHECK(!port_connect(&extra, &extra, 0, &err));
    CHECK_STR(err.msg, "port s.extra cannot be connected to itself");
    port_destroy(&extra);
    port_destroy(&s.port);
    port_destroy(&r.port);
    sim_free(sim);
}

static void test_txn_refcounts(void)
{
    Sim *sim = sim_new();
    TxnPool *pool = sim_txn_pool(sim);
    Txn *req = txn_new(sim, TXN_READ, 0x1000, 200);
    CHECK_EQ_U64(req->id, 1);
    CHECK(txn_needs_response(req));
    uint8_t *d = txn_set_data(req, NULL);
    CHECK(d != req->inline_data);
    d[199] = 0xab;
    uint64_t parents[] = {7, 8, 9};
    txn_set_parents(req, parents, 3);
    Txn *resp = txn_new_response(sim, req);
    CHECK_EQ_U64(resp->id, req->id);
    CHECK(resp->cmd == TXN_RESP && resp->req_cmd == TXN_READ);
    CHECK(resp->status == TXN_STATUS_OK);
    CHECK_EQ_U64(txn_pool_live(pool), 2);
    txn_ref(req);
    txn_unref(req);
    CHECK_EQ_U64(txn_pool_live(pool), 2);
    CHECK_EQ_U64(req->data[199], 0xab);
    CHECK_EQ_U64(req->parents[2], 9);
    txn_unref(req);
    txn_unref(resp);
    CHECK_EQ_U64(txn_pool_live(pool), 0);
    Txn *w = txn_new(sim, TXN_WRITE, 0, 4);
    w->posted = true;
    CHECK(!txn_needs_response(w));
    CHECK_EQ_U64(w->id, 2);
    uint8_t *be = txn_alloc_be(w);
    CHECK(be == w->inline_be && be[0] == 0);
    /* a live transaction at the end is freed with the kernel (checked by valgrind) */
    txn_set_data(w, (const uint8_t *)"abcd");
    sim_free(sim);
}

static const TxnCmdDecl test_cmd_poke = {.name = "poke", .doc = "a test command"};
static const TxnCmdDecl test_cmd_peek = {.name = "peek", .doc = "another"};

static void test_names(void)
{
    TxnCmd c;
    const TxnCmdDecl *d = &test_cmd_peek;
    CHECK(txn_cmd_parse("kernel_end", NULL, &c, &d) && c == TXN_KERNEL_END && !d);
    CHECK(!txn_cmd_parse("kernel", NULL, &c, &d));
    CHECK(!txn_cmd_parse("poke", NULL, &c, &d));
    CHECK(!txn_cmd_parse("declared", NULL, &c, &d));
    CHECK_STR(txn_cmd_name(TXN_RESP), "resp");
    TxnStatus st;
    CHECK(txn_status_parse("address_error", &st) && st == TXN_STATUS_ADDRESS_ERROR);
    CHECK_STR(txn_status_name(TXN_STATUS_OK), "ok");
}

/* Commands declared outside the kernel: parsed from the caller's list, named in
 * labels, told apart by txn_is, carried into responses, never answered. */
static void test_declared(void)
{
    const TxnCmdDecl *const decls[] = {&test_cmd_poke, &test_cmd_peek, NULL};
    TxnCmd c;
    const TxnCmdDecl *d = NULL;
    CHECK(txn_cmd_parse("peek", decls, &c, &d) && c == TXN_DECLARED &&
          d == &test_cmd_peek);
    CHECK(txn_cmd_parse("read", decls, &c, &d) && c == TXN_READ && !d);
    CHECK(!txn_cmd_parse("pok", decls, &c, &d));
    Sim *sim = sim_new();
    Txn *t = txn_new_declared(sim, &test_cmd_poke, 0x40, 0);
    CHECK(t->cmd == TXN_DECLARED && txn_is(t, &test_cmd_poke));
    CHECK(!txn_is(t, &test_cmd_peek));
    CHECK_STR(txn_cmd_label(t), "poke");
    CHECK_STR(txn_req_label(t), "poke");
    CHECK(!txn_needs_response(t));
    Txn *r = txn_new_response(sim, t);
    CHECK(!txn_is(r, &test_cmd_poke));
    CHECK_STR(txn_cmd_label(r), "resp");
    CHECK_STR(txn_req_label(r), "poke");
    Txn *g = txn_new(sim, TXN_WRITE, 0, 0);
    CHECK(g->declared == NULL && !txn_is(g, &test_cmd_poke));
    CHECK_STR(txn_cmd_label(g), "write");
    txn_unref(g);
    txn_unref(r);
    txn_unref(t);
    sim_free(sim);
}

/* What a probe event saw of a cut wire's sender: its slots in use, the credits kept. */
typedef struct CutProbe {
    Port *port;
    bool can;
    uint32_t used, kept;
} CutProbe;

static void cut_probe(void *subject, void *obj)
{
    CutProbe *c = subject;
    (void)obj;
    c->can = port_can_send(c->port);
    c->used = c->port->cut_used;
    c->kept = c->port->credit_n;
}

/* A credit for sender p due at `at`, as the engine delivers one. */
static void cut_credit(Sim *sim, Port *p, SimTime at)
{
    OutboxMsg m = {.at = at, .dst = p, .t = NULL};
    port_cut_deliver(sim, &m);
}

/* A cut wire's credits on the sender's side (docs/kernel.md, the tie-break rule for
 * credits), with the engine's delivery called by hand: 4 requests fill the peer's 4
 * slots and a port_can_send at 0 is refused (the sender waits); 20 responses (never
 * refused) take cut_used to 24. Credits at 10, 20, ..., 60 are delivered into the
 * ring's first 6 slots and wake the sender once, at 10 (on_free 1; that wake applies
 * the credit of 10). The probe at 35 applies those of 20 and 30 (the ring's head moves
 * to 3), is refused and waits again, so a wake is due at 40. Credits at 70-120 are
 * delivered before 40: the ring wraps and grows from 8 to 16 slots with its head at 3.
 * The wake at 40 applies that credit (on_free 2); the probe at 75 applies exactly
 * those of 50-70 (time order kept through the growth) and waits; the wake at 80
 * (on_free 3); the probe at 1000 applies the last four, 90-120, and is refused: 12
 * slots stay used, those of the responses whose credits never came. */
static void test_cut_credit_ring(void)
{
    Sim *sim = sim_new();
    Sender s = {.total = 0};
    Receiver r = {.take_every = 10};
    setup(sim, &s, &r, 4, 100);
    OutboxSide side_s = {0}, side_r = {0};
    outbox_side_begin(&side_s, 0);
    outbox_side_begin(&side_r, 0);
    Outbox sr, rs;
    outbox_init(&sr, &side_s);
    outbox_init(&rs, &side_r);
    port_cut(&s.port, &sr, &r.port, &rs);
    for (int i = 0; i < 4; i++) {
        CHECK(port_send(&s.port, txn_new(sim, TXN_WRITE, 0, 4)));
    }
    CHECK(!port_can_send(&s.port));
    for (int i = 0; i < 20; i++) {
        Txn *t = txn_new(sim, TXN_WRITE, 0, 4);
        t->cmd = TXN_RESP;
        CHECK(port_send(&s.port, t));
    }
    CHECK_EQ_U64(s.port.cut_used, 24);
    CHECK_EQ_U64(sr.buf[0].n, 24);
    for (SimTime t = 10; t <= 60; t += 10) {
        cut_credit(sim, &s.port, t);
    }
    CutProbe at35 = {.port = &s.port}, at75 = {.port = &s.port}, end = {.port = &s.port};
    sim_schedule_at(sim, 35, SIM_PRIO_DEFAULT, cut_probe, &at35, NULL);
    sim_schedule_at(sim, 75, SIM_PRIO_DEFAULT, cut_probe, &at75, NULL);
    sim_schedule_at(sim, 1000, SIM_PRIO_DEFAULT, cut_probe, &end, NULL);
    CHECK(sim_run(sim, 39) == SIM_RUN_UNTIL);
    CHECK(!at35.can);
    CHECK_EQ_U64(at35.used, 21);
    CHECK_EQ_U64(at35.kept, 3);
    CHECK_EQ_U64(s.freed, 1);
    for (SimTime t = 70; t <= 120; t += 10) {
        cut_credit(sim, &s.port, t);
    }
    CHECK_EQ_U64(s.port.credit_n, 9);
    CHECK_EQ_U64(s.port.credit_cap, 16);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK(!at75.can);
    CHECK_EQ_U64(at75.used, 17);
    CHECK_EQ_U64(at75.kept, 5);
    CHECK(!end.can);
    CHECK_EQ_U64(end.used, 12);
    CHECK_EQ_U64(end.kept, 0);
    CHECK_EQ_U64(s.freed, 3);
    CHECK_EQ_U64(sim_now(sim), 1000);
    port_destroy(&s.port);
    port_destroy(&r.port);
    outbox_destroy(&sr);
    outbox_destroy(&rs);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    sim_free(sim);
}

int main(void)
{
    RUN(test_latency_and_backpressure);
    RUN(test_can_send_registers_wakeup);
    RUN(test_answers_never_refused);
    RUN(test_forward);
    RUN(test_connect_errors);
    RUN(test_txn_refcounts);
    RUN(test_names);
    RUN(test_declared);
    RUN(test_cut_credit_ring);
    return harness_report();
}
