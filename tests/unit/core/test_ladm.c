/* Unit tests of LADM's trace analysis (hw/core/ladm*.c). Each kernel is built from its
 * CUDA index arithmetic, and the expected classes, schedules and page homes are worked
 * by hand from paper 002 (LADM): Table II and Algorithm 1 (classes), Eq. 2 and section
 * III-D2 (schedulers), Eq. 1 and section III-D1 (placement). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/core/accelsim_read.h"
#include "hw/core/ladm.h"
#include "kernel/xalloc.h"
#include "tests/unit/harness.h"

/* A CTA of one warp; cta_access appends one instruction with one address per lane
 * (a loop's body repeats its PCs). */
static AtsCta cta_new(uint32_t x, uint32_t y)
{
    AtsCta c = {.x = x, .y = y, .z = 0, .nwarps = 1};
    c.warps = xcalloc(1, sizeof *c.warps);
    return c;
}

static void cta_access(AtsCta *c, uint64_t pc, AtsClass cls, const uint64_t *addrs,
                       int lanes)
{
    AtsWarp *w = &c->warps[0];
    w->inst = xrealloc_array(w->inst, w->ninst + 1, sizeof *w->inst);
    w->inst[w->ninst++] = (AtsInst){.pc = pc,
                                    .cls = cls,
                                    .mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1,
                                    .width = 4,
                                    .addr_off = (uint32_t)w->naddrs};
    w->addrs = xrealloc_array(w->addrs, w->naddrs + (size_t)lanes, sizeof *w->addrs);
    memcpy(&w->addrs[w->naddrs], addrs, (size_t)lanes * sizeof *addrs);
    w->naddrs += (size_t)lanes;
}

/* Fig. 6's tiled C = A x B, n x n floats, tile 4 (16 threads, one warp of 16 lanes):
 * thread (tx, ty) of CTA (bx, by), for m = 0 .. n/4 - 1, reads
 * A[(4 by + ty) n + 4 m + tx] and B[(4 m + ty) n + 4 bx + tx], then writes
 * C[(4 by + ty) n + 4 bx + tx]. */
enum { GEMM_N = 64, GEMM_T = 4, GEMM_G = GEMM_N / GEMM_T };
static const uint64_t A = 0x100000, B = 0x200000, C = 0x300000;

static AtsCta gemm_cta(uint32_t bx, uint32_t by)
{
    AtsCta c = cta_new(bx, by);
    uint64_t addrs[16];
    for (uint32_t m = 0; m < GEMM_G; m++) {
        for (uint32_t t = 0; t < 16; t++) {
            uint32_t tx = t % 4, ty = t / 4;
            addrs[t] = A + 4 * ((uint64_t)(4 * by + ty) * GEMM_N + 4 * m + tx);
        }
        cta_access(&c, 0x10, ATS_LDG, addrs, 16);
        for (uint32_t t = 0; t < 16; t++) {
            uint32_t tx = t % 4, ty = t / 4;
            addrs[t] = B + 4 * ((uint64_t)(4 * m + ty) * GEMM_N + 4 * bx + tx);
        }
        cta_access(&c, 0x20, ATS_LDG, addrs, 16);
    }
    for (uint32_t t = 0; t < 16; t++) {
        uint32_t tx = t % 4, ty = t / 4;
        addrs[t] = C + 4 * ((uint64_t)(4 * by + ty) * GEMM_N + 4 * bx + tx);
    }
    cta_access(&c, 0x30, ATS_STG, addrs, 16);
    return c;
}

/* Both passes of the GEMM over its 16 x 16 CTAs (reversed: last CTA first) on 2 GPUs
 * with 128 B pages; B's allocation has b_bytes. */
