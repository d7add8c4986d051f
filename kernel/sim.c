/* The simulation kernel: current time, the event queue and run control. */
#include "sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "sim_priv.h"
#include "xalloc.h"

/* What an unwatched kernel watches: a flag nothing sets. */
static const volatile sig_atomic_t sim_unset = 0;

Sim *sim_new(void)
{
    return sim_new_partition(0);
}

Sim *sim_new_partition(uint32_t part)
{
    Sim *sim = calloc(1, sizeof *sim);
    if (!sim) {
        return NULL;
    }
    sim->pool = txn_pool_new();
    if (!sim->pool) {
        free(sim);
        return NULL;
    }
    eventq_init(&sim->q);
    sim->next_txn_id = ((uint64_t)part << SIM_PART_SHIFT) + 1;
    sim->watch = &sim_unset;
    return sim;
}

void sim_free(Sim *sim)
{
    if (!sim) {
        return;
    }
    eventq_destroy(&sim->q);
    txn_pool_free(sim->pool);
    if (sim->reports) {
        for (size_t i = sim->reports->next; i < sim->reports->n; i++) {
            free(sim->reports->r[i].line);
        }
        free(sim->reports->r);
        free(sim->reports);
    }
    free(sim);
}

SimTime sim_now(const Sim *sim)
{
    return sim->now;
}

uint64_t sim_events_executed(const Sim *sim)
{
    return sim->executed;
}

bool sim_idle(const Sim *sim)
{
    if (sim->engine) {
        return engine_next_time(sim->engine) == SIM_TIME_MAX;
    }
    return sim_events_pending(sim) == 0;
}

size_t sim_events_pending(const Sim *sim)
{
    return (size_t)(sim->q.pushed - sim->q.cancelled - sim->executed);
}

SimTime sim_next_time(Sim *sim)
{
    SimNode *n = eventq_peek(&sim->q);
    return n && n->time <= SIM_TIME_LIMIT ? n->time : SIM_TIME_MAX;
}

void sim_schedule_fail(const Sim *sim, SimTime at, int prio)
{
    fprintf(stderr,
            "mgtlm: internal error: event scheduled at %llu ps (now %llu) "
            "with priority %d\n",
            (unsigned long long)at, (unsigned long long)sim->now, prio);
    abort();
}

SimHandle sim_schedule_at(Sim *sim, SimTime at, int prio, SimProc fn, void *subject,
                          void *obj)
{
    return sim_priv_schedule_at(sim, at, prio, fn, subject, obj);
}

SimHandle sim_schedule(Sim *sim, SimTime delay, int prio, SimProc fn, void *subject,
                       void *obj)
{
    SimTime at = delay > SIM_TIME_MAX - sim->now ? SIM_TIME_MAX : sim->now + delay;
    return sim_schedule_at(sim, at, prio, fn, subject, obj);
}

bool sim_handle_pending(SimHandle h)
{
    return sim_priv_pending(h);
}

void sim_cancel(Sim *sim, SimHandle h)
{
    if (sim_handle_pending(h)) {
        eventq_cancel(&sim->q, h.node);
    }
}

static inline void sim_execute(Sim *sim, SimNode *n)
{
    eventq_pop(&sim->q, n);
    sim->now = n->time;
    SimProc fn = n->fn;
    void *subject = n->subject;
    void *obj = n->obj;
    eventq_release(&sim->q, n);
    sim->executed++;
    fn(subject, obj);
}

SimRunResult sim_run(Sim *sim, SimTime until)
{
    EventQueue *q = &sim->q;
    sim->stop = false;
    if (*sim->watch) {
        return SIM_RUN_STOPPED;
    }
    if (until > SIM_TIME_LIMIT) {
        until = SIM_TIME_LIMIT;
    }
    for (;;) {
        SimNode *first = eventq_peek(q);
        if (!first) {
            return SIM_RUN_IDLE;
        }
        if (first->time > until) {
            return SIM_RUN_UNTIL;
        }
        EventBucket *b = q->front;
        if (!b) {
            sim_execute(sim, first);
            if (sim->stop || *sim->watch) {
                sim->stop = false;
                return SIM_RUN_STOPPED;
            }
            continue;
        }
        /* the whole bucket (its time) in one loop, new same-time nodes included */
        eventq_enter(q, b);
        sim->now = b->time;
        while (b->mask != 0) {
            SimNode *n = eventq_unlink_head(b, (unsigned)__builtin_ctz(b->mask));
            SimProc fn = n->fn;
            void *subject = n->subject;
            void *obj = n->obj;
            bool cancelled = n->cancelled;
            eventq_release(q, n);
            if (cancelled) {
                continue;
            }
            sim->executed++;
            fn(subject, obj);
            if (sim->stop || *sim->watch) {
                sim->stop = false;
                return SIM_RUN_STOPPED;
            }
        }
        eventq_retire(q, b);
    }
}

bool sim_step(Sim *sim)
{
    SimNode *n = eventq_peek(&sim->q);
    if (!n || n->time > SIM_TIME_LIMIT) {
        return false;
    }
    sim_execute(sim, n);
    return true;
}

void sim_stop(Sim *sim)
{
    sim->stop = true;
}

void sim_watch(Sim *sim, const volatile sig_atomic_t *flag)
{
    sim->watch = flag ? flag : &sim_unset;
}

uint64_t sim_next_txn_id(Sim *sim)
{
    return sim->next_txn_id++;
}

TxnPool *sim_txn_pool(Sim *sim)
{
    return sim->pool;
}

void sim_keep_reports(Sim *sim)
{
    sim->reports = xcalloc(1, sizeof *sim->reports);
}

void sim_report(Sim *sim, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!sim->reports) {
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        return;
    }
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = xmalloc((size_t)(len < 0 ? 0 : len) + 2);
    vsnprintf(line, (size_t)(len < 0 ? 0 : len) + 1, fmt, again);
    va_end(again);
    line[len < 0 ? 0 : len] = '\n';
    line[(len < 0 ? 0 : len) + 1] = '\0';
    SimReports *r = sim->reports;
    r->r = xgrow(r->r, &r->cap, r->n + 1, sizeof *r->r, 8);
    r->r[r->n++] = (SimReportLine){sim->now, line};
}
