/* Unit tests of the atomic rule (hw/lib/amo.h): accepted lengths, carries across
 * bytes, wrap-around at the operand width, and in-place use. */
#include "hw/lib/amo.h"

#include <string.h>

#include "tests/unit/harness.h"

static uint64_t le_load(const uint8_t *b, uint32_t len)
{
    uint64_t v = 0;
    for (uint32_t i = len; i-- > 0;) {
        v = v << 8 | b[i];
    }
    return v;
}

static void le_store(uint8_t *b, uint64_t v, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
}

static void test_lengths(void)
{
    CHECK(amo_len_ok(4));
    CHECK(amo_len_ok(8));
    CHECK(!amo_len_ok(0));
    CHECK(!amo_len_ok(1));
    CHECK(!amo_len_ok(2));
    CHECK(!amo_len_ok(16));
    CHECK(AMO_MAX_LEN == 8);
}

static void test_add_and_wrap(void)
{
    static const uint64_t cases[][2] = {
        {0, 0},          {1, 1},
        {0xff, 1},       {0x00ffffff, 1},
        {0xffffffff, 1}, {0x12345678, 0x9abcdef0},
        {UINT64_MAX, 2}, {0x0123456789abcdefULL, 0xfedcba9876543210ULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        static const uint32_t lens[] = {4, 8};
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            uint32_t len = lens[li];
            uint8_t old[AMO_MAX_LEN], op[AMO_MAX_LEN], res[AMO_MAX_LEN];
            le_store(old, cases[k][0], len);
            le_store(op, cases[k][1], len);
            amo_result(old, op, len, res);
            uint64_t mask = len == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * len)) - 1;
            CHECK_EQ_U64(le_load(res, len), (cases[k][0] + cases[k][1]) & mask);
            CHECK_EQ_U64(le_load(old, len), cases[k][0] & mask);
        }
    }
}

static void test_in_place_any_length(void)
{
    uint8_t v[3] = {0xff, 0xff, 0x01};
    const uint8_t one[3] = {1, 0, 0};
    amo_result(v, one, 3, v);
    CHECK_EQ_U64(v[0], 0);
    CHECK_EQ_U64(v[1], 0);
    CHECK_EQ_U64(v[2], 2);
}

int main(void)
{
    RUN(test_lengths);
    RUN(test_add_and_wrap);
    RUN(test_in_place_any_length);
    return harness_report();
}
