/* The engine's threads (see engine.h): the crew that runs the windows, its claims,
 * home partitions and barrier, and engine_run.
 *
 * Decisions:
 * - The crew outlives a run: `mgtlm run` calls engine_run once per 10 us slice of
 *   simulated time (its progress, signals and --until), about a hundred windows each.
 *   The first run on N > 1 threads starts the N - 1 helper threads; between runs they
 *   wait at the crew's barrier (spinning, then asleep, with a budget of their own so
 *   the pause between runs does not shrink the one of the windows' waits); engine_free,
 *   or a run on another thread count, lets them end and joins them. Before, every run
 *   started its threads afresh and dealt the homes again from equal weights: on 2
 *   threads of the light gpu16-baseline the threads waited 0.10 thread seconds where
 *   they now wait 0.04, and the run went from 1.57x to 1.67x over 1 thread
 *   (docs/performance.md "Threads that outlive a run").
 * - Barrier: spin for up to each thread's budget (at most ENGINE_SPIN_NS, adapting
 *   to how waits end; kernel/spin_barrier.h), then sleep, or sleep at once with more
 *   threads than online cores; the figures behind the choice are in
 *   docs/performance.md "Parallel runs".
 * - Partitions are claimed, not assigned, and each thread has home partitions: in
 *   each window a thread first claims its homes, then any partition no thread has
 *   claimed yet, so the load balances itself while a partition mostly stays on the
 *   core whose caches hold it. Homes are dealt every ENGINE_HOME_WINDOWS windows (of
 *   the crew's life, not of one run) by longest processing time first: partitions by
 *   the events they ran in the last window, most first (ties by index), each to the
 *   thread with the least so far; a thread steals in that same order, so the busiest
 *   partition (on the gpu platforms the fabric's) starts first. Every thread computes
 *   the same order and homes from the published counts; a claim is one atomic
 *   exchange of the claim number (counted over the crew's life, so that two windows
 *   in a row, of one run or of two, never share one) into the partition's flag. One
 *   claim of partition p does all of p's work for window k: schedule the messages
 *   sent to p in window k - 1, release p's outboxes of window k - 2 (every reader was
 *   done before barrier k - 1) and run window k. The messages of the last window are
 *   scheduled once the run's threads are done. Which thread runs a partition never
 *   changes what it computes, so outputs stay the same bytes. */
#include "engine.h"
#include "engine_priv.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim_priv.h"
#include "spin_barrier.h"
#include "xalloc.h"

/* The last claim number a partition was claimed with, alone on its cache line: every
 * thread polls every partition's flag each window, and flags sharing a line would send
 * the line from core to core at each claim. */
typedef struct EngineClaim {
    _Alignas(64) atomic_uint claim;
} EngineClaim;

typedef struct EngineThread {
    EngineCrew *crew;
    unsigned id;
    uint32_t *order; /* n: partitions by last window's events, most first */
    uint32_t *home;  /* its home partitions, nhome of them (n allocated) */
    uint32_t nhome;
    uint32_t deal_in;    /* windows until its homes are dealt again */
    uint64_t *weight;    /* n: each partition's events in the last window, plus one */
    uint32_t *thread_of; /* n: the thread each partition was dealt to */
    uint64_t *load;      /* threads: scratch of the dealing */
    long spin_ns;        /* its spin budget at the windows' barrier */
    long park_ns;        /* its spin budget at the barrier between runs */
    EngineTimes times;   /* of the current run */
    SimRunResult result;
    pthread_t th;
} EngineThread;

struct EngineCrew {
    Engine *e;
    unsigned threads;
    EngineThread *th; /* threads of them; th[0] is engine_run's caller */
    unsigned started; /* th[0] and the helpers created */
    SpinBarrier barrier;
    pthread_mutex_t gate; /* the helpers start once every one of them exists */
    pthread_cond_t open;
    int go;               /* 0 wait, 1 run, -1 a helper could not be created: end */
    EngineClaim *claimed; /* n */
    unsigned claims;      /* claim numbers used before this run */
    /* the current run, written by the caller before the barrier that starts it */
    SimTime until; /* at most SIM_TIME_LIMIT */
    SimTime start; /* the first W */
    bool quit;     /* engine_crew_free: the helpers end */
};

/* The longest a thread that ends its window early polls before it sleeps, when every
 * thread has a core of its own (each thread's budget adapts below it,
 * kernel/spin_barrier.h): longer than a window's wait on a quiet machine (tens to
 * hundreds of microseconds at 8 to 16 threads). With more threads than online cores
 * the threads sleep at once: a spinning thread would hold the core that the thread it
 * waits for needs. */
#define ENGINE_SPIN_NS 1000000L

/* How often the home partitions are dealt again (windows). */
#define ENGINE_HOME_WINDOWS 64u

