/* The partitioned engine (see engine.h): kernels, outboxes, message delivery and one
 * partition's window.
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
 * - The threads that run the windows (their crew, claims, home partitions and
 *   barrier) and engine_run are in engine_threads.c. */
#include "engine.h"
#include "engine_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim_priv.h"
#include "xalloc.h"

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
    engine_crew_free(e->crew);
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
 * order (pub: the values published for window k), and empties their buffers: every
 * message of a buffer is delivered (its transaction handed over), so the sender's
 * release a window later (outbox_release, after the barrier that ends this window)
 * finds nothing to read in a buffer gone cold since (267 k of the 8.2 M first-level
 * read misses of a gpu4 SpMV run, cachegrind; docs/performance.md). With threads, the
 * count is one write a window into a line the sender also writes: one line transfer
 * per pair of partitions and window. */
void engine_deliver(Engine *e, uint32_t d, unsigned k, const EnginePub *pub)
{
    for (uint32_t s = 0; s < e->n; s++) {
        if (!pub[s].sent) {
            continue;
        }
        OutboxBuf *b = &e->box[(size_t)s * e->n + d].buf[k & 1u];
        for (size_t i = 0; i < b->n; i++) {
            port_cut_deliver(e->sim[d], &b->m[i]);
        }
        b->n = 0;
    }
}

/* Writes the partitions' report lines to stderr merged by (time, partition), each
 * partition's in its own order (single-threaded). */
void engine_reports(Engine *e)
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
