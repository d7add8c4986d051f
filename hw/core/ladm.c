/* LADM's analysis of one kernel (ladm.h): the data structures, pass 1 (each CTA's
 * start in each structure, the classification) and the schedule it leads to.
 * Pass 2 and the page homes are in ladm_pages.c, the passes over a file in
 * ladm_file.c. */
#include "hw/core/ladm.h"

#include <stdlib.h>
#include <string.h>

#include "hw/core/ladm_priv.h"
#include "kernel/xalloc.h"

static int alloc_cmp(const void *a, const void *b)
{
    const LadmStruct *x = a, *y = b;
    if (x->base != y->base) {
        return x->base < y->base ? -1 : 1;
    }
    return x->last < y->last ? -1 : x->last > y->last;
}

/* Copies the allocations of at least one byte, sorted by base, overlaps merged. */
static void make_structs(Ladm *l, const LadmAlloc *allocs, size_t nallocs)
{
    l->structs = xcalloc(nallocs ? nallocs : 1, sizeof *l->structs);
    size_t n = 0;
    for (size_t k = 0; k < nallocs; k++) {
        if (allocs[k].bytes == 0) {
            continue;
        }
        uint64_t room = UINT64_MAX - allocs[k].base;
        l->structs[n].base = allocs[k].base;
        l->structs[n].last =
            allocs[k].base + (allocs[k].bytes - 1 < room ? allocs[k].bytes - 1 : room);
        n++;
    }
    qsort(l->structs, n, sizeof *l->structs, alloc_cmp);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (m > 0 && l->structs[k].base <= l->structs[m - 1].last) {
            if (l->structs[k].last > l->structs[m - 1].last) {
                l->structs[m - 1].last = l->structs[k].last;
            }
            continue;
        }
        l->structs[m++] = l->structs[k];
    }
    l->nstructs = m;
    for (size_t k = 0; k < m; k++) {
        LadmStruct *s = &l->structs[k];
        uint64_t span = s->last - s->base;
        s->bytes = span == UINT64_MAX ? UINT64_MAX : span + 1;
        idmap_init(&s->rows);
        idmap_init(&s->cols);
    }
}

Ladm *ladm_new(const uint32_t grid[3], uint32_t ngpus, uint64_t page,
               const LadmAlloc *allocs, size_t nallocs, SimError *err)
{
    CtaMap probe;
    if (!cta_map_init(&probe, CTA_LADM, grid, ngpus, err)) {
        return NULL;
    }
    /* The GPU count and page size follow placement.h's rules: checked by making one. */
    Placement *check = placement_new(PLACE_LADM, ngpus, page, err);
    if (!check) {
        return NULL;
    }
    placement_free(check);
    Ladm *l = xcalloc(1, sizeof *l);
    memcpy(l->grid, grid, sizeof l->grid);
    l->ngpus = ngpus;
    l->page = page;
    while ((1ull << l->page_shift) < page) {
        l->page_shift++;
    }
    l->two_d = grid[0] > 1 && (uint64_t)grid[1] * grid[2] > 1;
    make_structs(l, allocs, nallocs);
    l->start = xcalloc(l->nstructs ? l->nstructs : 1, sizeof *l->start);
    l->hit = xcalloc(l->nstructs ? l->nstructs : 1, sizeof *l->hit);
    for (size_t k = 0; k < l->nstructs; k++) {
        l->start[k] = UINT64_MAX;
    }
    idmap_init(&l->pages);
    return l;
}

void ladm_free(Ladm *l)
{
    if (!l) {
        return;
    }
    for (size_t k = 0; k < l->nstructs; k++) {
        idmap_destroy(&l->structs[k].rows);
        idmap_destroy(&l->structs[k].cols);
    }
    free(l->structs);
    free(l->start);
    free(l->hit);
    free(l->pcs);
    idmap_destroy(&l->pages);
    free(l->binding);
    free(l->counts);
    free(l);
}

size_t ladm_find(const Ladm *l, uint64_t vaddr)
{
    size_t lo = 0, hi = l->nstructs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->structs[mid].base <= vaddr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0 || vaddr > l->structs[lo - 1].last) {
        return LADM_NONE;
    }
    return lo - 1;
}