/* Deals the partitions of th->order to the threads by th->weight and keeps th's own,
 * in that order, in th->home. */
static void engine_homes(EngineThread *th, uint32_t n, unsigned threads)
{
    engine_deal(th->order, n, th->weight, threads, th->load, th->thread_of);
    th->nhome = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (th->thread_of[th->order[i]] == th->id) {
            th->home[th->nhome++] = th->order[i];
        }
    }
}

/* Claims partition p with claim number c: true for the one thread that does it
 * first. */
static bool engine_claim(EngineCrew *crew, uint32_t p, unsigned c)
{
    atomic_uint *flag = &crew->claimed[p].claim;
    return atomic_load_explicit(flag, memory_order_relaxed) != c &&
           atomic_exchange_explicit(flag, c, memory_order_relaxed) != c;
}

/* Partition p's work for window k (see the header comment). */
static void engine_part(EngineCrew *crew, uint32_t p, unsigned k, SimTime end)
{
    Engine *e = crew->e;
    if (crew->threads > 1) {
        txn_pool_claim(sim_txn_pool(e->sim[p]));
    }
    const EnginePub *last = engine_pub(e, k - 1);
    const EnginePub *older = engine_pub(e, k);
    if (k > 0) {
        engine_deliver(e, p, k - 1, last);
    }
    for (uint32_t d = 0; k > 1 && older[p].sent && d < e->n; d++) {
        outbox_release(&e->box[(size_t)p * e->n + d], k - 2);
    }
    engine_window(e, p, k, end);
}

/* One thread's part of a run: the window loop. */
static void engine_windows(EngineThread *th)
{
    EngineCrew *crew = th->crew;
    Engine *e = crew->e;
    SimTime w = crew->start;
    double t = engine_clock();
    for (unsigned k = 0;; k++) {
        if (w == SIM_TIME_MAX || w > crew->until) {
            th->result = w == SIM_TIME_MAX ? SIM_RUN_IDLE : SIM_RUN_UNTIL;
            break;
        }
        SimTime end = w > SIM_TIME_MAX - e->lookahead ? SIM_TIME_MAX : w + e->lookahead;
        if (end > crew->until) {
            end = crew->until + 1;
        }
        if (k > 0) {
            const EnginePub *last = engine_pub(e, k - 1);
            for (uint32_t p = 0; p < e->n; p++) {
                th->weight[p] = last[p].work + 1;
            }
            engine_order(th->order, e->n, th->weight);
        }
        if (th->deal_in == 0) {
            engine_homes(th, e->n, crew->threads);
            th->deal_in = ENGINE_HOME_WINDOWS;
        }
        th->deal_in--;
        unsigned c = crew->claims + k;
        for (uint32_t i = 0; i < th->nhome; i++) {
            if (engine_claim(crew, th->home[i], c)) {
                engine_part(crew, th->home[i], k, end);
            }
        }
        for (uint32_t i = 0; i < e->n; i++) {
            if (engine_claim(crew, th->order[i], c)) {
                engine_part(crew, th->order[i], k, end);
            }
        }
        if (crew->threads > 1) {
            double before = engine_clock();
            th->times.work_s += before - t;
            spin_barrier_wait(&crew->barrier, &th->spin_ns);
            t = engine_clock();
            th->times.wait_s += t - before;
        }
        th->times.windows++;
        const EnginePub *pub = engine_pub(e, k);
        bool stop = false;
        w = SIM_TIME_MAX;
        for (uint32_t p = 0; p < e->n; p++) {
            w = pub[p].next < w ? pub[p].next : w;
            stop = stop || pub[p].stop;
        }
        if (stop) {
            th->result = SIM_RUN_STOPPED;
            break;
        }
    }
    th->times.work_s += engine_clock() - t;
    txn_pool_claim(NULL);
}

/* A helper thread: waits for a run, runs its windows, waits for the others to end
 * theirs, until the crew quits. */
static void *engine_helper(void *arg)
{
    EngineThread *th = arg;
    EngineCrew *crew = th->crew;
    pthread_mutex_lock(&crew->gate);
    while (crew->go == 0) {
        pthread_cond_wait(&crew->open, &crew->gate);
    }
    bool cancelled = crew->go < 0;
    pthread_mutex_unlock(&crew->gate);
    while (!cancelled) {
        spin_barrier_wait(&crew->barrier, &th->park_ns);
        if (crew->quit) {
            break;
        }
        engine_windows(th);
        spin_barrier_wait(&crew->barrier, &th->park_ns);
    }
    return NULL;
}

