/* Sparse functional byte store (see sparse.h).
 *
 * Pages live in slabs of SPARSE_SLAB pages so a store touching many pages does few
 * allocations. An IdMap (kernel/idmap.h) maps page number -> page; no single-page
 * deletion is needed. A new page is initialised with the fill pattern before the
 * write lands, so a page always holds the current content of every one of its bytes. */
#include "hw/lib/sparse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/idmap.h"
#include "kernel/xalloc.h"

#define SPARSE_SLAB 64

typedef struct SparseSlab {
    struct SparseSlab *next;
    size_t used;
    uint8_t bytes[SPARSE_SLAB][SPARSE_PAGE_BYTES];
} SparseSlab;

struct SparseStore {
    FillKind fill;
    IdMap pages;       /* page number (addr / SPARSE_PAGE_BYTES) -> its bytes */
    SparseSlab *slabs; /* newest first */
};

SparseStore *sparse_new(FillKind fill)
{
    SparseStore *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->fill = fill;
    idmap_init(&s->pages);
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
    idmap_destroy(&s->pages);
    free(s);
}

void sparse_clear(SparseStore *s)
{
    sparse_free_slabs(s);
    idmap_destroy(&s->pages);
}

size_t sparse_pages(const SparseStore *s)
{
    return idmap_count(&s->pages);
}

static uint8_t *sparse_find(const SparseStore *s, uint64_t page)
{
    uint64_t data;
    return idmap_get(&s->pages, page, &data) ? (uint8_t *)(uintptr_t)data : NULL;
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
    idmap_insert(&s->pages, page, (uint64_t)(uintptr_t)data);
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
