/* Ports: bounded receive buffers, credit-based sends with latency, on_free callbacks
 * for refused senders, answers never refused (the ring grows for them), and the
 * recording hook (see port.h). */
#include "port.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"

bool port_init(Port *p, Block *owner, uint32_t index, const char *name, uint32_t cap)
{
    memset(p, 0, sizeof *p);
    p->owner = owner;
    p->index = index;
    p->cap = cap ? cap : 1;
    p->size = p->cap;
    p->name = strdup(name);
    p->buf = calloc(p->size, sizeof *p->buf);
    if (!p->name || !p->buf) {
        free(p->name);
        free(p->buf);
        p->name = NULL;
        p->buf = NULL;
        return false;
    }
    return true;
}

void port_destroy(Port *p)
{
    p->peer_waiting = false;
    while (p->buf && p->count > 0) {
        txn_unref(port_take(p));
    }
    free(p->buf);
    free(p->name);
    p->buf = NULL;
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

bool port_can_send(Port *p)
{
    Port *q = p->peer;
    if (!q) {
        return false;
    }
    if (q->count + q->inflight < q->cap) {
        return true;
    }
    q->peer_waiting = true;
    return false;
}

/* Doubles q's ring (keeping its order from the head). Aborts when memory is out. */
static void port_grow(Port *q)
{
    uint32_t size = q->size * 2;
    Txn **buf = calloc(size, sizeof *buf);
    if (!buf || size < q->size) {
        fprintf(stderr, "mgtlm: %s: out of host memory for its receive buffer\n",
                q->name);
        abort();
    }
    for (uint32_t i = 0; i < q->count; i++) {
        buf[i] = q->buf[(q->head + i) % q->size];
    }
    free(q->buf);
    q->buf = buf;
    q->head = 0;
    q->size = size;
}

static void port_arrive(void *subject, void *obj)
{
    Port *q = subject;
    Txn *t = obj;
    q->inflight--;
    q->buf[(q->head + q->count) % q->size] = t;
    q->count++;
    q->n_recv++;
    if (q->trace) {
        q->trace->record(q->trace, q, "recv", t);
    }
    if (q->owner->type->on_recv) {
        q->owner->type->on_recv(q->owner, q);
    }
}

bool port_send_after(Port *p, Txn *t, SimTime extra)
{
    Port *q = p->peer;
    if (!q) {
        fprintf(stderr, "mgtlm: internal error: send on unconnected port %s\n", p->name);
        abort();
    }
    if (q->count + q->inflight >= q->cap) {
        if (q->bounded_answers || !txn_always_accepted(t)) {
            q->peer_waiting = true;
            return false;
        }
        if (q->count + q->inflight >= q->size) {
            port_grow(q);
        }
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
    return p->count ? p->buf[p->head] : NULL;
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
    if (p->count == 0) {
        return NULL;
    }
    Txn *t = p->buf[p->head];
    p->buf[p->head] = NULL;
    p->head = (p->head + 1) % p->size;
    p->count--;
    if (p->peer_waiting && p->peer) {
        p->peer_waiting = false;
        sim_schedule(p->owner->sim, 0, SIM_PRIO_NOTIFY, port_notify_free, p->peer, NULL);
    }
    return t;
}

uint32_t port_count(const Port *p)
{
    return p->count;
}
