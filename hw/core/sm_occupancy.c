/* Occupancy (SPEC.md 6.4): the minimum over the four resources, in 64-bit (and for
 * registers 128-bit) arithmetic so that no block or register count overflows. */
#include "hw/core/sm_occupancy.h"

__extension__ typedef unsigned __int128 OccWide;

uint64_t sm_occupancy_warps(const AtsKernelInfo *k)
{
    OccWide threads = (OccWide)k->block[0] * k->block[1] * k->block[2];
    return (uint64_t)((threads + ATS_LANES - 1) / ATS_LANES);
}

uint32_t sm_occupancy(const SmResources *r, const AtsKernelInfo *k, SmLimit *limit)
{
    uint64_t warps = sm_occupancy_warps(k);
    uint64_t best = r->max_ctas;
    SmLimit why = SM_LIMIT_CTAS;
    uint64_t by_warps = warps == 0 ? UINT64_MAX : r->max_warps / warps;
    if (by_warps < best) {
        best = by_warps;
        why = SM_LIMIT_WARPS;
    }
    OccWide per_cta = (OccWide)k->nregs * ATS_LANES * warps;
    if (per_cta != 0 && r->regs / per_cta < best) {
        best = (uint64_t)(r->regs / per_cta);
        why = SM_LIMIT_REGS;
    }
    if (k->shmem != 0 && r->shmem / k->shmem < best) {
        best = r->shmem / k->shmem;
        why = SM_LIMIT_SHMEM;
    }
    if (limit) {
        *limit = why;
    }
    return (uint32_t)best;
}

const char *sm_occupancy_limit_name(SmLimit limit)
{
    switch (limit) {
    case SM_LIMIT_CTAS:
        return "max_ctas";
    case SM_LIMIT_WARPS:
        return "max_warps";
    case SM_LIMIT_REGS:
        return "regs";
    case SM_LIMIT_SHMEM:
        return "shmem";
    }
    return "?";
}

void sm_occupancy_need(const SmResources *r, const AtsKernelInfo *k, SmLimit limit,
                       uint64_t *need, uint64_t *have)
{
    uint64_t warps = sm_occupancy_warps(k);
    switch (limit) {
    case SM_LIMIT_CTAS:
        *need = 1, *have = r->max_ctas;
        return;
    case SM_LIMIT_WARPS:
        *need = warps, *have = r->max_warps;
        return;
    case SM_LIMIT_REGS: {
        OccWide regs = (OccWide)k->nregs * ATS_LANES * warps;
        *need = regs > UINT64_MAX ? UINT64_MAX : (uint64_t)regs, *have = r->regs;
        return;
    }
    case SM_LIMIT_SHMEM:
        *need = k->shmem, *have = r->shmem;
        return;
    }
    *need = 0, *have = 0;
}
