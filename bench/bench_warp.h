/* The synthetic warps of the GPU-core benchmarks (core_sched: the scheduler alone;
 * sm_run: one sm block in a simulation), so both run the same instructions: CTAs of
 * BENCH_WARPS warps x BENCH_INSTS instructions, each warp a dependent chain over
 * BENCH_REGS registers alternating int and fp32, every load_every-th instruction an
 * LDG of one 128 B line (32 lanes x 4 B), the last an EXIT. */
#ifndef MGTLM_BENCH_WARP_H
#define MGTLM_BENCH_WARP_H

#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"

#define BENCH_WARPS 8
#define BENCH_INSTS 256
#define BENCH_REGS 16

/* Fills w with the warp: instructions in in[BENCH_INSTS], lane addresses (from base)
 * in addrs[BENCH_INSTS x ATS_LANES]; load_every 0 = no loads. */
static inline void bench_build_warp(AtsWarp *w, AtsInst *in, uint64_t *addrs,
                                    uint64_t load_every, uint64_t base)
{
    *w = (AtsWarp){.ninst = BENCH_INSTS, .inst = in, .addrs = addrs};
    for (size_t k = 0; k < BENCH_INSTS; k++) {
        AtsInst *x = &in[k];
        *x = (AtsInst){.mask = 0xffffffffu, .ndst = 1, .nsrc = 1};
        x->dst[0] = (uint8_t)(k % BENCH_REGS);
        x->src[0] = (uint8_t)((k + BENCH_REGS - 1) % BENCH_REGS);
        x->cls = k % 2 ? ATS_FP32 : ATS_INT;
        if (load_every && k % load_every == load_every - 1) {
            x->cls = ATS_LDG;
            x->width = 4;
            x->addr_off = (uint32_t)w->naddrs;
            for (uint64_t lane = 0; lane < ATS_LANES; lane++) {
                addrs[w->naddrs++] = base + 128 * k + 4 * lane;
            }
        }
    }
    in[BENCH_INSTS - 1] = (AtsInst){.mask = 0xffffffffu, .cls = ATS_EXIT};
}

#endif
