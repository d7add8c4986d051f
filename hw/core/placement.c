/* Placement of trace memory (SPEC.md 6.5). One idmap from page number to the page's
 * home (low 16 bits) and frame (the rest); a page is looked up once per access and its
 * home computed only at its first use, so a linear scan of the allocations is enough.
 * LADM's planned homes wait in a second idmap until the page's first use. */
#include "hw/core/placement.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/idmap.h"
#include "kernel/xalloc.h"

__extension__ typedef unsigned __int128 PlaceWide;

#define PLACE_HOME_BITS 16

typedef struct PlaceAlloc {
    uint64_t base, bytes;
} PlaceAlloc;

struct Placement {
    PlacePolicy policy;
    uint32_t ngpus;
    uint64_t page;
    unsigned page_shift;
    IdMap pages;          /* page number -> frame << PLACE_HOME_BITS | home */
    IdMap planned;        /* ladm: page number -> planned home, until first use */
    uint64_t *next_frame; /* per home; owned */
    PlaceAlloc *allocs;   /* owned, in the order added */
    size_t nallocs, cap_allocs;
};

Placement *placement_new(PlacePolicy policy, uint32_t ngpus, uint64_t page, SimError *err)
{
    if (ngpus == 0 || ngpus > PLACEMENT_MAX_GPUS) {
        sim_error_set(err, "placement over %u GPUs: the GPU count must be 1..%u", ngpus,
                      PLACEMENT_MAX_GPUS);
        return NULL;
    }
    if (page < PLACEMENT_PAGE_MIN || page > PLACEMENT_PAGE_MAX || (page & (page - 1))) {
        sim_error_set(err, "page size %llu is not a power of two from %u B to 1 GiB",
                      (unsigned long long)page, PLACEMENT_PAGE_MIN);
        return NULL;
    }
    Placement *pl = xcalloc(1, sizeof *pl);
    pl->policy = policy;
    pl->ngpus = ngpus;
    pl->page = page;
    while ((1ull << pl->page_shift) < page) {
        pl->page_shift++;
    }
    idmap_init(&pl->pages);
    idmap_init(&pl->planned);
    pl->next_frame = xcalloc(ngpus, sizeof *pl->next_frame);
    return pl;
}

void placement_free(Placement *pl)
{
    if (!pl) {
        return;
    }
    idmap_destroy(&pl->pages);
    idmap_destroy(&pl->planned);
    free(pl->next_frame);
    free(pl->allocs);
    free(pl);
}

bool placement_parse_policy(const char *name, PlacePolicy *policy, SimError *err)
{
    static const struct {
        const char *name;
        PlacePolicy policy;
    } names[] = {{"interleave", PLACE_INTERLEAVE},
                 {"split", PLACE_SPLIT},
                 {"first_touch", PLACE_FIRST_TOUCH},
                 {"ladm", PLACE_LADM}};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(name, names[k].name) == 0) {
            *policy = names[k].policy;
            return true;
        }
    }
    return sim_error_set(err,
                         "unknown placement \"%s\" (interleave, split, first_touch, "
                         "ladm)",
                         name);
}

bool placement_add_alloc(Placement *pl, uint64_t base, uint64_t bytes, SimError *err)
{
    if (bytes > UINT64_MAX - base) {
        return sim_error_set(
            err,
            "allocation of %llu bytes at 0x%llx runs past the end of the "
            "address space",
            (unsigned long long)bytes, (unsigned long long)base);
    }
    if (bytes == 0) {
        return true;
    }
    if (pl->nallocs == pl->cap_allocs) {
        pl->cap_allocs = pl->cap_allocs ? 2 * pl->cap_allocs : 8;
        pl->allocs = xrealloc_array(pl->allocs, pl->cap_allocs, sizeof *pl->allocs);
    }
    pl->allocs[pl->nallocs++] = (PlaceAlloc){base, bytes};
    return true;
}

/* Home of page pn under split: the part of the lowest byte of the page that lies in an
 * allocation (earliest allocation on ties); interleave if none. */
static uint32_t split_home(const Placement *pl, uint64_t pn)
{
    uint64_t first = pn << pl->page_shift, last = first + (pl->page - 1);
    const PlaceAlloc *best = NULL;
    uint64_t best_addr = 0;
    for (size_t k = 0; k < pl->nallocs; k++) {
        const PlaceAlloc *a = &pl->allocs[k];
        uint64_t a_last = a->base + (a->bytes - 1);
        if (a->base > last || a_last < first) {
            continue;
        }
        uint64_t lo = a->base > first ? a->base : first;
        if (!best || lo < best_addr) {
            best = a;
            best_addr = lo;
        }
    }
    if (!best) {
        return (uint32_t)(pn % pl->ngpus);
    }
    return (uint32_t)((PlaceWide)(best_addr - best->base) * pl->ngpus / best->bytes);
}

void placement_plan(Placement *pl, uint64_t vaddr, uint32_t home)
{
    assert(home < pl->ngpus);
    uint64_t pn = vaddr >> pl->page_shift;
    if (!idmap_get(&pl->pages, pn, NULL)) {
        idmap_insert(&pl->planned, pn, home);
    }
}

PlaceAddr placement_translate(Placement *pl, uint64_t vaddr, uint32_t gpu)
{
    assert(gpu < pl->ngpus);
    uint64_t pn = vaddr >> pl->page_shift;
    uint64_t offset = vaddr & (pl->page - 1);
    uint64_t entry;
    if (!idmap_get(&pl->pages, pn, &entry)) {
        uint32_t home;
        switch (pl->policy) {
        case PLACE_SPLIT:
            home = split_home(pl, pn);
            break;
        case PLACE_FIRST_TOUCH:
            home = gpu;
            break;
        case PLACE_LADM: {
            uint64_t planned;
            home = idmap_remove(&pl->planned, pn, &planned) ? (uint32_t)planned
                                                            : split_home(pl, pn);
            break;
        }
        default:
            home = (uint32_t)(pn % pl->ngpus);
            break;
        }
        entry = pl->next_frame[home]++ << PLACE_HOME_BITS | home;
        idmap_insert(&pl->pages, pn, entry);
    }
    uint32_t home = (uint32_t)(entry & ((1u << PLACE_HOME_BITS) - 1));
    uint64_t frame = entry >> PLACE_HOME_BITS;
    return (PlaceAddr){.home = home, .paddr = frame << pl->page_shift | offset};
}

uint64_t placement_pages(const Placement *pl, uint32_t home)
{
    return pl->next_frame[home];
}
