/* Software-coherence cost model of CARVE (paper 004, Table IV): the kernel-launch
 * delay of invalidating or flushing a whole cache at kernel boundaries, which the
 * epoch counter and GPU-VI remove. Pure integer arithmetic, results in ps.
 *
 * - A DRAM-resident cache (the RDC) is invalidated by reading and writing every line
 *   at the local DRAM bandwidth, and flushed by sending every line at the remote
 *   bandwidth: time = ceil(bytes x 10^12 / bandwidth) (2 GiB at 1024 GB/s = 2.10 ms,
 *   2 GiB at 64 GB/s = 33.6 ms; the paper rounds them to 2 ms and 32 ms).
 * - An on-chip cache (the L2) is invalidated bank-parallel, `per_cycle` lines per
 *   bank per cycle: time = ceil(bytes / line / (banks x per_cycle)) x cycle
 *   (8 MiB, 128 B lines, 16 banks, 1 line per cycle at 1 GHz = 4096 ns = 4 us). */
#ifndef MGTLM_HW_CARVE_SWC_COST_H
#define MGTLM_HW_CARVE_SWC_COST_H

#include <stdint.h>

#include "hw/lib/wire.h"
#include "kernel/simtime.h"

/* Time to stream `bytes` through a resource of `bandwidth` bytes/s (>= 1). */
static inline SimTime swc_cost_stream(uint64_t bytes, uint64_t bandwidth)
{
    return wire_ser_time(bytes, bandwidth, 1, 1);
}

/* Time to invalidate an on-chip cache of `bytes` in `line`-byte lines with `banks`
 * banks clearing `per_cycle` lines each per `cycle` ps (all arguments >= 1). */
static inline SimTime swc_cost_banked(uint64_t bytes, uint64_t line, uint64_t banks,
                                      uint64_t per_cycle, SimTime cycle)
{
    uint64_t lines = (bytes + line - 1) / line;
    uint64_t rate = banks * per_cycle;
    return ((lines + rate - 1) / rate) * cycle;
}

#endif
