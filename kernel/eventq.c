/* Time-bucketed event queue: see eventq.h for the structure and its rationale. */
#include "eventq.h"

#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "xalloc.h"

#define NODE_SLAB 4096
#define BUCKET_SLAB 256
#define EVENTQ_SORTED_MIN 8

static void *eventq_slab(EventQueue *q, size_t size)
{
    q->chunks = xgrow(q->chunks, &q->chunk_cap, q->nchunks + 1, sizeof *q->chunks, 16);
    void *p = xcalloc(1, size);
    q->chunks[q->nchunks++] = p;
    return p;
}

void eventq_init(EventQueue *q)
{
    memset(q, 0, sizeof *q);
    idmap_init(&q->table);
}

void eventq_destroy(EventQueue *q)
{
    for (size_t i = 0; i < q->nchunks; i++) {
        free(q->chunks[i]);
    }
    free(q->chunks);
    free(q->order);
    idmap_destroy(&q->table);
    memset(q, 0, sizeof *q);
}

static EventBucket *table_find(const EventQueue *q, SimTime t)
{
    uint64_t b;
    return idmap_get(&q->table, t, &b) ? (EventBucket *)(uintptr_t)b : NULL;
}

static void table_insert(EventQueue *q, EventBucket *b)
{
    idmap_insert(&q->table, b->time, (uint64_t)(uintptr_t)b);
}

static void table_remove(EventQueue *q, const EventBucket *b)
{
    idmap_remove(&q->table, b->time, NULL);
}

/* Makes room for one more bucket at the end of order (moving [lo, hi) to 0). */
static void order_make_room(EventQueue *q)
{
    size_t n = q->hi - q->lo;
    if (q->lo > 0 && n < q->order_cap / 2) {
        memmove(q->order, q->order + q->lo, n * sizeof *q->order);
    } else {
        size_t cap = q->order_cap ? q->order_cap * 2 : 64;
        EventBucket **order = xmalloc(cap * sizeof *order);
        if (n > 0) {
            memcpy(order, q->order + q->lo, n * sizeof *order);
        }
        free(q->order);
        q->order = order;
        q->order_cap = cap;
    }
    q->lo = 0;
    q->hi = n;
}

static inline void order_reserve(EventQueue *q)
{
    if (q->hi == q->order_cap) {
        order_make_room(q);
    }
}

static void heap_push(EventQueue *q, EventBucket *b)
{
    order_reserve(q);
    size_t i = q->hi++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (q->order[parent]->time <= b->time) {
            break;
        }
        q->order[i] = q->order[parent];
        i = parent;
    }
    q->order[i] = b;
}

static void heap_pop(EventQueue *q)
{
    EventBucket *last = q->order[--q->hi];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= q->hi) {
            break;
        }
        if (child + 1 < q->hi && q->order[child + 1]->time < q->order[child]->time) {
            child++;
        }
        if (last->time <= q->order[child]->time) {
            break;
        }
        q->order[i] = q->order[child];
        i = child;
    }
    if (q->hi > 0) {
        q->order[i] = last;
    }
}

/* Sorted mode: index in [lo, hi] of the first bucket with time >= t. */
static size_t sorted_find(const EventQueue *q, SimTime t)
{
    size_t a = q->lo, b = q->hi;
    if (b > a && q->order[b - 1]->time < t) {
        return b;
    }
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (q->order[m]->time < t) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    return a;
}

static void sorted_insert(EventQueue *q, size_t pos, EventBucket *b)
{
    if (pos == q->hi && q->hi < q->order_cap) {
        q->order[q->hi++] = b;
        return;
    }
    if (pos == q->lo && q->lo > 0) {
        q->order[--q->lo] = b;
        return;
    }
    pos -= q->lo;
    order_reserve(q);
    pos += q->lo;
    memmove(q->order + pos + 1, q->order + pos, (q->hi - pos) * sizeof *q->order);
    q->order[pos] = b;
    q->hi++;
}

static void to_heap_mode(EventQueue *q)
{
    size_t n = q->hi - q->lo;
    memmove(q->order, q->order + q->lo, n * sizeof *q->order);
    q->lo = 0;
    q->hi = n;
    for (size_t k = 0; k < n; k++) {
        table_insert(q, q->order[k]);
    }
    q->heap_mode = true;
}