static Placement *run_gemm(uint64_t b_bytes, bool reversed, CtaMap *m, Ladm **out)
{
    SimError err;
    const uint32_t grid[3] = {GEMM_G, GEMM_G, 1};
    const LadmAlloc allocs[3] = {{C, 16384}, {A, 16384}, {B, b_bytes}};
    Ladm *l = ladm_new(grid, 2, 128, allocs, 3, &err);
    CHECK(l != NULL);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < GEMM_G * GEMM_G; k++) {
            uint32_t i = reversed ? GEMM_G * GEMM_G - 1 - k : k;
            AtsCta c = gemm_cta(i % GEMM_G, i / GEMM_G);
            if (pass == 0) {
                ladm_observe(l, &c);
            } else {
                ladm_touch(l, &c);
            }
            ats_cta_free(&c);
        }
        if (pass == 0) {
            CHECK(ladm_schedule(l, m, &err));
        }
    }
    Placement *pl = placement_new(PLACE_LADM, 2, 128, &err);
    ladm_place(l, pl);
    *out = l;
    return pl;
}

static uint32_t home(Placement *pl, uint64_t vaddr)
{
    return placement_translate(pl, vaddr, 0).home;
}

static void test_gemm_row_binding(void)
{
    /* Algorithm 1 on the starts (each CTA's lowest address, m = 0, tx = ty = 0):
     * A: A + 1024 by (by only: row-shared, Table II row 2); B: B + 16 bx (bx only:
     * column-shared, row 5); C: C + 1024 by + 16 bx (both: NL, row 1), datablock
     * gcd(16, 1024) = 16 B. A and B are both 16 KiB: the tie goes to rows, so the
     * kernel is row-bound: rows of 16 CTAs, row by on GPU floor(2 by / 16). */
    CtaMap m;
    Ladm *l;
    Placement *pl = run_gemm(16384, false, &m, &l);
    uint64_t db;
    CHECK_EQ_U64(ladm_class(l, A + 100, &db), LADM_ROW);
    CHECK_EQ_U64(db, 0);
    CHECK_EQ_U64(ladm_class(l, B, NULL), LADM_COL);
    CHECK_EQ_U64(ladm_class(l, C + 16383, &db), LADM_NL);
    CHECK_EQ_U64(db, 16);
    CHECK_EQ_U64(ladm_class(l, C + 16384, NULL), LADM_UNUSED);
    CHECK_EQ_U64(m.policy, CTA_LADM);
    CHECK_EQ_U64(m.ladm, CTA_LADM_ROW);
    CHECK_EQ_U64(m.unit, 16);
    CHECK_EQ_U64(cta_map_gpu(&m, 127), 0);
    CHECK_EQ_U64(cta_map_gpu(&m, 128), 1);
    /* Row-based placement of A: a 128 B page is half a matrix row; page j holds row
     * j / 2, read by the CTAs of grid row j / 8, on GPU (j / 8) / 8: pages 0..63 on
     * GPU 0, 64..127 on GPU 1 (the whole data row with its row of CTAs). */
    CHECK_EQ_U64(home(pl, A + 63 * 128), 0);
    CHECK_EQ_U64(home(pl, A + 64 * 128), 1);
    CHECK_EQ_U64(home(pl, A + 127 * 128 + 4), 1);
    /* Column-based placement of B although the kernel is row-bound: page j is half h =
     * j mod 2 of a row, columns 32h .. 32h + 31, read by CTA columns 8h .. 8h + 7, on
     * GPU h under column-binding. Eq. 1: granularity = row width / N = 256 / 2 B =
     * one page, round robin: page j on GPU j mod 2 (B's first page 0x4000 is even). */
    for (uint64_t j = 0; j < 8; j++) {
        CHECK_EQ_U64(home(pl, B + j * 128), j % 2);
    }
    /* C (NL) with the kernel's schedule: page j is written by grid row j / 8: like A. */
    CHECK_EQ_U64(home(pl, C + 63 * 128), 0);
    CHECK_EQ_U64(home(pl, C + 70 * 128), 1);
    placement_free(pl);
    ladm_free(l);
}

