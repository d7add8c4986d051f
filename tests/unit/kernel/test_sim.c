/* Kernel unit tests: event ordering, cancellation, SimEvent, run control, two kernels.
 * Covers kernel/sim.c, kernel/eventq.c (the many-pending test holds thousands of
 * distinct times; test_eventq.c checks the order against a reference) and
 * kernel/event.c. */
#include <stdlib.h>

#include "kernel/event.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"

typedef struct Log {
    Sim *sim;
    int order[64];
    SimTime times[64];
    int n;
    SimEvent *ev; /* test_time_limit's event */
} Log;

static void log_proc(void *subject, void *obj)
{
    Log *log = subject;
    log->order[log->n] = (int)(intptr_t)obj;
    log->times[log->n] = sim_now(log->sim);
    log->n++;
}

static void test_same_time_ordering(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    sim_schedule(sim, 10, SIM_PRIO_DEFAULT, log_proc, &log, (void *)1);
    sim_schedule(sim, 10, SIM_PRIO_DEFAULT, log_proc, &log, (void *)2);
    sim_schedule(sim, 5, SIM_PRIO_LATE, log_proc, &log, (void *)3);
    sim_schedule(sim, 10, SIM_PRIO_DELIVER, log_proc, &log, (void *)4);
    sim_schedule(sim, 10, SIM_PRIO_DEFAULT, log_proc, &log, (void *)5);
    sim_schedule(sim, 0, SIM_PRIO_NOTIFY, log_proc, &log, (void *)6);
    CHECK_EQ_U64(sim_events_pending(sim), 6);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    int want[] = {6, 3, 4, 1, 2, 5};
    SimTime want_t[] = {0, 5, 10, 10, 10, 10};
    CHECK_EQ_U64(log.n, 6);
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_U64(log.order[i], want[i]);
        CHECK_EQ_U64(log.times[i], want_t[i]);
    }
    CHECK_EQ_U64(sim_events_executed(sim), 6);
    CHECK_EQ_U64(sim_events_pending(sim), 0);
    sim_free(sim);
}

typedef struct Chain {
    Sim *sim;
    Log *log;
} Chain;

/* Schedules, from inside an event at time t, one event at t with a lower priority
 * value than the remaining ones: it must run before them. */
static void chain_proc(void *subject, void *obj)
{
    Chain *c = subject;
    (void)obj;
    log_proc(c->log, (void *)10);
    sim_schedule(c->sim, 0, SIM_PRIO_DELIVER, log_proc, c->log, (void *)11);
}

static void test_schedule_during_time_step(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    Chain c = {sim, &log};
    sim_schedule(sim, 7, SIM_PRIO_DEFAULT, chain_proc, &c, NULL);
    sim_schedule(sim, 7, SIM_PRIO_DEFAULT, log_proc, &log, (void *)12);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(log.order[0], 10);
    CHECK_EQ_U64(log.order[1], 11);
    CHECK_EQ_U64(log.order[2], 12);
    CHECK_EQ_U64(sim_now(sim), 7);
    sim_free(sim);
}

static void test_cancellation(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    SimHandle a = sim_schedule(sim, 3, SIM_PRIO_DEFAULT, log_proc, &log, (void *)1);
    SimHandle b = sim_schedule(sim, 3, SIM_PRIO_DEFAULT, log_proc, &log, (void *)2);
    SimHandle c = sim_schedule(sim, 9, SIM_PRIO_DEFAULT, log_proc, &log, (void *)3);
    CHECK(sim_handle_pending(a));
    sim_cancel(sim, b);
    sim_cancel(sim, b);
    sim_cancel(sim, c);
    CHECK(!sim_handle_pending(b));
    CHECK_EQ_U64(sim_events_pending(sim), 1);
    CHECK_EQ_U64(sim_next_time(sim), 3);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(log.n, 1);
    CHECK_EQ_U64(log.order[0], 1);
    CHECK(!sim_handle_pending(a));
    /* a stale handle must not cancel the node's next use */
    SimHandle d = sim_schedule(sim, 1, SIM_PRIO_DEFAULT, log_proc, &log, (void *)4);
    sim_cancel(sim, a);
    CHECK(sim_handle_pending(d));
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(log.n, 2);
    CHECK_EQ_U64(sim_events_executed(sim), 2);
    sim_free(sim);
}

