/* Crossbar arbitration (see arb.h for the rules).
 *
 * The route of each input's head is cached (head[]) and recomputed only when the
 * head changes: after a take, or after an arrival at an empty input. */
#include "hw/infra/arb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void arb_eval(void *subject, void *obj);

bool arb_init(Arb *a, Block *b, SimTime latency, ArbRouteFn route, ArbAbsorbFn absorb,
              SimError *err)
{
    a->b = b;
    a->route = route;
    a->absorb = absorb;
    a->latency = latency;
    a->cycle = b->plat->clock ? b->plat->clock : 1;
    a->n = (uint32_t)b->nports;
    a->rr = calloc(a->n, sizeof *a->rr);
    a->out_next = calloc(a->n, sizeof *a->out_next);
    a->in_next = calloc(a->n, sizeof *a->in_next);
    a->blocked = calloc(a->n, sizeof *a->blocked);
    a->head = calloc(a->n, sizeof *a->head);
    a->wanted = calloc(a->n, sizeof *a->wanted);
    a->sent = calloc(a->n, sizeof *a->sent);
    if (!a->rr || !a->out_next || !a->in_next || !a->blocked || !a->head || !a->wanted ||
        !a->sent) {
        arb_destroy(a);
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    for (uint32_t o = 0; o < a->n; o++) {
        char name[128];
        const char *local = b->ports[o].name + strlen(b->name) + 1;
        snprintf(name, sizeof name, "%s_out", local);
        a->sent[o] = block_counter(b, name, "transactions forwarded out of this port");
    }
    sim_event_init(&a->ev, b->sim, SIM_PRIO_DEFAULT, arb_eval, a, NULL);
    arb_reset(a);
    return true;
}

void arb_reset(Arb *a)
{
    for (uint32_t i = 0; i < a->n; i++) {
        a->rr[i] = 0;
        a->out_next[i] = 0;
        a->in_next[i] = 0;
        a->blocked[i] = false;
        a->head[i] = ARB_UNKNOWN;
    }
    sim_event_cancel(&a->ev);
}

void arb_on_recv(Arb *a, Port *p)
{
    if (a->head[p->index] == ARB_EMPTY) {
        a->head[p->index] = ARB_UNKNOWN;
    }
    sim_event_notify(&a->ev, 0);
}

void arb_on_free(Arb *a, Port *p)
{
    a->blocked[p->index] = false;
    sim_event_notify(&a->ev, 0);
}

void arb_destroy(Arb *a)
{
    free(a->rr);
    free(a->out_next);
    free(a->in_next);
    free(a->blocked);
    free(a->head);
    free(a->wanted);
    free(a->sent);
    a->rr = NULL;
    a->out_next = NULL;
    a->in_next = NULL;
    a->blocked = NULL;
    a->head = NULL;
    a->wanted = NULL;
    a->sent = NULL;
}

/* The cached route of input i's head (computing it if needed). */
static int arb_head(Arb *a, uint32_t i)
{
    if (a->head[i] == ARB_UNKNOWN) {
        Txn *t = port_peek(&a->b->ports[i]);
        a->head[i] = t ? a->route(a->b, i, t) : ARB_EMPTY;
    }
    return a->head[i];
}

/* Removes input i's head (ownership to the caller) and invalidates the cache. */
static Txn *arb_take(Arb *a, uint32_t i)
{
    a->head[i] = ARB_UNKNOWN;
    return port_take(&a->b->ports[i]);
}

/* Grants output o to the first eligible input in round-robin order. */
static void arb_grant(Arb *a, uint32_t o, SimTime now)
{
    for (uint32_t k = 0; k < a->n; k++) {
        uint32_t i = (a->rr[o] + k) % a->n;
        if (a->head[i] != (int)o || a->in_next[i] > now) {
            continue;
        }
        /* On success the reference moves from our input buffer to the peer. */
        if (!port_send_after(&a->b->ports[o], port_peek(&a->b->ports[i]), a->latency)) {
            a->blocked[o] = true;
            return;
        }
        (void)arb_take(a, i);
        (*a->sent[o])++;
        a->rr[o] = (i + 1) % a->n;
        a->out_next[o] = now + a->cycle;
        a->in_next[i] = now + a->cycle;
        return;
    }
}

static void arb_eval(void *subject, void *obj)
{
    Arb *a = subject;
    (void)obj;
    SimTime now = sim_now(a->b->sim);
    memset(a->wanted, 0, a->n * sizeof *a->wanted);
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->in_next[i] > now) {
            continue;
        }
        int o;
        while ((o = arb_head(a, i)) == ARB_ABSORB) {
            a->absorb(a->b, i, arb_take(a, i));
        }
        if (o >= 0) {
            a->wanted[o]++;
        }
    }
    for (uint32_t o = 0; o < a->n; o++) {
        if (a->wanted[o] && !a->blocked[o] && a->out_next[o] <= now) {
            arb_grant(a, o, now);
        }
    }
    /* Wake at the earliest time a waiting head may move; a head behind a blocked
     * output waits for on_free instead. */
    SimTime wake = SIM_TIME_MAX;
    for (uint32_t i = 0; i < a->n; i++) {
        int o = arb_head(a, i);
        if (o == ARB_EMPTY || (o >= 0 && a->blocked[o])) {
            continue;
        }
        SimTime when = a->in_next[i];
        if (o >= 0 && a->out_next[o] > when) {
            when = a->out_next[o];
        }
        if (when < wake) {
            wake = when;
        }
    }
    if (wake != SIM_TIME_MAX) {
        sim_event_notify_at(&a->ev, wake);
    }
}
