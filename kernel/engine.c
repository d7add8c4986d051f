/* The partitioned engine (see engine.h): kernels, outboxes, the window loop and its
 * threads.
 *
 * Decisions:
 * - Windows, not null messages: every partition of a platform talks to the fabric,
 *   so null messages would flow on every cut wire at every lookahead step anyway; a
 *   window costs one barrier for all of them and skips idle time in one step.
 * - One barrier per window. After it, each thread schedules the messages sent to its
 *   partitions in the window (reading the senders' outboxes) and computes the next W
 *   from the values every partition published before the barrier (its next event
 *   and the earliest message it sent), so all threads agree without a second
 *   barrier. Outboxes and published values are double-buffered by window parity: a
 *   buffer filled in window k is read after barrier k and released by its sender after
 *   barrier k + 1, when every reader is done with it.
 * - Transactions cross by moving, not by copying (a copy was 9 % of a memory-bound
 *   trace run on one thread and 15 to 20 % of the light baseline on two,
 *   docs/performance.md): the outbox holds the only reference (port_send copies what
 *   the sender keeps) and the receiver takes it over. A released transaction goes back
 *   to its sender's pool: directly on one thread, through the pool's lock-free return
 *   stack when another thread releases it (each claim tells txn_pool_claim which pool
 *   its thread owns). The pools are freed together (engine_free), after the
 *   platform's blocks.
 * - Barrier: spin for up to each thread's budget (at most ENGINE_SPIN_NS, adapting
 *   to how waits end; kernel/spin_barrier.h), then sleep, or sleep at once with more
 *   threads than online cores; the figures behind the choice are in
 *   docs/performance.md "Parallel runs".
 * - Partitions are claimed, not assigned, and each thread has home partitions: in
 *   each window a thread first claims its homes, then any partition no thread has
 *   claimed yet, so the load balances itself while a partition mostly stays on the
 *   core whose caches hold it. Homes are dealt every ENGINE_HOME_WINDOWS windows by
 *   longest processing time first: partitions by the events they ran in the last
 *   window, most first (ties by index), each to the thread with the least so far;
 *   a thread steals in that same order, so the busiest partition (on the gpu
 *   platforms the fabric's) starts first. Every thread computes the same order and
 *   homes from the published counts; a claim is one atomic exchange of the window
 *   number into the partition's flag. One
 *   claim of partition p does all of p's work for window k: schedule the messages
 *   sent to p in window k - 1, release p's outboxes of window k - 2 (every reader was
 *   done before barrier k - 1) and run window k. The messages of the last window are
 *   scheduled once the threads are joined. Which thread runs a partition never
 *   changes what it computes, so outputs stay the same bytes. */
#include "engine.h"
#include "engine_priv.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sim_priv.h"
#include "spin_barrier.h"
#include "xalloc.h"

/* The last window a partition was claimed in, alone on its cache line: every thread
 * polls every partition's flag each window, and flags sharing a line would send the
 * line from core to core at each claim. */
typedef struct EngineClaim {
    _Alignas(64) atomic_uint window;
} EngineClaim;

/* What the threads of one engine_run share. */
typedef struct EngineRun {
    Engine *e;
    SimTime until; /* at most SIM_TIME_LIMIT */
    SimTime start; /* the first W */
    unsigned threads;
    SpinBarrier barrier;
    pthread_mutex_t gate; /* the helpers start once every one of them exists */
    pthread_cond_t open;
    int go;               /* 0 wait, 1 run, -1 a thread could not be created: return */
    EngineClaim *claimed; /* n: the last window each partition was claimed in */
} EngineRun;

typedef struct EngineThread {
    EngineRun *run;
    unsigned id;
    uint32_t *order; /* n: partitions by last window's events, most first */
    uint32_t *home;  /* its home partitions, nhome of them (n allocated) */
    uint32_t nhome;
    uint64_t *weight;    /* n: each partition's weight in the order or the dealing */
    uint32_t *thread_of; /* n: the thread each partition was dealt to */
    uint64_t *load;      /* threads: scratch of the dealing */
    long spin_ns;        /* its spin budget at the barrier */
    EngineTimes times;
    SimRunResult result;
    pthread_t th;
} EngineThread;

/* The longest a thread that ends its window early polls before it sleeps, when every
 * thread has a core of its own (each thread's budget adapts below it,
 * kernel/spin_barrier.h): longer than a window's wait on a quiet machine (tens to
 * hundreds of microseconds at 8 to 16 threads). With more threads than online cores
 * the threads sleep at once: a spinning thread would hold the core that the thread it
 * waits for needs. */
#define ENGINE_SPIN_NS 1000000L

