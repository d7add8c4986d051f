/* Unit tests of the link wire arithmetic (hw/lib/wire.c). Expected values are
 * worked by hand (and by tools/ref/link_time.py). */
#include "hw/lib/wire.h"
#include "tests/unit/harness.h"

static void test_golden_example(void)
{
    /* 64 B payload + 24 B overhead = 88 B; 88 B / 32 GB/s = 2.75 ns. */
    WireCost c = wire_cost(64, 24, 0);
    CHECK_EQ_U64(c.payload, 64);
    CHECK_EQ_U64(c.overhead, 24);
    CHECK_EQ_U64(c.padding, 0);
    CHECK_EQ_U64(c.total, 88);
    CHECK_EQ_U64(wire_ser_time(c.total, 32000000000ULL, 1, 1), 2750);
}

static void test_flit_padding(void)
{
    /* 64 + 24 = 88 padded to 128-byte flits: 40 B padding. */
    WireCost c = wire_cost(64, 24, 128);
    CHECK_EQ_U64(c.padding, 40);
    CHECK_EQ_U64(c.total, 128);
    /* An exact multiple is not padded. */
    c = wire_cost(104, 24, 128);
    CHECK_EQ_U64(c.padding, 0);
    CHECK_EQ_U64(c.total, 128);
    /* 0 + 24 with 16-byte flits -> 32. */
    c = wire_cost(0, 24, 16);
    CHECK_EQ_U64(c.total, 32);
    CHECK_EQ_U64(c.padding, 8);
}

static void test_encoding(void)
{
    /* 88 B at 32 GB/s with 128b/130b: 2750 * 130 / 128 = 2792.96875 -> 2793 ps. */
    CHECK_EQ_U64(wire_ser_time(88, 32000000000ULL, 128, 130), 2793);
    /* 8b/10b: 100 B at 1 GB/s = 100 ns * 10/8 = 125 ns exactly. */
    CHECK_EQ_U64(wire_ser_time(100, 1000000000ULL, 8, 10), 125000);
}

static void test_rounding_and_limits(void)
{
    /* 1 B at 3 B/ns: 333.33 ps -> 334. */
    CHECK_EQ_U64(wire_ser_time(1, 3000000000ULL, 1, 1), 334);
    CHECK_EQ_U64(wire_ser_time(0, 1, 1, 1), 0);
    /* 2^32 B at 1 B/s does not fit in 64-bit ps: saturates. */
    CHECK_EQ_U64(wire_ser_time(1ULL << 32, 1, 1, 1), SIM_TIME_MAX);
    /* Largest encodings stay exact: 1 B at 1 TB/s, 65535/65536 -> ceil(65536/65535). */
    CHECK_EQ_U64(wire_ser_time(1, 1000000000000ULL, 65535, 65536), 2);
}

/* WireRate gives the hand-worked answers above whatever sizes came before: hits in
 * either slot, a third size evicting the older slot, and sizes 0 and UINT64_MAX. */
static void test_rate_memo(void)
{
    WireRate r;
    wire_rate_init(&r, 32000000000ULL, 128, 130);
    CHECK_EQ_U64(wire_rate_ser(&r, 88), 2793);
    /* 24 B: 750 * 130 / 128 = 761.71875 -> 762 ps. */
    CHECK_EQ_U64(wire_rate_ser(&r, 24), 762);
    CHECK_EQ_U64(wire_rate_ser(&r, 88), 2793);
    CHECK_EQ_U64(wire_rate_ser(&r, 24), 762);
    /* 152 B: 4750 * 130 / 128 = 4824.21875 -> 4825 ps; evicts 88, keeps 24. */
    CHECK_EQ_U64(wire_rate_ser(&r, 152), 4825);
    CHECK_EQ_U64(wire_rate_ser(&r, 24), 762);
    CHECK_EQ_U64(wire_rate_ser(&r, 88), 2793);
    CHECK_EQ_U64(wire_rate_ser(&r, 152), 4825);
    CHECK_EQ_U64(wire_rate_ser(&r, 0), 0);
    CHECK_EQ_U64(wire_rate_ser(&r, UINT64_MAX), SIM_TIME_MAX);
    WireRate m;
    wire_rate_init(&m, 1000000000000ULL, 1, 1);
    CHECK_EQ_U64(wire_rate_ser(&m, 128), 128);
    CHECK_EQ_U64(wire_rate_ser(&m, 4), 4);
    CHECK_EQ_U64(wire_rate_ser(&m, 128), 128);
}

int main(void)
{
    RUN(test_golden_example);
    RUN(test_flit_padding);
    RUN(test_encoding);
    RUN(test_rounding_and_limits);
    RUN(test_rate_memo);
    return harness_report();
}
