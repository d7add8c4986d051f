/* Unit tests of the CTA-to-GPU map (hw/core/cta_map.c). Expected GPUs are worked by
 * hand from SPEC.md 6.4: contiguous floor(i N / T), round_robin i mod N. */
#include "hw/core/cta_map.h"
#include "tests/unit/harness.h"

static CtaMap map(CtaPolicy p, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t n)
{
    CtaMap m;
    SimError err;
    uint32_t grid[3] = {gx, gy, gz};
    CHECK(cta_map_init(&m, p, grid, n, &err));
    return m;
}

static void test_w5_contiguous(void)
{
    /* W5: 10 CTAs on 4 GPUs: floor(4i/10) = 0,0,0,1,1,2,2,2,3,3. */
    static const uint32_t want[10] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 3};
    CtaMap m = map(CTA_CONTIGUOUS, 10, 1, 1, 4);
    for (uint64_t i = 0; i < 10; i++) {
        CHECK_EQ_U64(cta_map_gpu(&m, i), want[i]);
    }
    /* Per GPU lists: {0,1,2}, {3,4}, {5,6,7}, {8,9}. */
    CHECK_EQ_U64(cta_map_count(&m, 0), 3);
    CHECK_EQ_U64(cta_map_count(&m, 1), 2);
    CHECK_EQ_U64(cta_map_count(&m, 2), 3);
    CHECK_EQ_U64(cta_map_count(&m, 3), 2);
    CHECK_EQ_U64(cta_map_nth(&m, 1, 0), 3);
    CHECK_EQ_U64(cta_map_nth(&m, 1, 1), 4);
    CHECK_EQ_U64(cta_map_nth(&m, 2, 2), 7);
    CHECK_EQ_U64(cta_map_nth(&m, 3, 1), 9);
    /* ranks: 4 is GPU 1's second (it starts at 3), 7 GPU 2's third (starts at 5) */
    CHECK_EQ_U64(cta_map_rank(&m, 4), 1);
    CHECK_EQ_U64(cta_map_rank(&m, 7), 2);
    CHECK_EQ_U64(cta_map_rank(&m, 8), 0);
}

static void test_round_robin(void)
{
    /* 10 CTAs, 4 GPUs: i mod 4; GPU 1 runs 1, 5, 9; GPU 3 runs 3, 7. */
    CtaMap m = map(CTA_ROUND_ROBIN, 10, 1, 1, 4);
    CHECK_EQ_U64(cta_map_gpu(&m, 6), 2);
    CHECK_EQ_U64(cta_map_count(&m, 1), 3);
    CHECK_EQ_U64(cta_map_count(&m, 3), 2);
    CHECK_EQ_U64(cta_map_nth(&m, 1, 2), 9);
    CHECK_EQ_U64(cta_map_nth(&m, 3, 1), 7);
    /* 9 = 1 + 2 x 4: GPU 1's third */
    CHECK_EQ_U64(cta_map_rank(&m, 9), 2);
}

static void test_index_3d(void)
{
    /* Grid (4,3,2): (1,2,1) -> 1 + 2*4 + 1*4*3 = 21 of 24; contiguous on 4 GPUs:
     * floor(21*4/24) = 3. */
    CtaMap m = map(CTA_CONTIGUOUS, 4, 3, 2, 4);
    CHECK_EQ_U64(m.total, 24);
    CHECK_EQ_U64(cta_map_index(&m, 1, 2, 1), 21);
    CHECK_EQ_U64(cta_map_index(&m, 3, 2, 1), 23);
    CHECK_EQ_U64(cta_map_gpu(&m, 21), 3);
}

static void test_more_gpus_than_ctas(void)
{
    /* 3 CTAs on 4 GPUs: contiguous floor(4i/3) = 0, 1, 2; GPU 3 runs none. */
    CtaMap m = map(CTA_CONTIGUOUS, 3, 1, 1, 4);
    CHECK_EQ_U64(cta_map_gpu(&m, 2), 2);
    CHECK_EQ_U64(cta_map_count(&m, 3), 0);
    m = map(CTA_ROUND_ROBIN, 3, 1, 1, 4);
    CHECK_EQ_U64(cta_map_count(&m, 3), 0);
    CHECK_EQ_U64(cta_map_count(&m, 2), 1);
}

static void test_lists_agree_with_gpu(void)
{
    /* Every CTA is in exactly the list of its GPU, in increasing order, at its rank. */
    for (int p = 0; p < 2; p++) {
        CtaMap m = map(p ? CTA_ROUND_ROBIN : CTA_CONTIGUOUS, 7, 5, 3, 16);
        uint64_t seen = 0;
        for (uint32_t g = 0; g < 16; g++) {
            for (uint64_t k = 0; k < cta_map_count(&m, g); k++) {
                uint64_t i = cta_map_nth(&m, g, k);
                CHECK(i < m.total);
                CHECK_EQ_U64(cta_map_gpu(&m, i), g);
                CHECK_EQ_U64(cta_map_rank(&m, i), k);
                CHECK(k == 0 || i > cta_map_nth(&m, g, k - 1));
                seen++;
            }
        }
        CHECK_EQ_U64(seen, 105);
    }
}

static void test_huge_grid(void)
{
    /* T = (2^31 - 1) * 65535 * 65535; the last CTA on 16 GPUs is on GPU 15, and
     * floor((T - 1) * 16 / T) needs more than 64 bits of product. T is odd, so
     * T / 2 = (T - 1) / 2 is on GPU floor(8 (T - 1) / T) = 7. */
    CtaMap m = map(CTA_CONTIGUOUS, 2147483647u, 65535, 65535, 16);
    CHECK_EQ_U64(cta_map_gpu(&m, m.total - 1), 15);
    CHECK_EQ_U64(cta_map_gpu(&m, m.total / 2), 7);
    CHECK_EQ_U64(cta_map_gpu(&m, m.total / 2 + 1), 8);
    /* GPU 15 starts at ceil(15 T / 16); the last CTA is its count - 1-th */
    CHECK_EQ_U64(cta_map_rank(&m, m.total - 1), cta_map_count(&m, 15) - 1);
}

static void test_bad_input(void)
{
    CtaMap m;
    SimError err;
    uint32_t grid[3] = {4, 0, 1};
    CHECK(!cta_map_init(&m, CTA_CONTIGUOUS, grid, 4, &err));
    CHECK_STR(err.msg, "grid dim (4,0,1) has a zero dimension");
    grid[1] = 1;
    CHECK(!cta_map_init(&m, CTA_CONTIGUOUS, grid, 0, &err));
    CtaPolicy p;
    CHECK(cta_map_parse_policy("round_robin", &p, &err));
    CHECK_EQ_U64(p, CTA_ROUND_ROBIN);
    CHECK(!cta_map_parse_policy("ladm2", &p, &err));
    CHECK_STR(err.msg, "unknown CTA policy \"ladm2\" (contiguous, round_robin)");
}

int main(void)
{
    RUN(test_w5_contiguous);
    RUN(test_round_robin);
    RUN(test_index_3d);
    RUN(test_more_gpus_than_ctas);
    RUN(test_lists_agree_with_gpu);
    RUN(test_huge_grid);
    RUN(test_bad_input);
    return harness_report();
}
