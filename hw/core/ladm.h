/* LADM's locality analysis of one kernel of a trace, and the CTA schedule and page
 * homes it leads to (paper 002, LADM, section III; SPEC.md 6.4 and 6.5 `ladm`).
 *
 * The paper's compiler classifies each global array access of a kernel from its index
 * equation (Table II, Algorithm 1); its runtime (LASP) then picks one threadblock
 * scheduler per kernel and a placement per data structure. A trace has no source, so
 * the index equation is observed instead: a data structure is a MemcpyHtoD allocation
 * (overlapping allocations merged), and what Algorithm 1 reads from the loop-invariant
 * terms, the datablock each threadblock starts at, is the lowest address a CTA's
 * global accesses (LDG, STG, ATOMG, RED) touch in the structure: its start.
 * Algorithm 1's first test, loopVariant(m) = m, is observed at each memory PC of a
 * warp (a loop runs the same PCs again): a lane's access there "moves" when its
 * address differs from the same lane's previous one at that PC, and "steps" when it
 * is exactly one access width further (one element per iteration). In that order:
 * - intra-thread locality, ITL (row 6): steps > 0 and more than half of the moves;
 * - other (row 7, unclassified): every CTA starts at the same address;
 * - row-shared (rows 2, 4): 2-D grid, every row of CTAs (same y and z) has one start
 *   (loop-invariant in by only);
 * - column-shared (rows 3, 5): 2-D grid, every column of CTAs (same x) has one start;
 * - no datablock-locality, NL (row 1): the starts differ otherwise (bx and by, or a
 *   1-D grid); the datablock size is the gcd of the differences of the starts.
 * A grid is 2-D when gx > 1 and gy gz > 1.
 *
 * Schedule (section III-D2, cta_map.h's CTA_LADM schedulers): if a structure is row-
 * or column-shared, the binding of the larger total size of such structures ("we
 * favor the scheduling policy associated with the larger data structure"; a tie goes
 * to rows), provided the grid has at least N rows (columns); else the other binding
 * if it has structures and is feasible. Otherwise, when the NL structures weigh at
 * least as much as the ITL ones, align-aware with MinTBBatch = floor(page /
 * datablock) (Eq. 2) of the largest NL structure, at least 1 and at most floor(T / N)
 * so that every GPU gets a batch; otherwise kernel-wide (rows 6, 7).
 *
 * Placement (section III-D1): every page of an NL, row- or column-shared structure
 * goes to the GPU whose CTAs make the most lane accesses to it under the binding the
 * structure asks for: the kernel's schedule for NL (stride-aware: a threadblock's
 * datablocks with it), row-binding for row-shared (row-based placement), column-
 * binding for column-shared (column-based placement), even when the kernel's schedule
 * is the other one, as the paper places each structure its own way. A tie between
 * GPUs goes to the first tied GPU from (page number mod N) on, so a page that every GPU
 * shares alike is interleaved (Eq. 1 at page granularity). Pages of ITL and other
 * structures and outside every allocation get no plan: placement.h places them as
 * `split` (kernel-wide data partitioning, rows 6 and 7).
 *
 * Decisions:
 * - Two streaming passes over the kernel's CTAs, in any order (results do not depend
 *   on it): ladm_observe (classification, then ladm_schedule) and ladm_touch (page
 *   counts under the bindings, then ladm_place). Memory: per structure one start per
 *   grid row and column seen, per touched page N counters, per memory PC of the warp
 *   being observed 32 addresses; never per instruction of the trace.
 * - Pages count lane accesses, not CTAs: a page that one GPU's CTAs use heavily and
 *   other GPUs' CTAs touch once (a banded gather, a halo) stays with the heavy user.
 * - A start that depends on data (X[Y[i]]) and differs between CTAs looks like NL:
 *   the trace shows addresses, not how they were computed. Such a kernel gets the
 *   align-aware schedule (contiguous, cut at batch boundaries) and affinity placement.
 * - A lane's access counts for the page of its first byte; a page that holds bytes of
 *   two structures is counted under the structure of its first recorded access.
 * - A per-kernel hint (ladm_hint, from the trace folder's ladm_hints file,
 *   ladm_hints.h) gives every structure the kernel touches the hinted class: the
 *   paper's compiler classifies from source, and a hint is how a user or a compiler
 *   states what the addresses of a trace cannot show. */
