/* The event queue behind sim.c (internal to the kernel).
 *
 * Order: by time, then priority (lower first), then the order of scheduling (FIFO):
 * the kernel's tie-break rule (docs/kernel.md).
 *
 * Structure: a timing wheel of EVENTQ_SLOTS slots of 2^EVENTQ_SLOT_SHIFT ps, the
 * first of which is the slot of the current time (`base`, an absolute slot number,
 * moved when an event runs). A slot holds its pending times as buckets, a list sorted
 * by time; a bucket holds one FIFO of nodes per priority, and `mask` says which are
 * non-empty. A bit map of the slots that hold buckets finds the next one. Nodes due
 * at or after the end of the wheel (base + EVENTQ_SLOTS slots) wait in a heap ordered
 * by (time, priority, sequence of scheduling) (event_heap.h) and move into the wheel,
 * in that order, when `base` moves far enough. So a node enters its bucket in the
 * order of scheduling: those of the far heap come first, and a node is only scheduled
 * into the wheel once every earlier node of its slot has left the heap. Cancelled
 * nodes stay, marked, and are dropped when they reach the front. Nodes and buckets are
 * pooled.
 *
 * Speed (docs/performance.md, "The event queue"): scheduling at the time of the last
 * slow-path scheduling, or at the time being run, is an append; a new time is a walk
 * of its slot's short list; the next event is the first bucket of the current slot,
 * or a scan of the bit map when that slot is empty. The queue it replaced kept one
 * heap of buckets and, past 32 pending times, a hash table from time to bucket, whose
 * inserts, removes and pointer-chasing sifts were about a fifth of a trace-driven
 * run. */
#ifndef MGTLM_EVENTQ_H
#define MGTLM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event_heap.h"
#include "sim.h"

/* A node fills one cache line (the slabs, of nodes and of buckets, are aligned): 56
 * bytes at any offset crossed a line boundary in most nodes, and a push or a run
 * touched two lines (cachegrind of a gpu4 SpMV: the queue's first-level misses 2.44 M
 * to 2.09 M; docs/performance.md, "One line of a transaction"). */
struct SimNode {
    _Alignas(64) SimTime time;
    SimProc fn;
    void *subject;
    void *obj;
    SimNode *next;
    uint64_t gen; /* bumped every time the node is freed */
    uint8_t prio;
    bool cancelled;
};

#define EVENTQ_SLOT_SHIFT 10
#define EVENTQ_SLOT_BITS 12
#define EVENTQ_SLOTS ((size_t)1 << EVENTQ_SLOT_BITS)

typedef struct EventBucket EventBucket;
struct EventBucket {
    SimTime time;
    unsigned mask; /* bit p set: head[p] != NULL */
    SimNode *head[SIM_PRIO_LEVELS];
    SimNode *tail[SIM_PRIO_LEVELS];
    EventBucket *next; /* the next later time of the slot, or the pool's next */
};

typedef struct EventQueue {
    EventBucket **slot; /* EVENTQ_SLOTS lists, NULL until the first push */
    uint64_t occupied[EVENTQ_SLOTS / 64]; /* bit i: slot[i] != NULL */
    uint64_t base;      /* absolute slot number (time >> EVENTQ_SLOT_SHIFT) of the wheel's
                           first slot: that of the last event run, or 0 */
    EventBucket *last;  /* bucket of the last insertion by the slow path (fast path) */
    EventBucket *cur;   /* bucket sim_run entered last (its time is now), until it is
                           retired; NULL before (second fast path) */
    EventBucket *front; /* bucket of the node eventq_peek returned, NULL: the far heap */
    EventHeap far;      /* nodes at or after the wheel's end */
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
/* Inserts a node for (time, prio) after every pending node of the same time and
 * priority; time must not be before the last node run. Aborts on OOM. */
SimNode *eventq_push_slow(EventQueue *q, SimTime time, int prio, SimProc fn,
                          void *subject, void *obj);
SimNode *eventq_peek_slow(EventQueue *q);
/* Removes n, the node the last eventq_peek returned, to run it: the wheel moves to
 * its time. */
void eventq_pop(EventQueue *q, SimNode *n);
/* Moves the far heap's nodes that the wheel reaches from its current first slot into
 * their buckets. */
void eventq_take_far(EventQueue *q);

/* Takes a node from the free list (which must not be empty) for a new event. */
static inline SimNode *eventq_node(EventQueue *q, SimTime time, int prio, SimProc fn,
                                   void *subject, void *obj)
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
    q->pushed++;
    return n;
}

