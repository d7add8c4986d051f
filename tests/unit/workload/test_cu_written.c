/* Unit tests of the cu's record of written bytes (hw/workload/cu_written.c): runs per
 * line in ascending address order, byte enables, writes crossing lines, clearing. */
#include "hw/workload/cu_written.h"
#include "tests/unit/harness.h"

static void test_runs(void)
{
    CuWritten w;
    cu_written_init(&w, 64);
    CHECK(cu_written_empty(&w));
    cu_written_add(&w, 0x1000, NULL, 4);    /* line 0x40 bytes 0..3 */
    cu_written_add(&w, 0x80 + 60, NULL, 8); /* line 2 bytes 60..63, line 3 0..3 */
    const uint8_t be[6] = {0xff, 0xff, 0, 0xff, 0, 0xff};
    cu_written_add(&w, 0x1008, be, 6);   /* bytes 8, 9, 11, 13 of line 0x40 */
    cu_written_add(&w, 0x1004, NULL, 4); /* joins 0..3 into 0..7 (.. 9) */
    CHECK(!cu_written_empty(&w));
    cu_written_sort(&w);
    const uint64_t addr[] = {0xbc, 0xc0, 0x1000, 0x100b, 0x100d};
    const uint32_t len[] = {4, 4, 10, 1, 1};
    uint64_t a;
    uint32_t l;
    for (int i = 0; i < 5; i++) {
        CHECK(cu_written_next(&w, &a, &l));
        CHECK_EQ_U64(a, addr[i]);
        CHECK_EQ_U64(l, len[i]);
    }
    CHECK(!cu_written_next(&w, &a, &l));
    cu_written_clear(&w);
    CHECK(cu_written_empty(&w));
    cu_written_sort(&w);
    CHECK(!cu_written_next(&w, &a, &l));
    cu_written_clear(&w);
}

/* Many lines added in descending order come back ascending, each a full line. */
static void test_many(void)
{
    CuWritten w;
    cu_written_init(&w, 128);
    for (uint64_t i = 0; i < 1000; i++) {
        cu_written_add(&w, (999 - i) * 256, NULL, 128);
    }
    cu_written_sort(&w);
    uint64_t a, bad = 0;
    uint32_t l;
    for (uint64_t i = 0; i < 1000; i++) {
        bad += !cu_written_next(&w, &a, &l) || a != i * 256 || l != 128;
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(!cu_written_next(&w, &a, &l));
    cu_written_clear(&w);
}

int main(void)
{
    RUN(test_runs);
    RUN(test_many);
    return harness_report();
}