static void test_gemm_larger_b_column_binding(void)
{
    /* "we favor the scheduling policy associated with the larger data structure": B
     * (32 KiB) outweighs A (16 KiB), so the kernel is column-bound: column bx on GPU
     * floor(2 bx / 16). A keeps its row-based placement (page 64 on GPU 1); C (NL)
     * follows the columns: page j holds columns 32 (j mod 2) .., on GPU j mod 2. */
    CtaMap m;
    Ladm *l;
    Placement *pl = run_gemm(32768, false, &m, &l);
    CHECK_EQ_U64(m.ladm, CTA_LADM_COL);
    CHECK_EQ_U64(cta_map_gpu(&m, 7), 0);
    CHECK_EQ_U64(cta_map_gpu(&m, 8), 1);
    CHECK_EQ_U64(cta_map_gpu(&m, 16), 0);
    CHECK_EQ_U64(home(pl, A + 64 * 128), 1);
    CHECK_EQ_U64(home(pl, A + 1 * 128), 0);
    CHECK_EQ_U64(home(pl, C + 70 * 128), 0);
    CHECK_EQ_U64(home(pl, C + 71 * 128), 1);
    placement_free(pl);
    ladm_free(l);
}

static void test_order_does_not_matter(void)
{
    /* The CTAs in reverse order give the same classes, schedule and every home. */
    CtaMap m1, m2;
    Ladm *l1, *l2;
    Placement *p1 = run_gemm(16384, false, &m1, &l1);
    Placement *p2 = run_gemm(16384, true, &m2, &l2);
    CHECK_EQ_U64(m1.ladm, m2.ladm);
    CHECK_EQ_U64(m1.unit, m2.unit);
    CHECK_EQ_U64(ladm_class(l2, A, NULL), LADM_ROW);
    CHECK_EQ_U64(ladm_class(l2, B, NULL), LADM_COL);
    uint64_t db;
    CHECK_EQ_U64(ladm_class(l2, C, &db), LADM_NL);
    CHECK_EQ_U64(db, 16);
    const uint64_t bases[3] = {A, B, C};
    for (int s = 0; s < 3; s++) {
        for (uint64_t j = 0; j < 128; j++) {
            CHECK_EQ_U64(home(p1, bases[s] + j * 128), home(p2, bases[s] + j * 128));
        }
    }
    placement_free(p1);
    placement_free(p2);
    ladm_free(l1);
    ladm_free(l2);
}

/* Vector add over T CTAs of 32 threads (floats): thread tx of CTA bx reads
 * X[32 bx + tx] and Y[..], writes Z[..]; with `iters` > 1 each thread strides on by
 * the whole grid (32 T elements) per iteration (a grid-stride loop). */
static const uint64_t X = 0x400000, Y = 0x500000, Z = 0x600000;

static Placement *run_vecadd(uint32_t ctas, uint32_t iters, uint32_t ngpus, uint64_t page,
                             CtaMap *m, Ladm **out)
{
    SimError err;
    const uint32_t grid[3] = {ctas, 1, 1};
    uint64_t bytes = 128ull * ctas * iters;
    const LadmAlloc allocs[3] = {{X, bytes}, {Y, bytes}, {Z, bytes}};
    Ladm *l = ladm_new(grid, ngpus, page, allocs, 3, &err);
    CHECK(l != NULL);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t bx = 0; bx < ctas; bx++) {
            AtsCta c = cta_new(bx, 0);
            uint64_t addrs[32];
            const uint64_t bases[3] = {X, Y, Z};
            for (uint32_t it = 0; it < iters; it++) {
                for (int s = 0; s < 3; s++) {
                    for (uint32_t tx = 0; tx < 32; tx++) {
                        addrs[tx] = bases[s] + 4 * (32ull * bx + tx + 32ull * ctas * it);
                    }
                    cta_access(&c, 0x10 * (uint64_t)(s + 1), s < 2 ? ATS_LDG : ATS_STG,
                               addrs, 32);
                }
            }
            if (pass == 0) {
                ladm_observe(l, &c);
            } else {
                ladm_touch(l, &c);
            }
            ats_cta_free(&c);
        }
        if (pass == 0) {
            CHECK(ladm_schedule(l, m, &err));
        }
    }
    Placement *pl = placement_new(PLACE_LADM, ngpus, page, &err);
    for (int s = 0; s < 3; s++) {
        CHECK(placement_add_alloc(pl, allocs[s].base, allocs[s].bytes, &err));
    }
    ladm_place(l, pl);
    *out = l;
    return pl;
}

