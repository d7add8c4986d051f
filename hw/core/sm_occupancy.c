/* Occupancy (SPEC.md 6.4): the minimum over the four resources of what the SM holds
 * divided by what one CTA takes (sm_occupancy_need, also the sm's message when a CTA
 * fits no SM), in 64-bit (and for registers 128-bit, saturated) arithmetic so that no
 * block or register count overflows. A resource a CTA takes none of does not limit. */
#include "hw/core/sm_occupancy.h"

__extension__ typedef unsigned __int128 OccWide;

uint64_t sm_occupancy_warps(const AtsKernelInfo *k)
{
    OccWide threads = (OccWide)k->block[0] * k->block[1] * k->block[2];
    return (uint64_t)((threads + ATS_LANES - 1) / ATS_LANES);
}

uint32_t sm_occupancy(const SmResources *r, const AtsKernelInfo *k, SmLimit *limit)
{
    uint64_t best = UINT64_MAX;
    SmLimit why = SM_LIMIT_CTAS;
    for (SmLimit l = SM_LIMIT_CTAS; l <= SM_LIMIT_SHMEM; l++) {
        uint64_t need, have;
        sm_occupancy_need(r, k, l, &need, &have);
        if (need != 0 && have / need < best) {
            best = have / need;
            why = l;
        }
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
