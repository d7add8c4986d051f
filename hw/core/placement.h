/* Placement of trace memory (SPEC.md 6.5): the home GPU of each page of the trace's
 * virtual addresses, and the frame each page gets in its home's memory.
 *
 * Pages are `page` bytes. Homes by policy on N GPUs:
 * - interleave: page number mod N;
 * - split: each MemcpyHtoD allocation [base, base + bytes) is cut into N equal
 *   contiguous parts, byte base + o in part floor(o N / bytes), part k on GPU k; pages
 *   outside every allocation interleave;
 * - first_touch: the GPU that asks for an unplaced page first gets it (the caller asks
 *   in simulated-time order, so this is the GPU whose access reaches it first).
 * - ladm (LADM's LASP placement, paper 002 section III-D1): the home ladm.h plans for
 *   the page (placement_plan, before the kernel that first uses it starts); a page
 *   without a planned home is placed as under split (the paper's fallback for
 *   unclassified data: kernel-wide data partitioning).
 * Each home hands out frames 0, 1, 2, ... in the order its pages are first used; the
 * physical address is frame x page + the offset in the page, in the home's memory.
 *
 * Decisions:
 * - A page has one home. Under split, a page that straddles a part boundary (or two
 *   allocations) goes where the lowest of its bytes inside an allocation goes;
 *   allocations overlapping there are taken in the order they were added.
 * - A page keeps the home and frame it got at its first use, even if an allocation
 *   added later would give it another. An allocation of 0 bytes covers nothing.
 * - page is a power of two from 128 B (one line) to 1 GiB; N is 1..PLACEMENT_MAX_GPUS.
 * - A planned home is a proposal for an unplaced page: the first plan of a page wins
 *   and a page placed before it was planned keeps its home (LADM decides a data
 *   structure's placement at the first kernel that uses it, section III-D1 "Timing of
 *   page placement").
 * - Host memory grows with the pages used (one map entry each), never with trace
 *   length; the map is kernel/idmap.h, so behaviour does not depend on the host. */
#ifndef MGTLM_HW_CORE_PLACEMENT_H
#define MGTLM_HW_CORE_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/error.h"

#define PLACEMENT_MAX_GPUS 4096
#define PLACEMENT_PAGE_MIN 128
#define PLACEMENT_PAGE_MAX (1ull << 30)

typedef enum PlacePolicy {
    PLACE_INTERLEAVE,
    PLACE_SPLIT,
    PLACE_FIRST_TOUCH,
    PLACE_LADM
} PlacePolicy;

typedef struct Placement Placement;

/* The result of one translation. */
typedef struct PlaceAddr {
    uint32_t home;  /* GPU whose memory holds the page */
    uint64_t paddr; /* address in the home's memory: frame x page + offset */
} PlaceAddr;

/* New placement with no allocation and no page placed. Owned by the caller (free with
 * placement_free). NULL (err says why) for a page size or GPU count out of range. */
Placement *placement_new(PlacePolicy policy, uint32_t ngpus, uint64_t page,
                         SimError *err);
void placement_free(Placement *pl);

/* Parses "interleave", "split", "first_touch" or "ladm"; false (err names the word)
 * otherwise. */
bool placement_parse_policy(const char *name, PlacePolicy *policy, SimError *err);

/* Records a MemcpyHtoD allocation (used by split). False (err says why) if it runs
 * past the end of the address space. */
bool placement_add_alloc(Placement *pl, uint64_t base, uint64_t bytes, SimError *err);

/* Plans home (< ngpus) for the page holding vaddr, used at its first translation under
 * ladm. Ignored when the page already has a plan or a home. */
void placement_plan(Placement *pl, uint64_t vaddr, uint32_t home);

/* Translates virtual address vaddr accessed by GPU gpu (< ngpus), placing its page on
 * its first use. */
PlaceAddr placement_translate(Placement *pl, uint64_t vaddr, uint32_t gpu);

/* Pages placed on GPU home so far (its next frame number). */
uint64_t placement_pages(const Placement *pl, uint32_t home);

#endif
