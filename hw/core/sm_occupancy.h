/* Occupancy: how many CTAs of a kernel one SM holds at once (SPEC.md 6.4).
 *
 * CTAs per SM = min(max_ctas, floor(max_warps / W), floor(regs / (nregs x 32 x W)),
 * floor(shmem / CTA shmem)) with W = ceil(threads per CTA / 32) warps per CTA.
 *
 * Decisions:
 * - The formula is SPEC's, exactly: registers are counted per thread of whole warps,
 *   with no allocation granularity (real GPUs round to 256-register units).
 * - A kernel that uses no registers or no shared memory is not limited by that
 *   resource.
 * - 0 means a CTA does not fit an empty SM; the caller reports it as bad input.
 * - When several resources give the same minimum, the limit reported is the first in
 *   the order CTAs, warps, registers, shared memory. */
#ifndef MGTLM_HW_CORE_SM_OCCUPANCY_H
#define MGTLM_HW_CORE_SM_OCCUPANCY_H

#include <stdint.h>

#include "hw/core/accelsim.h"

/* The SM's resources (its parameters max_ctas, max_warps, regs, shmem). */
typedef struct SmResources {
    uint32_t max_ctas;
    uint32_t max_warps;
    uint32_t regs;  /* 32-bit registers */
    uint32_t shmem; /* bytes */
} SmResources;

typedef enum SmLimit {
    SM_LIMIT_CTAS,
    SM_LIMIT_WARPS,
    SM_LIMIT_REGS,
    SM_LIMIT_SHMEM
} SmLimit;

/* Warps per CTA of the kernel: ceil(block x * y * z / 32). */
uint64_t sm_occupancy_warps(const AtsKernelInfo *k);

/* CTAs of kernel k one SM with resources r holds at once; writes the resource that
 * limits it to *limit when limit is non-NULL. */
uint32_t sm_occupancy(const SmResources *r, const AtsKernelInfo *k, SmLimit *limit);

/* "max_ctas", "max_warps", "regs" or "shmem" (static string). */
const char *sm_occupancy_limit_name(SmLimit limit);

/* What one CTA of kernel k takes of resource limit, and what r holds of it. */
void sm_occupancy_need(const SmResources *r, const AtsKernelInfo *k, SmLimit limit,
                       uint64_t *need, uint64_t *have);

#endif
