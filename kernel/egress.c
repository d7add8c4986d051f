/* Egress queues: a growable ring of (transaction, port, departure time) sent in
 * order as time and credits allow (see egress.h). Like TxnFifo's, the ring's capacity
 * is a power of two (16, then doubled), so positions wrap with a mask. */
#include "egress.h"

#include <stdlib.h>

#include "block.h"
#include "xalloc.h"

static void egress_wake(void *subject, void *obj)
{
    (void)obj;
    (void)egress_pump(subject);
}

void egress_init(Egress *q, Block *owner, Port *port, const EgressOpts *opt)
{
    q->owner = owner;
    q->port = port;
    q->opt = opt ? *opt : (EgressOpts){0};
    q->item = NULL;
    q->cap = q->head = q->n = 0;
    sim_event_init(&q->ev, owner->sim, SIM_PRIO_DEFAULT, egress_wake, q, NULL);
}

static void egress_grow(Egress *q)
{
    size_t cap = q->cap ? 2 * q->cap : 16;
    EgressItem *item = xmalloc(cap * sizeof *item);
    for (size_t i = 0; i < q->n; i++) {
        item[i] = q->item[(q->head + i) & (q->cap - 1)];
    }
    free(q->item);
    q->item = item;
    q->cap = cap;
    q->head = 0;
}

void egress_add_to(Egress *q, Port *port, Txn *t, SimTime when)
{
    if (!port->peer && q->opt.unbound) {
        (*q->opt.unbound)++;
        txn_unref(t);
        return;
    }
    if (q->n == q->cap) {
        egress_grow(q);
    }
    q->item[(q->head + q->n) & (q->cap - 1)] = (EgressItem){t, port, when};
    q->n++;
}

void egress_add(Egress *q, Txn *t, SimTime when)
{
    egress_add_to(q, q->port, t, when);
}

/* Sends every due head as far as the ports accept and schedules the wake of a head
 * not yet due; sets *sent if anything left. False if a port refused a due head. */
static bool egress_send_due(Egress *q, bool *sent)
{
    SimTime now = sim_now(q->owner->sim);
    while (q->n > 0 && q->item[q->head].when <= now) {
        EgressItem *it = &q->item[q->head];
        if (!port_send_after(it->port, it->t, q->opt.extra)) {
            return false;
        }
        q->head = (q->head + 1) & (q->cap - 1);
        q->n--;
        *sent = true;
    }
    if (q->n > 0 && !q->opt.external_wake) {
        sim_event_notify_at(&q->ev, q->item[q->head].when);
    }
    return true;
}

bool egress_push(Egress *q, Txn *t, SimTime delay)
{
    bool sent = false;
    egress_add(q, t, sim_now(q->owner->sim) + delay);
    (void)egress_send_due(q, &sent);
    return sent;
}

bool egress_pump_items(Egress *q)
{
    bool sent = false;
    bool open = egress_send_due(q, &sent);
    if (sent && q->opt.drained) {
        q->opt.drained(q->owner);
    }
    return open;
}

size_t egress_len(const Egress *q)
{
    return q->n;
}

SimTime egress_next(const Egress *q)
{
    return q->n > 0 ? q->item[q->head].when : SIM_TIME_MAX;
}

bool egress_bound(const Egress *q)
{
    return q->port->peer != NULL;
}

void egress_clear(Egress *q)
{
    for (size_t i = 0; i < q->n; i++) {
        txn_unref(q->item[(q->head + i) & (q->cap - 1)].t);
    }
    q->n = q->head = 0;
}

void egress_destroy(Egress *q)
{
    egress_clear(q);
    free(q->item);
    q->item = NULL;
    q->cap = 0;
}
