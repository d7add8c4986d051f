/* The "halo" pattern of the cu block (see cu_halo.h for the rules). */
#include "hw/workload/cu_halo.h"

#include <inttypes.h>

bool cu_halo_init(CuHalo *h, const CuHaloCfg *cfg, SimError *err)
{
    const CuHaloCfg *c = cfg;
    *h = (CuHalo){.c = *cfg};
    if (c->size == 0 || c->halo == 0 || c->halo % c->size != 0) {
        return sim_error_set(
            err, "halo %" PRIu64 " must be a non-zero multiple of size %" PRIu64, c->halo,
            c->size);
    }
    if (c->halo > c->mem_bytes / 2) {
        return sim_error_set(err, "halo %" PRIu64 " is above mem_bytes / 2 (%" PRIu64 ")",
                             c->halo, c->mem_bytes / 2);
    }
    if (c->cus == 0 || c->index >= c->cus) {
        return sim_error_set(err, "index %" PRIu64 " is not below cus %" PRIu64, c->index,
                             c->cus);
    }
    uint64_t n = c->halo / c->size;
    h->first = c->index * n / c->cus;
    h->last = (c->index + 1) * n / c->cus;
    cu_halo_restart(h);
    return true;
}

void cu_halo_restart(CuHalo *h)
{
    h->strip = 0;
    h->pos = h->first;
}

bool cu_halo_next(CuHalo *h, uint64_t *addr)
{
    const CuHaloCfg *c = &h->c;
    while (h->strip < 2 && h->pos >= h->last) {
        h->strip++;
        h->pos = h->first;
    }
    if (h->strip >= 2) {
        return false;
    }
    uint32_t dst =
        h->strip == 0 ? (c->gpu + 1) % c->gpus : (c->gpu + c->gpus - 1) % c->gpus;
    uint64_t strip_base = (uint64_t)dst * c->mem_bytes + (h->strip == 0 ? 0 : c->halo);
    *addr = strip_base + h->pos * c->size;
    h->pos++;
    return true;
}
