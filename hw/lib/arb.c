/* Crossbar arbitration (see arb.h for the rules).
 *
 * The route of each input's head is cached (head[]) and recomputed only when the
 * head changes: after a take, or after an arrival at an empty input. A bitmap of the
 * inputs that may hold a head (`busy`) and one of the outputs some head wants
 * (`want`) let an evaluation visit only those, in the same ascending and
 * round-robin orders as a scan of every port, so the outcome is the same. */
#include "hw/lib/arb.h"

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
    a->words = (a->n + 63) / 64;
    a->busy = calloc(a->words ? a->words : 1, sizeof *a->busy);
    a->want = calloc(a->words ? a->words : 1, sizeof *a->want);
    if (!a->rr || !a->out_next || !a->in_next || !a->blocked || !a->head || !a->wanted ||
        !a->busy || !a->want) {
        arb_destroy(a);
        return sim_error_set(err, "%s: out of memory", b->name);
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
        a->busy[i / 64] |= 1ULL << (i % 64);
    }
    sim_event_cancel(&a->ev);
}

void arb_on_recv(Arb *a, Port *p)
{
    if (a->head[p->index] == ARB_EMPTY) {
        a->head[p->index] = ARB_UNKNOWN;
        a->busy[p->index / 64] |= 1ULL << (p->index % 64);
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
    free(a->busy);
    free(a->want);
    a->rr = NULL;
    a->out_next = NULL;
    a->in_next = NULL;
    a->blocked = NULL;
    a->head = NULL;
    a->wanted = NULL;
    a->busy = NULL;
    a->want = NULL;
}

/* The cached route of input i's head (computing it if needed). */
static int arb_head(Arb *a, uint32_t i)
{
    if (a->head[i] == ARB_UNKNOWN) {
        Txn *t = port_peek(&a->b->ports[i]);
        a->head[i] = t ? a->route(a->b, i, t) : ARB_EMPTY;
        if (!t) {
            a->busy[i / 64] &= ~(1ULL << (i % 64));
        }
    }
    return a->head[i];
}

/* Removes input i's head (ownership to the caller) and invalidates the cache. */
static Txn *arb_take(Arb *a, uint32_t i)
{
    a->head[i] = ARB_UNKNOWN;
    return port_take(&a->b->ports[i]);
}

/* The first index >= from whose bit is set in bits (words words), or UINT32_MAX. */
static uint32_t arb_next_bit(const uint64_t *bits, uint32_t words, uint32_t from)
{
    uint32_t w = from / 64;
    if (w >= words) {
        return UINT32_MAX;
    }
    uint64_t v = bits[w] & (~0ULL << (from % 64));
    while (v == 0) {
        if (++w == words) {
            return UINT32_MAX;
        }
        v = bits[w];
    }
    return w * 64 + (uint32_t)__builtin_ctzll(v);
}

/* The first busy input in round-robin order from rr that is eligible for output o
 * now, or UINT32_MAX. */
static uint32_t arb_candidate(const Arb *a, uint32_t o, SimTime now)
{
    for (int pass = 0; pass < 2; pass++) {
        uint32_t from = pass == 0 ? a->rr[o] : 0;
        uint32_t stop = pass == 0 ? a->n : a->rr[o];
        for (uint32_t i = arb_next_bit(a->busy, a->words, from); i < stop;
             i = arb_next_bit(a->busy, a->words, i + 1)) {
            if (a->head[i] == (int)o && a->in_next[i] <= now) {
                return i;
            }
        }
    }
    return UINT32_MAX;
}

/* Grants output o to the first eligible input in round-robin order. */
static void arb_grant(Arb *a, uint32_t o, SimTime now)
{
    uint32_t i = arb_candidate(a, o, now);
    if (i != UINT32_MAX) {
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
    }
}

static void arb_eval(void *subject, void *obj)
{
    Arb *a = subject;
    (void)obj;
    SimTime now = sim_now(a->b->sim);
    for (uint32_t i = arb_next_bit(a->busy, a->words, 0); i < a->n;
         i = arb_next_bit(a->busy, a->words, i + 1)) {
        if (a->in_next[i] > now) {
            continue;
        }
        int o;
        while ((o = arb_head(a, i)) == ARB_ABSORB) {
            a->absorb(a->b, i, arb_take(a, i));
        }
        if (o >= 0 && a->wanted[o]++ == 0) {
            a->want[o / 64] |= 1ULL << (o % 64);
        }
    }
    for (uint32_t o = arb_next_bit(a->want, a->words, 0); o < a->n;
         o = arb_next_bit(a->want, a->words, o + 1)) {
        if (!a->blocked[o] && a->out_next[o] <= now) {
            arb_grant(a, o, now);
        }
        a->wanted[o] = 0;
    }
    memset(a->want, 0, a->words * sizeof *a->want);
    /* Wake at the earliest time a waiting head may move; a head behind a blocked
     * output waits for on_free instead. */
    SimTime wake = SIM_TIME_MAX;
    for (uint32_t i = arb_next_bit(a->busy, a->words, 0); i < a->n;
         i = arb_next_bit(a->busy, a->words, i + 1)) {
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
