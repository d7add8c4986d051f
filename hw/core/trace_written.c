/* The written-byte index of a trace scan (see trace_written.h): a hash table of 128 B
 * lines, each slot the head and tail of its list of per-kernel masks in one pool. */
#include "hw/core/trace_written.h"

#include <stdlib.h>

#include "kernel/bits.h"

#define WRITTEN_NONE UINT32_MAX

typedef struct WrittenSlot {
    uint64_t key;         /* line number + 1; 0: the slot is empty */
    uint64_t atomic[2];   /* bytes an atomic or reduction touches */
    uint32_t first, last; /* the line's masks in the pool, WRITTEN_NONE: none */
} WrittenSlot;

typedef struct WrittenMask {
    uint64_t bytes[2];
    uint32_t kernel;
    uint32_t next; /* the line's next mask (a later kernel), or WRITTEN_NONE */
} WrittenMask;

struct TraceWritten {
    WrittenSlot *slots;
    size_t cap, used; /* cap: a power of two */
    WrittenMask *pool;
    size_t npool, pool_cap;
};

TraceWritten *trace_written_new(void)
{
    TraceWritten *w = calloc(1, sizeof *w);
    if (!w) {
        return NULL;
    }
    w->cap = 1024;
    w->slots = calloc(w->cap, sizeof *w->slots);
    if (!w->slots) {
        free(w);
        return NULL;
    }
    return w;
}

void trace_written_free(TraceWritten *w)
{
    if (w) {
        free(w->slots);
        free(w->pool);
        free(w);
    }
}

/* The slot of key in a table of cap slots: its own, or the empty one it would take. */
static WrittenSlot *written_probe(WrittenSlot *slots, size_t cap, uint64_t key)
{
    size_t i = (size_t)bits_mix64(key) & (cap - 1);
    while (slots[i].key != 0 && slots[i].key != key) {
        i = (i + 1) & (cap - 1);
    }
    return &slots[i];
}

static bool written_grow(TraceWritten *w)
{
    size_t cap = w->cap * 2;
    WrittenSlot *slots = calloc(cap, sizeof *slots);
    if (!slots) {
        return false;
    }
    for (size_t i = 0; i < w->cap; i++) {
        if (w->slots[i].key != 0) {
            *written_probe(slots, cap, w->slots[i].key) = w->slots[i];
        }
    }
    free(w->slots);
    w->slots = slots;
    w->cap = cap;
    return true;
}

/* The slot of line, created (no masks, no atomic byte) if new; NULL when out of
 * memory. */
static WrittenSlot *written_slot(TraceWritten *w, uint64_t line)
{
    uint64_t key = line / TRACE_WRITTEN_LINE + 1;
    if (2 * (w->used + 1) > w->cap && !written_grow(w)) {
        return NULL;
    }
    WrittenSlot *s = written_probe(w->slots, w->cap, key);
    if (s->key == 0) {
        *s = (WrittenSlot){.key = key, .first = WRITTEN_NONE, .last = WRITTEN_NONE};
        w->used++;
    }
    return s;
}

bool trace_written_store(TraceWritten *w, uint64_t line, uint32_t k,
                         const uint64_t mask[2])
{
    WrittenSlot *s = written_slot(w, line);
    if (!s) {
        return false;
    }
    if (s->last != WRITTEN_NONE && w->pool[s->last].kernel == k) {
        w->pool[s->last].bytes[0] |= mask[0];
        w->pool[s->last].bytes[1] |= mask[1];
        return true;
    }
    if (w->npool == w->pool_cap) {
        size_t cap = w->pool_cap ? 2 * w->pool_cap : 1024;
        WrittenMask *pool =
            cap < WRITTEN_NONE ? realloc(w->pool, cap * sizeof *pool) : NULL;
        if (!pool) {
            return false;
        }
        w->pool = pool;
        w->pool_cap = cap;
    }
    uint32_t m = (uint32_t)w->npool++;
    w->pool[m] = (WrittenMask){{mask[0], mask[1]}, k, WRITTEN_NONE};
    if (s->last == WRITTEN_NONE) {
        s->first = m;
    } else {
        w->pool[s->last].next = m;
    }
    s->last = m;
    return true;
}

bool trace_written_atomic(TraceWritten *w, uint64_t line, const uint64_t mask[2])
{
    WrittenSlot *s = written_slot(w, line);
    if (!s) {
        return false;
    }
    s->atomic[0] |= mask[0];
    s->atomic[1] |= mask[1];
    return true;
}

static bool written_bit(const uint64_t mask[2], uint64_t b)
{
    return mask[b / 64] >> (b % 64) & 1;
}

void trace_written_expect(const TraceWritten *w, uint32_t k, uint64_t vaddr, uint32_t n,
                          TraceExpect *out)
{
    for (uint32_t i = 0; i < n; i++) {
        out[i] = (TraceExpect){.checked = true};
    }
    uint64_t key = vaddr / TRACE_WRITTEN_LINE + 1;
    const WrittenSlot *s = written_probe(w->slots, w->cap, key);
    if (s->key == 0) {
        return;
    }
    uint64_t off = vaddr % TRACE_WRITTEN_LINE;
    for (uint32_t i = 0; i < n; i++) {
        out[i].checked = !written_bit(s->atomic, off + i);
    }
    for (uint32_t m = s->first; m != WRITTEN_NONE && w->pool[m].kernel <= k;
         m = w->pool[m].next) {
        const WrittenMask *wm = &w->pool[m];
        for (uint32_t i = 0; i < n; i++) {
            if (!written_bit(wm->bytes, off + i)) {
                continue;
            }
            if (wm->kernel < k) {
                out[i].written = true;
                out[i].older = wm->kernel;
            } else {
                out[i].now = true;
            }
        }
    }
}

size_t trace_written_lines(const TraceWritten *w)
{
    return w->used;
}

size_t trace_written_masks(const TraceWritten *w)
{
    return w->npool;
}