static void to_sorted_mode(EventQueue *q)
{
    for (size_t k = 0; k < q->hi; k++) {
        table_remove(q, q->order[k]);
    }
    for (size_t k = 1; k < q->hi; k++) {
        EventBucket *b = q->order[k];
        size_t j = k;
        while (j > 0 && q->order[j - 1]->time > b->time) {
            q->order[j] = q->order[j - 1];
            j--;
        }
        q->order[j] = b;
    }
    q->heap_mode = false;
}

static EventBucket *bucket_alloc(EventQueue *q, SimTime t)
{
    if (!q->free_buckets) {
        EventBucket *slab = eventq_slab(q, BUCKET_SLAB * sizeof *slab);
        for (size_t k = 0; k < BUCKET_SLAB; k++) {
            slab[k].next_free = q->free_buckets;
            q->free_buckets = &slab[k];
        }
    }
    EventBucket *b = q->free_buckets;
    q->free_buckets = b->next_free;
    b->mask = 0;
    b->time = t;
    return b;
}

static EventBucket *bucket_get(EventQueue *q, SimTime t)
{
    if (q->last && q->last->time == t) {
        return q->last;
    }
    EventBucket *b;
    if (q->heap_mode) {
        b = table_find(q, t);
        if (!b) {
            b = bucket_alloc(q, t);
            table_insert(q, b);
            heap_push(q, b);
        }
    } else {
        size_t pos = sorted_find(q, t);
        b = pos < q->hi ? q->order[pos] : NULL;
        if (!b || b->time != t) {
            b = bucket_alloc(q, t);
            sorted_insert(q, pos, b);
            if (q->hi - q->lo > EVENTQ_SORTED_MAX) {
                to_heap_mode(q);
            }
        }
    }
    q->last = b;
    return b;
}

/* Removes the earliest bucket (empty) and returns it to the pool. */
static void bucket_drop_first(EventQueue *q)
{
    EventBucket *b = q->order[q->lo];
    if (q->heap_mode) {
        heap_pop(q);
        table_remove(q, b);
        if (q->hi <= EVENTQ_SORTED_MIN) {
            to_sorted_mode(q);
        }
    } else {
        q->lo++;
    }
    if (q->last == b) {
        q->last = NULL;
    }
    b->next_free = q->free_buckets;
    q->free_buckets = b;
}

SimNode *eventq_push_slow(EventQueue *q, SimTime time, int prio, SimProc fn,
                          void *subject, void *obj)
{
    EventBucket *b = q->free_buckets;
    if (b && q->free_nodes && !q->heap_mode && q->hi < q->order_cap &&
        q->hi - q->lo < EVENTQ_SORTED_MAX &&
        (q->hi == q->lo || q->order[q->hi - 1]->time < time)) {
        /* the common case: a new latest time in sorted mode, appended */
        q->free_buckets = b->next_free;
        b->time = time;
        b->mask = 0;
        q->order[q->hi++] = b;
        q->last = b;
        return eventq_link(q, b, time, prio, fn, subject, obj);
    }
    if (!q->free_nodes) {
        SimNode *slab = eventq_slab(q, NODE_SLAB * sizeof *slab);
        for (size_t k = 0; k < NODE_SLAB; k++) {
            slab[k].next = q->free_nodes;
            q->free_nodes = &slab[k];
        }
    }
    return eventq_link(q, bucket_get(q, time), time, prio, fn, subject, obj);
}

static void bucket_unlink_head(EventBucket *b, int prio)
{
    SimNode *n = b->head[prio];
    b->head[prio] = n->next;
    if (!b->head[prio]) {
        b->tail[prio] = NULL;
        b->mask &= ~(1u << prio);
    }
}

SimNode *eventq_peek_slow(EventQueue *q)
{
    while (q->hi > q->lo) {
        EventBucket *b = q->order[q->lo];
        int prio = b->mask ? __builtin_ctz(b->mask) : SIM_PRIO_LEVELS;
        if (prio == SIM_PRIO_LEVELS) {
            bucket_drop_first(q);
            continue;
        }
        SimNode *n = b->head[prio];
        if (n->cancelled) {
            bucket_unlink_head(b, prio);
            eventq_release(q, n);
            continue;
        }
        return n;
    }
    return NULL;
}

void eventq_cancel(EventQueue *q, SimNode *n)
{
    n->cancelled = true;
    q->cancelled++;
}
