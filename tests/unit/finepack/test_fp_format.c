/* Unit tests of the FinePack packet format (hw/finepack/fp_format.h): header fields
 * of Table I, sub-header packing of Table II, DW padding. */
#include "hw/finepack/fp_format.h"
#include "tests/unit/harness.h"

static void test_offset_bits(void)
{
    /* Table II: 2..6 bytes -> 6, 14, 22, 30, 38 offset bits */
    CHECK_EQ_U64(fp_offset_bits(2), 6);
    CHECK_EQ_U64(fp_offset_bits(3), 14);
    CHECK_EQ_U64(fp_offset_bits(4), 22);
    CHECK_EQ_U64(fp_offset_bits(5), 30);
    CHECK_EQ_U64(fp_offset_bits(6), 38);
}

static void test_header_f1(void)
{
    /* SPEC F1 packet P1: base 0x100000000, payload 22 B -> 6 DW, last DW 2 bytes */
    uint8_t p[16];
    FpHeader h = {.base = 0x100000000ULL, .payload = 22, .requester = 0x0000, .tag = 0};
    fp_header_put(p, &h);
    const uint8_t want[16] = {0x7a, 0, 0, 6, 0, 0, 0, 0x30, 0, 0, 0, 1, 0, 0, 0, 0};
    CHECK(memcmp(p, want, 16) == 0);
    FpHeader g;
    CHECK(fp_header_get(p, 16, &g));
    CHECK_EQ_U64(g.base, 0x100000000ULL);
    CHECK_EQ_U64(g.payload, 22);
}

static void test_header_full(void)
{
    /* 4096 B = 1024 DW encodes as length 0, last BE 0xf; requester and tag kept */
    uint8_t p[16];
    FpHeader h = {
        .base = 0x3c0000000ULL, .payload = 4096, .requester = 0x0f00, .tag = 200};
    fp_header_put(p, &h);
    CHECK_EQ_U64(p[2], 0);
    CHECK_EQ_U64(p[3], 0);
    CHECK_EQ_U64(p[4], 0x0f);
    CHECK_EQ_U64(p[6], 200);
    CHECK_EQ_U64(p[7], 0xf0);
    FpHeader g;
    CHECK(fp_header_get(p, 16, &g));
    CHECK_EQ_U64(g.payload, 4096);
    CHECK_EQ_U64(g.requester, 0x0f00);
    CHECK_EQ_U64(g.base, 0x3c0000000ULL);
}

static void test_header_rejects(void)
{
    uint8_t p[16];
    FpHeader h = {.base = 0x40, .payload = 9};
    FpHeader g;
    fp_header_put(p, &h);
    CHECK(!fp_header_get(p, 15, &g));
    p[7] = 0x50; /* last BE not a low contiguous mask */
    CHECK(!fp_header_get(p, 16, &g));
    fp_header_put(p, &h);
    p[0] = 0x60; /* an ordinary MWr */
    CHECK(!fp_header_get(p, 16, &g));
}

static void test_subhdr(void)
{
    /* subhdr 5: length 8 << 30 | 0 = 0x0200000000 */
    uint8_t p[6];
    fp_subhdr_put(p, 5, 8, 0);
    const uint8_t w1[5] = {0x02, 0, 0, 0, 0};
    CHECK(memcmp(p, w1, 5) == 0);
    /* length 4, offset 0x1000: 0x0100001000 */
    fp_subhdr_put(p, 5, 4, 0x1000);
    const uint8_t w2[5] = {0x01, 0, 0, 0x10, 0};
    CHECK(memcmp(p, w2, 5) == 0);
    /* subhdr 2: length 128 << 6 | 63 = 0x203f */
    fp_subhdr_put(p, 2, 128, 63);
    CHECK_EQ_U64(p[0], 0x20);
    CHECK_EQ_U64(p[1], 0x3f);
    uint32_t len;
    uint64_t off;
    fp_subhdr_get(p, 2, &len, &off);
    CHECK_EQ_U64(len, 128);
    CHECK_EQ_U64(off, 63);
    /* subhdr 6: the largest offset survives */
    fp_subhdr_put(p, 6, 1023, (1ULL << 38) - 1);
    fp_subhdr_get(p, 6, &len, &off);
    CHECK_EQ_U64(len, 1023);
    CHECK_EQ_U64(off, (1ULL << 38) - 1);
}

static void test_pad(void)
{
    CHECK_EQ_U64(fp_pad_dw(22), 24);
    CHECK_EQ_U64(fp_pad_dw(9), 12);
    CHECK_EQ_U64(fp_pad_dw(24), 24);
}

int main(void)
{
    RUN(test_offset_bits);
    RUN(test_header_f1);
    RUN(test_header_full);
    RUN(test_header_rejects);
    RUN(test_subhdr);
    RUN(test_pad);
    return harness_report();
}
