/* Ports: receive buffers (TxnFifo) bounded by credits, credit-based sends with
 * latency, on_free callbacks for refused senders, answers never refused, the
 * pass-through loop, the recording hook and cut wires (see port.h).
 *
 * Speed: port_take prefetches the transaction it leaves at the head of the buffer:
 * its first two cache lines (a transaction starts a line: txn.h), the first with
 * every field a hop reads (command, ids, address, length, data pointer, GPUs,
 * reference count, wire bytes), the second with the declared command and most
 * extension fields. A block peeks that one at its next round, usually after
 * other blocks have run and pushed it out of the cache: the miss at that peek was the
 * hottest instruction of link_pump and xbar_route in a memory-bound run
 * (docs/performance.md, "Prefetching the next transaction").
 * A cut wire's credits are not events: the sender keeps the ones delivered to it, in
 * time order, and applies those due when it is short of a slot; only a refused sender
 * is woken, by one event at its next credit's time (port.h; 2.9 M of the 30.3 M
 * events of a gpu4 SpMV run were credits, docs/performance.md "Credits without
 * events"). */
#include "port.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "xalloc.h"

bool port_init(Port *p, Block *owner, uint32_t index, const char *name, uint32_t cap)
{
    memset(p, 0, sizeof *p);
    p->owner = owner;
    p->index = index;
    p->cap = cap ? cap : 1;
    p->name = strdup(name);
    return p->name != NULL;
}

void port_destroy(Port *p)
{
    p->peer_waiting = false;
    txn_fifo_free(&p->buf);
    if (p->credit_ev.sim) {
        sim_event_cancel(&p->credit_ev);
        p->credit_ev = (SimEvent){0};
    }
    free(p->credit_at);
    p->credit_at = NULL;
    p->credit_n = p->credit_cap = p->credit_head = 0;
    free(p->name);
    p->name = NULL;
}

bool port_connect(Port *a, Port *b, SimTime latency, SimError *err)
{
    if (a == b) {
        return sim_error_set(err, "port %s cannot be connected to itself", a->name);
    }
    if (a->peer) {
        return sim_error_set(err, "port %s is already connected to %s", a->name,
                             a->peer->name);
    }
    if (b->peer) {
        return sim_error_set(err, "port %s is already connected to %s", b->name,
                             b->peer->name);
    }
    a->peer = b;
    b->peer = a;
    a->latency = latency;
    b->latency = latency;
    return true;
}

void port_cut(Port *a, Outbox *ab, Port *b, Outbox *ba)
{
    a->cut = ab;
    b->cut = ba;
}

/* Applies the credits of p that are due (their time is now or earlier); they are in
 * time order. */
static inline void port_credits_due(Port *p)
{
    if (p->credit_n == 0) {
        return;
    }
    SimTime now = sim_now(p->owner->sim);
    while (p->credit_n > 0 && p->credit_at[p->credit_head] <= now) {
        p->credit_head = p->credit_head + 1 == p->credit_cap ? 0 : p->credit_head + 1;
        p->credit_n--;
        p->cut_used--;
    }
}

/* The wake of a refused sender p at its next credit's time: its on_free. */
static void port_credit(void *subject, void *obj)
{
    Port *p = subject;
    (void)obj;
    port_credits_due(p);
    if (p->cut_waiting) {
        p->cut_waiting = false;
        if (p->owner->type->on_free) {
            p->owner->type->on_free(p->owner, p);
        }
    }
}

/* p was refused over its cut wire: it is woken at its next credit's time, now if
 * one is delivered, else when one is (port_credit_put). */
static void port_cut_wait(Port *p)
{
    p->cut_waiting = true;
    if (p->credit_n > 0) {
        if (!p->credit_ev.sim) {
            sim_event_init(&p->credit_ev, p->owner->sim, SIM_PRIO_NOTIFY, port_credit, p,
                           NULL);
        }
        sim_event_notify_at(&p->credit_ev, p->credit_at[p->credit_head]);
    }
}

bool port_can_send(Port *p)
{
    Port *q = p->peer;
    if (!q) {
        return false;
    }
    if (p->cut) {
        port_credits_due(p);
        if (p->cut_used < q->cap) {
            return true;
        }
        port_cut_wait(p);
        return false;
    }
    if (q->buf.count + q->inflight < q->cap) {
        return true;
    }
    q->peer_waiting = true;
    return false;
}

/* An arrival at q; over a cut wire no slot was reserved at q (the sender counts). */
static void port_receive(void *subject, void *obj)
{
    Port *q = subject;
    Txn *t = obj;
    txn_fifo_push(&q->buf, t);
    q->n_recv++;
    if (q->trace) {
        q->trace->record(q->trace, q, "recv", t);
    }
    if (q->owner->type->on_recv) {
        q->owner->type->on_recv(q->owner, q);
    }
}