static void test_run_until_and_stop(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    for (int i = 1; i <= 5; i++) {
        sim_schedule(sim, (SimTime)i * 10, SIM_PRIO_DEFAULT, log_proc, &log,
                     (void *)(intptr_t)i);
    }
    CHECK(sim_run(sim, 30) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(sim_now(sim), 30);
    CHECK(sim_step(sim));
    CHECK_EQ_U64(log.n, 4);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK(!sim_step(sim));
    CHECK_EQ_U64(log.n, 5);
    sim_free(sim);
}

static void stopper(void *subject, void *obj)
{
    (void)obj;
    sim_stop(subject);
}

static void test_stop(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    sim_schedule(sim, 1, SIM_PRIO_DEFAULT, stopper, sim, NULL);
    sim_schedule(sim, 2, SIM_PRIO_DEFAULT, log_proc, &log, (void *)1);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_STOPPED);
    CHECK_EQ_U64(log.n, 0);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(log.n, 1);
    sim_free(sim);
}

static void raiser(void *subject, void *obj)
{
    (void)obj;
    *(volatile sig_atomic_t *)subject = 1;
}

/* A watched flag (as a signal handler sets it) stops the run after the event that set
 * it, at the same instant, and keeps stopping it until the caller clears it. */
static void test_watch(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    volatile sig_atomic_t flag = 0;
    sim_watch(sim, &flag);
    sim_schedule(sim, 3, SIM_PRIO_DEFAULT, raiser, (void *)&flag, NULL);
    sim_schedule(sim, 3, SIM_PRIO_LATE, log_proc, &log, (void *)1);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_STOPPED);
    CHECK_EQ_U64(sim_now(sim), 3);
    CHECK_EQ_U64(log.n, 0);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_STOPPED);
    CHECK_EQ_U64(log.n, 0);
    flag = 0;
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(log.n, 1);
    sim_watch(sim, NULL);
    flag = 1;
    sim_schedule(sim, 1, SIM_PRIO_DEFAULT, log_proc, &log, (void *)2);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(log.n, 2);
    sim_free(sim);
}

static void test_event_earliest_wins(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    SimEvent ev;
    sim_event_init(&ev, sim, SIM_PRIO_DEFAULT, log_proc, &log, (void *)7);
    sim_event_notify(&ev, 50);
    sim_event_notify(&ev, 80);
    CHECK(sim_event_pending(&ev));
    CHECK_EQ_U64(sim_events_pending(sim), 1);
    sim_event_notify(&ev, 20);
    CHECK_EQ_U64(sim_events_pending(sim), 1);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(log.n, 1);
    CHECK_EQ_U64(log.times[0], 20);
    CHECK(!sim_event_pending(&ev));
    sim_event_notify(&ev, 5);
    sim_event_cancel(&ev);
    sim_run(sim, SIM_TIME_MAX);
    CHECK_EQ_U64(log.n, 1);
    sim_free(sim);
}

static void test_two_kernels(void)
{
    Sim *a = sim_new();
    Sim *b = sim_new();
    Log la = {.sim = a}, lb = {.sim = b};
    sim_schedule(a, 100, SIM_PRIO_DEFAULT, log_proc, &la, (void *)1);
    sim_schedule(b, 5, SIM_PRIO_DEFAULT, log_proc, &lb, (void *)2);
    CHECK_EQ_U64(sim_next_txn_id(a), 1);
    CHECK_EQ_U64(sim_next_txn_id(a), 2);
    CHECK_EQ_U64(sim_next_txn_id(b), 1);
    sim_run(b, SIM_TIME_MAX);
    CHECK_EQ_U64(sim_now(b), 5);
    CHECK_EQ_U64(sim_now(a), 0);
    CHECK_EQ_U64(la.n, 0);
    sim_run(a, SIM_TIME_MAX);
    CHECK_EQ_U64(la.n, 1);
    CHECK_EQ_U64(lb.n, 1);
    sim_free(a);
    sim_free(b);
}

