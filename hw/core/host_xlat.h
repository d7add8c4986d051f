/* The host's translation service (docs/cores.md "The host"): the physical address of
 * every virtual page an SM asks for, global pages through the placement policy
 * (placement.h), local pages from the top of the asking GPU's own memory.
 *
 * Memory of GPU h is [h M, (h + 1) M), M = mem_bytes, holding F = floor(M / page)
 * frames. Global pages take frames 0, 1, 2, ... of their home in first-use order
 * (placement.h); local pages (CORE_SPACE_LOCAL) of GPU g take frames F - 1, F - 2, ...
 * of GPU g in first-use order, one map per GPU (local memory is private to its GPU).
 *
 * Decisions:
 * - A home is full when its global and local frames together pass F. The page that
 *   passes it is reported (oom) and still gets a frame, wrapped: global frame f is
 *   put at f mod F, local frame n at F - 1 - (n mod F), so the run goes on (the
 *   block counts the oom as a model error, which fails the run).
 * - Host memory grows with the pages used, never with the trace. */
#ifndef MGTLM_HW_CORE_HOST_XLAT_H
#define MGTLM_HW_CORE_HOST_XLAT_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/placement.h"
#include "kernel/error.h"
#include "kernel/idmap.h"

typedef struct HostXlat {
    Placement *pl; /* owned */
    uint32_t ngpus;
    uint64_t page, mem_bytes;
    uint64_t frames;        /* F = mem_bytes / page */
    uint64_t *global_pages; /* per home: frames placement gave out (owned) */
    uint64_t *local_pages;  /* per GPU: local frames given out (owned) */
    IdMap *local;           /* per GPU: local page number -> local frame (owned) */
} HostXlat;

/* The answer for one page. */
typedef struct HostXlatAddr {
    uint64_t paddr; /* platform physical address of the asked byte */
    bool fresh;     /* the page was placed by this call */
    bool oom;       /* ... and its home's memory was already full */
} HostXlatAddr;

/* Sets x up for ngpus GPUs of mem_bytes each. False (err says why) for a page size or
 * GPU count placement_new refuses, or memory smaller than one page. */
bool host_xlat_init(HostXlat *x, PlacePolicy policy, uint32_t ngpus, uint64_t page,
                    uint64_t mem_bytes, SimError *err);
void host_xlat_free(HostXlat *x);

/* Records a MemcpyHtoD allocation (placement_add_alloc). */
bool host_xlat_add_alloc(HostXlat *x, uint64_t base, uint64_t bytes, SimError *err);

/* The physical address of vaddr asked by GPU gpu (< ngpus) in space local (true) or
 * global, placing its page on first use. */
HostXlatAddr host_xlat_translate(HostXlat *x, uint64_t vaddr, bool local, uint32_t gpu);

#endif
