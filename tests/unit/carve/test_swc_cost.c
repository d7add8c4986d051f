/* Software-coherence cost model against the paper's Table IV (paper 004). */
#include "hw/carve/swc_cost.h"
#include "tests/unit/harness.h"

#define GIB ((uint64_t)1 << 30)
#define MIB ((uint64_t)1 << 20)

static void test_table_iv(void)
{
    /* 2^31 B / 1.024e12 B/s = 2097152 ns exactly (the paper: 2 ms). */
    CHECK_EQ_U64(swc_cost_stream(2 * GIB, 1024000000000ULL), 2097152000ULL);
    /* 2^31 B / 64e9 B/s = 33554432 ns (the paper: 32 ms). */
    CHECK_EQ_U64(swc_cost_stream(2 * GIB, 64000000000ULL), 33554432000ULL);
    /* 8 MiB / 128 B = 65536 lines, 16 banks x 1 per 1 ns cycle = 4096 ns (4 us). */
    CHECK_EQ_U64(swc_cost_banked(8 * MIB, 128, 16, 1, 1000), 4096000ULL);
    /* 8 MiB at 1024 GB/s = 8192 ns, at 64 GB/s = 131072 ns (8 us ~ 128 us). */
    CHECK_EQ_U64(swc_cost_stream(8 * MIB, 1024000000000ULL), 8192000ULL);
    CHECK_EQ_U64(swc_cost_stream(8 * MIB, 64000000000ULL), 131072000ULL);
}

static void test_rounding(void)
{
    /* 3 lines on 2 banks: 2 cycles. 1 B at 3 B/s: ceil(1e12 / 3). */
    CHECK_EQ_U64(swc_cost_banked(300, 128, 2, 1, 1000), 2000);
    CHECK_EQ_U64(swc_cost_stream(1, 3), 333333333334ULL);
}

int main(void)
{
    RUN(test_table_iv);
    RUN(test_rounding);
    return harness_report();
}
