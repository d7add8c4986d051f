/* The "shared" pattern of the cu block: read/write sharing of one region by every cu
 * of every GPU over several kernels, with a data check that knows, for every byte at
 * every kernel, the value it must hold. Pure: the predicate and value functions have
 * no state; the generator holds only its own cursor and a caller-owned PRNG.
 *
 * Region: the first `footprint` bytes of every GPU's range (all GPUs, whatever the
 * target), cut into lines of `line` bytes; line number n = addr / line. Line n is
 * owned by the cu with global id n mod owners (gpu * cus + index, owners = gpus * cus),
 * as for the other patterns.
 *
 * Predicates (seed = the platform seed, the same in every cu):
 *   read_only(n)   = unit(mix(mix(mix(seed) ^ n) ^ RO_SALT)) < read_only_frac
 *   written(n, k)  = !read_only(n) && unit(mix(mix(mix(seed) ^ n) ^ (k + 1))) <
 *                    write_frac
 * with mix the splitmix64 finaliser (fill_mix) and unit(u) = (u >> 11) / 2^53.
 * Value written to byte a in kernel k: v(a, k) = low 8 bits of mix(a ^ mix(k + 1)).
 * The byte a in line n holds, once kernels 0..k-1 are over, v(a, k') for the largest
 * k' < k with written(n, k'), else the fill pattern.
 *
 * Kernel k of one cu: writes every owned line n of the region with written(n, k)
 * (whole lines, ascending addresses) and count - W_k reads (W_k = those writes), so a
 * kernel has exactly `count` accesses; init fails if some W_k > count. Reads and
 * writes are interleaved uniformly at random (the next access is a write with
 * probability writes left / accesses left). A read picks a line uniformly from the
 * target GPUs' part of the region (all GPUs, the own GPU, or the others), then the
 * first line at or after it (wrapping) with !written(n, k), and reads `size` bytes at
 * a random size-aligned offset of it. A kernel whose target lines are all written
 * skips its reads (counted by the caller). tools/ref/workload.py recomputes the
 * predicates and values independently. */
#ifndef MGTLM_HW_WORKLOAD_CU_SHARED_H
#define MGTLM_HW_WORKLOAD_CU_SHARED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/lib/fill.h"
#include "hw/lib/rng.h"
#include "hw/workload/cu_pattern.h"
#include "kernel/error.h"

/* Salt of the read-only predicate (k + 1 never reaches it for kernels < 2^32). */
#define CU_SHARED_RO_SALT 0x524f4c494e45ULL

bool cu_shared_read_only(uint64_t seed, uint64_t line, double read_only_frac);
bool cu_shared_written(uint64_t seed, uint64_t line, uint32_t k, double write_frac,
                       double read_only_frac);
/* v(a, k): the byte written to address a in kernel k (shared and halo patterns). */
uint8_t cu_value(uint64_t addr, uint32_t k);

typedef struct CuSharedCfg {
    CuTarget target;    /* GPUs that reads address */
    uint32_t gpus;      /* platform GPUs */
    uint32_t gpu;       /* own GPU */
    uint64_t mem_bytes; /* bytes per GPU */
    uint64_t footprint; /* region bytes per GPU */
    uint64_t line, size;
    uint64_t owner, owners;
    uint64_t seed; /* platform seed */
    double write_frac, read_only_frac;
    uint64_t count;   /* accesses per kernel */
    uint32_t kernels; /* K */
    FillKind fill;
} CuSharedCfg;

typedef struct CuShared {
    CuSharedCfg c;
    uint64_t lines_per_gpu;
    uint32_t ntargets;
    uint64_t *writes; /* W_k per kernel, owned */
    uint32_t k;       /* current kernel */
    uint64_t wleft;   /* writes left in kernel k */
    uint64_t rleft;   /* reads left in kernel k */
    uint32_t wgpu;    /* write cursor: GPU ... */
    uint64_t wj;      /* ... and line offset in that GPU's region (next candidate) */
    uint64_t skipped; /* reads skipped since init (no unwritten target line) */
} CuShared;

/* Checks cfg, counts W_k for every kernel and sets s up (messages name parameters).
 * On success s owns memory: release it with cu_shared_free. */
bool cu_shared_init(CuShared *s, const CuSharedCfg *cfg, SimError *err);
void cu_shared_free(CuShared *s);
/* Starts kernel k (< kernels). */
void cu_shared_begin(CuShared *s, uint32_t k);
/* Next access of the current kernel: writes its address to *addr, its length to *len
 * and whether it is a write to *write. False when the kernel has no access left. */
bool cu_shared_next(CuShared *s, Rng *rng, uint64_t *addr, uint32_t *len, bool *write);
/* Writes into out the bytes [addr, addr + len) must hold during kernel k. */
void cu_shared_expect(const CuShared *s, uint32_t k, uint64_t addr, uint8_t *out,
                      size_t len);

#endif