void engine_crew_free(EngineCrew *crew)
{
    if (!crew) {
        return;
    }
    if (crew->go > 0) {
        crew->quit = true;
        spin_barrier_wait(&crew->barrier, &crew->th[0].park_ns);
    }
    for (unsigned i = 1; i < crew->started; i++) {
        pthread_join(crew->th[i].th, NULL);
    }
    spin_barrier_destroy(&crew->barrier);
    pthread_mutex_destroy(&crew->gate);
    pthread_cond_destroy(&crew->open);
    for (unsigned i = 0; i < crew->threads; i++) {
        free(crew->th[i].order);
        free(crew->th[i].home);
        free(crew->th[i].weight);
        free(crew->th[i].thread_of);
        free(crew->th[i].load);
    }
    free(crew->th);
    free(crew->claimed);
    free(crew);
}

/* A crew of `threads` (1..e->n) with its helpers started; NULL with err set if one
 * cannot be (the others are ended and joined). */
static EngineCrew *engine_crew_new(Engine *e, unsigned threads, SimError *err)
{
    EngineCrew *crew = xcalloc(1, sizeof *crew);
    crew->e = e;
    crew->threads = threads;
    crew->started = 1;
    crew->claimed = xcalloc_lines(e->n, sizeof *crew->claimed);
    for (uint32_t p = 0; p < e->n; p++) {
        atomic_init(&crew->claimed[p].claim, UINT_MAX);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    spin_barrier_init(&crew->barrier, threads,
                      cores > 0 && threads <= (unsigned long)cores ? ENGINE_SPIN_NS : 0);
    pthread_mutex_init(&crew->gate, NULL);
    pthread_cond_init(&crew->open, NULL);
    crew->th = xcalloc(threads, sizeof *crew->th);
    for (unsigned i = 0; i < threads; i++) {
        EngineThread *th = &crew->th[i];
        *th = (EngineThread){.crew = crew,
                             .id = i,
                             .order = xcalloc(e->n, sizeof(uint32_t)),
                             .home = xcalloc(e->n, sizeof(uint32_t)),
                             .weight = xcalloc(e->n, sizeof(uint64_t)),
                             .thread_of = xcalloc(e->n, sizeof(uint32_t)),
                             .load = xcalloc(threads, sizeof(uint64_t)),
                             .spin_ns = crew->barrier.spin_ns,
                             .park_ns = crew->barrier.spin_ns};
        for (uint32_t p = 0; p < e->n; p++) {
            th->order[p] = p;
            th->weight[p] = 1;
        }
    }
    while (crew->started < threads &&
           pthread_create(&crew->th[crew->started].th, NULL, engine_helper,
                          &crew->th[crew->started]) == 0) {
        crew->started++;
    }
    bool ok = crew->started == threads;
    pthread_mutex_lock(&crew->gate);
    crew->go = ok ? 1 : -1;
    pthread_cond_broadcast(&crew->open);
    pthread_mutex_unlock(&crew->gate);
    if (!ok) {
        sim_error_set(err, "cannot start thread %u of %u", crew->started + 1, threads);
        engine_crew_free(crew);
        return NULL;
    }
    return crew;
}

bool engine_run(Engine *e, SimTime until, unsigned threads, EngineTimes *times,
                SimRunResult *result, SimError *err)
{
    if (*e->watch) {
        *result = SIM_RUN_STOPPED;
        return true;
    }
    threads = threads < 1 ? 1 : threads > e->n ? e->n : threads;
    if (e->crew && e->crew->threads != threads) {
        engine_crew_free(e->crew);
        e->crew = NULL;
    }
    if (!e->crew && !(e->crew = engine_crew_new(e, threads, err))) {
        return false;
    }
    EngineCrew *crew = e->crew;
    engine_flush(e);
    crew->until = until > SIM_TIME_LIMIT ? SIM_TIME_LIMIT : until;
    crew->start = engine_next_time(e);
    for (unsigned i = 0; i < threads; i++) {
        crew->th[i].times = (EngineTimes){0};
    }
    if (threads > 1) {
        spin_barrier_wait(&crew->barrier, &crew->th[0].park_ns);
    }
    engine_windows(&crew->th[0]);
    if (threads > 1) {
        spin_barrier_wait(&crew->barrier, &crew->th[0].park_ns);
    }
    unsigned windows = (unsigned)crew->th[0].times.windows;
    crew->claims += windows;
    for (uint32_t d = 0; windows > 0 && d < e->n; d++) {
        engine_deliver(e, d, windows - 1, engine_pub(e, windows - 1));
    }
    engine_empty(e);
    engine_reports(e);
    *result = crew->th[0].result;
    for (unsigned i = 0; times && i < threads; i++) {
        times->work_s += crew->th[i].times.work_s;
        times->wait_s += crew->th[i].times.wait_s;
    }
    if (times) {
        times->windows += windows;
    }
    return true;
}
