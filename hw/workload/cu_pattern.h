/* Synthetic address streams of the cu block (patterns uniform, strided, stream,
 * tiled, scatter). Pure: no kernel state, only the parameters and a caller-owned
 * PRNG, so unit tests can check every property directly.
 *
 * The footprint: each target GPU h contributes the first `footprint` bytes of its
 * range, [h*M, h*M + footprint). Target set: all GPUs, only the own GPU, or all
 * others. With `owned` set (the cu writes), only the lines the cu owns are used: line
 * number n (= addr / line) is owned by the cu with global id n mod owners, where a
 * cu's global id is gpu * cus + index and owners = gpus * cus. Each target GPU then
 * contributes its first floor(footprint / line / owners) owned lines.
 *
 * The used lines of all targets, concatenated in ascending GPU order, form a virtual
 * space of V bytes; every pattern walks that space (v in [0, V), aligned to size)
 * and v maps to its physical address. Patterns, for access i:
 *   uniform  v uniform over the size-aligned offsets.
 *   stream   v = (s + i*size) mod V, s a random aligned start.
 *   strided  v = (s + i*stride) mod V.
 *   tiled    a random tile of `tile` bytes (tile-aligned in V) is swept
 *            sequentially in size steps `reuse` times, then the next random tile.
 *   scatter  groups of `reuse` accesses: a random aligned start s, then
 *            s, s+stride, s+2*stride, ... (mod V).
 * Accesses never cross a line: size divides line and v is size-aligned. */
#ifndef MGTLM_HW_WORKLOAD_CU_PATTERN_H
#define MGTLM_HW_WORKLOAD_CU_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/lib/rng.h"
#include "kernel/error.h"

typedef enum CuPatternKind {
    CU_PAT_UNIFORM,
    CU_PAT_STRIDED,
    CU_PAT_STREAM,
    CU_PAT_TILED,
    CU_PAT_SCATTER
} CuPatternKind;

typedef enum CuTarget { CU_TARGET_ALL, CU_TARGET_LOCAL, CU_TARGET_REMOTE } CuTarget;

typedef struct CuPatternCfg {
    CuPatternKind kind;
    CuTarget target;
    uint32_t gpus;      /* platform GPUs */
    uint32_t gpu;       /* own GPU */
    uint64_t mem_bytes; /* bytes per GPU */
    uint64_t footprint; /* bytes per target GPU */
    uint64_t line, size, stride, tile, reuse;
    bool owned;      /* restrict to owned lines */
    uint64_t owner;  /* this cu's global id */
    uint64_t owners; /* gpus * cus */
} CuPatternCfg;

typedef struct CuPattern {
    CuPatternCfg c;
    uint32_t ntargets;      /* GPUs in the target set */
    uint64_t lines_per_gpu; /* used lines per target GPU */
    uint64_t space;         /* V */
    uint64_t i;             /* accesses generated so far */
    uint64_t start;         /* stream/strided/scatter: next virtual offset */
    uint64_t pos, pass;     /* tiled: offset in tile, sweeps done */
    uint64_t tile_base;
} CuPattern;

/* Checks cfg and sets p up; messages name the parameter ("size 3 does not divide
 * line 64"). */
/* The geometry every generator needs: size divides line, line divides mem_bytes, the
 * footprint is a non-zero multiple of line and at most mem_bytes. */
bool cu_geometry_check(uint64_t line, uint64_t size, uint64_t mem_bytes,
                       uint64_t footprint, SimError *err);
bool cu_pattern_init(CuPattern *p, const CuPatternCfg *cfg, SimError *err);
/* Restarts the stream (same cfg). */
void cu_pattern_restart(CuPattern *p);
/* Physical address of the next access; draws from rng as needed. */
uint64_t cu_pattern_next(CuPattern *p, Rng *rng);
/* Physical address of virtual offset v (exposed for tests). */
uint64_t cu_pattern_map(const CuPattern *p, uint64_t v);

#endif