/* Appends n (its next NULL) to b's FIFO for its priority. */
static inline void eventq_append(EventBucket *b, SimNode *n)
{
    unsigned prio = n->prio;
    if (b->mask & (1u << prio)) {
        b->tail[prio]->next = n;
    } else {
        b->head[prio] = n;
        b->mask |= 1u << prio;
    }
    b->tail[prio] = n;
}

/* A new event at the end of b's FIFO for prio (the free list must not be empty). */
static inline SimNode *eventq_link(EventQueue *q, EventBucket *b, SimTime time, int prio,
                                   SimProc fn, void *subject, void *obj)
{
    SimNode *n = eventq_node(q, time, prio, fn, subject, obj);
    eventq_append(b, n);
    return n;
}

/* Fast paths: the time of the slow path's last insertion (q->last), or the time of the
 * bucket being run (q->cur: a notification at the current time after a send at a
 * later one); anything else goes to eventq_push_slow. */
static inline SimNode *eventq_push(EventQueue *q, SimTime time, int prio, SimProc fn,
                                   void *subject, void *obj)
{
    EventBucket *b = q->last;
    if (b && b->time == time && q->free_nodes) {
        return eventq_link(q, b, time, prio, fn, subject, obj);
    }
    b = q->cur;
    if (b && b->time == time && q->free_nodes) {
        return eventq_link(q, b, time, prio, fn, subject, obj);
    }
    return eventq_push_slow(q, time, prio, fn, subject, obj);
}

/* The earliest pending node, NULL if none (cancelled ones at the front dropped). */
static inline SimNode *eventq_peek(EventQueue *q)
{
    if (q->slot) {
        /* the current slot, else the next (a clock's next edge) */
        EventBucket *b = q->slot[q->base & (EVENTQ_SLOTS - 1)];
        if (!b) {
            b = q->slot[(q->base + 1) & (EVENTQ_SLOTS - 1)];
        }
        if (b && b->mask) {
            SimNode *n = b->head[__builtin_ctz(b->mask)];
            if (!n->cancelled) {
                q->front = b;
                return n;
            }
        }
    }
    return eventq_peek_slow(q);
}

/* Whole-bucket runs (sim_run): b, the bucket of the node the last eventq_peek
 * returned (q->front, when not NULL), is about to run: the wheel moves to its time. */
static inline void eventq_enter(EventQueue *q, EventBucket *b)
{
    q->cur = b;
    uint64_t slot = b->time >> EVENTQ_SLOT_SHIFT;
    if (slot != q->base) {
        q->base = slot;
        if (q->far.n > 0) {
            eventq_take_far(q);
        }
    }
}

/* b, the first bucket of its slot and empty (run empty after eventq_enter: nothing
 * earlier can be scheduled; or emptied by cancellations), goes back to the pool. */
static inline void eventq_retire(EventQueue *q, EventBucket *b)
{
    size_t i = (size_t)(b->time >> EVENTQ_SLOT_SHIFT) & (EVENTQ_SLOTS - 1);
    q->slot[i] = b->next;
    if (!b->next) {
        q->occupied[i / 64] &= ~((uint64_t)1 << (i % 64));
    }
    if (q->last == b) {
        q->last = NULL;
    }
    if (q->cur == b) {
        q->cur = NULL;
    }
    b->next = q->free_buckets;
    q->free_buckets = b;
}

/* Takes the first node of b's FIFO for prio (not empty) out of it; returns it. */
static inline SimNode *eventq_unlink_head(EventBucket *b, unsigned prio)
{
    SimNode *n = b->head[prio];
    b->head[prio] = n->next;
    if (!n->next) {
        b->tail[prio] = NULL;
        b->mask &= ~(1u << prio);
    }
    return n;
}

static inline void eventq_release(EventQueue *q, SimNode *n)
{
    n->gen++;
    n->next = q->free_nodes;
    q->free_nodes = n;
}

void eventq_cancel(EventQueue *q, SimNode *n);

#endif
