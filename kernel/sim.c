/* The simulation kernel: current time, the event queue and run control. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>

#include "eventq.h"
#include "txn.h"

struct Sim {
    SimTime now;
    uint64_t executed;
    uint64_t next_txn_id;
    bool stop;
    EventQueue q;
    TxnPool *pool;
};

Sim *sim_new(void)
{
    Sim *sim = calloc(1, sizeof *sim);
    if (!sim) {
        return NULL;
    }
    sim->pool = txn_pool_new();
    if (!sim->pool || !eventq_init(&sim->q)) {
        txn_pool_free(sim->pool);
        free(sim);
        return NULL;
    }
    sim->next_txn_id = 1;
    return sim;
}

void sim_free(Sim *sim)
{
    if (!sim) {
        return;
    }
    eventq_destroy(&sim->q);
    txn_pool_free(sim->pool);
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

size_t sim_events_pending(const Sim *sim)
{
    return sim->q.live;
}

SimTime sim_next_time(Sim *sim)
{
    SimNode *n = eventq_peek(&sim->q);
    return n ? n->time : SIM_TIME_MAX;
}

SimHandle sim_schedule_at(Sim *sim, SimTime at, int prio, SimProc fn, void *subject,
                          void *obj)
{
    if (at < sim->now || prio < 0 || prio >= SIM_PRIO_LEVELS) {
        fprintf(stderr, "mgtlm: internal error: event scheduled at %llu ps (now %llu) "
                        "with priority %d\n",
                (unsigned long long)at, (unsigned long long)sim->now, prio);
        abort();
    }
    SimNode *n = eventq_push(&sim->q, at, prio, fn, subject, obj);
    return (SimHandle){.node = n, .gen = n->gen};
}

SimHandle sim_schedule(Sim *sim, SimTime delay, int prio, SimProc fn, void *subject,
                       void *obj)
{
    if (delay > SIM_TIME_MAX - sim->now) {
        fprintf(stderr, "mgtlm: internal error: simulated time overflow\n");
        abort();
    }
    return sim_schedule_at(sim, sim->now + delay, prio, fn, subject, obj);
}

bool sim_handle_pending(SimHandle h)
{
    return h.node && h.node->gen == h.gen && !h.node->cancelled;
}

void sim_cancel(Sim *sim, SimHandle h)
{
    if (sim_handle_pending(h)) {
        eventq_cancel(&sim->q, h.node);
    }
}

static void sim_execute(Sim *sim, SimNode *n)
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
    for (;;) {
        SimNode *first = eventq_peek(q);
        if (!first) {
            return SIM_RUN_IDLE;
        }
        if (first->time > until) {
            return SIM_RUN_UNTIL;
        }
        EventBucket *b = q->order[q->lo];
        sim->now = b->time;
        unsigned mask;
        while ((mask = b->mask) != 0) {
            unsigned p = (unsigned)__builtin_ctz(mask);
            SimNode *n = b->head[p];
            SimNode *next = n->next;
            b->head[p] = next;
            if (!next) {
                b->tail[p] = NULL;
                b->mask = mask & ~(1u << p);
            }
            SimProc fn = n->fn;
            void *subject = n->subject;
            void *obj = n->obj;
            bool cancelled = n->cancelled;
            eventq_release(q, n);
            if (cancelled) {
                continue;
            }
            q->live--;
            sim->executed++;
            fn(subject, obj);
            if (sim->stop) {
                sim->stop = false;
                return SIM_RUN_STOPPED;
            }
        }
    }
}

bool sim_step(Sim *sim)
{
    SimNode *n = eventq_peek(&sim->q);
    if (!n) {
        return false;
    }
    sim_execute(sim, n);
    return true;
}

void sim_stop(Sim *sim)
{
    sim->stop = true;
}

uint64_t sim_next_txn_id(Sim *sim)
{
    return sim->next_txn_id++;
}

TxnPool *sim_txn_pool(Sim *sim)
{
    return sim->pool;
}
