/* Unit tests of the arbiter (hw/lib/arb.h) on a hand-built block of three ports, every
 * head routed to port 2, whose peer is a sink of 8 slots that takes nothing (clock
 * 1000 ps, no latency anywhere): grant times, and the rounds an arrival asks for. An
 * arrival behind a waiting head, with nothing else changed since the last round, asks
 * for none: the pending round keeps its place (the tie-break rule for arbiters,
 * docs/kernel.md). Expected values are derived by hand in the comments. */
#include "hw/lib/arb.h"

#include <stddef.h>

#include "kernel/port.h"
#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

typedef struct Rig {
    Sim *sim;
    PlatformInfo plat;
    BlockType type, sink_type;
    Block b, sink;
    Port ports[3];
    Port in;     /* the sink's port, peer of port 2 */
    Port src[2]; /* the sources' ports, peers of ports 0 and 1 */
    Block src_block;
    uint64_t sent[3];
    uint64_t *sent_at[3];
    Arb arb;
} Rig;

static int rig_route(Block *b, uint32_t in, const Txn *t)
{
    (void)b;
    (void)in;
    (void)t;
    return 2;
}

static void rig_on_recv(Block *b, Port *p)
{
    Rig *r = (Rig *)((char *)b - offsetof(Rig, b));
    arb_on_recv(&r->arb, p);
}

static void rig_init(Rig *r)
{
    *r = (Rig){.sim = sim_new()};
    r->plat.clock = 1000;
    r->type = (BlockType){.name = "test_arb", .on_recv = rig_on_recv};
    r->sink_type = (BlockType){.name = "test_sink"};
    r->b = (Block){.type = &r->type,
                   .name = "x",
                   .sim = r->sim,
                   .plat = &r->plat,
                   .ports = r->ports,
                   .nports = 3};
    r->sink = (Block){.type = &r->sink_type, .name = "sink", .sim = r->sim};
    r->src_block = (Block){.type = &r->sink_type, .name = "src", .sim = r->sim};
    CHECK(port_init(&r->ports[0], &r->b, 0, "x.p0", 8));
    CHECK(port_init(&r->ports[1], &r->b, 1, "x.p1", 8));
    CHECK(port_init(&r->ports[2], &r->b, 2, "x.p2", 8));
    CHECK(port_init(&r->in, &r->sink, 0, "sink.in", 8));
    CHECK(port_init(&r->src[0], &r->src_block, 0, "src0", 8));
    CHECK(port_init(&r->src[1], &r->src_block, 1, "src1", 8));
    CHECK(port_connect(&r->ports[2], &r->in, 0, NULL));
    CHECK(port_connect(&r->src[0], &r->ports[0], 0, NULL));
    CHECK(port_connect(&r->src[1], &r->ports[1], 0, NULL));
    for (int i = 0; i < 3; i++) {
        r->sent_at[i] = &r->sent[i];
    }
    r->arb.sent = r->sent_at;
    CHECK(arb_init(&r->arb, &r->b, 0, rig_route, NULL, NULL));
}

static void rig_free(Rig *r)
{
    arb_destroy(&r->arb);
    for (int i = 0; i < 3; i++) {
        port_destroy(&r->ports[i]);
    }
    port_destroy(&r->in);
    port_destroy(&r->src[0]);
    port_destroy(&r->src[1]);
    sim_free(r->sim);
}

/* Sends a write from source s (a test event: obj is the source's port). */
static void rig_send(void *subject, void *obj)
{
    Rig *r = subject;
    Port *p = obj;
    CHECK(port_send(p, txn_new(r->sim, TXN_WRITE, 0, 4)));
}

/* Schedules a write from source src at time t. */
static void rig_at(Rig *r, SimTime t, int src)
{
    sim_schedule_at(r->sim, t, SIM_PRIO_DEFAULT, rig_send, r, &r->src[src]);
}

/* A new rig with the writes both tests start with: three on input 0, at 0, 0 and 500. */
static void rig_start(Rig *r)
{
    rig_init(r);
    rig_at(r, 0, 0);
    rig_at(r, 0, 0);
    rig_at(r, 500, 0);
}

/* Takes and releases everything the sink holds; returns how many. */
static uint64_t rig_drain(Rig *r)
{
    uint64_t n = 0;
    Txn *t;
    while ((t = port_take(&r->in)) != NULL) {
        txn_unref(t);
        n++;
    }
    return n;
}

/* Input 0 gets A and B at 0 and C at 500. Round at 0: A goes (port 0 may send again
 * at 1000), B waits: wake 1000. C arrives behind B with nothing changed: no round.
 * Round at 1000: B goes, wake 2000; round at 2000: C goes, no wake. Events: 3 sends,
 * 3 arrivals at input 0, 3 at the sink, rounds at 0, 1000, 2000 = 12, of which 8 by
 * 999 (the sends, the arrivals at input 0, the round at 0 and A at the sink). The
 * rule before: 13, with a round at 500. */
static void test_arrival_behind_a_head(void)
{
    Rig r;
    rig_start(&r);
    CHECK(sim_run(r.sim, 999) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(rig_drain(&r), 1);
    CHECK_EQ_U64(sim_events_executed(r.sim), 8);
    CHECK(sim_run(r.sim, 1999) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(rig_drain(&r), 1);
    CHECK(sim_run(r.sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(rig_drain(&r), 1);
    CHECK_EQ_U64(sim_now(r.sim), 2000);
    CHECK_EQ_U64(sim_events_executed(r.sim), 12);
    CHECK_EQ_U64(r.sent[2], 3);
    rig_free(&r);
}

/* An arrival at an empty input is a change: A and A2 at 0 on input 0 (A goes at 0;
 * port 0 and port 2 may go again at 1000: wake 1000), B at 500 behind A2 asks for no
 * round; D at 600 on input 1, empty, asks for one, which finds port 2 busy until
 * 1000 and sets that wake again. Round at 1000: port 2 grants input 1 first
 * (round-robin after input 0): D; A2 waits for 2000. Round at 2000: A2, B waits for
 * 3000; round at 3000: B. Events: 4 sends, 4 arrivals at the inputs, 4 at the sink,
 * rounds at 0, 600, 1000, 2000, 3000 = 17 (the rule before: 18, a round at 500). */
static void test_arrival_at_an_empty_input(void)
{
    Rig r;
    rig_start(&r);
    rig_at(&r, 600, 1);
    CHECK(sim_run(r.sim, 1000) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(rig_drain(&r), 2);
    CHECK_EQ_U64(port_count(&r.ports[0]), 2);
    CHECK_EQ_U64(port_count(&r.ports[1]), 0);
    CHECK(sim_run(r.sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(rig_drain(&r), 2);
    CHECK_EQ_U64(sim_now(r.sim), 3000);
    CHECK_EQ_U64(sim_events_executed(r.sim), 17);
    rig_free(&r);
}

int main(void)
{
    RUN(test_arrival_behind_a_head);
    RUN(test_arrival_at_an_empty_input);
    return harness_report();
}
