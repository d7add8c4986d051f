/* Unit tests of the PCIe/IP frame codec (tools/serve/pcie_frame.c). Expected values:
 * the CRC-32 check value 0xcbf43926 of "123456789" (the catalogued CRC-32/ISO-HDLC,
 * which is the LCRC in reflected form); a hand-assembled MRd32 frame following the
 * header layout of warp-pipe's docs/source/pcie-over-tcp.md; the PCIe rules for
 * byte enables and the 4 KiB boundary; the bit positions of TC, Attr, TH, T9/T8 in
 * header byte 1 (and Attr[1:0] in byte 2) and of the configuration request fields
 * (Bus/Device/Function in bytes 8-9, Ext Register in byte 10, Register in byte 11
 * bits 7:2) from the PCIe base specification's TLP header figures. */
#include <string.h>

#include "tests/unit/harness.h"
#include "tools/serve/pcie_frame.h"

static size_t finish_frame(uint8_t *f, size_t tlp_end)
{
    uint32_t crc = pcie_lcrc32(f + 1, tlp_end - 1);
    for (int i = 0; i < 4; i++) {
        f[tlp_end + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    return tlp_end + 4;
}

/* MRd32, 1 DW at 0x100, requester 0x0100, tag 3, first BE 0xf, sequence 1. */
static size_t mrd32_frame(uint8_t *f)
{
    static const uint8_t head[] = {0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x01,
                                   0x00, 0x03, 0x0f, 0x00, 0x00, 0x01, 0x00};
    memcpy(f, head, sizeof head);
    return finish_frame(f, sizeof head);
}

static void test_crc_check_value(void)
{
    CHECK_EQ_U64(pcie_lcrc32((const uint8_t *)"123456789", 9), 0xcbf43926u);
}

static void test_parse_mrd32(void)
{
    uint8_t f[64];
    size_t n = mrd32_frame(f), used = 0;
    PcieTlp t;
    PcieDllp d;
    SimError err;
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK_EQ_U64(used, n);
    CHECK(t.kind == PCIE_KIND_MRD);
    CHECK_EQ_U64(t.seq, 1);
    CHECK_EQ_U64(t.addr, 0x100);
    CHECK_EQ_U64(t.length_dw, 1);
    CHECK_EQ_U64(t.requester, 0x0100);
    CHECK_EQ_U64(t.tag, 3);
    CHECK_EQ_U64(t.first_be, 0xf);
    CHECK_EQ_U64(t.data_len, 0);
    for (size_t k = 0; k < n; k++) {
        CHECK(pcie_frame_parse(f, k, &used, &t, &d, &err) == PCIE_PARSE_MORE);
    }
}

static void expect_bad(uint8_t *f, size_t n, const char *needle)
{
    size_t used;
    PcieTlp t;
    PcieDllp d;
    SimError err;
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_BAD);
    CHECK(strstr(err.msg, needle) != NULL);
}

static void test_malformed(void)
{
    uint8_t f[64];
    size_t n = mrd32_frame(f);
    f[n - 1] ^= 0x40;
    expect_bad(f, n, "bad LCRC");
    n = mrd32_frame(f);
    f[0] = 0x07;
    expect_bad(f, n, "unknown protocol byte 0x07");
    n = mrd32_frame(f);
    f[5] |= 0x80; /* TD */
    expect_bad(f, finish_frame(f, n - 4), "TD set");
    n = mrd32_frame(f);
    f[3] = 0x80; /* Fmt 4: a TLP prefix */
    expect_bad(f, finish_frame(f, n - 4), "bad format 4");
    n = mrd32_frame(f);
    f[10] = 0xff; /* last BE on a 1 DW request */
    expect_bad(f, finish_frame(f, n - 4), "bad byte enables");
    n = mrd32_frame(f);
    f[6] = 2;     /* 2 DW ... */
    f[10] = 0xff; /* ... with both BEs */
    f[13] = 0x0f;
    f[14] = 0xfc; /* at 0xffc: crosses 4 KiB */
    expect_bad(f, finish_frame(f, n - 4), "bad length");
}

/* warp-pipe leaves garbage in the reserved bits above the sequence number and in
 * header byte 1: the frame is accepted, every field still parsed, the bits flagged. */
static void test_reserved_bits_ignored(void)
{
    uint8_t f[64];
    PcieTlp t;
    PcieDllp d;
    SimError err;
    size_t used, n = mrd32_frame(f);
    f[1] = 0xa0; /* reserved sequence bits 1010, sequence number 0x001 */
    CHECK(pcie_frame_parse(f, finish_frame(f, n - 4), &used, &t, &d, &err) ==
          PCIE_PARSE_TLP);
    CHECK_EQ_U64(t.seq, 1);
    CHECK_EQ_U64(t.seq_rsvd, 0xa);
    CHECK(t.ignored_bits);
    CHECK_EQ_U64(t.addr, 0x100);
    n = mrd32_frame(f);
    f[4] = 0xff; /* T9, TC 7, T8, Attr[2], LN, TH */
    f[5] = 0x30; /* Attr[1:0] */
    n = finish_frame(f, n - 4);
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK(t.kind == PCIE_KIND_MRD);
    CHECK_EQ_U64(t.tc, 7);
    CHECK_EQ_U64(t.attr, 7);
    CHECK_EQ_U64(t.tag, 0x303); /* T9 T8 + tag byte 3 */
    CHECK(t.th && t.ln && t.ignored_bits);
    uint8_t again[64];
    CHECK_EQ_U64(pcie_frame_encode_tlp(&t, again, sizeof again), n);
    CHECK(memcmp(again, f, n) == 0);
    n = mrd32_frame(f);
    f[4] = 0x70; /* TC 7 only: a header field, not an ignored bit */
    CHECK(pcie_frame_parse(f, finish_frame(f, n - 4), &used, &t, &d, &err) ==
          PCIE_PARSE_TLP);
    CHECK(!t.ignored_bits);
    CHECK_EQ_U64(t.tc, 7);
}

/* A completion without data is sent with Length 0; a received one's Length is
 * reserved: ignored (flagged when nonzero). */
static void test_cpl_without_data(void)
{
    uint8_t f[64];
    PcieTlp c = {0}, t;
    PcieDllp d;
    SimError err;
    size_t used;
    c.type = 0x0a;
    c.status = PCIE_CPL_UR;
    c.byte_count = 4;
    c.tag = 0x2c5;
    c.tc = 5;
    c.attr = 6;
    size_t n = pcie_frame_encode_tlp(&c, f, sizeof f);
    CHECK_EQ_U64(n, 1 + 2 + 12 + 4);
    CHECK_EQ_U64(f[3], 0x0a); /* Fmt 000, Type 01010 */
    CHECK_EQ_U64(f[4], 0xd4); /* T9 1, TC 101, T8 0, Attr[2] 1 */
    CHECK_EQ_U64(f[5], 0x20); /* Attr[1:0] 10, Length[9:8] 0 */
    CHECK_EQ_U64(f[6], 0);    /* Length[7:0] 0 */
    CHECK_EQ_U64(f[13], 0xc5);
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK(t.kind == PCIE_KIND_CPL && t.data_len == 0 && !t.ignored_bits);
    CHECK_EQ_U64(t.length_dw, 0);
    CHECK_EQ_U64(t.tag, 0x2c5);
    f[6] = 1; /* a peer's nonzero Length on a Cpl */
    CHECK(pcie_frame_parse(f, finish_frame(f, n - 4), &used, &t, &d, &err) ==
          PCIE_PARSE_TLP);
    CHECK(t.data_len == 0 && t.ignored_bits);
    CHECK_EQ_U64(t.length_dw, 0);
    c.length_dw = 1; /* a data-less completion must say Length 0 */
    CHECK_EQ_U64(pcie_frame_encode_tlp(&c, f, sizeof f), 0);
}

/* CfgWr0 to bus 2 device 3 function 0, register 0x010 (BAR0), data ffffffff;
 * CfgRd0 with Length 2 is malformed. */
static void test_cfg0(void)
{
    static const uint8_t head[] = {0x03, 0x00, 0x05, 0x44, 0x00, 0x00, 0x01,
                                   0x00, 0x00, 0x07, 0x0f, 0x02, 0x18, 0x00,
                                   0x10, 0xff, 0xff, 0xff, 0xff};
    uint8_t f[64];
    PcieTlp t;
    PcieDllp d;
    SimError err;
    size_t used;
    memcpy(f, head, sizeof head);
    size_t n = finish_frame(f, sizeof head);
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK(t.kind == PCIE_KIND_CFG0);
    CHECK_EQ_U64(t.target, 0x0218);
    CHECK_EQ_U64(t.cfg_reg, 4);
    CHECK_EQ_U64(t.tag, 7);
    CHECK_EQ_U64(t.first_be, 0xf);
    CHECK(t.data_len == 4 && t.data[0] == 0xff);
    uint8_t again[64];
    CHECK_EQ_U64(pcie_frame_encode_tlp(&t, again, sizeof again), n);
    CHECK(memcmp(again, f, n) == 0);
    f[13] = 0x01; /* Ext Register 1: register 0x110 = DW 68 */
    CHECK(pcie_frame_parse(f, finish_frame(f, n - 4), &used, &t, &d, &err) ==
          PCIE_PARSE_TLP);
    CHECK_EQ_U64(t.cfg_reg, 68);
    f[3] = 0x04; /* CfgRd0 */
    f[6] = 0x02; /* Length 2 */
    expect_bad(f, finish_frame(f, 15), "bad configuration request");
}

static void test_completion_roundtrip(void)
{
    uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, f[64];
    PcieTlp c = {0}, t;
    PcieDllp d;
    SimError err;
    c.seq = 0xabc;
    c.fmt = 2;
    c.type = 0x0a;
    c.length_dw = 2;
    c.data = data;
    c.data_len = 8;
    c.completer = 0x0300;
    c.status = PCIE_CPL_SC;
    c.byte_count = 5;
    c.requester = 0x0201;
    c.tag = 9;
    c.lower_addr = 0x41;
    size_t n = pcie_frame_encode_tlp(&c, f, sizeof f), used;
    CHECK_EQ_U64(n, 1 + 2 + 12 + 8 + 4);
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK(t.kind == PCIE_KIND_CPL);
    CHECK_EQ_U64(t.seq, 0xabc);
    CHECK_EQ_U64(t.completer, 0x0300);
    CHECK_EQ_U64(t.byte_count, 5);
    CHECK_EQ_U64(t.requester, 0x0201);
    CHECK_EQ_U64(t.tag, 9);
    CHECK_EQ_U64(t.lower_addr, 0x41);
    CHECK(t.data_len == 8 && memcmp(t.data, data, 8) == 0);
    CHECK_EQ_U64(pcie_frame_encode_tlp(&c, f, n - 1), 0);
}

static void test_length_zero_is_1024(void)
{
    static uint8_t f[PCIE_TLP_FRAME_MAX], data[4096];
    PcieTlp w = {0}, t;
    PcieDllp d;
    SimError err;
    w.fmt = 3; /* MWr64 */
    w.length_dw = 1024;
    w.first_be = w.last_be = 0xf;
    w.addr = 0x10000;
    w.data = data;
    w.data_len = sizeof data;
    size_t n = pcie_frame_encode_tlp(&w, f, sizeof f), used;
    CHECK_EQ_U64(n, PCIE_TLP_FRAME_MAX);
    CHECK_EQ_U64(f[5] & 3u, 0);
    CHECK_EQ_U64(f[6], 0);
    CHECK(pcie_frame_parse(f, n, &used, &t, &d, &err) == PCIE_PARSE_TLP);
    CHECK(t.kind == PCIE_KIND_MWR);
    CHECK_EQ_U64(t.length_dw, 1024);
    CHECK_EQ_U64(t.addr, 0x10000);
}

static void test_dllp(void)
{
    PcieDllp a = {{0x00, 0x00, 0x01, 0x23}}, b;
    uint8_t f[PCIE_DLLP_FRAME];
    PcieTlp t;
    SimError err;
    size_t used;
    pcie_frame_encode_dllp(&a, f);
    CHECK(pcie_frame_parse(f, sizeof f, &used, &t, &b, &err) == PCIE_PARSE_DLLP);
    CHECK_EQ_U64(used, PCIE_DLLP_FRAME);
    CHECK(memcmp(a.bytes, b.bytes, 4) == 0);
    CHECK(pcie_frame_parse(f, 6, &used, &t, &b, &err) == PCIE_PARSE_MORE);
    f[6] ^= 1;
    expect_bad(f, sizeof f, "bad CRC-16");
}

int main(void)
{
    RUN(test_crc_check_value);
    RUN(test_parse_mrd32);
    RUN(test_malformed);
    RUN(test_reserved_bits_ignored);
    RUN(test_cpl_without_data);
    RUN(test_cfg0);
    RUN(test_completion_roundtrip);
    RUN(test_length_zero_is_1024);
    RUN(test_dllp);
    return harness_report();
}
