/* Unit tests of the coalesced packet layout (hw/dualopt/codec_pkt.c) against byte
 * strings written by hand from SPEC.md 1.4 (C1: 3 entries = 22 B). */
#include <string.h>

#include "hw/dualopt/codec_pkt.h"
#include "tests/unit/harness.h"

static void test_sizes(void)
{
    CHECK_EQ_U64(codec_pkt_bytes(3), 22);
    CHECK_EQ_U64(codec_pkt_bytes(10), 64);
    CHECK_EQ_U64(codec_pkt_bytes(1), 10);
}

static void test_encode_c1(void)
{
    CodecEntry e[3] = {{{0xa0, 0xa1, 0xa2, 0xa3}, 1},
                       {{0xb0, 0xb1, 0xb2, 0xb3}, 2},
                       {{0xc0, 0xc1, 0xc2, 0xc3}, 0x1234}};
    static const uint8_t want[22] = {0x01, 0x01, 0x03, 0x00, 0xa0, 0xa1, 0xa2, 0xa3,
                                     0x00, 0x01, 0xb0, 0xb1, 0xb2, 0xb3, 0x00, 0x02,
                                     0xc0, 0xc1, 0xc2, 0xc3, 0x12, 0x34};
    uint8_t out[22];
    codec_pkt_encode(out, e, 3);
    CHECK(memcmp(out, want, sizeof want) == 0);
}

static void test_round_trip(void)
{
    CodecEntry e[10], back[10];
    for (uint32_t i = 0; i < 10; i++) {
        for (uint32_t k = 0; k < 4; k++) {
            e[i].data[k] = (uint8_t)(16 * i + k);
        }
        e[i].rid = (uint16_t)(0xfff0 + i);
    }
    uint8_t pkt[64];
    codec_pkt_encode(pkt, e, 10);
    CHECK_EQ_U64(pkt[2], 10);
    uint32_t n = 0;
    CHECK(codec_pkt_decode(pkt, 64, back, &n));
    CHECK_EQ_U64(n, 10);
    for (uint32_t i = 0; i < 10; i++) {
        CHECK(memcmp(back[i].data, e[i].data, 4) == 0);
        CHECK_EQ_U64(back[i].rid, e[i].rid);
    }
}

static void test_rejects(void)
{
    CodecEntry e[10];
    uint32_t n = 99;
    uint8_t pkt[64] = {0x01, 0x01, 0x01, 0x00};
    CHECK(codec_pkt_decode(pkt, 10, e, &n));
    CHECK_EQ_U64(n, 1);
    CHECK(!codec_pkt_decode(pkt, 16, e, &n)); /* length does not match 1 entry */
    CHECK(!codec_pkt_decode(NULL, 10, e, &n));
    CHECK(!codec_pkt_decode(pkt, 3, e, &n));
    pkt[0] = 0x02;
    CHECK(!codec_pkt_decode(pkt, 10, e, &n)); /* type */
    pkt[0] = 0x01;
    pkt[1] = 0x00;
    CHECK(!codec_pkt_decode(pkt, 10, e, &n)); /* compression field */
    pkt[1] = 0x01;
    pkt[2] = 0x00;
    CHECK(!codec_pkt_decode(pkt, 4, e, &n)); /* no entries */
    pkt[2] = 0x0b;
    CHECK(!codec_pkt_decode(pkt, 70, e, &n)); /* 11 entries */
    pkt[2] = 0x11;
    CHECK(!codec_pkt_decode(pkt, 10, e, &n)); /* high nibble set */
    pkt[2] = 0x01;
    pkt[3] = 0x80;
    CHECK(!codec_pkt_decode(pkt, 10, e, &n)); /* reserved byte */
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_encode_c1);
    RUN(test_round_trip);
    RUN(test_rejects);
    return harness_report();
}
