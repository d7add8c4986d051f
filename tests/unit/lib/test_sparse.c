/* Unit tests of the sparse store and the fill pattern (hw/lib/sparse.c, fill.h).
 * Hash-fill bytes were computed with tools/ref/fill_hash.py. */
#include <stdlib.h>

#include "hw/lib/fill.h"
#include "hw/lib/sparse.h"
#include "tests/unit/harness.h"

static void test_fill_hash_reference(void)
{
    /* tools/ref/fill_hash.py 0x40 8 -> 0xd3ab4ff425807c29 */
    static const uint8_t want[8] = {0xd3, 0xab, 0x4f, 0xf4, 0x25, 0x80, 0x7c, 0x29};
    uint8_t got[8];
    fill_bytes(FILL_HASH, 0x40, got, 8);
    CHECK(memcmp(got, want, 8) == 0);
    fill_bytes(FILL_ZERO, 0x40, got, 8);
    for (int i = 0; i < 8; i++) {
        CHECK_EQ_U64(got[i], 0);
    }
}

/* A 128-byte line, the length the memory and the data check fill most, from an
 * address whose range wraps past 2^64 (tools/ref/fill_hash.py 0xffffffffffffffc3
 * 128): the addresses wrap as the reference's do (mod 2^64). */
static void test_fill_hash_line_reference(void)
{
    static const uint8_t want[128] = {
        0x61, 0x9a, 0x23, 0xef, 0x8f, 0xc6, 0x04, 0xe8, 0x32, 0x15, 0x38, 0x57, 0xb7,
        0x32, 0xc6, 0x38, 0xdd, 0x73, 0x05, 0xa7, 0x11, 0xdb, 0x96, 0x74, 0x4c, 0xb6,
        0xeb, 0x95, 0xd4, 0x7f, 0x1b, 0x75, 0x4f, 0x05, 0xb1, 0xf2, 0x17, 0x76, 0xd8,
        0xd9, 0xcc, 0x0b, 0x25, 0x61, 0xdf, 0x84, 0x04, 0xf1, 0x1d, 0x91, 0x2e, 0x18,
        0x5e, 0xb7, 0xf3, 0x47, 0x4e, 0x17, 0xcf, 0x02, 0x7b, 0x00, 0xe5, 0x8a, 0xf0,
        0x14, 0xdc, 0x6c, 0x14, 0xe8, 0xd7, 0x79, 0x6d, 0xbc, 0xd1, 0x29, 0x39, 0xbd,
        0xbe, 0x71, 0x57, 0xf2, 0x49, 0x7b, 0xa5, 0xb8, 0x38, 0xdb, 0xfc, 0xa2, 0x52,
        0x72, 0x65, 0x45, 0xc7, 0x3c, 0xbe, 0xe2, 0x18, 0x6e, 0x83, 0x25, 0x25, 0x22,
        0xca, 0xf7, 0x83, 0x4b, 0x1c, 0x64, 0xdf, 0x30, 0xf9, 0x27, 0xd4, 0x5c, 0x9b,
        0x04, 0x11, 0x78, 0x1e, 0xe5, 0x3f, 0x6b, 0x15, 0xd3, 0xab, 0x4f,
    };
    uint8_t got[128];
    fill_bytes(FILL_HASH, 0xffffffffffffffc3ULL, got, sizeof got);
    CHECK(memcmp(got, want, sizeof want) == 0);
}

/* Every length up to two lines from every start within 16 bytes, byte by byte against
 * fill_byte: the host's version of fill_hash_bytes (fill.c: four lanes at a time on
 * hosts with AVX-512) must give each byte of its head, body and tail loops. */
static void test_fill_hash_lengths(void)
{
    uint8_t got[272];
    size_t wrong = 0;
    for (uint64_t start = 0; start < 16; start++) {
        for (size_t len = 0; len <= 256; len++) {
            uint64_t a = 0x7f4a00200000ULL + start;
            memset(got, 0xa5, sizeof got);
            fill_hash_bytes(a, got, len);
            for (size_t i = 0; i < len; i++) {
                wrong += got[i] != fill_byte(FILL_HASH, a + i);
            }
            for (size_t i = len; i < sizeof got; i++) {
                wrong += got[i] != 0xa5; /* nothing past the range */
            }
        }
    }
    CHECK_EQ_U64(wrong, 0);
}

