/* Partitioned-engine unit tests on tiny hand-built platforms: a cut wire's latency and
 * credit return (the sender owns its credits; a slot comes back `latency` after the
 * receiver takes; a credit counts for every send of its time), transaction ids per
 * partition, the order of cross arrivals at one time (by sending partition, then
 * send order), windows that skip idle time, the same results on 1 and 2 threads and
 * in slices (threads kept from run to run), --until semantics and sim_stop in one
 * partition, transactions that move across a cut wire on one thread and on two (the
 * sender sends a copy of what it keeps), and the longest-processing-time-first dealing of
 * partitions to threads and MPI ranks.
 * Expected values are derived by hand in the comments. */
#include <stdlib.h>

#include "kernel/block.h"
#include "kernel/engine.h"
#include "kernel/engine_priv.h"
#include "kernel/port.h"
#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

typedef struct Sender {
    Block b;
    Port port;
    Txn *held; /* a refused transaction, kept until a credit comes back */
    int next, total;
    SimTime start; /* first send */
    bool stop_after_first;
    bool keep_first; /* keeps a reference to the first transaction in `kept` */
    Txn *kept;
    const Txn *sent[64]; /* each transaction sent, by send order */
    int frees;           /* on_free calls so far */
    int frees_at[64];    /* frees when each transaction was sent, by send order */
} Sender;

typedef struct Receiver {
    Block b;
    Port port[2];
    SimTime take_every;
    uint64_t ids[64];
    SimTime at[64];
    const Txn *got[64]; /* the transaction taken, by take order */
    int n;
    bool taking;
} Receiver;

static void sender_push(Sender *s)
{
    while (s->next < s->total) {
        if (!s->held) {
            s->held = txn_new(s->b.sim, TXN_WRITE, (uint64_t)s->next * 4, 4);
            if (s->keep_first && s->next == 0) {
                s->kept = txn_ref(s->held);
            }
        }
        if (!port_send(&s->port, s->held)) {
            return;
        }
        s->sent[s->next] = s->held;
        s->frees_at[s->next] = s->frees;
        s->held = NULL;
        s->next++;
        if (s->stop_after_first) {
            sim_stop(s->b.sim);
            return;
        }
    }
}

static void sender_start(void *subject, void *obj)
{
    (void)obj;
    sender_push(subject);
}

static void sender_on_free(Block *b, Port *p)
{
    Sender *s = (Sender *)b;
    CHECK(p == &s->port);
    s->frees++;
    sender_push(s);
}

static const BlockType sender_type = {
    .name = "test_sender", .size = sizeof(Sender), .on_free = sender_on_free};

static void receiver_take(void *subject, void *obj);

static void receiver_schedule(Receiver *r)
{
    if (!r->taking && port_count(&r->port[0]) + port_count(&r->port[1]) > 0) {
        r->taking = true;
        sim_schedule(r->b.sim, r->take_every, SIM_PRIO_DEFAULT, receiver_take, r, NULL);
    }
}

static void receiver_take(void *subject, void *obj)
{
    Receiver *r = subject;
    (void)obj;
    Port *p = port_count(&r->port[0]) > 0 ? &r->port[0] : &r->port[1];
    Txn *t = port_take(p);
    r->ids[r->n] = t->id;
    r->at[r->n] = sim_now(r->b.sim);
    r->got[r->n] = t;
    r->n++;
    txn_unref(t);
    r->taking = false;
    receiver_schedule(r);
}

/* Records arrivals (in arrival order) instead of taking at a pace. */
static void receiver_on_recv(Block *b, Port *p)
{
    Receiver *r = (Receiver *)b;
    if (r->take_every) {
        receiver_schedule(r);
        return;
    }
    Txn *t = port_take(p);
    r->ids[r->n] = t->id;
    r->at[r->n] = sim_now(r->b.sim);
    r->got[r->n] = t;
    r->n++;
    txn_unref(t);
}

static const BlockType receiver_type = {
    .name = "test_receiver", .size = sizeof(Receiver), .on_recv = receiver_on_recv};

static void sender_init(Sender *s, Sim *sim, const char *name)
{
    s->b = (Block){.type = &sender_type, .name = (char *)name, .sim = sim};
    CHECK(port_init(&s->port, &s->b, 0, name, 4));
    sim_schedule_at(sim, s->start, SIM_PRIO_DEFAULT, sender_start, s, NULL);
}