/* How often the home partitions are dealt again (windows). */
#define ENGINE_HOME_WINDOWS 64u

static const volatile sig_atomic_t engine_unset = 0;

Engine *engine_new(uint32_t nparts)
{
    Engine *e = xcalloc(1, sizeof *e);
    e->n = nparts;
    e->sim = xcalloc(nparts, sizeof *e->sim);
    e->box = xcalloc((size_t)nparts * nparts, sizeof *e->box);
    e->pub = xcalloc(2 * (size_t)nparts, sizeof *e->pub);
    e->side = xcalloc(nparts, sizeof *e->side);
    e->lookahead = SIM_TIME_MAX;
    e->watch = &engine_unset;
    e->ranks = 1;
    for (uint32_t p = 0; p < nparts; p++) {
        outbox_side_begin(&e->side[p], 0);
        for (uint32_t d = 0; d < nparts; d++) {
            outbox_init(&e->box[(size_t)p * nparts + d], &e->side[p]);
        }
    }
    for (uint32_t p = 0; p < nparts; p++) {
        if (!(e->sim[p] = sim_new_partition(p))) {
            engine_free(e);
            return NULL;
        }
        sim_keep_reports(e->sim[p]);
        e->sim[p]->engine = e;
    }
    return e;
}

void engine_free(Engine *e)
{
    if (!e) {
        return;
    }
    for (size_t i = 0; i < (size_t)e->n * e->n; i++) {
        outbox_destroy(&e->box[i]);
    }
    for (uint32_t p = 0; p < e->n; p++) {
        sim_free(e->sim[p]);
    }
    free(e->sim);
    free(e->box);
    free(e->side);
    free(e->pub);
    free(e->far_now);
    free(e->far_events);
    free(e->rank_of);
    free(e);
}

uint32_t engine_parts(const Engine *e)
{
    return e->n;
}

Sim *engine_sim(const Engine *e, uint32_t p)
{
    return e->sim[p];
}

void engine_cut(Engine *e, Port *a, uint32_t pa, Port *b, uint32_t pb)
{
    port_cut(a, &e->box[(size_t)pa * e->n + pb], b, &e->box[(size_t)pb * e->n + pa]);
    if (a->latency < e->lookahead) {
        e->lookahead = a->latency;
    }
}

uint32_t engine_part_of(const Engine *e, const Sim *sim)
{
    uint32_t p = 0;
    while (p + 1 < e->n && e->sim[p] != sim) {
        p++;
    }
    return p;
}

SimTime engine_lookahead(const Engine *e)
{
    return e->lookahead;
}

void engine_watch(Engine *e, const volatile sig_atomic_t *flag)
{
    e->watch = flag ? flag : &engine_unset;
}

SimTime engine_now(const Engine *e)
{
    SimTime now = 0;
    for (uint32_t p = 0; p < e->n; p++) {
        SimTime t =
            e->far_now && e->rank_of[p] != e->rank ? e->far_now[p] : sim_now(e->sim[p]);
        now = t > now ? t : now;
    }
    return now;
}

uint64_t engine_events(const Engine *e)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < e->n; p++) {
        n += e->far_now && e->rank_of[p] != e->rank ? e->far_events[p]
                                                    : sim_events_executed(e->sim[p]);
    }
    return n;
}

SimTime engine_next_time(const Engine *e)
{
    if (e->far_ran) {
        return e->far_next;
    }
    SimTime next = SIM_TIME_MAX;
    for (uint32_t p = 0; p < e->n; p++) {
        SimTime t = sim_next_time(e->sim[p]);
        next = t < next ? t : next;
    }
    for (uint32_t p = 0; p < e->n; p++) {
        next = e->side[p].earliest < next ? e->side[p].earliest : next;
    }
    return next;
}

double engine_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Schedules in partition d the messages sent to it in window k, in sending-partition
 * order (pub: the values published for window k). */
static void engine_deliver(Engine *e, uint32_t d, unsigned k, const EnginePub *pub)
{
    for (uint32_t s = 0; s < e->n; s++) {
        if (!pub[s].sent) {
            continue;
        }
        OutboxBuf *b = &e->box[(size_t)s * e->n + d].buf[k & 1u];
        for (size_t i = 0; i < b->n; i++) {
            port_cut_deliver(e->sim[d], &b->m[i]);
        }
    }
}

/* Writes the partitions' report lines to stderr merged by (time, partition), each
 * partition's in its own order (single-threaded). */
