/* Egress queue unit tests: departure times and order (no overtaking), retries on
 * on_free after backpressure, the drained callback (from pumps, never from pushes),
 * external wake, the extra send delay, per-item ports, unbound ports, and
 * transaction accounting. */
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/port.h"
#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

typedef struct Owner {
    Block b;
    Port out[2];
    Egress q;
    int drained;
    uint64_t unbound;
} Owner;

typedef struct Receiver {
    Block b;
    Port in;
    SimTime take_every; /* 0: take on arrival */
    uint64_t ids[16];
    SimTime at[16];
    int n;
    bool taking;
} Receiver;

static void owner_on_free(Block *b, Port *p)
{
    (void)p;
    (void)egress_pump(&((Owner *)b)->q);
}

static void owner_wake(void *subject, void *obj)
{
    (void)obj;
    CHECK(egress_pump(&((Owner *)subject)->q));
}

static void owner_drained(Block *b)
{
    ((Owner *)b)->drained++;
}

static const BlockType owner_type = {
    .name = "test_owner", .size = sizeof(Owner), .on_free = owner_on_free};

static void receiver_take(void *subject, void *obj)
{
    Receiver *r = subject;
    (void)obj;
    Txn *t = port_take(&r->in);
    r->ids[r->n] = t->id;
    r->at[r->n] = sim_now(r->b.sim);
    r->n++;
    txn_unref(t);
    r->taking = false;
    if (port_count(&r->in) > 0) {
        r->taking = true;
        sim_schedule(r->b.sim, r->take_every, SIM_PRIO_DEFAULT, receiver_take, r, NULL);
    }
}

static void receiver_on_recv(Block *b, Port *p)
{
    Receiver *r = (Receiver *)b;
    (void)p;
    if (!r->taking) {
        r->taking = true;
        sim_schedule(b->sim, r->take_every, SIM_PRIO_DEFAULT, receiver_take, r, NULL);
    }
}

static const BlockType receiver_type = {
    .name = "test_receiver", .size = sizeof(Receiver), .on_recv = receiver_on_recv};

/* Owner o with outputs out[0] -> r0.in and (if r1) out[1] -> r1.in, latency 5. */
static void setup(Sim *sim, Owner *o, Receiver *r0, Receiver *r1, uint32_t cap,
                  const EgressOpts *opt)
{
    o->b = (Block){.type = &owner_type, .name = "o", .sim = sim};
    CHECK(port_init(&o->out[0], &o->b, 0, "o.out0", 4));
    CHECK(port_init(&o->out[1], &o->b, 1, "o.out1", 4));
    Receiver *r[2] = {r0, r1};
    for (int i = 0; i < 2; i++) {
        if (r[i]) {
            r[i]->b = (Block){.type = &receiver_type, .name = "r", .sim = sim};
            CHECK(port_init(&r[i]->in, &r[i]->b, 0, i ? "r1.in" : "r0.in", cap));
            CHECK(port_connect(&o->out[i], &r[i]->in, 5, NULL));
        }
    }
    egress_init(&o->q, &o->b, &o->out[0], opt);
}

static void teardown(Sim *sim, Owner *o, Receiver *r0, Receiver *r1)
{
    egress_destroy(&o->q);
    port_destroy(&o->out[0]);
    port_destroy(&o->out[1]);
    port_destroy(&r0->in);
    if (r1) {
        port_destroy(&r1->in);
    }
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    sim_free(sim);
}

/* A head not yet due holds a later item that is due earlier: both leave at 100. */
static void test_times_and_order(void)
{
    Sim *sim = sim_new();
    Owner o = {0};
    Receiver r = {0};
    setup(sim, &o, &r, NULL, 8, NULL);
    Txn *a = txn_new(sim, TXN_WRITE, 0, 4), *b = txn_new(sim, TXN_WRITE, 4, 4);
    uint64_t a_id = a->id, b_id = b->id;
    CHECK(!egress_push(&o.q, a, 100));
    CHECK(!egress_push(&o.q, b, 10));
    CHECK_EQ_U64(egress_len(&o.q), 2);
    CHECK_EQ_U64(egress_next(&o.q), 100);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(egress_len(&o.q), 0);
    CHECK_EQ_U64(egress_next(&o.q), SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 2);
    CHECK_EQ_U64(r.ids[0], a_id);
    CHECK_EQ_U64(r.ids[1], b_id);
    CHECK_EQ_U64(r.at[0], 105);
    CHECK_EQ_U64(r.at[1], 105);
    teardown(sim, &o, &r, NULL);
}