static void receiver_init(Receiver *r, Sim *sim, uint32_t cap)
{
    r->b = (Block){.type = &receiver_type, .name = "r", .sim = sim};
    CHECK(port_init(&r->port[0], &r->b, 0, "r.in[0]", cap));
    CHECK(port_init(&r->port[1], &r->b, 1, "r.in[1]", cap));
}

static void teardown(Sender *s, Receiver *r)
{
    if (s->held) {
        txn_unref(s->held);
    }
    port_destroy(&s->port);
    port_destroy(&r->port[0]);
    port_destroy(&r->port[1]);
}

/* Sender in partition 0, receiver (2 slots, one take every 10 ps) in partition 1, a
 * cut wire of 100 ps; 5 transactions.
 * t=0: ids 1, 2 sent (credits 2 used), 3 refused. Arrivals at 100; takes at 110 and
 * 120, whose credits reach the sender at 210 and 220: id 3 goes at 210 (arrives 310),
 * id 4 at 220 (arrives 320). Takes at 320 and 330 (credits back at 420, 430): id 5
 * goes at 420, arrives 520, taken 530. (An uncut wire gives its slot back at once:
 * takes 110, 120, 220, 230, 330.) A credit is no event: the sender, refused, is woken
 * at its next credit's time (210: id 3 goes, id 4 is refused again; 220; 420) and
 * applies the credits due when it is short of a slot; the credits of 430 and 630 are
 * delivered and never needed. */
static Engine *credits_platform(Sender *s, Receiver *r)
{
    Engine *e = engine_new(2);
    *s = (Sender){.total = 5};
    *r = (Receiver){.take_every = 10};
    sender_init(s, engine_sim(e, 0), "s.out");
    receiver_init(r, engine_sim(e, 1), 2);
    CHECK(port_connect(&s->port, &r->port[0], 100, NULL));
    engine_cut(e, &s->port, 0, &r->port[0], 1);
    CHECK_EQ_U64(engine_lookahead(e), 100);
    return e;
}

/* Checks the run of credits_platform against the times above, then frees it. */
static void credits_check_free(Engine *e, Sender *s, Receiver *r)
{
    CHECK_EQ_U64(r->n, 5);
    SimTime want[] = {110, 120, 320, 330, 530};
    for (int i = 0; i < 5 && i < r->n; i++) {
        CHECK_EQ_U64(r->at[i], want[i]);
        CHECK_EQ_U64(r->ids[i], (uint64_t)i + 1);
    }
    /* the slots of ids 4 and 5 are not credited back yet: their two credits (430,
     * 630) are delivered and kept */
    CHECK_EQ_U64(s->port.cut_used, 2);
    CHECK_EQ_U64(s->port.credit_n, 2);
    /* events: partition 0: the start and the wakes at 210, 220 and 420 = 4; partition
     * 1: 5 arrivals + 5 takes = 10. The last is the take at 530. */
    CHECK_EQ_U64(engine_events(e), 14);
    CHECK_EQ_U64(engine_now(e), 530);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 0))), 0);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 1))), 0);
    teardown(s, r);
    engine_free(e);
}

static void test_cut_credits(unsigned threads)
{
    Sender s;
    Receiver r;
    Engine *e = credits_platform(&s, &r);
    SimRunResult res;
    EngineTimes times = {0};
    CHECK(engine_run(e, SIM_TIME_MAX, threads, &times, &res, NULL));
    CHECK(res == SIM_RUN_IDLE);
    credits_check_free(e, &s, &r);
}

static void test_cut_credits_1(void)
{
    test_cut_credits(1);
}

static void test_cut_credits_2(void)
{
    test_cut_credits(2);
}

/* The tie-break rule for credits (docs/kernel.md): a credit counts from its time on,
 * for every send of that time. A receiver of one slot takes every 10 ps over a cut
 * wire of 100 ps; 3 transactions. t=0: id 1 goes, id 2 is refused; id 1 taken at 110,
 * its credit due at 210, where the sender also tries again (SIM_PRIO_DEFAULT, before
 * the wake at SIM_PRIO_NOTIFY): id 2 goes with no on_free (before the rule it was
 * refused until the credit's event had run, and went from the on_free that event
 * called), id 3 is refused. The wake at 210 finds no credit due (on_free 1, id 3
 * refused again); id 2 taken at 320, credit 420: the wake calls on_free 2 and id 3
 * goes, taken at 530. Events: partition 0: the start, the try at 210, the wakes at 210
 * and 420 = 4; partition 1: 3 arrivals, 3 takes = 6. */