bool ladm_is_global(AtsClass cls)
{
    return cls == ATS_LDG || cls == ATS_STG || cls == ATS_ATOMG || cls == ATS_RED;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Keeps one start per key while every CTA with the key has the same start. */
static void same_start(IdMap *m, bool *differs, uint64_t key, uint64_t start)
{
    if (*differs) {
        return;
    }
    uint64_t seen;
    if (!idmap_get(m, key, &seen)) {
        idmap_insert(m, key, start);
    } else if (seen != start) {
        *differs = true;
        idmap_destroy(m);
    }
}

/* The entry of memory PC pc in the warp being observed (a loop visits its PCs in
 * order, so the search starts after the last one found). */
static LadmPc *pc_entry(Ladm *l, uint64_t pc)
{
    for (size_t k = 0; k < l->npcs; k++) {
        size_t i = (l->pc_hint + k) % l->npcs;
        if (l->pcs[i].pc == pc) {
            l->pc_hint = i + 1;
            return &l->pcs[i];
        }
    }
    l->pcs = xgrow(l->pcs, &l->cap_pcs, l->npcs + 1, sizeof *l->pcs, 16);
    LadmPc *e = &l->pcs[l->npcs++];
    e->pc = pc;
    e->valid = 0;
    l->pc_hint = 0;
    return e;
}

/* One global instruction: its lanes' starts, and their moves at its PC. */
static void observe_inst(Ladm *l, const AtsWarp *warp, const AtsInst *in)
{
    LadmPc *e = pc_entry(l, in->pc);
    uint32_t mask = in->mask;
    for (size_t j = in->addr_off; mask; j++, mask &= mask - 1) {
        int lane = __builtin_ctz(mask);
        uint64_t a = warp->addrs[j];
        size_t s = ladm_find(l, a);
        bool had = e->valid >> lane & 1;
        uint64_t prev = had ? e->last[lane] : a; /* never read unset */
        e->last[lane] = a;
        e->valid |= 1u << lane;
        if (s == LADM_NONE) {
            continue;
        }
        if (l->start[s] == UINT64_MAX) {
            l->hit[l->nhit++] = s;
        }
        if (a < l->start[s]) {
            l->start[s] = a;
        }
        if (had && a != prev) {
            l->structs[s].moves++;
            l->structs[s].steps += a - prev == in->width;
        }
    }
}

void ladm_observe(Ladm *l, const AtsCta *cta)
{
    l->nhit = 0;
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *warp = &cta->warps[w];
        l->npcs = 0;
        for (size_t k = 0; k < warp->ninst; k++) {
            const AtsInst *in = &warp->inst[k];
            if (in->width > 0 && ladm_is_global(in->cls)) {
                observe_inst(l, warp, in);
            }
        }
    }
    uint64_t row = cta->y + (uint64_t)cta->z * l->grid[1];
    for (size_t h = 0; h < l->nhit; h++) {
        LadmStruct *s = &l->structs[l->hit[h]];
        uint64_t st = l->start[l->hit[h]];
        l->start[l->hit[h]] = UINT64_MAX;
        if (!s->touched) {
            s->touched = true;
            s->first_start = st;
        } else {
            s->gcd = gcd(s->gcd,
                         st > s->first_start ? st - s->first_start : s->first_start - st);
        }
        if (l->two_d) {
            same_start(&s->rows, &s->row_differs, row, st);
            same_start(&s->cols, &s->col_differs, cta->x, st);
        }
    }
}