static void test_vecadd_align_aware(void)
{
    /* Table IV VecAdd: NL; datablock = 32 threads x 4 B = 128 B (the starts differ by
     * 128 bx), so Eq. 2 with 1 KiB pages gives MinTBBatch = 1024 / 128 = 8, below
     * floor(40 / 4) = 10. 40 CTAs on 4 GPUs: batches u = 0..4 on floor(4u / 5) =
     * 0,0,1,2,3. Page p of X holds CTAs 8p .. 8p + 7, all on batch p's GPU: pages 0..4
     * on GPUs 0,0,1,2,3 (no page is touched from two GPUs). */
    CtaMap m;
    Ladm *l;
    Placement *pl = run_vecadd(40, 1, 4, 1024, &m, &l);
    uint64_t db;
    CHECK_EQ_U64(ladm_class(l, Y, &db), LADM_NL);
    CHECK_EQ_U64(db, 128);
    CHECK_EQ_U64(m.ladm, CTA_LADM_ALIGN);
    CHECK_EQ_U64(m.unit, 8);
    static const uint32_t want[5] = {0, 0, 1, 2, 3};
    for (uint64_t p = 0; p < 5; p++) {
        CHECK_EQ_U64(home(pl, X + p * 1024), want[p]);
        CHECK_EQ_U64(home(pl, Z + p * 1024 + 1000), want[p]);
    }
    placement_free(pl);
    ladm_free(l);
    /* 12 CTAs on 4 GPUs: the batch is capped at floor(12 / 4) = 3 so that every GPU
     * gets one. */
    pl = run_vecadd(12, 1, 4, 1024, &m, &l);
    CHECK_EQ_U64(m.ladm, CTA_LADM_ALIGN);
    CHECK_EQ_U64(m.unit, 3);
    CHECK_EQ_U64(cta_map_count(&m, 3), 3);
    placement_free(pl);
    ladm_free(l);
}

