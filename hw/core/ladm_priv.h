/* Internals of LADM's analysis (ladm.c, ladm_pages.c), shared by its two passes. */
#ifndef MGTLM_HW_CORE_LADM_PRIV_H
#define MGTLM_HW_CORE_LADM_PRIV_H

#include "hw/core/ladm.h"
#include "kernel/idmap.h"

/* ladm_find's answer outside every structure. */
#define LADM_NONE SIZE_MAX

/* One data structure: an allocation, or overlapping ones merged. */
typedef struct LadmStruct {
    uint64_t base, last; /* bytes base .. last */
    uint64_t bytes;      /* last - base + 1, UINT64_MAX if that does not fit */
    bool touched;
    uint64_t first_start; /* start of the first CTA that touched it */
    uint64_t gcd;         /* of the differences of the starts from first_start */
    IdMap rows, cols;     /* 2-D grids: row (y + z gy) or column (x) -> its CTAs' start */
    bool row_differs, col_differs; /* a row (column) has two starts; map freed */
    uint64_t moves; /* a lane's access at a PC moved from its previous one there */
    uint64_t steps; /* ... by exactly its width (one element forward) */
    LadmClass cls;  /* set by ladm_schedule */
} LadmStruct;

/* One memory PC of the warp being observed: each lane's last address there. */
typedef struct LadmPc {
    uint64_t pc;
    uint32_t valid; /* lanes with a last address */
    uint64_t last[ATS_LANES];
} LadmPc;

struct Ladm {
    uint32_t grid[3];
    uint32_t ngpus;
    uint64_t page;
    unsigned page_shift;
    bool two_d;          /* gx > 1 and gy gz > 1 */
    LadmStruct *structs; /* owned, sorted by base, disjoint */
    size_t nstructs;
    uint64_t *start; /* owned, per structure: the CTA being observed's start, or
                        UINT64_MAX while it has touched none */
    size_t *hit;     /* owned: the structures the CTA being observed touched */
    size_t nhit;
    LadmPc *pcs; /* owned: the warp being observed's memory PCs */
    size_t npcs, cap_pcs, pc_hint;
    bool scheduled, itl;
    LadmClass hint;               /* ladm_hint's class, LADM_UNUSED for none */
    CtaMap sched, rowmap, colmap; /* the kernel's schedule; the two bindings */
    IdMap pages;                  /* page number -> record index */
    uint8_t *binding;             /* owned, per record: LadmClass of its structure */
    uint64_t *counts;             /* owned, per record ngpus counters of lane accesses */
    size_t nrec, caprec;
};

/* Index of the structure holding vaddr, or LADM_NONE. */
size_t ladm_find(const Ladm *l, uint64_t vaddr);

/* Whether an instruction of class cls is a global access (LDG, STG, ATOMG, RED). */
bool ladm_is_global(AtsClass cls);

#endif
