/* The far-event heap (see event_heap.h). */
#include "event_heap.h"

#include <stdlib.h>

#include "xalloc.h"

#define HEAP_ARITY 4
#define SEQ_MASK (EVENT_HEAP_SEQ_LIMIT - 1)

void event_heap_destroy(EventHeap *h)
{
    free(h->e);
    *h = (EventHeap){0};
}

static inline bool entry_before(const EventHeapEntry *a, const EventHeapEntry *b)
{
    return a->time < b->time || (a->time == b->time && a->key < b->key);
}

static int entry_cmp(const void *a, const void *b)
{
    const EventHeapEntry *x = a, *y = b;
    return entry_before(x, y) ? -1 : entry_before(y, x) ? 1 : 0;
}

/* Numbers the pending entries 0, 1, ... in their order, keeping their priorities: a
 * sorted array is a heap, and the order of every pair is unchanged. */
static void heap_renumber(EventHeap *h)
{
    qsort(h->e, h->n, sizeof *h->e, entry_cmp);
    for (size_t i = 0; i < h->n; i++) {
        h->e[i].key = (h->e[i].key & ~SEQ_MASK) | i;
    }
    h->seq = h->n;
}

void event_heap_set_seq(EventHeap *h, uint64_t seq)
{
    h->seq = seq & SEQ_MASK;
}

void event_heap_push(EventHeap *h, SimNode *node, SimTime time, int prio)
{
    if (h->n == h->cap) {
        h->e = xgrow(h->e, &h->cap, h->n + 1, sizeof *h->e, 64);
    }
    if (h->seq == EVENT_HEAP_SEQ_LIMIT) {
        heap_renumber(h);
    }
    EventHeapEntry x = {time, (uint64_t)prio << EVENT_HEAP_SEQ_BITS | h->seq++, node};
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / HEAP_ARITY;
        if (!entry_before(&x, &h->e[parent])) {
            break;
        }
        h->e[i] = h->e[parent];
        i = parent;
    }
    h->e[i] = x;
}

void event_heap_pop(EventHeap *h)
{
    size_t n = --h->n;
    if (n == 0) {
        return;
    }
    EventHeapEntry last = h->e[n];
    size_t i = 0;
    for (;;) {
        size_t first = HEAP_ARITY * i + 1;
        if (first >= n) {
            break;
        }
        size_t end = first + HEAP_ARITY < n ? first + HEAP_ARITY : n;
        size_t best = first;
        for (size_t c = first + 1; c < end; c++) {
            if (entry_before(&h->e[c], &h->e[best])) {
                best = c;
            }
        }
        if (!entry_before(&h->e[best], &last)) {
            break;
        }
        h->e[i] = h->e[best];
        i = best;
    }
    h->e[i] = last;
}