static void engine_reports(Engine *e)
{
    for (;;) {
        SimReports *first = NULL;
        for (uint32_t p = 0; p < e->n; p++) {
            SimReports *r = e->sim[p]->reports;
            if (r->next < r->n && (!first || r->r[r->next].t < first->r[first->next].t)) {
                first = r;
            }
        }
        if (!first) {
            break;
        }
        fputs(first->r[first->next].line, stderr);
        free(first->r[first->next++].line);
    }
    for (uint32_t p = 0; p < e->n; p++) {
        e->sim[p]->reports->n = e->sim[p]->reports->next = 0;
    }
}

/* Releases every outbox buffer and starts window 0 (single-threaded). */
void engine_empty(Engine *e)
{
    for (size_t i = 0; i < (size_t)e->n * e->n; i++) {
        outbox_release(&e->box[i], 0);
        outbox_release(&e->box[i], 1);
    }
    for (uint32_t p = 0; p < e->n; p++) {
        outbox_side_begin(&e->side[p], 0);
    }
}

/* Single-threaded, between runs: delivers what was sent outside a window (by the
 * blocks' reset) and empties every outbox. */
void engine_flush(Engine *e)
{
    for (uint32_t d = 0; d < e->n; d++) {
        for (uint32_t s = 0; s < e->n; s++) {
            OutboxBuf *b = &e->box[(size_t)s * e->n + d].buf[e->side[s].cur];
            for (size_t i = 0; i < b->n; i++) {
                port_cut_deliver(e->sim[d], &b->m[i]);
            }
        }
    }
    engine_empty(e);
}

/* Runs window k ([w, end)) for partition p and publishes its next time and stop. */
void engine_window(Engine *e, uint32_t p, unsigned k, SimTime end)
{
    OutboxSide *side = &e->side[p];
    outbox_side_begin(side, k);
    uint64_t before = sim_events_executed(e->sim[p]);
    SimRunResult r = sim_run(e->sim[p], end - 1);
    SimTime next = sim_next_time(e->sim[p]);
    next = side->earliest < next ? side->earliest : next;
    engine_pub(e, k)[p] = (EnginePub){next, r == SIM_RUN_STOPPED || *e->watch,
                                      side->earliest != SIM_TIME_MAX,
                                      sim_events_executed(e->sim[p]) - before};
}

void engine_order(uint32_t *order, uint32_t n, const uint64_t *weight)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i;
        for (; j > 0 && weight[order[j - 1]] < weight[i]; j--) {
            order[j] = order[j - 1];
        }
        order[j] = i;
    }
}

void engine_deal(const uint32_t *order, uint32_t n, const uint64_t *weight, uint32_t bins,
                 uint64_t *load, uint32_t *bin_of)
{
    for (uint32_t b = 0; b < bins; b++) {
        load[b] = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t best = 0;
        for (uint32_t b = 1; b < bins; b++) {
            best = load[b] < load[best] ? b : best;
        }
        load[best] += weight[order[i]];
        bin_of[order[i]] = best;
    }
}

/* Deals the partitions of th->order to the threads by the events they ran in the last
 * window plus one (one each before the first window) and keeps th's own, in that
 * order, in th->home. */
static void engine_homes(EngineThread *th, uint32_t n, unsigned threads,
                         const EnginePub *last)
{
    for (uint32_t p = 0; p < n; p++) {
        th->weight[p] = last ? last[p].work + 1 : 1;
    }
    engine_deal(th->order, n, th->weight, threads, th->load, th->thread_of);
    th->nhome = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (th->thread_of[th->order[i]] == th->id) {
            th->home[th->nhome++] = th->order[i];
        }
    }
}

/* Claims partition p for window k: true for the one thread that does it first. */
static bool engine_claim(EngineRun *run, uint32_t p, unsigned k)
{
    atomic_uint *flag = &run->claimed[p].window;
    return atomic_load_explicit(flag, memory_order_relaxed) != k &&
           atomic_exchange_explicit(flag, k, memory_order_relaxed) != k;
}

