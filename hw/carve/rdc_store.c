/* Sparse direct-mapped line storage of the CARVE RDC (see rdc_store.h).
 *
 * Table: linear probing over slots keyed by set index, grown at half load, never
 * shrunk; a slot once used keeps its set (entries are invalidated, not deleted), so no
 * tombstones are needed. Data: chunk k of the pool holds the bytes of the k-th set
 * filled; the pool doubles when full. rdc_store_clear frees both. */
#include "hw/carve/rdc_store.h"

#include <stdlib.h>
#include <string.h>

#include "hw/lib/fill.h"
#include "kernel/xalloc.h"

#define RDC_STORE_MIN_CAP 64

typedef struct RdcSlot {
    uint64_t set;
    uint64_t tag;
    uint32_t epoch;
    uint32_t chunk;
    bool used;
    bool valid;
} RdcSlot;

struct RdcStore {
    uint64_t sets;
    bool hash; /* index: fill_mix(n) mod sets, else n mod sets */
    uint32_t line;
    RdcSlot *slots;
    size_t cap; /* power of two */
    size_t count;
    uint8_t *pool;
    size_t pool_cap; /* chunks */
    uint64_t valid;
};

static void rdc_store_alloc(RdcStore *s)
{
    s->cap = RDC_STORE_MIN_CAP;
    s->slots = xcalloc(s->cap, sizeof *s->slots);
    s->count = 0;
    s->valid = 0;
}

RdcStore *rdc_store_new(uint64_t sets, uint32_t line, bool hash_index)
{
    RdcStore *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->sets = sets;
    s->hash = hash_index;
    s->line = line;
    rdc_store_alloc(s);
    return s;
}

void rdc_store_free(RdcStore *s)
{
    if (!s) {
        return;
    }
    free(s->slots);
    free(s->pool);
    free(s);
}

void rdc_store_clear(RdcStore *s)
{
    free(s->slots);
    free(s->pool);
    s->pool = NULL;
    s->pool_cap = 0;
    rdc_store_alloc(s);
}

uint64_t rdc_store_set_of(const RdcStore *s, uint64_t n)
{
    return (s->hash ? fill_mix(n) : n) % s->sets;
}

static size_t rdc_store_home(uint64_t set, size_t cap)
{
    return (size_t)(fill_mix(set) & (cap - 1));
}

static RdcSlot *rdc_store_find(const RdcStore *s, uint64_t set)
{
    size_t i = rdc_store_home(set, s->cap);
    while (s->slots[i].used) {
        if (s->slots[i].set == set) {
            return &s->slots[i];
        }
        i = (i + 1) & (s->cap - 1);
    }
    return NULL;
}

static void rdc_store_grow(RdcStore *s)
{
    size_t cap = s->cap * 2;
    RdcSlot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i].used) {
            continue;
        }
        size_t j = rdc_store_home(s->slots[i].set, cap);
        while (slots[j].used) {
            j = (j + 1) & (cap - 1);
        }
        slots[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
}

/* The slot of `set`, created (with a data chunk) if absent. */
static RdcSlot *rdc_store_slot(RdcStore *s, uint64_t set)
{
    RdcSlot *slot = rdc_store_find(s, set);
    if (slot) {
        return slot;
    }
    if (2 * (s->count + 1) > s->cap) {
        rdc_store_grow(s);
    }
    s->pool = xgrow(s->pool, &s->pool_cap, s->count + 1, s->line, RDC_STORE_MIN_CAP);
    size_t i = rdc_store_home(set, s->cap);
    while (s->slots[i].used) {
        i = (i + 1) & (s->cap - 1);
    }
    slot = &s->slots[i];
    *slot = (RdcSlot){.set = set, .chunk = (uint32_t)s->count, .used = true};
    s->count++;
    return slot;
}

bool rdc_store_get(const RdcStore *s, uint64_t n, RdcLine *out)
{
    const RdcSlot *slot = rdc_store_find(s, rdc_store_set_of(s, n));
    if (!slot) {
        *out = (RdcLine){0};
        return false;
    }
    *out = (RdcLine){.valid = slot->valid,
                     .tag = slot->tag,
                     .epoch = slot->epoch,
                     .data = s->pool + (size_t)slot->chunk * s->line};
    return true;
}

void rdc_store_fill(RdcStore *s, uint64_t n, uint32_t epoch, const uint8_t *data)
{
    RdcSlot *slot = rdc_store_slot(s, rdc_store_set_of(s, n));
    if (!slot->valid) {
        s->valid++;
    }
    slot->tag = n;
    slot->epoch = epoch;
    slot->valid = true;
    memcpy(s->pool + (size_t)slot->chunk * s->line, data, s->line);
}

bool rdc_store_invalidate(RdcStore *s, uint64_t n)
{
    RdcSlot *slot = rdc_store_find(s, rdc_store_set_of(s, n));
    if (!slot || !slot->valid || slot->tag != n) {
        return false;
    }
    slot->valid = false;
    s->valid--;
    return true;
}

uint64_t rdc_store_sets_used(const RdcStore *s)
{
    return s->count;
}

uint64_t rdc_store_valid(const RdcStore *s)
{
    return s->valid;
}

uint64_t rdc_store_host_bytes(const RdcStore *s)
{
    return (uint64_t)s->cap * sizeof(RdcSlot) + (uint64_t)s->pool_cap * s->line;
}