static LadmClass classify(const Ladm *l, const LadmStruct *s)
{
    if (!s->touched) {
        return LADM_UNUSED;
    }
    if (s->steps > 0 && s->steps > s->moves - s->steps) {
        return LADM_ITL;
    }
    if (s->gcd == 0) {
        return LADM_OTHER;
    }
    if (l->two_d && !s->row_differs) {
        return LADM_ROW;
    }
    if (l->two_d && !s->col_differs) {
        return LADM_COL;
    }
    return LADM_NL;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Total bytes of the structures of each class. */
static void class_bytes(const Ladm *l, uint64_t bytes[LADM_CLASSES])
{
    memset(bytes, 0, LADM_CLASSES * sizeof *bytes);
    for (size_t k = 0; k < l->nstructs; k++) {
        const LadmStruct *s = &l->structs[k];
        bytes[s->cls] = add_sat(bytes[s->cls], s->bytes);
    }
}

/* The binding (CTA_LADM_ROW or CTA_LADM_COL) of the larger shared structures, or
 * CTA_LADM_KERNEL_WIDE when none is feasible. */
static CtaLadm pick_binding(const Ladm *l, const uint64_t bytes[LADM_CLASSES])
{
    uint64_t w_row = bytes[LADM_ROW], w_col = bytes[LADM_COL];
    bool row_ok = w_row > 0 && (uint64_t)l->grid[1] * l->grid[2] >= l->ngpus;
    bool col_ok = w_col > 0 && l->grid[0] >= l->ngpus;
    if (row_ok && (w_row >= w_col || !col_ok)) {
        return CTA_LADM_ROW;
    }
    return col_ok ? CTA_LADM_COL : CTA_LADM_KERNEL_WIDE;
}

/* Eq. 2 for the largest NL structure (the lowest on ties), capped to floor(T / N);
 * 0 when there is none. */
static uint64_t align_batch(const Ladm *l)
{
    const LadmStruct *big = NULL;
    for (size_t k = 0; k < l->nstructs; k++) {
        const LadmStruct *s = &l->structs[k];
        if (s->cls == LADM_NL && (!big || s->bytes > big->bytes)) {
            big = s;
        }
    }
    if (!big) {
        return 0;
    }
    uint64_t batch = big->gcd == 0 || big->gcd >= l->page ? 1 : l->page / big->gcd;
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t cap = total / l->ngpus ? total / l->ngpus : 1;
    return batch < cap ? batch : cap;
}

void ladm_hint(Ladm *l, LadmClass cls)
{
    l->hint = cls;
}

bool ladm_schedule(Ladm *l, CtaMap *m, SimError *err)
{
    if (l->scheduled) {
        return sim_error_set(err, "LADM's schedule of a kernel is decided once");
    }
    for (size_t k = 0; k < l->nstructs; k++) {
        LadmStruct *s = &l->structs[k];
        s->cls = l->hint != LADM_UNUSED && s->touched ? l->hint : classify(l, s);
        idmap_destroy(&s->rows);
        idmap_destroy(&s->cols);
    }
    uint64_t bytes[LADM_CLASSES];
    class_bytes(l, bytes);
    uint64_t rcl = add_sat(bytes[LADM_ROW], bytes[LADM_COL]);
    l->itl = bytes[LADM_ITL] > bytes[LADM_NL] && bytes[LADM_ITL] > rcl;
    CtaLadm kind = pick_binding(l, bytes);
    uint64_t batch = 1;
    if (kind == CTA_LADM_KERNEL_WIDE && bytes[LADM_ITL] <= bytes[LADM_NL] &&
        (batch = align_batch(l)) > 0) {
        kind = CTA_LADM_ALIGN;
    }
    if (!cta_map_init_ladm(&l->sched, kind, batch ? batch : 1, l->grid, l->ngpus, err) ||
        !cta_map_init_ladm(&l->rowmap, CTA_LADM_ROW, 1, l->grid, l->ngpus, err) ||
        !cta_map_init_ladm(&l->colmap, CTA_LADM_COL, 1, l->grid, l->ngpus, err)) {
        return false;
    }
    l->scheduled = true;
    *m = l->sched;
    return true;
}

bool ladm_itl(const Ladm *l)
{
    return l->itl;
}

LadmClass ladm_class(const Ladm *l, uint64_t vaddr, uint64_t *datablock)
{
    size_t s = ladm_find(l, vaddr);
    LadmClass cls = s == LADM_NONE ? LADM_UNUSED : l->structs[s].cls;
    if (datablock) {
        *datablock = cls == LADM_NL ? l->structs[s].gcd : 0;
    }
    return cls;
}
