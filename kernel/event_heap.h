/* The far events of the event queue (eventq.h): nodes scheduled beyond the timing
 * wheel's horizon, in a 4-ary min-heap ordered by (time, priority, sequence number)
 * with the keys inline, so that a sift compares keys without touching the nodes.
 * Internal to the kernel. */
#ifndef MGTLM_EVENT_HEAP_H
#define MGTLM_EVENT_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

/* The sequence number takes the key's low EVENT_HEAP_SEQ_BITS bits, the priority the
 * byte above; when the numbers run out the pending entries are numbered again from 0
 * in their order (event_heap.c). */
#define EVENT_HEAP_SEQ_BITS 56
#define EVENT_HEAP_SEQ_LIMIT ((uint64_t)1 << EVENT_HEAP_SEQ_BITS)

typedef struct EventHeapEntry {
    SimTime time;
    uint64_t key; /* prio << EVENT_HEAP_SEQ_BITS | seq */
    SimNode *node;
} EventHeapEntry;

typedef struct EventHeap {
    EventHeapEntry *e; /* e[0] is the earliest */
    size_t n, cap;
    uint64_t seq; /* the next push's sequence number */
} EventHeap;

void event_heap_destroy(EventHeap *h);
/* Adds node (its time and prio) after every entry of the same time and priority. */
void event_heap_push(EventHeap *h, SimNode *node, SimTime time, int prio);
/* Removes the earliest entry (h->n > 0). */
void event_heap_pop(EventHeap *h);
/* Sets the next sequence number (tests of the renumbering). */
void event_heap_set_seq(EventHeap *h, uint64_t seq);

#endif
