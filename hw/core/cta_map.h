/* CTAs of a kernel to GPUs (SPEC.md 6.4): the CTA index, the GPU a policy gives each
 * CTA, and each GPU's list of its CTAs in index order.
 *
 * CTA (x, y, z) of a grid (gx, gy, gz) has index i = x + y gx + z gx gy, and the
 * kernel has T = gx gy gz CTAs. On N GPUs:
 * - contiguous (NUMA-GPU, MGPUSim): CTA i runs on GPU floor(i N / T), so GPU g runs
 *   the indices ceil(g T / N) .. ceil((g + 1) T / N) - 1;
 * - round_robin: CTA i runs on GPU i mod N, so GPU g runs g, g + N, g + 2N, ...
 * - ladm (LADM's LASP scheduler, paper 002 section III-D2), one of four schedulers
 *   that ladm.h picks per kernel from the trace. The first three cut the CTA index
 *   range into units of U consecutive CTAs, nu = ceil(T / U) units, and run unit u on
 *   GPU floor(u N / nu) (contiguous over units):
 *   kernel-wide U = 1 (the same as contiguous); align-aware U = the batch (Eq. 2's
 *   MinTBBatch, so cuts fall on page boundaries of the data); row-binding U = gx (a
 *   row of the grid: all CTAs with the same y and z; contiguous rows per GPU).
 *   Column-binding: column x runs on GPU floor(x N / gx) (contiguous columns per
 *   GPU), so GPU g runs columns ceil(g gx / N) .. ceil((g + 1) gx / N) - 1 of every
 *   row.
 *
 * Decisions:
 * - A GPU's list is computed, never stored (cta_map_count, cta_map_nth), so memory
 *   does not grow with the grid. Arithmetic is 128-bit: i N never overflows.
 * - Which LADM scheduler and batch a kernel gets is ladm.h's decision; the map only
 *   applies it. cta_map_init with CTA_LADM gives the kernel-wide scheduler. */
#ifndef MGTLM_HW_CORE_CTA_MAP_H
#define MGTLM_HW_CORE_CTA_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/error.h"

typedef enum CtaPolicy { CTA_CONTIGUOUS, CTA_ROUND_ROBIN, CTA_LADM } CtaPolicy;

/* LADM's schedulers (paper 002 Table II, "Threadblock Scheduling" column). */
typedef enum CtaLadm {
    CTA_LADM_KERNEL_WIDE, /* rows 6, 7: N contiguous chunks */
    CTA_LADM_ALIGN,       /* row 1: align-aware, contiguous batches of `batch` CTAs */
    CTA_LADM_ROW,         /* rows 2, 4: row-binding */
    CTA_LADM_COL          /* rows 3, 5: column-binding */
} CtaLadm;

typedef struct CtaMap {
    CtaPolicy policy;
    uint32_t grid[3];
    uint64_t total; /* gx gy gz */
    uint32_t ngpus;
    CtaLadm ladm;  /* CTA_LADM: the scheduler */
    uint64_t unit; /* CTA_LADM except column-binding: CTAs per unit (U above) */
} CtaMap;

/* Fills m for a grid on ngpus GPUs. False (err says which) if a grid dimension or
 * ngpus is 0. */
bool cta_map_init(CtaMap *m, CtaPolicy policy, const uint32_t grid[3], uint32_t ngpus,
                  SimError *err);

/* Fills m for LADM's scheduler `ladm` (batch: the align-aware batch in CTAs, at least
 * 1; ignored by the others). False (err says which) as cta_map_init, or for batch 0. */
bool cta_map_init_ladm(CtaMap *m, CtaLadm ladm, uint64_t batch, const uint32_t grid[3],
                       uint32_t ngpus, SimError *err);

/* Parses "contiguous", "round_robin" or "ladm"; false (err names the word) otherwise. */
bool cta_map_parse_policy(const char *name, CtaPolicy *policy, SimError *err);

/* Index of CTA (x, y, z) of a grid: x + y gx + z gx gy (coordinates inside it). */
uint64_t cta_index(const uint32_t grid[3], uint32_t x, uint32_t y, uint32_t z);
/* cta_index in m's grid. */
uint64_t cta_map_index(const CtaMap *m, uint32_t x, uint32_t y, uint32_t z);

/* GPU of CTA index i (< total). */
uint32_t cta_map_gpu(const CtaMap *m, uint64_t i);

/* Number of CTAs GPU g runs. */
uint64_t cta_map_count(const CtaMap *m, uint32_t g);

/* Index of the k-th CTA (k < cta_map_count) GPU g runs, in increasing index order. */
uint64_t cta_map_nth(const CtaMap *m, uint32_t g, uint64_t k);

/* Position of CTA index i (< total) in its GPU's list: the k for which
 * cta_map_nth(m, cta_map_gpu(m, i), k) is i. */
uint64_t cta_map_rank(const CtaMap *m, uint64_t i);

#endif