#ifndef MGTLM_HW_CORE_LADM_H
#define MGTLM_HW_CORE_LADM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "hw/core/cta_map.h"
#include "hw/core/placement.h"
#include "kernel/error.h"

typedef struct LadmAlloc {
    uint64_t base, bytes;
} LadmAlloc;

/* What the analysis found for a data structure. */
typedef enum LadmClass {
    LADM_UNUSED, /* not a structure, or no CTA of the kernel touches it */
    LADM_NL,     /* no datablock-locality */
    LADM_ROW,    /* a row of CTAs shares each datablock */
    LADM_COL,    /* a column of CTAs shares each datablock */
    LADM_ITL,    /* intra-thread locality: loops step one element per iteration */
    LADM_OTHER,  /* every CTA starts at the same datablock */
    LADM_CLASSES
} LadmClass;

typedef struct Ladm Ladm;

/* A new analysis of a kernel with grid `grid` on ngpus GPUs with pages of `page` bytes
 * (the Placement's page size) over the trace's allocations (copied). Owned by the
 * caller (ladm_free). NULL (err says why) for a zero grid dimension, ngpus outside
 * 1..PLACEMENT_MAX_GPUS, or a page that is not a power of two from 128 B to 1 GiB. */
Ladm *ladm_new(const uint32_t grid[3], uint32_t ngpus, uint64_t page,
               const LadmAlloc *allocs, size_t nallocs, SimError *err);
void ladm_free(Ladm *l);

/* Pass 1: each CTA of the kernel once (coordinates inside the grid). */
void ladm_observe(Ladm *l, const AtsCta *cta);

/* Before ladm_schedule: every structure the kernel touches gets class cls (LADM_NL ..
 * LADM_OTHER) instead of the analysis's verdict (ladm_hints.h); the schedule, the
 * placement and ladm_itl then follow from it as from an observed class (a hinted NL
 * structure whose CTAs all start at one address has no datablock: batch 1).
 * LADM_UNUSED: no hint. */
void ladm_hint(Ladm *l, LadmClass cls);

/* Ends pass 1: classifies the structures and fills m with the kernel's schedule
 * (policy CTA_LADM). False (err says why) if called twice. */
bool ladm_schedule(Ladm *l, CtaMap *m, SimError *err);

/* After ladm_schedule: the class of the structure holding vaddr (LADM_UNUSED outside
 * every structure) and, for LADM_NL, its datablock size in bytes (else 0). */
LadmClass ladm_class(const Ladm *l, uint64_t vaddr, uint64_t *datablock);

/* Pass 2, after ladm_schedule: each CTA of the kernel once. */
void ladm_touch(Ladm *l, const AtsCta *cta);

/* After ladm_schedule: whether the kernel's dominant locality is intra-thread (its
 * ITL structures outweigh its NL ones and its row- and column-shared ones together),
 * the kernels for which LADM caches remote data once (section III-E: the host sends
 * the l2's `once_hint` in their kernel_begin). */
bool ladm_itl(const Ladm *l);

/* After pass 2: plans every counted page's home in pl (placement_plan). */
void ladm_place(const Ladm *l, Placement *pl);

/* Both passes over the kernel file at path (accelsim_read.h) for the caller: the
 * dispatcher gets the schedule in *map (pl NULL: one pass only), the host plans the
 * kernel's pages in pl and gets ladm_itl in *itl (map and itl may be NULL); hint is
 * the kernel's ladm_hint (LADM_UNUSED: none). False with the reader's one-line
 * error. */
bool ladm_plan_kernel(const char *path, uint32_t ngpus, uint64_t page,
                      const LadmAlloc *allocs, size_t nallocs, LadmClass hint,
                      CtaMap *map, bool *itl, Placement *pl, SimError *err);

#endif
