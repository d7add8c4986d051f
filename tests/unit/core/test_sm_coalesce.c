/* Unit tests of the coalescer (hw/core/sm_coalesce.c). Expected requests are worked
 * by hand from SPEC.md 6.3: line = address with its low 7 bits cleared, sector = (byte
 * offset in the line) / 32, byte bit = byte offset in the line. */
#include "hw/core/sm_coalesce.h"
#include "tests/unit/harness.h"

static void base_stride(uint64_t *addrs, size_t n, uint64_t base, uint64_t stride)
{
    for (size_t k = 0; k < n; k++) {
        addrs[k] = base + k * stride;
    }
}

static void test_w4_full_warp_one_line(void)
{
    /* W4: 32 lanes x 4 B from 0x1000 = bytes 0x1000..0x107f: one line, sectors 0-3. */
    uint64_t addrs[32];
    SmLineReq r[SM_COALESCE_MAX_REQS];
    base_stride(addrs, 32, 0x1000, 4);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xffffffffu, 4, r), 1);
    CHECK_EQ_U64(r[0].line, 0x1000);
    CHECK_EQ_U64(r[0].sectors, 0xf);
    CHECK_EQ_U64(r[0].lanes, 0xffffffffu);
    CHECK_EQ_U64(r[0].bytes[0], UINT64_MAX);
    CHECK_EQ_U64(r[0].bytes[1], UINT64_MAX);
}

static void test_w4_four_lanes_one_sector(void)
{
    /* W4: lanes 0..3 only touch bytes 0x1000..0x100f: sector 0, bytes 0-15. */
    uint64_t addrs[4];
    SmLineReq r[SM_COALESCE_MAX_REQS];
    base_stride(addrs, 4, 0x1000, 4);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xfu, 4, r), 1);
    CHECK_EQ_U64(r[0].line, 0x1000);
    CHECK_EQ_U64(r[0].sectors, 0x1);
    CHECK_EQ_U64(r[0].lanes, 0xf);
    CHECK_EQ_U64(r[0].bytes[0], 0xffff);
    CHECK_EQ_U64(r[0].bytes[1], 0);
}

static void test_w4_stride_128(void)
{
    /* W4: stride 128 puts every lane on its own line, byte 0..3 = sector 0. */
    uint64_t addrs[32];
    SmLineReq r[SM_COALESCE_MAX_REQS];
    base_stride(addrs, 32, 0x1000, 128);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xffffffffu, 4, r), 32);
    for (uint32_t k = 0; k < 32; k++) {
        CHECK_EQ_U64(r[k].line, 0x1000 + 128 * k);
        CHECK_EQ_U64(r[k].sectors, 0x1);
        CHECK_EQ_U64(r[k].lanes, 1u << k);
        CHECK_EQ_U64(r[k].bytes[0], 0xf);
    }
}

static void test_line_crossing(void)
{
    /* 8 B at 0x107c: bytes 124..127 of line 0x1000 (sector 3) and bytes 0..3 of line
     * 0x1080 (sector 0), the lower line first. */
    uint64_t addrs[1] = {0x107c};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(addrs, 0x1u, 8, r), 2);
    CHECK_EQ_U64(r[0].line, 0x1000);
    CHECK_EQ_U64(r[0].sectors, 0x8);
    CHECK_EQ_U64(r[0].bytes[0], 0);
    CHECK_EQ_U64(r[0].bytes[1], 0xfull << 60);
    CHECK_EQ_U64(r[1].line, 0x1080);
    CHECK_EQ_U64(r[1].sectors, 0x1);
    CHECK_EQ_U64(r[1].bytes[0], 0xf);
    CHECK_EQ_U64(r[1].lanes, 0x1);
}

static void test_order_of_first_appearance(void)
{
    /* Lanes 0, 1, 2 at 0x2000, 0x1000, 0x2004: line 0x2000 appears first (lane 0) and
     * also holds lane 2; line 0x1000 second. */
    uint64_t addrs[3] = {0x2000, 0x1000, 0x2004};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(addrs, 0x7u, 4, r), 2);
    CHECK_EQ_U64(r[0].line, 0x2000);
    CHECK_EQ_U64(r[0].lanes, 0x5);
    CHECK_EQ_U64(r[0].bytes[0], 0xff);
    CHECK_EQ_U64(r[1].line, 0x1000);
    CHECK_EQ_U64(r[1].lanes, 0x2);
}

