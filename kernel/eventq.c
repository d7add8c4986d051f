/* Time-bucketed event queue: see eventq.h for the structure and its rationale. */
#include "eventq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_SLAB 4096
#define BUCKET_SLAB 256
#define TABLE_INITIAL 64

struct EventBucket {
    SimTime time;
    SimNode *head[SIM_PRIO_LEVELS];
    SimNode *tail[SIM_PRIO_LEVELS];
    EventBucket *next_free;
};

static void *eventq_xalloc(size_t size)
{
    void *p = calloc(1, size);
    if (!p) {
        fprintf(stderr, "mgtlm: out of memory in the event queue\n");
        abort();
    }
    return p;
}

static void *eventq_slab(EventQueue *q, size_t size)
{
    if (q->nchunks == q->chunk_cap) {
        size_t cap = q->chunk_cap ? q->chunk_cap * 2 : 16;
        void **chunks = realloc(q->chunks, cap * sizeof *chunks);
        if (!chunks) {
            fprintf(stderr, "mgtlm: out of memory in the event queue\n");
            abort();
        }
        q->chunks = chunks;
        q->chunk_cap = cap;
    }
    void *p = eventq_xalloc(size);
    q->chunks[q->nchunks++] = p;
    return p;
}

static size_t eventq_hash(SimTime t)
{
    uint64_t h = t * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ (h >> 29));
}

bool eventq_init(EventQueue *q)
{
    memset(q, 0, sizeof *q);
    q->table = calloc(TABLE_INITIAL, sizeof *q->table);
    if (!q->table) {
        return false;
    }
    q->table_mask = TABLE_INITIAL - 1;
    return true;
}

void eventq_destroy(EventQueue *q)
{
    for (size_t i = 0; i < q->nchunks; i++) {
        free(q->chunks[i]);
    }
    free(q->chunks);
    free(q->heap);
    free(q->table);
    memset(q, 0, sizeof *q);
}

static size_t table_slot(const EventQueue *q, SimTime t)
{
    size_t i = eventq_hash(t) & q->table_mask;
    while (q->table[i] && q->table[i]->time != t) {
        i = (i + 1) & q->table_mask;
    }
    return i;
}

static void table_grow(EventQueue *q)
{
    size_t old_size = q->table_mask + 1;
    EventBucket **old = q->table;
    q->table = eventq_xalloc(old_size * 2 * sizeof *q->table);
    q->table_mask = old_size * 2 - 1;
    for (size_t i = 0; i < old_size; i++) {
        if (old[i]) {
            q->table[table_slot(q, old[i]->time)] = old[i];
        }
    }
    free(old);
}

static void table_remove(EventQueue *q, const EventBucket *b)
{
    size_t i = table_slot(q, b->time);
    q->table[i] = NULL;
    q->table_used--;
    size_t j = i;
    for (;;) {
        j = (j + 1) & q->table_mask;
        if (!q->table[j]) {
            return;
        }
        size_t k = eventq_hash(q->table[j]->time) & q->table_mask;
        bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            q->table[i] = q->table[j];
            q->table[j] = NULL;
            i = j;
        }
    }
}

static void heap_push(EventQueue *q, EventBucket *b)
{
    if (q->nheap == q->heap_cap) {
        size_t cap = q->heap_cap ? q->heap_cap * 2 : 64;
        EventBucket **heap = realloc(q->heap, cap * sizeof *heap);
        if (!heap) {
            fprintf(stderr, "mgtlm: out of memory in the event queue\n");
            abort();
        }
        q->heap = heap;
        q->heap_cap = cap;
    }
    size_t i = q->nheap++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (q->heap[parent]->time <= b->time) {
            break;
        }
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = b;
}

static void heap_pop(EventQueue *q)
{
    EventBucket *last = q->heap[--q->nheap];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= q->nheap) {
            break;
        }
        if (child + 1 < q->nheap && q->heap[child + 1]->time < q->heap[child]->time) {
            child++;
        }
        if (last->time <= q->heap[child]->time) {
            break;
        }
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (q->nheap > 0) {
        q->heap[i] = last;
    }
}

static EventBucket *bucket_get(EventQueue *q, SimTime t)
{
    if (q->last && q->last->time == t) {
        return q->last;
    }
    size_t i = table_slot(q, t);
    EventBucket *b = q->table[i];
    if (!b) {
        if (!q->free_buckets) {
            EventBucket *slab = eventq_slab(q, BUCKET_SLAB * sizeof *slab);
            for (size_t k = 0; k < BUCKET_SLAB; k++) {
                slab[k].next_free = q->free_buckets;
                q->free_buckets = &slab[k];
            }
        }
        b = q->free_buckets;
        q->free_buckets = b->next_free;
        memset(b, 0, sizeof *b);
        b->time = t;
        q->table[i] = b;
        q->table_used++;
        heap_push(q, b);
        if (q->table_used * 2 > q->table_mask + 1) {
            table_grow(q);
        }
    }
    q->last = b;
    return b;
}

static void bucket_free(EventQueue *q, EventBucket *b)
{
    table_remove(q, b);
    if (q->last == b) {
        q->last = NULL;
    }
    b->next_free = q->free_buckets;
    q->free_buckets = b;
}

SimNode *eventq_push(EventQueue *q, SimTime time, int prio, SimProc fn, void *subject,
                     void *obj)
{
    if (!q->free_nodes) {
        SimNode *slab = eventq_slab(q, NODE_SLAB * sizeof *slab);
        for (size_t k = 0; k < NODE_SLAB; k++) {
            slab[k].next = q->free_nodes;
            q->free_nodes = &slab[k];
        }
    }
    SimNode *n = q->free_nodes;
    q->free_nodes = n->next;
    n->time = time;
    n->fn = fn;
    n->subject = subject;
    n->obj = obj;
    n->next = NULL;
    n->prio = (uint8_t)prio;
    n->cancelled = false;
    EventBucket *b = bucket_get(q, time);
    if (b->tail[prio]) {
        b->tail[prio]->next = n;
    } else {
        b->head[prio] = n;
    }
    b->tail[prio] = n;
    q->live++;
    return n;
}

void eventq_release(EventQueue *q, SimNode *n)
{
    n->gen++;
    n->fn = NULL;
    n->next = q->free_nodes;
    q->free_nodes = n;
}

static void bucket_unlink_head(EventBucket *b, int prio)
{
    SimNode *n = b->head[prio];
    b->head[prio] = n->next;
    if (!b->head[prio]) {
        b->tail[prio] = NULL;
    }
}

SimNode *eventq_peek(EventQueue *q)
{
    while (q->nheap > 0) {
        EventBucket *b = q->heap[0];
        int prio = 0;
        while (prio < SIM_PRIO_LEVELS && !b->head[prio]) {
            prio++;
        }
        if (prio == SIM_PRIO_LEVELS) {
            heap_pop(q);
            bucket_free(q, b);
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

void eventq_pop(EventQueue *q, SimNode *n)
{
    bucket_unlink_head(q->heap[0], n->prio);
    q->live--;
}

void eventq_cancel(EventQueue *q, SimNode *n)
{
    n->cancelled = true;
    q->live--;
}
