/* Unit tests of kernel/bits.h: the power-of-two test and the rounded-up log2,
 * checked against a plain loop over the boundaries of every power of two, the counts
 * of set bits against a bit-by-bit loop, and the 64-bit mixer. */
#include "kernel/bits.h"
#include "tests/unit/harness.h"

static void test_is_pow2(void)
{
    CHECK(!bits_is_pow2(0));
    CHECK(bits_is_pow2(1));
    CHECK(bits_is_pow2(2));
    CHECK(!bits_is_pow2(3));
    CHECK(!bits_is_pow2(6));
    CHECK(bits_is_pow2(UINT64_C(1) << 63));
    CHECK(!bits_is_pow2(UINT64_MAX));
    for (unsigned k = 2; k < 64; k++) {
        uint64_t p = UINT64_C(1) << k;
        CHECK(bits_is_pow2(p));
        CHECK(!bits_is_pow2(p - 1));
        CHECK(!bits_is_pow2(p + 1));
    }
}

/* The definition: the smallest k with 2^k >= v (64 once v passes 2^63). */
static unsigned log2_ceil_ref(uint64_t v)
{
    unsigned k = 0;
    while (k < 64 && (UINT64_C(1) << k) < v) {
        k++;
    }
    return k;
}

static void test_log2_ceil(void)
{
    CHECK_EQ_U64(bits_log2_ceil(0), 0);
    CHECK_EQ_U64(bits_log2_ceil(1), 0);
    CHECK_EQ_U64(bits_log2_ceil(2), 1);
    CHECK_EQ_U64(bits_log2_ceil(3), 2);
    CHECK_EQ_U64(bits_log2_ceil(64), 6);
    CHECK_EQ_U64(bits_log2_ceil(1536), 11);
    CHECK_EQ_U64(bits_log2_ceil(UINT64_MAX), 64);
    for (unsigned k = 1; k < 64; k++) {
        uint64_t p = UINT64_C(1) << k;
        CHECK_EQ_U64(bits_log2_ceil(p - 1), log2_ceil_ref(p - 1));
        CHECK_EQ_U64(bits_log2_ceil(p), k);
        CHECK_EQ_U64(bits_log2_ceil(p + 1), k + 1);
    }
}

/* The splitmix64 finaliser (values from an independent Python evaluation). */
static void test_mix64(void)
{
    CHECK_EQ_U64(bits_mix64(0), 0);
    CHECK_EQ_U64(bits_mix64(1), UINT64_C(0x5692161d100b05e5));
    CHECK_EQ_U64(bits_mix64(UINT64_C(0x100000040)), UINT64_C(0x1facb92fdf1d6624));
}

static unsigned ones_by_loop(uint64_t v)
{
    unsigned n = 0;
    for (unsigned i = 0; i < 64; i++) {
        n += (unsigned)(v >> i & 1);
    }
    return n;
}

static void test_popcount(void)
{
    CHECK_EQ_U64(bits_popcount32(0), 0);
    CHECK_EQ_U64(bits_popcount32(UINT32_MAX), 32);
    CHECK_EQ_U64(bits_popcount64(UINT64_MAX), 64);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 10000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = i % 3 == 0 ? x & (x >> 5) : x; /* sparser words too */
        CHECK_EQ_U64(bits_popcount32((uint32_t)v), ones_by_loop((uint32_t)v));
        CHECK_EQ_U64(bits_popcount64(v), ones_by_loop(v));
    }
}

int main(void)
{
    RUN(test_is_pow2);
    RUN(test_log2_ceil);
    RUN(test_popcount);
    RUN(test_mix64);
    return harness_report();
}
