/* Event queue unit tests (kernel/eventq.c, kernel/event_heap.c): the order (time,
 * priority, order of scheduling) checked against a reference that keeps every pending
 * event in a plain list and finds the least by a scan, under random scheduling from
 * inside events (same time, the same wheel slot, other slots, past the wheel's end,
 * the end of time) with random cancellations; and the far heap's renumbering when its
 * sequence numbers run out. */
#include <stdlib.h>

#include "kernel/event_heap.h"
#include "kernel/eventq.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"

enum { REF_MAX = 1024, RUN_EVENTS = 60000 };

typedef struct RefEvent {
    SimTime time;
    int prio;
    uint64_t seq;
    bool live;
    SimHandle h;
} RefEvent;

typedef struct Ref {
    Sim *sim;
    RefEvent ev[REF_MAX];
    uint64_t seq;
    uint64_t x; /* random state */
    uint64_t ran, wrong, far_ones;
} Ref;

static uint64_t ref_rand(Ref *r)
{
    r->x = r->x * 6364136223846793005ULL + 1442695040888963407ULL;
    return r->x >> 33;
}

static void ref_proc(void *subject, void *obj);

/* A delay that lands in the same slot, a near slot, far in the wheel, past its end
 * (EVENTQ_SLOTS slots of 2^EVENTQ_SLOT_SHIFT ps), or on the same time. */
static SimTime ref_delay(Ref *r)
{
    SimTime wheel = (SimTime)EVENTQ_SLOTS << EVENTQ_SLOT_SHIFT;
    switch (ref_rand(r) % 6) {
    case 0:
        return 0;
    case 1:
        return ref_rand(r) % 1024;
    case 2:
        return ref_rand(r) % 20000;
    case 3:
        return ref_rand(r) % wheel;
    case 4:
        r->far_ones++;
        return wheel + ref_rand(r) % (3 * wheel);
    default:
        return ref_rand(r) % 8 * 1000;
    }
}

static void ref_schedule(Ref *r)
{
    size_t slot = 0;
    while (slot < REF_MAX && r->ev[slot].live) {
        slot++;
    }
    if (slot == REF_MAX) {
        return;
    }
    RefEvent *e = &r->ev[slot];
    SimTime at = sim_now(r->sim) + ref_delay(r);
    e->time = at;
    e->prio = (int)(ref_rand(r) % SIM_PRIO_LEVELS);
    e->seq = r->seq++;
    e->live = true;
    e->h = sim_schedule_at(r->sim, at, e->prio, ref_proc, r, (void *)(uintptr_t)slot);
}

static bool ref_before(const RefEvent *a, const RefEvent *b)
{
    if (a->time != b->time) {
        return a->time < b->time;
    }
    if (a->prio != b->prio) {
        return a->prio < b->prio;
    }
    return a->seq < b->seq;
}

static void ref_proc(void *subject, void *obj)
{
    Ref *r = subject;
    size_t me = (size_t)(uintptr_t)obj;
    size_t best = REF_MAX;
    for (size_t i = 0; i < REF_MAX; i++) {
        if (r->ev[i].live && (best == REF_MAX || ref_before(&r->ev[i], &r->ev[best]))) {
            best = i;
        }
    }
    if (best != me || r->ev[me].time != sim_now(r->sim)) {
        r->wrong++;
    }
    r->ev[me].live = false;
    r->ran++;
    if (r->seq >= RUN_EVENTS) {
        return;
    }
    unsigned n = (unsigned)(ref_rand(r) % 4);
    for (unsigned k = 0; k < n; k++) {
        ref_schedule(r);
    }
    if (ref_rand(r) % 4 == 0) {
        size_t victim = (size_t)(ref_rand(r) % REF_MAX);
        if (r->ev[victim].live) {
            sim_cancel(r->sim, r->ev[victim].h);
            r->ev[victim].live = false;
        }
    }
}

static void test_against_reference(void)
{
    static Ref r;
    r = (Ref){.sim = sim_new(), .x = 7};
    for (int i = 0; i < 64; i++) {
        ref_schedule(&r);
    }
    CHECK(sim_run(r.sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(r.wrong, 0);
    CHECK(r.ran > RUN_EVENTS / 2);
    CHECK(r.far_ones > 1000);
    CHECK_EQ_U64(sim_events_pending(r.sim), 0);
    sim_free(r.sim);
}

/* After a quiet gap longer than the wheel, and with the queue emptied in between,
 * events still run in order (the wheel jumps to the far heap's first time). */
static void gap_proc(void *subject, void *obj)
{
    Ref *r = subject;
    uint64_t want = r->ran++;
    if ((uint64_t)(uintptr_t)obj != want) {
        r->wrong++;
    }
}

static void test_gaps(void)
{
    static Ref r;
    r = (Ref){.sim = sim_new()};
    SimTime wheel = (SimTime)EVENTQ_SLOTS << EVENTQ_SLOT_SHIFT;
    /* each event's obj is its place in the run order */
    SimTime at[] = {5, 5, wheel * 10, wheel * 10 + 1, wheel * 10 + 1, wheel * 40};
    int prio[] = {1, 0, 2, 1, 1, 0};
    int place[] = {1, 0, 2, 4, 5, 7};
    for (int i = 0; i < 6; i++) {
        sim_schedule_at(r.sim, at[i], prio[i], gap_proc, &r, (void *)(uintptr_t)place[i]);
    }
    CHECK(sim_run(r.sim, wheel * 10) == SIM_RUN_UNTIL);
    CHECK_EQ_U64(r.ran, 3);
    /* after the wheel moved to the far ones: behind two that came from the far heap
     * at the same time and priority, and one at the current time */
    sim_schedule_at(r.sim, wheel * 10 + 1, 1, gap_proc, &r, (void *)6);
    sim_schedule_at(r.sim, wheel * 10, 3, gap_proc, &r, (void *)3);
    CHECK(sim_run(r.sim, SIM_TIME_MAX) == SIM_RUN_IDLE);
    CHECK_EQ_U64(r.ran, 8);
    CHECK_EQ_U64(r.wrong, 0);
    CHECK_EQ_U64(sim_now(r.sim), wheel * 40);
    sim_free(r.sim);
}

/* The far heap numbers its entries again when the sequence runs out: the order of
 * every pair is kept. */
static void test_heap_renumber(void)
{
    EventHeap h = {0};
    SimNode nodes[8];
    event_heap_set_seq(&h, EVENT_HEAP_SEQ_LIMIT - 3);
    SimTime t[] = {50, 40, 50, 40, 50, 40, 10, 50};
    int p[] = {1, 1, 0, 1, 1, 0, 3, 0};
    for (int i = 0; i < 8; i++) {
        event_heap_push(&h, &nodes[i], t[i], p[i]);
    }
    CHECK(h.seq < 16);
    int want[] = {6, 5, 1, 3, 2, 7, 0, 4};
    for (int i = 0; i < 8; i++) {
        CHECK(h.n > 0 && h.e[0].node == &nodes[want[i]]);
        event_heap_pop(&h);
    }
    CHECK_EQ_U64(h.n, 0);
    event_heap_destroy(&h);
}

int main(void)
{
    RUN(test_against_reference);
    RUN(test_gaps);
    RUN(test_heap_renumber);
    return harness_report();
}
