/* The event queue: a timing wheel of time buckets with a heap for far events; see
 * eventq.h for the order and the structure. */
#include "eventq.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define NODE_SLAB 4096
#define BUCKET_SLAB 256
#define SLOT_MASK (EVENTQ_SLOTS - 1)
#define WORDS (EVENTQ_SLOTS / 64)

void eventq_init(EventQueue *q)
{
    memset(q, 0, sizeof *q);
}

void eventq_destroy(EventQueue *q)
{
    for (size_t i = 0; i < q->nchunks; i++) {
        free(q->chunks[i]);
    }
    free(q->chunks);
    free(q->slot);
    event_heap_destroy(&q->far);
    memset(q, 0, sizeof *q);
}

static void *eventq_slab(EventQueue *q, size_t n, size_t size)
{
    q->chunks = xgrow(q->chunks, &q->chunk_cap, q->nchunks + 1, sizeof *q->chunks, 16);
    void *p = xcalloc_lines(n, size);
    q->chunks[q->nchunks++] = p;
    return p;
}

static __attribute__((noinline)) void buckets_refill(EventQueue *q)
{
    EventBucket *slab = eventq_slab(q, BUCKET_SLAB, sizeof *slab);
    for (size_t k = 0; k < BUCKET_SLAB; k++) {
        slab[k].next = q->free_buckets;
        q->free_buckets = &slab[k];
    }
}

static inline EventBucket *bucket_alloc(EventQueue *q, SimTime t)
{
    if (!q->free_buckets) {
        buckets_refill(q);
    }
    EventBucket *b = q->free_buckets;
    q->free_buckets = b->next;
    b->time = t;
    b->mask = 0;
    return b;
}

/* The bucket of time t (inside the wheel), made and put in order if new. */
static inline EventBucket *wheel_bucket(EventQueue *q, SimTime t)
{
    size_t i = (size_t)(t >> EVENTQ_SLOT_SHIFT) & SLOT_MASK;
    EventBucket **at = &q->slot[i];
    while (*at && (*at)->time < t) {
        at = &(*at)->next;
    }
    if (*at && (*at)->time == t) {
        return *at;
    }
    EventBucket *b = bucket_alloc(q, t);
    b->next = *at;
    *at = b;
    q->occupied[i / 64] |= (uint64_t)1 << (i % 64);
    return b;
}

/* Moves the far heap's nodes that the wheel now reaches into their buckets, in the
 * heap's order (time, priority, scheduling): no node of their times is in the wheel
 * yet, so each FIFO keeps the order of scheduling. */
void eventq_take_far(EventQueue *q)
{
    EventHeap *h = &q->far;
    while (h->n > 0 && (h->e[0].time >> EVENTQ_SLOT_SHIFT) - q->base < EVENTQ_SLOTS) {
        SimNode *n = h->e[0].node;
        event_heap_pop(h);
        if (n->cancelled) {
            eventq_release(q, n);
            continue;
        }
        n->next = NULL;
        eventq_append(wheel_bucket(q, n->time), n);
    }
}

/* The first slot at or after the wheel's first (in time order) that holds a bucket;
 * EVENTQ_SLOTS if none. */
static size_t wheel_next(const EventQueue *q)
{
    size_t i0 = (size_t)(q->base & SLOT_MASK);
    size_t w0 = i0 / 64;
    uint64_t bits = q->occupied[w0] & (~(uint64_t)0 << (i0 % 64));
    if (bits) {
        return w0 * 64 + (size_t)__builtin_ctzll(bits);
    }
    for (size_t k = 1; k <= WORDS; k++) {
        size_t w = (w0 + k) % WORDS;
        bits = q->occupied[w];
        if (w == w0) {
            bits &= ((uint64_t)1 << (i0 % 64)) - 1;
        }
        if (bits) {
            return w * 64 + (size_t)__builtin_ctzll(bits);
        }
    }
    return EVENTQ_SLOTS;
}

SimNode *eventq_push_slow(EventQueue *q, SimTime time, int prio, SimProc fn,
                          void *subject, void *obj)
{
    if (!q->free_nodes) {
        SimNode *slab = eventq_slab(q, NODE_SLAB, sizeof *slab);
        for (size_t k = 0; k < NODE_SLAB; k++) {
            slab[k].next = q->free_nodes;
            q->free_nodes = &slab[k];
        }
    }
    if (!q->slot) {
        q->slot = xcalloc(EVENTQ_SLOTS, sizeof *q->slot);
    }
    if ((time >> EVENTQ_SLOT_SHIFT) - q->base < EVENTQ_SLOTS) {
        q->last = wheel_bucket(q, time);
        return eventq_link(q, q->last, time, prio, fn, subject, obj);
    }
    SimNode *n = eventq_node(q, time, prio, fn, subject, obj);
    event_heap_push(&q->far, n, time, prio);
    return n;
}

SimNode *eventq_peek_slow(EventQueue *q)
{
    while (q->slot) {
        size_t i = wheel_next(q);
        if (i == EVENTQ_SLOTS) {
            if (q->far.n == 0) {
                return NULL;
            }
            SimNode *n = q->far.e[0].node;
            if (n->cancelled) {
                event_heap_pop(&q->far);
                eventq_release(q, n);
                continue;
            }
            q->front = NULL;
            return n;
        }
        EventBucket *b = q->slot[i];
        if (!b->mask) {
            eventq_retire(q, b); /* emptied by runs or cancellations */
            continue;
        }
        int prio = __builtin_ctz(b->mask);
        SimNode *n = b->head[prio];
        if (n->cancelled) {
            (void)eventq_unlink_head(b, (unsigned)prio);
            eventq_release(q, n);
            continue;
        }
        q->front = b;
        return n;
    }
    return NULL;
}

void eventq_pop(EventQueue *q, SimNode *n)
{
    if (q->front) {
        (void)eventq_unlink_head(q->front, n->prio);
    } else {
        event_heap_pop(&q->far);
    }
    q->front = NULL;
    uint64_t slot = n->time >> EVENTQ_SLOT_SHIFT;
    if (slot != q->base) {
        q->base = slot;
        eventq_take_far(q);
    }
}

void eventq_cancel(EventQueue *q, SimNode *n)
{
    n->cancelled = true;
    q->cancelled++;
}