static void test_credit_same_time(unsigned threads)
{
    Engine *e = engine_new(2);
    Sender s = {.total = 3};
    Receiver r = {.take_every = 10};
    sender_init(&s, engine_sim(e, 0), "s.out");
    receiver_init(&r, engine_sim(e, 1), 1);
    CHECK(port_connect(&s.port, &r.port[0], 100, NULL));
    engine_cut(e, &s.port, 0, &r.port[0], 1);
    sim_schedule_at(engine_sim(e, 0), 210, SIM_PRIO_DEFAULT, sender_start, &s, NULL);
    SimRunResult res;
    EngineTimes times = {0};
    CHECK(engine_run(e, SIM_TIME_MAX, threads, &times, &res, NULL));
    CHECK(res == SIM_RUN_IDLE);
    CHECK_EQ_U64(r.n, 3);
    SimTime want[] = {110, 320, 530};
    int frees[] = {0, 0, 2};
    for (int i = 0; i < 3 && i < r.n; i++) {
        CHECK_EQ_U64(r.at[i], want[i]);
        CHECK_EQ_U64(s.frees_at[i], frees[i]);
    }
    CHECK_EQ_U64(s.frees, 2);
    CHECK_EQ_U64(engine_events(e), 10);
    teardown(&s, &r);
    engine_free(e);
}

static void test_credit_same_time_1(void)
{
    test_credit_same_time(1);
}

static void test_credit_same_time_2(void)
{
    test_credit_same_time(2);
}

/* The same platform run in slices of 35 ps (each run ends at a slice end, as `mgtlm
 * run` ends one every 10 us) on 2 threads, but runs 10 and 11 on 1: the threads of
 * the first run run the next nine too, run 10 ends them and run 12 starts new ones.
 * Same times and events as in one run, and one window per run that has an event:
 * claims go on from run to run (a window of a later run is never taken for one of an
 * earlier run's, which would skip it). */
static void test_cut_credits_slices(void)
{
    Sender s;
    Receiver r;
    Engine *e = credits_platform(&s, &r);
    SimRunResult res = SIM_RUN_UNTIL;
    EngineTimes times = {0};
    unsigned runs = 0;
    for (SimTime until = 34; res == SIM_RUN_UNTIL && runs < 100; until += 35) {
        CHECK(engine_run(e, until, runs == 10 || runs == 11 ? 1 : 2, &times, &res, NULL));
        runs++;
    }
    CHECK(res == SIM_RUN_IDLE);
    /* the last event, the take at 530, runs in [525, 559]; that run delivers its
     * credit (630) at its end, so run 17 finds nothing pending */
    CHECK_EQ_U64(runs, 17);
    /* one window in each run that has an event: [0, 35) the sends; [100, 105) the
     * arrivals; [110, 140) the takes; [210, 245) wakes, sends; [310, 315) and
     * [320, 350) arrivals, takes; [420, 455) a wake, a send; [520, 525) its arrival;
     * [530, 560) its take */
    CHECK_EQ_U64(times.windows, 9);
    credits_check_free(e, &s, &r);
}

/* Partition 2's sender sends at 0 over 100 ps, partition 1's at 0 over 100 ps too,
 * each two transactions; the receiver (partition 0) records arrivals: all four at
 * 100, ordered by sending partition (1 before 2), then send order. Ids carry the
 * partition: (p << 40) + k. */
static void test_cross_order(unsigned threads)
{
    Engine *e = engine_new(3);
    Receiver r = {0};
    Sender s1 = {.total = 2}, s2 = {.total = 2};
    receiver_init(&r, engine_sim(e, 0), 8);
    sender_init(&s2, engine_sim(e, 2), "s2.out");
    sender_init(&s1, engine_sim(e, 1), "s1.out");
    CHECK(port_connect(&s2.port, &r.port[0], 100, NULL));
    CHECK(port_connect(&s1.port, &r.port[1], 100, NULL));
    engine_cut(e, &s2.port, 2, &r.port[0], 0);
    engine_cut(e, &s1.port, 1, &r.port[1], 0);
    SimRunResult res;
    CHECK(engine_run(e, SIM_TIME_MAX, threads, NULL, &res, NULL));
    CHECK_EQ_U64(r.n, 4);
    uint64_t want[] = {(1ull << 40) + 1, (1ull << 40) + 2, (2ull << 40) + 1,
                       (2ull << 40) + 2};
    for (int i = 0; i < 4 && i < r.n; i++) {
        CHECK_EQ_U64(r.ids[i], want[i]);
        CHECK_EQ_U64(r.at[i], 100);
    }
    teardown(&s1, &r);
    port_destroy(&s2.port);
    engine_free(e);
}

