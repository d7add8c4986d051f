/* The event queue behind sim.c (internal to the kernel).
 *
 * Events are kept in time buckets: one bucket per distinct pending time, each holding
 * one FIFO list per priority level (FIFO order is insertion order, i.e. sequence
 * order). Buckets are found by time through an open-addressing hash table and ordered
 * by a binary min-heap of times. Hardware models schedule many events at few distinct
 * times (clock edges, fixed latencies), so most insertions and removals are O(1) and
 * the heap holds only distinct times. Nodes and buckets are pooled. */
#ifndef MGTLM_EVENTQ_H
#define MGTLM_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

typedef struct EventBucket EventBucket;

typedef struct EventQueue {
    EventBucket **heap; /* min-heap by time */
    size_t nheap, heap_cap;
    EventBucket **table; /* hash table time -> bucket, linear probing */
    size_t table_mask, table_used;
    EventBucket *last; /* bucket of the most recent insertion (fast path) */
    EventBucket *free_buckets;
    SimNode *free_nodes;
    void **chunks; /* slabs of nodes and buckets, freed at the end */
    size_t nchunks, chunk_cap;
    size_t live; /* scheduled, not yet executed or cancelled */
} EventQueue;

bool eventq_init(EventQueue *q);
void eventq_destroy(EventQueue *q);
/* Inserts a node for (time, prio) at the end of its FIFO. Aborts on OOM. */
SimNode *eventq_push(EventQueue *q, SimTime time, int prio, SimProc fn, void *subject,
                     void *obj);
/* The earliest live node (skipping and freeing cancelled ones), or NULL. */
SimNode *eventq_peek(EventQueue *q);
/* Removes the node returned by eventq_peek. */
void eventq_pop(EventQueue *q, SimNode *n);
/* Returns a popped node to the pool (invalidates handles to it). */
void eventq_release(EventQueue *q, SimNode *n);
void eventq_cancel(EventQueue *q, SimNode *n);

#endif