static void test_stride_aware(void)
{
    /* Fig. 3 and Eq. 1 (NL-Xstride): 8 CTAs, 2 iterations of a grid-stride loop: the
     * stride is 8 x 128 B = 1 KiB. 256 B pages: MinTBBatch = 256 / 128 = 2 (cap
     * floor(8 / 2) = 4): batches of 2 CTAs, u = 0..3 on floor(2u / 4), so CTAs 0..3
     * on GPU 0 and 4..7 on GPU 1. Page p of X (8 pages) holds iteration p / 4,
     * datablocks 2 (p mod 4) and 2 (p mod 4) + 1, i.e. those CTAs: homes 0,0,1,1,0,0,1,1
     * = Eq. 1's interleave with granularity 1 KiB / 2 = 512 B (two pages). Kernel-wide
     * partitioning (split) would put pages 4..7 on GPU 1 although GPU 0's CTAs read
     * pages 4, 5: half of GPU 0's accesses off-chip, as in Fig. 3. */
    CtaMap m;
    Ladm *l;
    Placement *pl = run_vecadd(8, 2, 2, 256, &m, &l);
    CHECK_EQ_U64(m.ladm, CTA_LADM_ALIGN);
    CHECK_EQ_U64(m.unit, 2);
    static const uint32_t want[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    for (uint64_t p = 0; p < 8; p++) {
        CHECK_EQ_U64(home(pl, X + p * 256), want[p]);
    }
    placement_free(pl);
    ladm_free(l);
}

static void test_itl_spmv(void)
{
    /* CSR SpMV, one row per thread (Table IV SpMV: ITL, kernel-wide), 8 CTAs of 32
     * threads, 4 nonzeros per row: row r = 32 bx + tx reads P[r] (PC 0x10), then for
     * m = 0..3 V[4r + m] (0x20), K[4r + m] (0x30) and W[(r + 16m) mod 64] (0x40),
     * then writes Q[r] (0x50); and a loop-free 3-point stencil reads S[r - 1], S[r],
     * S[r + 1] (clamped) at PCs 0x60, 0x70, 0x80.
     * At PC 0x20 each lane moves 3 times, each by 4 B = the width: V is ITL (row 6),
     * and so is K. At 0x40 the moves are 64 B: W is not; every CTA reaches W[0]
     * (even CTAs at m = 0, odd ones at m = 2), so W is "other" (row 7). P, Q and S
     * are accessed once per PC per lane (no move): NL; P and Q start at 128 bx
     * (datablock 128 B), S at 128 bx - 4 with CTA 0 clamped at 0, so its datablock
     * is gcd(124, 252, 380, ...) = 4 B. ITL weighs
     * 2 x 4096 B against NL 1024 + 1024 + 1024: the kernel is ITL (RONCE) and
     * kernel-wide. */
    SimError err;
    const uint64_t P = 0x100000, V = 0x200000, K = 0x300000, W = 0x400000, Q = 0x500000,
                   S = 0x600000;
    const uint32_t grid[3] = {8, 1, 1};
    const LadmAlloc allocs[6] = {{P, 1024}, {V, 4096}, {K, 4096},
                                 {W, 256},  {Q, 1024}, {S, 1024}};
    Ladm *l = ladm_new(grid, 2, 1024, allocs, 6, &err);
    CHECK(l != NULL);
    for (uint32_t bx = 0; bx < 8; bx++) {
        AtsCta c = cta_new(bx, 0);
        uint64_t a[32];
        for (uint32_t t = 0; t < 32; t++) {
            a[t] = P + 4 * (32 * bx + t);
        }
        cta_access(&c, 0x10, ATS_LDG, a, 32);
        for (uint32_t m = 0; m < 4; m++) {
            for (uint32_t t = 0; t < 32; t++) {
                a[t] = V + 4 * (4 * (32 * bx + t) + m);
            }
            cta_access(&c, 0x20, ATS_LDG, a, 32);
            for (uint32_t t = 0; t < 32; t++) {
                a[t] = K + 4 * (4 * (32 * bx + t) + m);
            }
            cta_access(&c, 0x30, ATS_LDG, a, 32);
            for (uint32_t t = 0; t < 32; t++) {
                a[t] = W + 4 * ((32 * bx + t + 16 * m) % 64);
            }
            cta_access(&c, 0x40, ATS_LDG, a, 32);
        }
        for (uint32_t t = 0; t < 32; t++) {
            a[t] = Q + 4 * (32 * bx + t);
        }
        cta_access(&c, 0x50, ATS_STG, a, 32);
        for (int d = -1; d <= 1; d++) {
            for (uint32_t t = 0; t < 32; t++) {
                int64_t r = (int64_t)(32 * bx + t) + d;
                a[t] = S + 4 * (uint64_t)(r < 0 ? 0 : r > 255 ? 255 : r);
            }
            cta_access(&c, 0x70 + 0x10 * (uint64_t)d, ATS_LDG, a, 32);
        }
        ladm_observe(l, &c);
        ats_cta_free(&c);
    }
    CtaMap m;
    CHECK(ladm_schedule(l, &m, &err));
    CHECK_EQ_U64(ladm_class(l, V, NULL), LADM_ITL);
    CHECK_EQ_U64(ladm_class(l, K + 4095, NULL), LADM_ITL);
    CHECK_EQ_U64(ladm_class(l, W, NULL), LADM_OTHER);
    uint64_t db;
    CHECK_EQ_U64(ladm_class(l, P, &db), LADM_NL);
    CHECK_EQ_U64(db, 128);
    CHECK_EQ_U64(ladm_class(l, Q, NULL), LADM_NL);
    CHECK_EQ_U64(ladm_class(l, S, &db), LADM_NL);
    CHECK_EQ_U64(db, 4);
    CHECK(ladm_itl(l));
    CHECK_EQ_U64(m.ladm, CTA_LADM_KERNEL_WIDE);
    ladm_free(l);
}

static void test_page_home_weighs_accesses(void)
{
    /* 4 CTAs read their own 256 B page of X (2 x 32 lanes), and CTAs 2, 3 also read
     * one word of page 0. Starts X, X + 256, X + 4, X + 4: NL, datablock
     * gcd(256, 4) = 4, batch min(256 / 4, floor(4 / 2)) = 2: CTAs 0, 1 on GPU 0, 2, 3
     * on GPU 1. Page 0: 64 accesses from GPU 0, 2 from GPU 1 (by CTAs: 1 against 2):
     * GPU 0. Pages 2, 3 on GPU 1. */
    SimError err;
    const uint32_t grid[3] = {4, 1, 1};
    const LadmAlloc alloc = {X, 1024};
    Ladm *l = ladm_new(grid, 2, 256, &alloc, 1, &err);
    CHECK(l != NULL);
    CtaMap m;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t bx = 0; bx < 4; bx++) {
            AtsCta c = cta_new(bx, 0);
            uint64_t a[32];
            for (uint32_t h = 0; h < 2; h++) {
                for (uint32_t t = 0; t < 32; t++) {
                    a[t] = X + 256 * bx + 128 * h + 4 * t;
                }
                cta_access(&c, 0x10 + 0x10 * h, ATS_LDG, a, 32);
            }
            if (bx >= 2) {
                a[0] = X + 4;
                cta_access(&c, 0x30, ATS_LDG, a, 1);
            }
            if (pass == 0) {
                ladm_observe(l, &c);
            } else {
                ladm_touch(l, &c);
            }
            ats_cta_free(&c);
        }
        if (pass == 0) {
            CHECK(ladm_schedule(l, &m, &err));
        }
    }
    CHECK_EQ_U64(m.ladm, CTA_LADM_ALIGN);
    CHECK_EQ_U64(m.unit, 2);
    Placement *pl = placement_new(PLACE_LADM, 2, 256, &err);
    ladm_place(l, pl);
    CHECK_EQ_U64(home(pl, X), 0);
    CHECK_EQ_U64(home(pl, X + 512), 1);
    CHECK_EQ_U64(home(pl, X + 768), 1);
    placement_free(pl);
    ladm_free(l);
}

