/* Unit tests of occupancy (hw/core/sm_occupancy.c). Expected values worked by hand
 * from the SPEC.md 6.4 formula; each case shows the four terms. */
#include "hw/core/sm_occupancy.h"
#include "tests/unit/harness.h"

static AtsKernelInfo kernel(uint32_t bx, uint32_t by, uint32_t nregs, uint32_t shmem)
{
    AtsKernelInfo k = {.block = {bx, by, 1}, .grid = {1, 1, 1}};
    k.nregs = nregs;
    k.shmem = shmem;
    return k;
}

/* Accel-Sim's QV100 SM: 32 CTAs, 64 warps, 65536 registers, 96 KiB shared memory. */
static const SmResources qv100 = {32, 64, 65536, 98304};

static void test_w6(void)
{
    /* W6: 1024 threads = 32 warps; min(32, 64/32 = 2, 65536/(30*32*32) = 2.13 -> 2,
     * 98304/8192 = 12) = 2, warps first in the tie order. */
    AtsKernelInfo k = kernel(1024, 1, 30, 8192);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy_warps(&k), 32);
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 2);
    CHECK_EQ_U64(why, SM_LIMIT_WARPS);
}

static void test_limited_by_ctas(void)
{
    /* 32 threads = 1 warp, 16 regs, no shmem: min(32, 64, 65536/512 = 128, -) = 32. */
    AtsKernelInfo k = kernel(32, 1, 16, 0);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 32);
    CHECK_EQ_U64(why, SM_LIMIT_CTAS);
    CHECK_STR(sm_occupancy_limit_name(why), "max_ctas");
}

static void test_limited_by_warps(void)
{
    /* 8x20 = 160 threads = 5 warps (ceil); min(32, 64/5 = 12, 65536/(8*32*5) = 51,
     * 98304/1024 = 96) = 12. */
    AtsKernelInfo k = kernel(8, 20, 8, 1024);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy_warps(&k), 5);
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 12);
    CHECK_EQ_U64(why, SM_LIMIT_WARPS);
}

static void test_limited_by_regs(void)
{
    /* 256 threads = 8 warps, 64 regs: min(32, 8, 65536/(64*32*8) = 4, 96) = 4. */
    AtsKernelInfo k = kernel(256, 1, 64, 1024);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 4);
    CHECK_EQ_U64(why, SM_LIMIT_REGS);
    CHECK_STR(sm_occupancy_limit_name(why), "regs");
}

static void test_limited_by_shmem(void)
{
    /* 128 threads = 4 warps, 32 regs, 40000 B: min(32, 16, 65536/4096 = 16,
     * 98304/40000 = 2) = 2. */
    AtsKernelInfo k = kernel(128, 1, 32, 40000);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 2);
    CHECK_EQ_U64(why, SM_LIMIT_SHMEM);
    CHECK_STR(sm_occupancy_limit_name(why), "shmem");
}

static void test_does_not_fit(void)
{
    /* 1024 threads with 255 regs need 1024*255 = 261120 > 65536 registers: 0. A CTA
     * of 100 KiB shared memory does not fit 96 KiB either. */
    AtsKernelInfo k = kernel(1024, 1, 255, 0);
    SmLimit why;
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, &why), 0);
    CHECK_EQ_U64(why, SM_LIMIT_REGS);
    k = kernel(32, 1, 0, 102400);
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, NULL), 0);
}

static void test_need_of_each_resource(void)
{
    /* What one CTA takes of each resource, beside what qv100 holds (the sm's message
     * when a CTA fits no SM): 1 CTA of 32; 2x100 threads = 7 warps of 64; 255 x 32 x 7
     * = 57120 registers of 65536; 98305 B of shared memory of 98304. */
    AtsKernelInfo k = kernel(2, 100, 255, 98305);
    static const uint64_t want[][2] = {{1, 32}, {7, 64}, {57120, 65536}, {98305, 98304}};
    for (SmLimit l = SM_LIMIT_CTAS; l <= SM_LIMIT_SHMEM; l++) {
        uint64_t need, have;
        sm_occupancy_need(&qv100, &k, l, &need, &have);
        CHECK_EQ_U64(need, want[l][0]);
        CHECK_EQ_U64(have, want[l][1]);
    }
}

static void test_huge_block_no_overflow(void)
{
    /* 65535^3 threads: ceil(281462092005375 / 32) = 8795690375168 warps, far above 64. */
    AtsKernelInfo k = {.block = {65535, 65535, 65535}, .nregs = 255};
    CHECK_EQ_U64(sm_occupancy_warps(&k), 8795690375168ull);
    CHECK_EQ_U64(sm_occupancy(&qv100, &k, NULL), 0);
}

int main(void)
{
    RUN(test_w6);
    RUN(test_limited_by_ctas);
    RUN(test_limited_by_warps);
    RUN(test_limited_by_regs);
    RUN(test_limited_by_shmem);
    RUN(test_does_not_fit);
    RUN(test_need_of_each_resource);
    RUN(test_huge_block_no_overflow);
    return harness_report();
}
