/* The event queue behind sim.c (internal to the kernel).
 *
 * Events are kept in time buckets: one bucket per distinct pending time, each holding
 * one FIFO list per priority level (FIFO order is insertion order, i.e. sequence
 * order); bucket->mask says which lists are non-empty. The buckets are ordered in
 * `order[lo, hi)` in one of two modes:
 * - sorted (few distinct times, the common case): ascending by time; the earliest is
 *   order[lo], a new latest time is appended, a bucket is found by binary search;
 * - heap (more than EVENTQ_SORTED_MAX distinct times): a binary min-heap with lo == 0,
 *   buckets found through the u64 map of idmap.h keyed by time.
 * A sorted array is already a valid heap, so switching up is free; switching down
 * (at EVENTQ_SORTED_MIN) sorts at most that many buckets. Nodes and buckets are
 * pooled. */
#ifndef MGTLM_EVENTQ_H
#define MGTLM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idmap.h"
#include "sim.h"

struct SimNode {
    SimTime time;
    SimProc fn;
    void *subject;
    void *obj;
    SimNode *next;
    uint64_t gen; /* bumped every time the node is freed */
    uint8_t prio;
    bool cancelled;
};

/* Sorted mode holds at most this many distinct times; heap mode hands back at
 * EVENTQ_SORTED_MIN (eventq.c). */
#define EVENTQ_SORTED_MAX 32

typedef struct EventBucket EventBucket;
struct EventBucket {
    SimTime time;
    unsigned mask; /* bit p set: head[p] != NULL */
    SimNode *head[SIM_PRIO_LEVELS];
    SimNode *tail[SIM_PRIO_LEVELS];
    EventBucket *next_free;
};

typedef struct EventQueue {
    EventBucket **order; /* buckets in [lo, hi): sorted, or a min-heap (lo == 0) */
    size_t lo, hi, order_cap;
    bool heap_mode;
    IdMap table;       /* heap mode: time -> bucket (kernel/idmap.h) */
    EventBucket *last; /* bucket of the most recent insertion (fast path) */
    EventBucket *free_buckets;
    SimNode *free_nodes;
    void **chunks; /* slabs of nodes and buckets, freed at the end */
    size_t nchunks, chunk_cap;
    uint64_t pushed;    /* nodes ever scheduled */
    uint64_t cancelled; /* nodes ever cancelled (pending = pushed - cancelled - run) */
} EventQueue;

/* An empty queue; nothing is allocated until the first push. */
void eventq_init(EventQueue *q);
void eventq_destroy(EventQueue *q);
/* Inserts a node for (time, prio) at the end of its FIFO. Aborts on OOM. */
SimNode *eventq_push_slow(EventQueue *q, SimTime time, int prio, SimProc fn,
                          void *subject, void *obj);
SimNode *eventq_peek_slow(EventQueue *q);

/* Takes a node from the free list (which must not be empty) and appends it to b's
 * FIFO for prio. */
static inline SimNode *eventq_link(EventQueue *q, EventBucket *b, SimTime time, int prio,
                                   SimProc fn, void *subject, void *obj)
{
    SimNode *n = q->free_nodes;
    q->free_nodes = n->next;
    n->time = time;
    n->fn = fn;
    n->subject = subject;
    n->obj = obj;
    n->next = NULL;
    n->prio = (uint8_t)prio;
    n->cancelled = false;
    if (b->mask & (1u << prio)) {
        b->tail[prio]->next = n;
    } else {
        b->head[prio] = n;
        b->mask |= 1u << prio;
    }
    b->tail[prio] = n;
    q->pushed++;
    return n;
}

/* Fast path: the time of the most recent insertion; anything else goes to
 * eventq_push_slow. */
static inline SimNode *eventq_push(EventQueue *q, SimTime time, int prio, SimProc fn,
                                   void *subject, void *obj)
{
    EventBucket *b = q->last;
    if (b && b->time == time && q->free_nodes) {
        return eventq_link(q, b, time, prio, fn, subject, obj);
    }
    return eventq_push_slow(q, time, prio, fn, subject, obj);
}

/* Sorted mode: returns the emptied earliest bucket b to the pool (heap mode leaves
 * it to eventq_peek_slow). */
static inline void eventq_retire_first(EventQueue *q, EventBucket *b)
{
    if (q->heap_mode || q->order[q->lo] != b) {
        return;
    }
    q->lo++;
    if (q->last == b) {
        q->last = NULL;
    }
    b->next_free = q->free_buckets;
    q->free_buckets = b;
}

static inline SimNode *eventq_peek(EventQueue *q)
{
    if (q->hi > q->lo) {
        EventBucket *b = q->order[q->lo];
        if (b->mask) {
            SimNode *n = b->head[__builtin_ctz(b->mask)];
            if (!n->cancelled) {
                return n;
            }
        }
    }
    return eventq_peek_slow(q);
}

static inline void eventq_pop(EventQueue *q, SimNode *n)
{
    EventBucket *b = q->order[q->lo];
    b->head[n->prio] = n->next;
    if (!n->next) {
        b->tail[n->prio] = NULL;
        b->mask &= ~(1u << n->prio);
    }
}

static inline void eventq_release(EventQueue *q, SimNode *n)
{
    n->gen++;
    n->next = q->free_nodes;
    q->free_nodes = n;
}
void eventq_cancel(EventQueue *q, SimNode *n);

#endif
