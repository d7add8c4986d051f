/* The host's translation service (host_xlat.h): placement for global pages, a
 * per-GPU map for local pages, frame counts per GPU for the full-memory check. */
#include "hw/core/host_xlat.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

bool host_xlat_init(HostXlat *x, PlacePolicy policy, uint32_t ngpus, uint64_t page,
                    uint64_t mem_bytes, SimError *err)
{
    memset(x, 0, sizeof *x);
    x->pl = placement_new(policy, ngpus, page, err);
    if (!x->pl) {
        return false;
    }
    if (mem_bytes < page) {
        placement_free(x->pl);
        x->pl = NULL;
        return sim_error_set(err, "memory of %llu bytes per GPU holds no %llu-byte page",
                             (unsigned long long)mem_bytes, (unsigned long long)page);
    }
    x->ngpus = ngpus;
    x->page = page;
    x->mem_bytes = mem_bytes;
    x->frames = mem_bytes / page;
    x->global_pages = xcalloc(ngpus, sizeof *x->global_pages);
    x->local_pages = xcalloc(ngpus, sizeof *x->local_pages);
    x->local = xcalloc(ngpus, sizeof *x->local);
    return true;
}

void host_xlat_free(HostXlat *x)
{
    if (x->local) {
        for (uint32_t g = 0; g < x->ngpus; g++) {
            idmap_destroy(&x->local[g]);
        }
    }
    placement_free(x->pl);
    free(x->global_pages);
    free(x->local_pages);
    free(x->local);
    memset(x, 0, sizeof *x);
}

bool host_xlat_add_alloc(HostXlat *x, uint64_t base, uint64_t bytes, SimError *err)
{
    return placement_add_alloc(x->pl, base, bytes, err);
}

HostXlatAddr host_xlat_translate(HostXlat *x, uint64_t vaddr, bool local, uint32_t gpu)
{
    assert(gpu < x->ngpus);
    HostXlatAddr a = {0};
    uint64_t offset = vaddr % x->page;
    uint32_t home;
    uint64_t slot;
    if (local) {
        uint64_t n;
        if (!idmap_get(&x->local[gpu], vaddr / x->page, &n)) {
            n = x->local_pages[gpu]++;
            idmap_insert(&x->local[gpu], vaddr / x->page, n);
            a.fresh = true;
        }
        home = gpu;
        slot = x->frames - 1 - n % x->frames;
    } else {
        PlaceAddr p = placement_translate(x->pl, vaddr, gpu);
        home = p.home;
        uint64_t placed = placement_pages(x->pl, home);
        a.fresh = placed > x->global_pages[home];
        x->global_pages[home] = placed;
        slot = p.paddr / x->page % x->frames;
    }
    a.oom = a.fresh && x->global_pages[home] + x->local_pages[home] > x->frames;
    a.paddr = home * x->mem_bytes + slot * x->page + offset;
    return a;
}