typedef struct Counter {
    Sim *sim;
    uint64_t hits;
    uint64_t sum;
} Counter;

static void count_proc(void *subject, void *obj)
{
    Counter *c = subject;
    c->hits++;
    c->sum += (uint64_t)(intptr_t)obj * sim_now(c->sim);
}

/* Many pending events at many distinct times, with a reference check of the order. */
static void test_many_pending(void)
{
    Sim *sim = sim_new();
    Counter c = {.sim = sim};
    uint64_t x = 12345, want = 0;
    enum { N = 100000 };
    SimHandle *h = malloc(N * sizeof *h);
    for (intptr_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        SimTime t = (x >> 33) % 5000;
        h[i] = sim_schedule(sim, t, SIM_PRIO_DEFAULT, count_proc, &c, (void *)(i % 7));
        if (i % 3 != 0) {
            want += (uint64_t)(i % 7) * t;
        }
    }
    for (int i = 0; i < N; i += 3) {
        sim_cancel(sim, h[i]);
    }
    CHECK_EQ_U64(sim_events_pending(sim), N - (N + 2) / 3);
    SimTime last = 0;
    bool monotonic = true;
    while (sim_next_time(sim) != SIM_TIME_MAX) {
        sim_step(sim);
        monotonic = monotonic && sim_now(sim) >= last;
        last = sim_now(sim);
    }
    CHECK(monotonic);
    CHECK_EQ_U64(c.hits, N - (N + 2) / 3);
    CHECK_EQ_U64(c.sum, want);
    free(h);
    sim_free(sim);
}

/* At the end of simulated time, from an event due exactly then, schedules with the
 * largest delays: both saturate (no wrap to an earlier time) and never run. */
static void limit_proc(void *subject, void *obj)
{
    Log *log = subject;
    log_proc(log, obj);
    if ((intptr_t)obj == 1) {
        sim_schedule(log->sim, SIM_TIME_MAX, SIM_PRIO_DEFAULT, log_proc, log, (void *)2);
        sim_event_notify(log->ev, SIM_TIME_MAX);
    }
}

static void test_time_limit(void)
{
    Sim *sim = sim_new();
    Log log = {.sim = sim};
    SimEvent ev;
    sim_event_init(&ev, sim, SIM_PRIO_DEFAULT, log_proc, &log, (void *)3);
    log.ev = &ev;
    sim_schedule_at(sim, SIM_TIME_LIMIT + 1, SIM_PRIO_DEFAULT, log_proc, &log, (void *)4);
    sim_schedule_at(sim, SIM_TIME_LIMIT, SIM_PRIO_DEFAULT, limit_proc, &log, (void *)1);
    CHECK(sim_run(sim, SIM_TIME_MAX) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(log.n, 1);
    CHECK_EQ_U64(log.times[0], SIM_TIME_LIMIT);
    CHECK_EQ_U64(sim_now(sim), SIM_TIME_LIMIT);
    CHECK_EQ_U64(sim_next_time(sim), SIM_TIME_MAX);
    CHECK(!sim_step(sim));
    CHECK_EQ_U64(sim_events_pending(sim), 3);
    CHECK(sim_event_pending(&ev));
    sim_free(sim);
}

int main(void)
{
    RUN(test_same_time_ordering);
    RUN(test_schedule_during_time_step);
    RUN(test_cancellation);
    RUN(test_run_until_and_stop);
    RUN(test_stop);
    RUN(test_watch);
    RUN(test_event_earliest_wins);
    RUN(test_two_kernels);
    RUN(test_many_pending);
    RUN(test_time_limit);
    return harness_report();
}