static void test_partial_mask_lane_order(void)
{
    /* Lanes 0 and 31 active: the two addresses belong to lanes 0 and 31. 0x1060 is
     * byte 96 = sector 3, bit 32 of the second byte word. */
    uint64_t addrs[2] = {0x1000, 0x1060};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(addrs, 0x80000001u, 4, r), 1);
    CHECK_EQ_U64(r[0].sectors, 0x9);
    CHECK_EQ_U64(r[0].lanes, 0x80000001u);
    CHECK_EQ_U64(r[0].bytes[0], 0xf);
    CHECK_EQ_U64(r[0].bytes[1], 0xfull << 32);
    CHECK_EQ_U64(sm_coalesce(addrs, 0, 4, r), 0);
}

static void test_byte_mask_and_wide_access(void)
{
    /* 2 B at byte 64 of the line: sector 2, bit 0-1 of the second word. 16 B vector
     * accesses of 8 lanes from 0x3000 cover the whole line. */
    uint64_t one[1] = {0x1040};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(one, 0x1u, 2, r), 1);
    CHECK_EQ_U64(r[0].sectors, 0x4);
    CHECK_EQ_U64(r[0].bytes[0], 0);
    CHECK_EQ_U64(r[0].bytes[1], 0x3);
    uint64_t addrs[8];
    base_stride(addrs, 8, 0x3000, 16);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xffu, 16, r), 1);
    CHECK_EQ_U64(r[0].sectors, 0xf);
    CHECK_EQ_U64(r[0].bytes[1], UINT64_MAX);
}

static void test_wider_than_a_line(void)
{
    /* 256 B per lane (the widest the reader takes). Lane 0 at 0x2040: bytes 64..127 of
     * line 0x2000 (sectors 2, 3), all of 0x2080, bytes 0..63 of 0x2100 (sectors 0,
     * 1), lowest first. Lane 1 at 0x2100: all of 0x2100 and 0x2180, so 0x2100 gains
     * lane 1 and its upper half; 0x2180 is new, after the lines of lane 0. A full warp
     * 256 B apart from 0x40 makes 32 x 3 - 31 = 65 requests (neighbours share a line);
     * 512 B apart, 96. */
    uint64_t addrs[32] = {0x2040, 0x2100};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(addrs, 0x3u, 256, r), 4);
    CHECK_EQ_U64(r[0].line, 0x2000);
    CHECK_EQ_U64(r[0].sectors, 0xc);
    CHECK_EQ_U64(r[0].bytes[0], 0);
    CHECK_EQ_U64(r[0].bytes[1], UINT64_MAX);
    CHECK_EQ_U64(r[0].lanes, 0x1);
    CHECK_EQ_U64(r[1].line, 0x2080);
    CHECK_EQ_U64(r[1].sectors, 0xf);
    CHECK_EQ_U64(r[1].lanes, 0x1);
    CHECK_EQ_U64(r[2].line, 0x2100);
    CHECK_EQ_U64(r[2].sectors, 0xf);
    CHECK_EQ_U64(r[2].bytes[0], UINT64_MAX);
    CHECK_EQ_U64(r[2].bytes[1], UINT64_MAX);
    CHECK_EQ_U64(r[2].lanes, 0x3);
    CHECK_EQ_U64(r[3].line, 0x2180);
    CHECK_EQ_U64(r[3].lanes, 0x2);
    base_stride(addrs, 32, 0x40, 256);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xffffffffu, 256, r), 65);
    base_stride(addrs, 32, 0x40, 512);
    CHECK_EQ_U64(sm_coalesce(addrs, 0xffffffffu, 256, r), 96);
    CHECK_EQ_U64(r[95].line, 31 * 512 + 0x100);
}

static void test_top_of_address_space(void)
{
    /* 4 B at 2^64 - 2 end at 2^64 - 1: bytes 126..127 of the last line only. */
    uint64_t addrs[1] = {UINT64_MAX - 1};
    SmLineReq r[SM_COALESCE_MAX_REQS];
    CHECK_EQ_U64(sm_coalesce(addrs, 0x1u, 4, r), 1);
    CHECK_EQ_U64(r[0].line, UINT64_MAX - 127);
    CHECK_EQ_U64(r[0].bytes[1], 0x3ull << 62);
}

/* The coalescer against a byte-by-byte reference written here (every byte of every
 * active lane, in lane and address order, finds or appends its line) on 4,000
 * generated accesses: masks, widths 1..256, lanes on a few neighbouring lines, the same
 * line revisited after others, lanes in descending order with and without gaps
 * between them (the coalescer joins adjacent ranges of one line), and the top of the
 * address space. */
