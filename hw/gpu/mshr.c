/* MSHR with bitmask extension (paper 000 section 4.1 and Fig. 8, SPEC.md 1.3).
 * Modelled: 32 (parameter) entries of (line, 16-bit word mask); hit iff same line and
 * the incoming mask is contained in the entry's mask (Fig. 8 cases A, B, C); waiting
 * requests per entry; full -> the caller applies backpressure.
 * Decisions: among several matching entries the lowest index wins; an entry may be
 * barred from filling the cache (a write, atomic or kernel_begin overtook it), so a
 * line fetched before the change never lands in the L1. */
#include "hw/gpu/mshr.h"

#include <stdlib.h>

#include "kernel/xalloc.h"

bool mshr_init(Mshr *m, uint32_t n)
{
    m->e = calloc(n, sizeof *m->e);
    m->n = m->e ? n : 0;
    m->used = 0;
    return m->e != NULL;
}

static void mshr_drop(MshrEntry *e)
{
    for (uint32_t k = 0; k < e->nwait; k++) {
        txn_unref(e->wait[k]);
    }
    e->nwait = 0;
    e->valid = false;
}

static void mshr_clear(Mshr *m)
{
    for (uint32_t i = 0; i < m->n; i++) {
        mshr_drop(&m->e[i]);
    }
    m->used = 0;
}

void mshr_destroy(Mshr *m)
{
    mshr_clear(m);
    for (uint32_t i = 0; i < m->n; i++) {
        free(m->e[i].wait);
    }
    free(m->e);
    m->e = NULL;
    m->n = 0;
}

int mshr_match(const Mshr *m, uint64_t line, uint32_t mask)
{
    for (uint32_t i = 0; i < m->n; i++) {
        const MshrEntry *e = &m->e[i];
        if (e->valid && e->open && e->line == line && (mask & ~e->mask) == 0) {
            return (int)i;
        }
    }
    return -1;
}

int mshr_alloc(Mshr *m, uint64_t line, uint32_t mask, uint64_t down_id)
{
    for (uint32_t i = 0; i < m->n; i++) {
        MshrEntry *e = &m->e[i];
        if (!e->valid) {
            e->valid = true;
            e->fill = true;
            e->open = true;
            e->line = line;
            e->mask = mask;
            e->down_id = down_id;
            e->nwait = 0;
            m->used++;
            return (int)i;
        }
    }
    return -1;
}

int mshr_find_id(const Mshr *m, uint64_t down_id)
{
    for (uint32_t i = 0; i < m->n; i++) {
        if (m->e[i].valid && m->e[i].down_id == down_id) {
            return (int)i;
        }
    }
    return -1;
}

void mshr_wait(Mshr *m, int i, Txn *req)
{
    MshrEntry *e = &m->e[i];
    size_t cap = e->cap;
    e->wait = xgrow(e->wait, &cap, e->nwait + 1, sizeof *e->wait, 4);
    e->cap = (uint32_t)cap;
    e->wait[e->nwait++] = req;
}

void mshr_no_fill(Mshr *m, uint64_t line, bool all)
{
    for (uint32_t i = 0; i < m->n; i++) {
        if (m->e[i].valid && (all || m->e[i].line == line)) {
            m->e[i].fill = false;
            m->e[i].open = false;
        }
    }
}

void mshr_release(Mshr *m, int i)
{
    m->e[i].valid = false;
    m->e[i].nwait = 0;
    m->used--;
}