static void test_other_and_outside(void)
{
    /* Every CTA reads T[0] (a table all threadblocks share: one start, "other", Table
     * II row 7) and a word outside every allocation: nothing is NL or shared, so the
     * kernel is kernel-wide (contiguous) and no page is planned: T (8 KiB on 4 GPUs,
     * 2 KiB parts) is placed as under split (T + 4096 -> part 2), the outside page
     * 0x9000 interleaves (4 KiB page 9 mod 4 = 1). A 2-D grid (8, 2) with a row-shared
     * structure R (R + 4 y) on 4 GPUs cannot be row-bound (2 rows < 4 GPUs): kernel-
     * wide too. */
    SimError err;
    const uint64_t T = 0x700000, R = 0x800000;
    const uint32_t grid[3] = {8, 2, 1};
    const LadmAlloc allocs[2] = {{T, 8192}, {R, 64}};
    Ladm *l = ladm_new(grid, 4, 4096, allocs, 2, &err);
    CHECK(l != NULL);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < 16; i++) {
            AtsCta c = cta_new(i % 8, i / 8);
            const uint64_t a[3] = {T, 0x9000, R + 4 * (i / 8)};
            cta_access(&c, 0x10, ATS_LDG, &a[0], 1);
            cta_access(&c, 0x20, ATS_LDG, &a[1], 1);
            cta_access(&c, 0x30, ATS_ATOMG, &a[2], 1);
            /* Shared and local accesses are not global: never counted. */
            cta_access(&c, 0x40, ATS_LDS, &a[2], 1);
            if (pass == 0) {
                ladm_observe(l, &c);
            } else {
                ladm_touch(l, &c);
            }
            ats_cta_free(&c);
        }
        CtaMap m;
        if (pass == 0) {
            CHECK(ladm_schedule(l, &m, &err));
            CHECK_EQ_U64(m.ladm, CTA_LADM_KERNEL_WIDE);
            CHECK(!ladm_schedule(l, &m, &err));
            CHECK_STR(err.msg, "LADM's schedule of a kernel is decided once");
        }
    }
    CHECK_EQ_U64(ladm_class(l, T, NULL), LADM_OTHER);
    CHECK_EQ_U64(ladm_class(l, R, NULL), LADM_ROW);
    CHECK_EQ_U64(ladm_class(l, 0x9000, NULL), LADM_UNUSED);
    Placement *pl = placement_new(PLACE_LADM, 4, 4096, &err);
    CHECK(placement_add_alloc(pl, T, 8192, &err));
    ladm_place(l, pl);
    CHECK_EQ_U64(home(pl, T + 4096), 2);
    CHECK_EQ_U64(home(pl, 0x9000), 1);
    placement_free(pl);
    ladm_free(l);
}

