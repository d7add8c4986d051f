/* Output queues with per-transaction departure times (see outq.h). */
#include "hw/lib/outq.h"

#include <stdio.h>
#include <stdlib.h>

static void outq_wake(void *subject, void *obj)
{
    (void)obj;
    outq_pump(subject);
}

void outq_init(OutQ *q, Block *b, Port *p, OutqDrainedFn drained, uint64_t *unbound)
{
    q->b = b;
    q->p = p;
    q->t = NULL;
    q->ready = NULL;
    q->cap = q->head = q->n = 0;
    q->drained = drained;
    q->unbound = unbound;
    sim_event_init(&q->ev, b->sim, SIM_PRIO_DEFAULT, outq_wake, q, NULL);
}

static void outq_grow(OutQ *q)
{
    size_t cap = q->cap ? 2 * q->cap : 16;
    Txn **t = malloc(cap * sizeof *t);
    SimTime *ready = malloc(cap * sizeof *ready);
    if (!t || !ready) {
        fprintf(stderr, "mgtlm: %s: out of host memory\n", q->b->name);
        abort();
    }
    for (size_t i = 0; i < q->n; i++) {
        t[i] = q->t[(q->head + i) % q->cap];
        ready[i] = q->ready[(q->head + i) % q->cap];
    }
    free(q->t);
    free(q->ready);
    q->t = t;
    q->ready = ready;
    q->cap = cap;
    q->head = 0;
}

void outq_push(OutQ *q, Txn *t, SimTime delay)
{
    if (!q->p->peer) {
        (*q->unbound)++;
        txn_unref(t);
        return;
    }
    if (q->n == q->cap) {
        outq_grow(q);
    }
    size_t i = (q->head + q->n) % q->cap;
    q->t[i] = t;
    q->ready[i] = sim_now(q->b->sim) + delay;
    q->n++;
    outq_pump(q);
}

void outq_pump(OutQ *q)
{
    SimTime now = sim_now(q->b->sim);
    bool sent = false;
    while (q->n > 0 && q->ready[q->head] <= now) {
        if (!port_send(q->p, q->t[q->head])) {
            break;
        }
        q->head = (q->head + 1) % q->cap;
        q->n--;
        sent = true;
    }
    if (q->n > 0 && q->ready[q->head] > now) {
        sim_event_notify_at(&q->ev, q->ready[q->head]);
    }
    if (sent && q->drained) {
        q->drained(q->b);
    }
}

size_t outq_len(const OutQ *q)
{
    return q->n;
}

bool outq_bound(const OutQ *q)
{
    return q->p->peer != NULL;
}

void outq_destroy(OutQ *q)
{
    for (size_t i = 0; i < q->n; i++) {
        txn_unref(q->t[(q->head + i) % q->cap]);
    }
    free(q->t);
    free(q->ready);
    q->t = NULL;
    q->ready = NULL;
    q->n = q->cap = q->head = 0;
}
