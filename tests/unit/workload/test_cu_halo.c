/* Unit tests of the cu's halo pattern (hw/workload/cu_halo.c): every strip of every GPU
 * is written exactly once per kernel by the right neighbour's cus, in contiguous
 * ascending stores; hand-worked addresses for one cu; rings of 1 and 2 GPUs. */
#include "hw/workload/cu_halo.h"
#include "tests/unit/harness.h"

#define MIB (1024ULL * 1024ULL)

/* gpus x 2 strips x (halo / size) stores; returns the number of stores seen twice or
 * written by the wrong GPU, and checks every store was seen once. */
static uint64_t cover(uint32_t gpus, uint64_t cus, uint64_t halo, uint64_t size)
{
    uint64_t n = halo / size, bad = 0;
    uint8_t seen[4][2][64] = {{{0}}};
    for (uint32_t g = 0; g < gpus; g++) {
        for (uint64_t i = 0; i < cus; i++) {
            CuHaloCfg c = {.gpus = gpus,
                           .gpu = g,
                           .mem_bytes = MIB,
                           .halo = halo,
                           .size = size,
                           .index = i,
                           .cus = cus};
            CuHalo h;
            SimError err;
            CHECK(cu_halo_init(&h, &c, &err));
            uint64_t a, prev = 0;
            bool first = true;
            while (cu_halo_next(&h, &a)) {
                uint64_t dst = a / MIB, off = a % MIB;
                uint64_t strip = off / halo, k = (off % halo) / size;
                bad += off % size != 0 || strip > 1 || k >= n;
                /* low strip from the left neighbour, high strip from the right */
                bad += strip == 0 ? dst != (g + 1) % gpus : dst != (g + gpus - 1) % gpus;
                bad += !first && a < prev && a / MIB == prev / MIB &&
                       (a % MIB) / halo == (prev % MIB) / halo;
                if (!bad) {
                    seen[dst][strip][k]++;
                }
                prev = a;
                first = false;
            }
        }
    }
    for (uint32_t d = 0; d < gpus; d++) {
        for (int s = 0; s < 2; s++) {
            for (uint64_t k = 0; k < n; k++) {
                bad += seen[d][s][k] != 1;
            }
        }
    }
    return bad;
}

static void test_cover(void)
{
    CHECK_EQ_U64(cover(4, 2, 256, 4), 0);
    CHECK_EQ_U64(cover(4, 3, 256, 8), 0); /* 32 stores over 3 cus: 10, 11, 11 */
    CHECK_EQ_U64(cover(2, 2, 128, 4), 0);
    CHECK_EQ_U64(cover(1, 4, 64, 4), 0);
    CHECK_EQ_U64(cover(3, 1, 64, 64), 0);
}

/* GPU 1 of 4, cu 1 of 2, halo 32, size 8: n = 4, stores 2 and 3 of each strip:
 * low strip of GPU 2 at 2M + 16, 2M + 24; high strip of GPU 0 at 32 + 16, 32 + 24. */
static void test_addresses(void)
{
    CuHaloCfg c = {.gpus = 4,
                   .gpu = 1,
                   .mem_bytes = MIB,
                   .halo = 32,
                   .size = 8,
                   .index = 1,
                   .cus = 2};
    CuHalo h;
    SimError err;
    CHECK(cu_halo_init(&h, &c, &err));
    const uint64_t want[] = {2 * MIB + 16, 2 * MIB + 24, 48, 56};
    for (int round = 0; round < 2; round++) {
        uint64_t a;
        for (int i = 0; i < 4; i++) {
            CHECK(cu_halo_next(&h, &a));
            CHECK_EQ_U64(a, want[i]);
        }
        CHECK(!cu_halo_next(&h, &a));
        cu_halo_restart(&h);
    }
}

static void test_errors(void)
{
    CuHaloCfg c = {.gpus = 4,
                   .gpu = 1,
                   .mem_bytes = MIB,
                   .halo = 30,
                   .size = 8,
                   .index = 0,
                   .cus = 2};
    CuHalo h;
    SimError err;
    CHECK(!cu_halo_init(&h, &c, &err));
    CHECK_STR(err.msg, "halo 30 must be a non-zero multiple of size 8");
    c.halo = MIB;
    CHECK(!cu_halo_init(&h, &c, &err));
    c.halo = 64;
    c.index = 2;
    CHECK(!cu_halo_init(&h, &c, &err));
}

int main(void)
{
    RUN(test_cover);
    RUN(test_addresses);
    RUN(test_errors);
    return harness_report();
}
