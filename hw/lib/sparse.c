/* Sparse functional byte store (see sparse.h).
 *
 * Pages live in slabs of SPARSE_SLAB pages so a store touching many pages does few
 * allocations. The table maps page number -> page (linear probing, grown at half
 * load, never shrunk; no single-page deletion is needed). A new page is initialised
 * with the fill pattern before the write lands, so a page always holds the current
 * content of every one of its bytes. */
#include "hw/lib/sparse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

#define SPARSE_SLAB 64
#define SPARSE_MIN_CAP 64

typedef struct SparseSlot {
    uint64_t page; /* page number (addr / SPARSE_PAGE_BYTES) */
    uint8_t *data; /* NULL = empty slot */
} SparseSlot;

typedef struct SparseSlab {
    struct SparseSlab *next;
    size_t used;
    uint8_t bytes[SPARSE_SLAB][SPARSE_PAGE_BYTES];
} SparseSlab;

struct SparseStore {
    FillKind fill;
    SparseSlot *slots;
    size_t cap; /* power of two */
    size_t count;
    SparseSlab *slabs; /* newest first */
};

SparseStore *sparse_new(FillKind fill)
{
    SparseStore *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->fill = fill;
    s->cap = SPARSE_MIN_CAP;
    s->slots = calloc(s->cap, sizeof *s->slots);
    if (!s->slots) {
        free(s);
        return NULL;
    }
    return s;
}

static void sparse_free_slabs(SparseStore *s)
{
    while (s->slabs) {
        SparseSlab *next = s->slabs->next;
        free(s->slabs);
        s->slabs = next;
    }
}

void sparse_free(SparseStore *s)
{
    if (!s) {
        return;
    }
    sparse_free_slabs(s);
    free(s->slots);
    free(s);
}

void sparse_clear(SparseStore *s)
{
    sparse_free_slabs(s);
    memset(s->slots, 0, s->cap * sizeof *s->slots);
    s->count = 0;
}

size_t sparse_pages(const SparseStore *s)
{
    return s->count;
}

static size_t sparse_hash(uint64_t page, size_t cap)
{
    return (size_t)(fill_mix(page) & (cap - 1));
}

static uint8_t *sparse_find(const SparseStore *s, uint64_t page)
{
    size_t i = sparse_hash(page, s->cap);
    while (s->slots[i].data) {
        if (s->slots[i].page == page) {
            return s->slots[i].data;
        }
        i = (i + 1) & (s->cap - 1);
    }
    return NULL;
}

static void sparse_insert_slot(SparseSlot *slots, size_t cap, uint64_t page,
                               uint8_t *data)
{
    size_t i = sparse_hash(page, cap);
    while (slots[i].data) {
        i = (i + 1) & (cap - 1);
    }
    slots[i].page = page;
    slots[i].data = data;
}

static void sparse_grow(SparseStore *s)
{
    size_t cap = s->cap * 2;
    SparseSlot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < s->cap; i++) {
        if (s->slots[i].data) {
            sparse_insert_slot(slots, cap, s->slots[i].page, s->slots[i].data);
        }
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
}

static uint8_t *sparse_new_page(SparseStore *s, uint64_t page)
{
    if (!s->slabs || s->slabs->used == SPARSE_SLAB) {
        SparseSlab *slab = xmalloc(sizeof *slab);
        slab->next = s->slabs;
        slab->used = 0;
        s->slabs = slab;
    }
    uint8_t *data = s->slabs->bytes[s->slabs->used++];
    fill_bytes(s->fill, page * SPARSE_PAGE_BYTES, data, SPARSE_PAGE_BYTES);
    if (2 * (s->count + 1) > s->cap) {
        sparse_grow(s);
    }
    sparse_insert_slot(s->slots, s->cap, page, data);
    s->count++;
    return data;
}

void sparse_read(const SparseStore *s, uint64_t addr, uint8_t *out, size_t len)
{
    while (len > 0) {
        uint64_t page = addr / SPARSE_PAGE_BYTES;
        size_t off = (size_t)(addr % SPARSE_PAGE_BYTES);
        size_t n = SPARSE_PAGE_BYTES - off;
        if (n > len) {
            n = len;
        }
        const uint8_t *data = sparse_find(s, page);
        if (data) {
            memcpy(out, data + off, n);
        } else {
            fill_bytes(s->fill, addr, out, n);
        }
        out += n;
        addr += n;
        len -= n;
    }
}

void sparse_write(SparseStore *s, uint64_t addr, const uint8_t *data, const uint8_t *be,
                  size_t len)
{
    while (len > 0) {
        uint64_t page = addr / SPARSE_PAGE_BYTES;
        size_t off = (size_t)(addr % SPARSE_PAGE_BYTES);
        size_t n = SPARSE_PAGE_BYTES - off;
        if (n > len) {
            n = len;
        }
        bool any = true;
        if (be) {
            any = false;
            for (size_t i = 0; i < n && !any; i++) {
                any = be[i] != 0;
            }
        }
        if (any) {
            uint8_t *dst = sparse_find(s, page);
            if (!dst) {
                dst = sparse_new_page(s, page);
            }
            for (size_t i = 0; i < n; i++) {
                if (!be || be[i]) {
                    dst[off + i] = data ? data[i] : 0;
                }
            }
        }
        if (data) {
            data += n;
        }
        if (be) {
            be += n;
        }
        addr += n;
        len -= n;
    }
}
