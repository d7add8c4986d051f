/* Crossbar arbitration (see arb.h for the rules).
 *
 * The route of each input's head is cached (head[]) and recomputed only when the
 * head changes: after a take, or after an arrival at an empty input. Bitmaps of the
 * inputs that may hold a head (`busy`), of those free to send in this round (`elig`)
 * and of the outputs some eligible head wants (`want`) let an evaluation visit only
 * those, word by word, in the same ascending and round-robin orders as a scan of
 * every port, so the outcome is the same. An evaluation runs three passes: resolve
 * the eligible heads, grant each wanted output in ascending order, compute the next
 * wake; the two scratch maps are clear between evaluations.
 *
 * A round that nothing can have changed since the last one is cut short: heads
 * change only by takes (in a round) and arrivals at an empty input, outputs unblock
 * only by on_free, so with neither (`changed` false) and before the last round's
 * wake, no head may move (a head that could would have set that wake to now or
 * earlier) and every head is resolved; the round only sets that wake again. Such
 * rounds are the ones an arrival behind a waiting head asks for: 23 % of the rounds
 * of gpu4-baseline and 13 % of gpu16-baseline on SpMV (bench/event-mix traces). So
 * such an arrival asks for no round at all, and the pending round (the last wake)
 * keeps its place among the events of its time instead of moving behind those
 * scheduled since (the tie-break rule for arbiters, docs/kernel.md); a round that
 * runs anyway (an earlier notification) is still cut short. */
#include "hw/lib/arb.h"

#include <stdlib.h>

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
    a->words = (a->n + 63) / 64;
    a->busy = calloc(a->words ? a->words : 1, sizeof *a->busy);
    a->want = calloc(a->words ? a->words : 1, sizeof *a->want);
    a->elig = calloc(a->words ? a->words : 1, sizeof *a->elig);
    if (!a->rr || !a->out_next || !a->in_next || !a->blocked || !a->head || !a->busy ||
        !a->want || !a->elig) {
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
    a->changed = true;
    a->wake = SIM_TIME_MAX;
    sim_event_cancel(&a->ev);
}

void arb_on_recv(Arb *a, Port *p)
{
    if (a->head[p->index] == ARB_EMPTY) {
        a->head[p->index] = ARB_UNKNOWN;
        a->busy[p->index / 64] |= 1ULL << (p->index % 64);
        a->changed = true;
    } else if (!a->changed && sim_now(a->b->sim) < a->wake) {
        return; /* behind a head: the round would only set the same wake */
    }
    sim_event_notify(&a->ev, 0);
}

void arb_on_free(Arb *a, Port *p)
{
    a->blocked[p->index] = false;
    a->changed = true;
    sim_event_notify(&a->ev, 0);
}

void arb_destroy(Arb *a)
{
    free(a->rr);
    free(a->out_next);
    free(a->in_next);
    free(a->blocked);
    free(a->head);
    free(a->busy);
    free(a->want);
    free(a->elig);
    a->rr = NULL;
    a->out_next = NULL;
    a->in_next = NULL;
    a->blocked = NULL;
    a->head = NULL;
    a->busy = NULL;
    a->want = NULL;
    a->elig = NULL;
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

/* The lowest set bit of *bits, cleared (bits non-zero). */
static inline uint32_t arb_pop_bit(uint64_t *bits)
{
    uint32_t b = (uint32_t)__builtin_ctzll(*bits);
    *bits &= *bits - 1;
    return b;
}

/* The first input >= from and < stop in `elig` whose head goes to output o, or
 * UINT32_MAX. */
static uint32_t arb_find(const Arb *a, uint32_t o, uint32_t from, uint32_t stop)
{
    for (uint32_t w = from / 64; w * 64 < stop; w++) {
        uint64_t v = a->elig[w];
        if (w == from / 64) {
            v &= ~0ULL << (from % 64);
        }
        while (v) {
            uint32_t i = w * 64 + arb_pop_bit(&v);
            if (i >= stop) {
                return UINT32_MAX;
            }
            if (a->head[i] == (int)o) {
                return i;
            }
        }
    }
    return UINT32_MAX;
}

/* Grants output o to the first eligible input in round-robin order from rr[o]. */
static void arb_grant(Arb *a, uint32_t o, SimTime now)
{
    uint32_t i = arb_find(a, o, a->rr[o], a->n);
    if (i == UINT32_MAX) {
        i = arb_find(a, o, 0, a->rr[o]);
    }
    if (i != UINT32_MAX) {
        /* On success the reference moves from our input buffer to the peer. */
        if (!port_send_after(&a->b->ports[o], port_peek(&a->b->ports[i]), a->latency)) {
            a->blocked[o] = true;
            return;
        }
        (void)arb_take(a, i);
        a->elig[i / 64] &= ~(1ULL << (i % 64));
        (*a->sent[o])++;
        a->rr[o] = (i + 1) % a->n;
        a->out_next[o] = now + a->cycle;
        a->in_next[i] = now + a->cycle;
    }
}

/* Resolves the heads of the inputs free to send now (handing absorbed heads over)
 * and marks them in elig and the outputs they go to in want. */
static void arb_collect(Arb *a, SimTime now)
{
    for (uint32_t w = 0; w < a->words; w++) {
        uint64_t v = a->busy[w];
        while (v) {
            uint32_t i = w * 64 + arb_pop_bit(&v);
            if (a->in_next[i] > now) {
                continue;
            }
            int o;
            while ((o = arb_head(a, i)) == ARB_ABSORB) {
                a->absorb(a->b, i, arb_take(a, i));
            }
            if (o >= 0) {
                a->elig[w] |= 1ULL << (i % 64);
                a->want[(uint32_t)o / 64] |= 1ULL << ((uint32_t)o % 64);
            }
        }
    }
}

/* The earliest time a waiting head may move; a head behind a blocked output waits
 * for on_free instead (SIM_TIME_MAX: nothing to wake for). Clears elig on the way
 * (a separate clearing loop becomes a call to memset). */
static SimTime arb_wake(Arb *a)
{
    SimTime wake = SIM_TIME_MAX;
    for (uint32_t w = 0; w < a->words; w++) {
        a->elig[w] = 0;
        uint64_t v = a->busy[w];
        while (v) {
            uint32_t i = w * 64 + arb_pop_bit(&v);
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
    }
    return wake;
}

static void arb_eval(void *subject, void *obj)
{
    Arb *a = subject;
    (void)obj;
    SimTime now = sim_now(a->b->sim);
    if (!a->changed && now < a->wake) {
        /* An arrival behind a head: the round would grant nothing and set the same
         * wake again (its notification replaced the pending one). */
        if (a->wake != SIM_TIME_MAX) {
            sim_event_notify_at(&a->ev, a->wake);
        }
        return;
    }
    arb_collect(a, now);
    for (uint32_t w = 0; w < a->words; w++) {
        uint64_t v = a->want[w];
        a->want[w] = 0;
        while (v) {
            uint32_t o = w * 64 + arb_pop_bit(&v);
            if (!a->blocked[o] && a->out_next[o] <= now) {
                arb_grant(a, o, now);
            }
        }
    }
    a->changed = false;
    a->wake = arb_wake(a);
    if (a->wake != SIM_TIME_MAX) {
        sim_event_notify_at(&a->ev, a->wake);
    }
}