static void port_arrive(void *subject, void *obj)
{
    Port *q = subject;
    q->inflight--;
    port_receive(q, obj);
}

/* A credit delivered to sender p (between two windows of its partition), due at
 * `at`: credits come in time order, since the receiver takes in time order and each
 * comes `latency` later. */
static void port_credit_put(Port *p, SimTime at)
{
    if (p->credit_n == p->credit_cap) {
        uint32_t cap = p->credit_cap ? p->credit_cap * 2 : 8;
        SimTime *a = xmalloc(cap * sizeof *a);
        for (uint32_t i = 0; i < p->credit_n; i++) {
            a[i] = p->credit_at[(p->credit_head + i) % p->credit_cap];
        }
        free(p->credit_at);
        p->credit_at = a;
        p->credit_cap = cap;
        p->credit_head = 0;
    }
    if (p->credit_n > 0 &&
        at < p->credit_at[(p->credit_head + p->credit_n - 1) % p->credit_cap]) {
        fprintf(stderr, "mgtlm: internal error: credit of %s out of time order\n",
                p->name);
        abort();
    }
    p->credit_at[(p->credit_head + p->credit_n) % p->credit_cap] = at;
    p->credit_n++;
    if (p->cut_waiting) {
        port_cut_wait(p);
    }
}

void port_cut_deliver(Sim *sim, OutboxMsg *m)
{
    if (m->t) {
        sim_schedule_at(sim, m->at, SIM_PRIO_DELIVER, port_receive, m->dst, m->t);
        m->t = NULL;
    } else {
        port_credit_put(m->dst, m->at);
    }
}

/* port_send_after over a cut wire. */
static bool port_send_cut(Port *p, Port *q, Txn *t, SimTime extra)
{
    if (p->cut_used >= q->cap) {
        port_credits_due(p);
    }
    if (p->cut_used >= q->cap && (q->bounded_answers || !txn_always_accepted(t))) {
        port_cut_wait(p);
        return false;
    }
    p->cut_used++;
    p->n_sent++;
    if (p->trace) {
        p->trace->record(p->trace, p, "send", t);
    }
    if (t->refs > 1) {
        Txn *c = txn_copy(p->owner->sim, t);
        txn_unref(t);
        t = c;
    }
    SimTime now = sim_now(p->owner->sim), d = p->latency + extra;
    outbox_put(p->cut, d > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + d, q, t);
    return true;
}

bool port_send_after(Port *p, Txn *t, SimTime extra)
{
    Port *q = p->peer;
    if (!q) {
        fprintf(stderr, "mgtlm: internal error: send on unconnected port %s\n", p->name);
        abort();
    }
    if (p->cut) {
        return port_send_cut(p, q, t, extra);
    }
    if (q->buf.count + q->inflight >= q->cap &&
        (q->bounded_answers || !txn_always_accepted(t))) {
        q->peer_waiting = true;
        return false;
    }
    q->inflight++;
    p->n_sent++;
    if (p->trace) {
        p->trace->record(p->trace, p, "send", t);
    }
    sim_schedule(p->owner->sim, p->latency + extra, SIM_PRIO_DELIVER, port_arrive, q, t);
    return true;
}

bool port_send(Port *p, Txn *t)
{
    return port_send_after(p, t, 0);
}

Txn *port_peek(const Port *p)
{
    return txn_fifo_peek(&p->buf);
}

static void port_notify_free(void *subject, void *obj)
{
    Port *sender = subject;
    (void)obj;
    if (sender->owner->type->on_free) {
        sender->owner->type->on_free(sender->owner, sender);
    }
}

Txn *port_take(Port *p)
{
    Txn *t = txn_fifo_pop(&p->buf);
    if (t == NULL) {
        return NULL;
    }
    const Txn *next = txn_fifo_peek(&p->buf);
    if (next) {
        __builtin_prefetch(next);
        __builtin_prefetch((const char *)next + 64);
    }
    if (p->cut) {
        SimTime now = sim_now(p->owner->sim);
        outbox_put(p->cut,
                   p->latency > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + p->latency,
                   p->peer, NULL);
    } else if (p->peer_waiting && p->peer) {
        p->peer_waiting = false;
        sim_schedule(p->owner->sim, 0, SIM_PRIO_NOTIFY, port_notify_free, p->peer, NULL);
    }
    return t;
}

uint32_t port_count(const Port *p)
{
    return (uint32_t)p->buf.count;
}

uint32_t port_forward(Port *in, Port *out)
{
    uint32_t n = 0;
    Txn *t;
    while ((t = port_peek(in)) != NULL && port_send(out, t)) {
        (void)port_take(in);
        n++;
    }
    return n;
}