/* One receive slot, taken every 10 ps: the queue is refused, retries on on_free and
 * delivers everything in order; drained runs after pumps only. */
static void test_backpressure_and_drained(void)
{
    Sim *sim = sim_new();
    Owner o = {0};
    Receiver r = {.take_every = 10};
    EgressOpts opt = {.drained = owner_drained};
    setup(sim, &o, &r, NULL, 1, &opt);
    uint64_t ids[3];
    for (int i = 0; i < 3; i++) {
        Txn *t = txn_new(sim, TXN_WRITE, (uint64_t)i * 4, 4);
        ids[i] = t->id;
        CHECK(egress_push(&o.q, t, 0) == (i == 0));
    }
    CHECK_EQ_U64(egress_len(&o.q), 2);
    CHECK_EQ_U64(o.drained, 0);
    CHECK(!egress_pump(&o.q));
    CHECK_EQ_U64(o.drained, 0);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(r.ids[i], ids[i]);
    }
    /* arrive 5, taken 15; the second is sent at 15, arrives 20, taken 30; ... */
    CHECK_EQ_U64(r.at[0], 15);
    CHECK_EQ_U64(r.at[1], 30);
    CHECK_EQ_U64(r.at[2], 45);
    CHECK_EQ_U64(o.drained, 2);
    teardown(sim, &o, &r, NULL);
}

/* external_wake schedules nothing; the owner pumps at egress_next. The extra delay
 * is added to every send. */
static void test_external_wake_and_extra(void)
{
    Sim *sim = sim_new();
    Owner o = {0};
    Receiver r = {0};
    EgressOpts opt = {.external_wake = true, .extra = 7};
    setup(sim, &o, &r, NULL, 8, &opt);
    egress_add(&o.q, txn_new(sim, TXN_WRITE, 0, 4), 50);
    CHECK(egress_pump(&o.q));
    CHECK_EQ_U64(egress_len(&o.q), 1);
    CHECK_EQ_U64(sim_events_pending(sim), 0);
    CHECK_EQ_U64(egress_next(&o.q), 50);
    sim_schedule_at(sim, egress_next(&o.q), SIM_PRIO_DEFAULT, owner_wake, &o, NULL);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(egress_len(&o.q), 0);
    CHECK_EQ_U64(r.n, 1);
    CHECK_EQ_U64(r.at[0], 50 + 5 + 7);
    teardown(sim, &o, &r, NULL);
}

/* Items for two ports keep one order: the second port's item waits for the first's. */
static void test_two_ports_one_order(void)
{
    Sim *sim = sim_new();
    Owner o = {0};
    Receiver r0 = {0}, r1 = {0};
    setup(sim, &o, &r0, &r1, 8, NULL);
    egress_add(&o.q, txn_new(sim, TXN_WRITE, 0, 4), 40);
    egress_add_to(&o.q, &o.out[1], txn_new(sim, TXN_WRITE, 4, 4), 0);
    CHECK(egress_pump(&o.q));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r0.n, 1);
    CHECK_EQ_U64(r1.n, 1);
    CHECK_EQ_U64(r0.at[0], 45);
    CHECK_EQ_U64(r1.at[0], 45);
    teardown(sim, &o, &r0, &r1);
}

/* A push to a port without a peer is released and counted. */
static void test_unbound(void)
{
    Sim *sim = sim_new();
    Owner o = {0};
    Receiver r = {0};
    EgressOpts opt = {.unbound = &o.unbound};
    setup(sim, &o, &r, NULL, 8, &opt);
    CHECK(egress_bound(&o.q));
    egress_add_to(&o.q, &o.out[1], txn_new(sim, TXN_WRITE, 0, 4), 0);
    CHECK_EQ_U64(o.unbound, 1);
    CHECK_EQ_U64(egress_len(&o.q), 0);
    egress_push(&o.q, txn_new(sim, TXN_WRITE, 0, 4), 30);
    egress_clear(&o.q);
    CHECK_EQ_U64(egress_len(&o.q), 0);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(r.n, 0);
    teardown(sim, &o, &r, NULL);
}

int main(void)
{
    RUN(test_times_and_order);
    RUN(test_backpressure_and_drained);
    RUN(test_external_wake_and_extra);
    RUN(test_two_ports_one_order);
    RUN(test_unbound);
    return harness_report();
}
