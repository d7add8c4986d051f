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
    RUN(test_untouched_reads_fill);
    RUN(test_write_read_back);
    RUN(test_byte_enables);
    RUN(test_cross_page_and_many_pages);
    return harness_report();
}