static size_t bytewise(const uint64_t *addrs, uint32_t mask, uint32_t width,
                       SmLineReq *out)
{
    size_t n = 0, k = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        if (!(mask >> lane & 1)) {
            continue;
        }
        uint64_t a = addrs[k++];
        for (uint64_t i = 0; i < width; i++) {
            uint64_t b = a + i;
            if (b < a) {
                break; /* past 2^64 - 1 */
            }
            uint64_t line = b / 128 * 128;
            size_t j = 0;
            while (j < n && out[j].line != line) {
                j++;
            }
            if (j == n) {
                out[n++] = (SmLineReq){.line = line};
            }
            out[j].lanes |= 1u << lane;
            out[j].bytes[(b - line) / 64] |= 1ull << ((b - line) % 64);
            out[j].sectors |= 1u << ((b - line) / 32);
        }
    }
    return n;
}

static void check_same(const uint64_t *addrs, uint32_t mask, uint32_t width)
{
    SmLineReq got[SM_COALESCE_MAX_REQS], want[SM_COALESCE_MAX_REQS];
    size_t n = sm_coalesce(addrs, mask, width, got);
    size_t m = bytewise(addrs, mask, width, want);
    CHECK_EQ_U64(n, m);
    for (size_t i = 0; i < n && i < m; i++) {
        CHECK_EQ_U64(got[i].line, want[i].line);
        CHECK_EQ_U64(got[i].lanes, want[i].lanes);
        CHECK_EQ_U64(got[i].sectors, want[i].sectors);
        CHECK_EQ_U64(got[i].bytes[0], want[i].bytes[0]);
        CHECK_EQ_U64(got[i].bytes[1], want[i].bytes[1]);
    }
}

static void test_against_bytewise(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int t = 0; t < 4000; t++) {
        uint64_t addrs[32];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t mask = t % 3 == 0 ? 0xffffffffu : (uint32_t)x;
        uint32_t width = t % 5 == 0 ? (uint32_t)(x >> 32) % 256 + 1 : 1u << (t % 5);
        uint64_t base = t % 50 == 0 ? UINT64_MAX - 300 : 0x10000 + (x >> 40 & 0xff) * 128;
        for (int i = 0; i < 32; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t off = t % 2 ? (uint64_t)i * width : x % 512;
            if (t % 7 == 4) { /* descending lanes, every other one a gap of one byte */
                off = (uint64_t)(31 - i) * (width + (uint64_t)(i % 2));
            }
            addrs[i] = base + off > base ? base + off : UINT64_MAX - (x % 64);
        }
        check_same(addrs, mask, width);
    }
}

/* Gathers and scatters against the same reference: lanes on lines far apart (random,
 * or a power-of-two stride of lines, so many lines share low address bits), widths up
 * to 256 so that a warp makes up to SM_COALESCE_MAX_REQS requests, and lanes that
 * come back to a line of an earlier lane after others. */
static void test_scatter_against_bytewise(void)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    size_t most = 0;
    for (int t = 0; t < 3000; t++) {
        uint64_t addrs[32];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t mask = t % 4 == 0 ? (uint32_t)x : 0xffffffffu;
        uint32_t width = t % 3 == 0 ? 256 : (uint32_t)(x >> 40) % 256 + 1;
        uint64_t stride = (uint64_t)128 << (t % 24);
        for (int i = 0; i < 32; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t line = t % 2 ? x % 40 : (uint64_t)(i % (1 + t / 2 % 32)) * stride;
            addrs[i] = 0x100000 + line * 128 + x % 128;
        }
        check_same(addrs, mask, width);
        SmLineReq r[SM_COALESCE_MAX_REQS];
        size_t n = sm_coalesce(addrs, mask, width, r);
        most = n > most ? n : most;
    }
    CHECK_EQ_U64(most, SM_COALESCE_MAX_REQS);
}

int main(void)
{
    RUN(test_w4_full_warp_one_line);
    RUN(test_w4_four_lanes_one_sector);
    RUN(test_w4_stride_128);
    RUN(test_line_crossing);
    RUN(test_order_of_first_appearance);
    RUN(test_partial_mask_lane_order);
    RUN(test_byte_mask_and_wide_access);
    RUN(test_wider_than_a_line);
    RUN(test_top_of_address_space);
    RUN(test_against_bytewise);
    RUN(test_scatter_against_bytewise);
    return harness_report();
}