static void test_cross_order_1(void)
{
    test_cross_order(1);
}

static void test_cross_order_2(void)
{
    test_cross_order(2);
}

/* Three transactions over a cut wire, the sender keeping a reference to the first.
 * On one thread and on two, the second and third arrive as the very transactions
 * sent (moved: they return to the sender's pool, from the receiver's thread through
 * the pool's return stack, so the receiver's pool never allocates) and the first,
 * still the sender's, as the copy the sender made of it in its own pool. Ids and
 * fields are the same either way. */
static void test_cut_move(unsigned threads)
{
    Engine *e = engine_new(2);
    Sender s = {.total = 3, .keep_first = true};
    Receiver r = {0};
    sender_init(&s, engine_sim(e, 0), "s.out");
    receiver_init(&r, engine_sim(e, 1), 4);
    CHECK(port_connect(&s.port, &r.port[0], 100, NULL));
    engine_cut(e, &s.port, 0, &r.port[0], 1);
    SimRunResult res;
    CHECK(engine_run(e, SIM_TIME_MAX, threads, NULL, &res, NULL));
    CHECK_EQ_U64(r.n, 3);
    for (int i = 0; i < 3 && i < r.n; i++) {
        CHECK_EQ_U64(r.ids[i], (uint64_t)i + 1);
        CHECK((r.got[i] == s.sent[i]) == (i > 0));
    }
    CHECK(s.kept != NULL && s.kept->refs == 1 && s.kept->id == 1);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 0))), 1);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 1))), 0);
    txn_unref(s.kept);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 0))), 0);
    teardown(&s, &r);
    engine_free(e);
}

static void test_cut_move_1(void)
{
    test_cut_move(1);
}

static void test_cut_move_2(void)
{
    test_cut_move(2);
}

/* A transaction sent outside a window (as a block's reset does) reaches the receiver
 * through the flush before the run, moved on one thread and on two; on two the
 * receiver's thread releases it through its pool's return stack, and both pools end
 * with nothing alive. */
static void test_flush_move(void)
{
    static const BlockType plain_type = {.name = "test_plain", .size = sizeof(Block)};
    for (unsigned threads = 1; threads <= 2; threads++) {
        Engine *e = engine_new(2);
        Receiver r = {0};
        Port out;
        Block sb = {.type = &plain_type, .name = "s", .sim = engine_sim(e, 0)};
        CHECK(port_init(&out, &sb, 0, "s.out", 4));
        receiver_init(&r, engine_sim(e, 1), 4);
        CHECK(port_connect(&out, &r.port[0], 100, NULL));
        engine_cut(e, &out, 0, &r.port[0], 1);
        Txn *t = txn_new(engine_sim(e, 0), TXN_WRITE, 0x40, 4);
        uint64_t id = t->id;
        CHECK(port_send(&out, t));
        SimRunResult res;
        CHECK(engine_run(e, SIM_TIME_MAX, threads, NULL, &res, NULL));
        CHECK_EQ_U64(r.n, 1);
        CHECK_EQ_U64(r.ids[0], id);
        CHECK_EQ_U64(r.at[0], 100);
        CHECK(r.got[0] == t);
        CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 0))), 0);
        CHECK_EQ_U64(txn_pool_live(sim_txn_pool(engine_sim(e, 1))), 0);
        port_destroy(&out);
        port_destroy(&r.port[0]);
        port_destroy(&r.port[1]);
        engine_free(e);
    }
}

/* Longest processing time first on gpu16's shape for MPI ranks (mpi_place weighs a
 * partition by its blocks plus its cut ports: 8 + 1 = 9 for each GPU, 1 + 16 = 17
 * for the fabric, partition 16), 4 bins. By hand: the fabric goes first, to bin 0
 * (17); GPUs 0, 1, 2 to bins 1, 2, 3 (9 each); 3, 4, 5 to bins 1, 2, 3 (18); 6 to bin
 * 0 (17 is least: 26); 7, 8, 9 to 1, 2, 3 (27); 10 to 0 (35); 11, 12, 13 to 1, 2, 3
 * (36); 14 to 0 (44); 15 to 1 (45, the lowest of the three at 36). Bin 0 ends with
 * the fabric and 3 GPUs (p % 4 gave it the fabric and 4). */