static void test_overlapping_allocations(void)
{
    /* Two overlapping allocations are one structure: [X, X + 256) and
     * [X + 128, X + 512) merge into 512 B; 4 CTAs read X + 128 bx: NL, datablock
     * 128 B, in one structure (X + 500 is in it). */
    SimError err;
    const uint32_t grid[3] = {4, 1, 1};
    const LadmAlloc allocs[3] = {{X + 128, 384}, {X, 256}, {Y, 0}};
    Ladm *l = ladm_new(grid, 2, 128, allocs, 3, &err);
    CHECK(l != NULL);
    for (uint32_t bx = 0; bx < 4; bx++) {
        AtsCta c = cta_new(bx, 0);
        const uint64_t a = X + 128 * bx;
        cta_access(&c, 0x10, ATS_LDG, &a, 1);
        ladm_observe(l, &c);
        ats_cta_free(&c);
    }
    CtaMap m;
    CHECK(ladm_schedule(l, &m, &err));
    uint64_t db;
    CHECK_EQ_U64(ladm_class(l, X + 500, &db), LADM_NL);
    CHECK_EQ_U64(db, 128);
    CHECK_EQ_U64(ladm_class(l, X + 512, NULL), LADM_UNUSED);
    CHECK_EQ_U64(ladm_class(l, Y, NULL), LADM_UNUSED);
    ladm_free(l);
}

static char tmpdir[] = "/tmp/test_ladm_XXXXXX";

static void test_plan_kernel_file(void)
{
    /* A kernel file of 4 CTAs of 32 threads, each reading 128 B at X + 128 bx (base-
     * stride mode): NL, datablock 128 B; 256 B pages on 2 GPUs: MinTBBatch 2, CTAs 0, 1
     * on GPU 0 and 2, 3 on GPU 1; X's pages 0 and 1 go with them. */
    char path[300];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", tmpdir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) {
        return;
    }
    fputs("-kernel name = vecadd\n-kernel id = 1\n-grid dim = (4,1,1)\n"
          "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
          "-shmem base_addr = 0x7f4c00000000\n-local mem base_addr = 0x7f4c02000000\n"
          "-accelsim tracer version = 4\n\n",
          f);
    for (int bx = 0; bx < 4; bx++) {
        fprintf(f,
                "#BEGIN_TB\nthread block = %d,0,0\nwarp = 0\ninsts = 2\n"
                "0000 ffffffff 1 R2 LDG.E 1 R4 4 1 0x%llx 4\n"
                "0010 ffffffff 0 EXIT 0 0\n#END_TB\n",
                bx, (unsigned long long)(X + 128 * (uint64_t)bx));
    }
    fclose(f);
    SimError err = {{0}};
    const LadmAlloc alloc = {X, 512};
    CtaMap m;
    Placement *pl = placement_new(PLACE_LADM, 2, 256, &err);
    bool itl = true;
    CHECK(ladm_plan_kernel(path, 2, 256, &alloc, 1, LADM_UNUSED, &m, &itl, pl, &err));
    CHECK_STR(err.msg, "");
    CHECK(!itl);
    CHECK_EQ_U64(m.ladm, CTA_LADM_ALIGN);
    CHECK_EQ_U64(m.unit, 2);
    CHECK_EQ_U64(home(pl, X), 0);
    CHECK_EQ_U64(home(pl, X + 256), 1);
    placement_free(pl);
    /* The schedule alone (one pass), and a missing file: the reader's error. */
    CHECK(ladm_plan_kernel(path, 2, 256, &alloc, 1, LADM_UNUSED, &m, NULL, NULL, &err));
    CHECK_EQ_U64(m.unit, 2);
    char missing[300];
    snprintf(missing, sizeof missing, "%s/kernel-9.traceg", tmpdir);
    CHECK(
        !ladm_plan_kernel(missing, 2, 256, &alloc, 1, LADM_UNUSED, &m, NULL, NULL, &err));
    CHECK(strstr(err.msg, "kernel-9.traceg") != NULL);
    CHECK(!ladm_plan_kernel(path, 0, 256, &alloc, 1, LADM_UNUSED, &m, NULL, NULL, &err));
    CHECK(strncmp(err.msg, path, strlen(path)) == 0);
    /* Hinted itl (ladm_hints.h): kernel-wide, and intra-thread for the host. */
    CHECK(ladm_plan_kernel(path, 2, 256, &alloc, 1, LADM_ITL, &m, &itl, NULL, &err));
    CHECK(itl);
    CHECK_EQ_U64(m.ladm, CTA_LADM_KERNEL_WIDE);
    unlink(path);
}

