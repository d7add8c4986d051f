/* The "halo" pattern of the cu block: halo-exchange stores to the neighbouring GPUs of
 * a ring. Pure: no kernel state, only the parameters and a cursor.
 *
 * GPU h's memory holds two strips of `halo` bytes at the start of its range: the low
 * strip [h*M, h*M + halo) receives the halo of GPU (h - 1) mod G, the high strip
 * [h*M + halo, h*M + 2*halo) the halo of GPU (h + 1) mod G. So GPU g writes the low
 * strip of GPU (g + 1) mod G, then the high strip of GPU (g - 1) mod G; every strip has
 * exactly one writing GPU (with G = 1 or 2 a GPU writes both strips of one memory).
 * A strip is halo / size stores of `size` bytes at ascending contiguous addresses;
 * the cu with index i of `cus` takes the stores [i*n/cus, (i+1)*n/cus) of each strip
 * (n = halo / size), so the cus of one GPU split every strip without overlap. Each
 * kernel repeats the same stores (the data, v(a, k), changes per kernel). */
#ifndef MGTLM_HW_WORKLOAD_CU_HALO_H
#define MGTLM_HW_WORKLOAD_CU_HALO_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/error.h"

typedef struct CuHaloCfg {
    uint32_t gpus, gpu;
    uint64_t mem_bytes;
    uint64_t halo, size;
    uint64_t index, cus;
} CuHaloCfg;

typedef struct CuHalo {
    CuHaloCfg c;
    uint64_t first, last; /* this cu's stores [first, last) of each strip */
    uint32_t strip;       /* 0: low strip of g+1, 1: high strip of g-1, 2: done */
    uint64_t pos;         /* next store of the strip */
} CuHalo;

/* Checks cfg (halo a non-zero multiple of size, 2 * halo <= mem_bytes) and sets h up. */
bool cu_halo_init(CuHalo *h, const CuHaloCfg *cfg, SimError *err);
/* Starts the stores of one kernel again. */
void cu_halo_restart(CuHalo *h);
/* Address of the next store (len = size); false when the kernel's stores are done. */
bool cu_halo_next(CuHalo *h, uint64_t *addr);

#endif