static void test_untouched_reads_fill(void)
{
    SparseStore *s = sparse_new(FILL_HASH);
    uint8_t got[300], want[300];
    sparse_read(s, 0x100000000ULL - 17, got, sizeof got);
    fill_bytes(FILL_HASH, 0x100000000ULL - 17, want, sizeof want);
    CHECK(memcmp(got, want, sizeof got) == 0);
    CHECK_EQ_U64(sparse_pages(s), 0);
    sparse_free(s);
}

static void test_write_read_back(void)
{
    SparseStore *s = sparse_new(FILL_HASH);
    const uint8_t d[4] = {1, 2, 3, 4};
    sparse_write(s, 0x40, d, NULL, 4);
    uint8_t got[6], want[6];
    sparse_read(s, 0x3f, got, 6);
    fill_bytes(FILL_HASH, 0x3f, want, 6);
    CHECK_EQ_U64(got[0], want[0]);
    CHECK(memcmp(got + 1, d, 4) == 0);
    CHECK_EQ_U64(got[5], want[5]);
    CHECK_EQ_U64(sparse_pages(s), 1);
    sparse_free(s);
}

static void test_byte_enables(void)
{
    SparseStore *s = sparse_new(FILL_ZERO);
    const uint8_t d[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    const uint8_t be[4] = {0xff, 0, 0xff, 0};
    sparse_write(s, 0x1000, d, be, 4);
    uint8_t got[4];
    sparse_read(s, 0x1000, got, 4);
    CHECK_EQ_U64(got[0], 0xaa);
    CHECK_EQ_U64(got[1], 0);
    CHECK_EQ_U64(got[2], 0xcc);
    CHECK_EQ_U64(got[3], 0);
    /* A write with every byte disabled allocates nothing. */
    const uint8_t none[4] = {0, 0, 0, 0};
    sparse_write(s, 0x9000, d, none, 4);
    CHECK_EQ_U64(sparse_pages(s), 1);
    /* data NULL writes zeros. */
    SparseStore *h = sparse_new(FILL_HASH);
    sparse_write(h, 0x10, NULL, NULL, 2);
    sparse_read(h, 0x10, got, 2);
    CHECK_EQ_U64(got[0], 0);
    CHECK_EQ_U64(got[1], 0);
    sparse_free(h);
    sparse_free(s);
}

static void test_cross_page_and_many_pages(void)
{
    SparseStore *s = sparse_new(FILL_HASH);
    uint8_t d[600];
    for (size_t i = 0; i < sizeof d; i++) {
        d[i] = (uint8_t)(i * 7);
    }
    uint64_t a = 5 * SPARSE_PAGE_BYTES - 3;
    sparse_write(s, a, d, NULL, sizeof d);
    uint8_t got[600];
    sparse_read(s, a, got, sizeof got);
    CHECK(memcmp(got, d, sizeof d) == 0);
    CHECK_EQ_U64(sparse_pages(s), 4); /* bytes touch pages 4, 5, 6 and 7 */
    /* Many scattered pages survive table growth. */
    for (uint64_t i = 0; i < 5000; i++) {
        uint8_t v = (uint8_t)i;
        sparse_write(s, i * 0x100000ULL + 9, &v, NULL, 1);
    }
    int bad = 0;
    for (uint64_t i = 1; i < 5000; i++) {
        uint8_t v;
        sparse_read(s, i * 0x100000ULL + 9, &v, 1);
        bad += v != (uint8_t)i;
    }
    CHECK_EQ_U64(bad, 0);
    sparse_clear(s);
    CHECK_EQ_U64(sparse_pages(s), 0);
    uint8_t want[600];
    sparse_read(s, a, got, sizeof got);
    fill_bytes(FILL_HASH, a, want, sizeof want);
    CHECK(memcmp(got, want, sizeof got) == 0);
    sparse_free(s);
}

int main(void)
{
    RUN(test_fill_hash_reference);
    RUN(test_fill_hash_line_reference);
    RUN(test_fill_hash_lengths);
    RUN(test_untouched_reads_fill);
    RUN(test_write_read_back);
    RUN(test_byte_enables);
    RUN(test_cross_page_and_many_pages);
    return harness_report();
}