static void test_deal(void)
{
    uint64_t weight[17], load[4];
    uint32_t order[17], bin_of[17];
    for (uint32_t p = 0; p < 17; p++) {
        weight[p] = p == 16 ? 17 : 9;
    }
    engine_order(order, 17, weight);
    CHECK_EQ_U64(order[0], 16);
    for (uint32_t i = 1; i < 17; i++) {
        CHECK_EQ_U64(order[i], i - 1);
    }
    engine_deal(order, 17, weight, 4, load, bin_of);
    uint32_t want[17] = {1, 2, 3, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 0};
    for (uint32_t p = 0; p < 17; p++) {
        CHECK_EQ_U64(bin_of[p], want[p]);
    }
    CHECK_EQ_U64(load[0], 44);
    CHECK_EQ_U64(load[1], 45);
    CHECK_EQ_U64(load[2], 36);
    CHECK_EQ_U64(load[3], 36);
}

/* Idle time is skipped: a sender starting at 1 ms over a 10 ps wire takes 3 windows
 * of 10 ps ([1 ms, +10) sends; [+10, +20) receives and takes; [+20, +30) the credit
 * is back: delivered during the run, it opens a window that runs no event), not 10^8.
 * --until 1 ms + 9 runs the send but not the arrival (the sender's partition is then
 * empty, the run not idle: sim_idle); the rest runs on a second call. */
static void test_windows_until(void)
{
    Engine *e = engine_new(2);
    Sender s = {.total = 1, .start = 1000000000};
    Receiver r = {0};
    sender_init(&s, engine_sim(e, 0), "s.out");
    receiver_init(&r, engine_sim(e, 1), 2);
    CHECK(port_connect(&s.port, &r.port[0], 10, NULL));
    engine_cut(e, &s.port, 0, &r.port[0], 1);
    SimRunResult res;
    EngineTimes times = {0};
    CHECK(engine_run(e, 1000000009, 2, &times, &res, NULL));
    CHECK(res == SIM_RUN_UNTIL);
    CHECK_EQ_U64(s.next, 1);
    CHECK_EQ_U64(r.n, 0);
    CHECK_EQ_U64(engine_next_time(e), 1000000010);
    CHECK_EQ_U64(times.windows, 1);
    /* The sender's partition holds nothing, but the run is not idle: the message is
     * on its way to partition 1 (what the blocks' end-of-run checks must see). */
    CHECK_EQ_U64(sim_events_pending(engine_sim(e, 0)), 0);
    CHECK(!sim_idle(engine_sim(e, 0)));
    CHECK(!sim_idle(engine_sim(e, 1)));
    CHECK(engine_run(e, SIM_TIME_MAX, 2, &times, &res, NULL));
    CHECK(res == SIM_RUN_IDLE);
    CHECK_EQ_U64(r.n, 1);
    CHECK_EQ_U64(r.at[0], 1000000010);
    CHECK_EQ_U64(times.windows, 3);
    CHECK_EQ_U64(engine_now(e), 1000000010); /* the take: a credit is no event */
    CHECK(sim_idle(engine_sim(e, 0)) && sim_idle(engine_sim(e, 1)));
    teardown(&s, &r);
    engine_free(e);
}

/* sim_stop in partition 0 after its first send (t=0) stops the run after that window
 * ([0, 100)): the message is delivered (pending at 100) but not executed. */
static void test_stop(void)
{
    Engine *e = engine_new(2);
    Sender s = {.total = 3, .stop_after_first = true};
    Receiver r = {0};
    sender_init(&s, engine_sim(e, 0), "s.out");
    receiver_init(&r, engine_sim(e, 1), 4);
    CHECK(port_connect(&s.port, &r.port[0], 100, NULL));
    engine_cut(e, &s.port, 0, &r.port[0], 1);
    SimRunResult res;
    CHECK(engine_run(e, SIM_TIME_MAX, 2, NULL, &res, NULL));
    CHECK(res == SIM_RUN_STOPPED);
    CHECK_EQ_U64(s.next, 1);
    CHECK_EQ_U64(r.n, 0);
    CHECK_EQ_U64(engine_next_time(e), 100);
    teardown(&s, &r);
    engine_free(e);
}

int main(void)
{
    RUN(test_cut_credits_1);
    RUN(test_cut_credits_2);
    RUN(test_cut_credits_slices);
    RUN(test_credit_same_time_1);
    RUN(test_credit_same_time_2);
    RUN(test_cross_order_1);
    RUN(test_cross_order_2);
    RUN(test_cut_move_1);
    RUN(test_cut_move_2);
    RUN(test_flush_move);
    RUN(test_deal);
    RUN(test_windows_until);
    RUN(test_stop);
    return harness_report();
}