/* Partition p's work for window k (see the header comment). */
static void engine_part(EngineRun *run, uint32_t p, unsigned k, SimTime end)
{
    Engine *e = run->e;
    if (run->threads > 1) {
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

static void *engine_thread(void *arg)
{
    EngineThread *th = arg;
    EngineRun *run = th->run;
    Engine *e = run->e;
    if (th->id > 0) {
        pthread_mutex_lock(&run->gate);
        while (run->go == 0) {
            pthread_cond_wait(&run->open, &run->gate);
        }
        bool cancelled = run->go < 0;
        pthread_mutex_unlock(&run->gate);
        if (cancelled) {
            return NULL;
        }
    }
    SimTime w = run->start;
    double t = engine_clock();
    for (unsigned k = 0;; k++) {
        if (w == SIM_TIME_MAX || w > run->until) {
            th->result = w == SIM_TIME_MAX ? SIM_RUN_IDLE : SIM_RUN_UNTIL;
            break;
        }
        SimTime end = w > SIM_TIME_MAX - e->lookahead ? SIM_TIME_MAX : w + e->lookahead;
        if (end > run->until) {
            end = run->until + 1;
        }
        const EnginePub *last = k > 0 ? engine_pub(e, k - 1) : NULL;
        for (uint32_t p = 0; last && p < e->n; p++) {
            th->weight[p] = last[p].work;
        }
        if (last) {
            engine_order(th->order, e->n, th->weight);
        }
        if (k % ENGINE_HOME_WINDOWS == 0) {
            engine_homes(th, e->n, run->threads, last);
        }
        for (uint32_t i = 0; i < th->nhome; i++) {
            if (engine_claim(run, th->home[i], k)) {
                engine_part(run, th->home[i], k, end);
            }
        }
        for (uint32_t i = 0; i < e->n; i++) {
            if (engine_claim(run, th->order[i], k)) {
                engine_part(run, th->order[i], k, end);
            }
        }
        if (run->threads > 1) {
            double before = engine_clock();
            th->times.work_s += before - t;
            spin_barrier_wait(&run->barrier, &th->spin_ns);
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
    return NULL;
}

bool engine_run(Engine *e, SimTime until, unsigned threads, EngineTimes *times,
                SimRunResult *result, SimError *err)
{
    if (*e->watch) {
        *result = SIM_RUN_STOPPED;
        return true;
    }
    threads = threads < 1 ? 1 : threads > e->n ? e->n : threads;
    engine_flush(e);
    EngineRun run = {.e = e,
                     .until = until > SIM_TIME_LIMIT ? SIM_TIME_LIMIT : until,
                     .start = engine_next_time(e),
                     .threads = threads};
    EngineThread *th = xcalloc(run.threads, sizeof *th);
    run.claimed = xcalloc_lines(e->n, sizeof *run.claimed);
    for (uint32_t p = 0; p < e->n; p++) {
        atomic_init(&run.claimed[p].window, UINT_MAX);
    }
    unsigned started = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    spin_barrier_init(&run.barrier, run.threads,
                      cores > 0 && run.threads <= (unsigned long)cores ? ENGINE_SPIN_NS
                                                                       : 0);
    pthread_mutex_init(&run.gate, NULL);
    pthread_cond_init(&run.open, NULL);
    for (unsigned i = 0; i < run.threads; i++) {
        th[i] = (EngineThread){.run = &run,
                               .id = i,
                               .order = xcalloc(e->n, sizeof(uint32_t)),
                               .home = xcalloc(e->n, sizeof(uint32_t)),
                               .weight = xcalloc(e->n, sizeof(uint64_t)),
                               .thread_of = xcalloc(e->n, sizeof(uint32_t)),
                               .load = xcalloc(run.threads, sizeof(uint64_t)),
                               .spin_ns = run.barrier.spin_ns};
        for (uint32_t p = 0; p < e->n; p++) {
            th[i].order[p] = p;
        }
    }
    while (started < run.threads &&
           pthread_create(&th[started].th, NULL, engine_thread, &th[started]) == 0) {
        started++;
    }
    bool ok = started == run.threads;
    pthread_mutex_lock(&run.gate);
    run.go = ok ? 1 : -1;
    pthread_cond_broadcast(&run.open);
    pthread_mutex_unlock(&run.gate);
    if (ok) {
        engine_thread(&th[0]);
    }
    for (unsigned i = 1; i < started; i++) {
        pthread_join(th[i].th, NULL);
    }
    spin_barrier_destroy(&run.barrier);
    pthread_mutex_destroy(&run.gate);
    pthread_cond_destroy(&run.open);
    for (unsigned i = 0; i < run.threads; i++) {
        free(th[i].order);
        free(th[i].home);
        free(th[i].weight);
        free(th[i].thread_of);
        free(th[i].load);
    }
    free(run.claimed);
    if (!ok) {
        free(th);
        return sim_error_set(err, "cannot start thread %u of %u", started + 1,
                             run.threads);
    }
    unsigned windows = th[0].times.windows;
    for (uint32_t d = 0; windows > 0 && d < e->n; d++) {
        engine_deliver(e, d, windows - 1, engine_pub(e, windows - 1));
    }
    engine_empty(e);
    engine_reports(e);
    *result = th[0].result;
    for (unsigned i = 0; times && i < run.threads; i++) {
        times->work_s += th[i].times.work_s;
        times->wait_s += th[i].times.wait_s;
    }
    if (times) {
        times->windows += th[0].times.windows;
    }
    free(th);
    return true;
}