/* Every CTA of a (4, 1, 1) grid on 2 GPUs reads X (a table all share): the analysis
 * says other (one start; Table II row 7), kernel-wide. Hinted, the class is the
 * hint's wherever the kernel touches a structure (the untouched Y stays unused), and
 * the schedule follows it: nl -> align-aware with batch 1 (the starts have no
 * datablock: their differences are all 0, so Eq. 2 has no size to divide the page
 * by); column -> column binding (4 columns >= 2 GPUs); itl -> kernel-wide and
 * ladm_itl (RONCE); other -> kernel-wide, not ITL. */
static void hinted(LadmClass hint, LadmClass want_cls, CtaLadm want_sched, bool want_itl)
{
    SimError err;
    const uint32_t grid[3] = {4, 1, 1};
    const LadmAlloc allocs[2] = {{X, 512}, {Y, 512}};
    Ladm *l = ladm_new(grid, 2, 256, allocs, 2, &err);
    CHECK(l != NULL);
    ladm_hint(l, hint);
    for (uint32_t bx = 0; bx < 4; bx++) {
        AtsCta c = cta_new(bx, 0);
        cta_access(&c, 0x10, ATS_LDG, &X, 1);
        ladm_observe(l, &c);
        ats_cta_free(&c);
    }
    CtaMap m;
    CHECK(ladm_schedule(l, &m, &err));
    CHECK_EQ_U64(ladm_class(l, X, NULL), want_cls);
    CHECK_EQ_U64(ladm_class(l, Y, NULL), LADM_UNUSED);
    CHECK_EQ_U64(m.ladm, want_sched);
    CHECK_EQ_U64(m.unit, 1);
    CHECK_EQ_U64(ladm_itl(l), want_itl);
    ladm_free(l);
}

static void test_hint_overrides(void)
{
    hinted(LADM_UNUSED, LADM_OTHER, CTA_LADM_KERNEL_WIDE, false);
    hinted(LADM_NL, LADM_NL, CTA_LADM_ALIGN, false);
    hinted(LADM_COL, LADM_COL, CTA_LADM_COL, false);
    hinted(LADM_ITL, LADM_ITL, CTA_LADM_KERNEL_WIDE, true);
    hinted(LADM_OTHER, LADM_OTHER, CTA_LADM_KERNEL_WIDE, false);
}

static void test_bad_input(void)
{
    SimError err;
    const uint32_t grid[3] = {4, 1, 1}, zero[3] = {4, 0, 1};
    CHECK(ladm_new(zero, 2, 4096, NULL, 0, &err) == NULL);
    CHECK_STR(err.msg, "grid dim (4,0,1) has a zero dimension");
    CHECK(ladm_new(grid, 0, 4096, NULL, 0, &err) == NULL);
    CHECK_STR(err.msg, "CTAs cannot be mapped to 0 GPUs");
    CHECK(ladm_new(grid, 2, 3000, NULL, 0, &err) == NULL);
    CHECK_STR(err.msg, "page size 3000 is not a power of two from 128 B to 1 GiB");
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_gemm_row_binding);
    RUN(test_gemm_larger_b_column_binding);
    RUN(test_order_does_not_matter);
    RUN(test_vecadd_align_aware);
    RUN(test_stride_aware);
    RUN(test_itl_spmv);
    RUN(test_page_home_weighs_accesses);
    RUN(test_other_and_outside);
    RUN(test_overlapping_allocations);
    RUN(test_plan_kernel_file);
    RUN(test_hint_overrides);
    RUN(test_bad_input);
    rmdir(tmpdir);
    return harness_report();
}
