/* Unit tests of a FinePack remote write queue partition (hw/finepack/rwq_part.h):
 * windows, exact payload, entry limit, byte enables, run order, overlap. */
#include "hw/finepack/rwq_part.h"
#include "tests/unit/harness.h"

static RwqConfig cfg(uint32_t subhdr, uint32_t max_payload)
{
    RwqConfig c = {subhdr, fp_offset_bits(subhdr), max_payload};
    return c;
}

static void put4(RwqPart *p, const RwqConfig *c, uint64_t addr, uint32_t v, uint64_t id)
{
    uint8_t d[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
                    (uint8_t)v};
    rwq_part_insert(p, c, addr, 4, d, NULL, id);
}

static void test_f1(void)
{
    /* SPEC F1: stores 1-4 fit window 4 (subhdr 5); store 5 is in window 5 */
    RwqConfig c = cfg(5, 4096);
    RwqPart p;
    rwq_part_init(&p, 64);
    CHECK(rwq_part_check(&p, &c, 0x100000000ULL, 4, NULL) == RWQ_FIT_OK);
    put4(&p, &c, 0x100000000ULL, 0xAAAAAAAA, 1);
    put4(&p, &c, 0x100000004ULL, 0xBBBBBBBB, 2);
    CHECK_EQ_U64(p.payload, 13);
    put4(&p, &c, 0x100000000ULL, 0xCCCCCCCC, 3);
    CHECK_EQ_U64(p.payload, 13);
    put4(&p, &c, 0x100001000ULL, 0xDDDDDDDD, 4);
    CHECK_EQ_U64(p.payload, 22);
    CHECK(rwq_part_check(&p, &c, 0x140000000ULL, 4, NULL) == RWQ_FIT_WINDOW);
    RwqRun r[2 * RWQ_RUNS_PER_ENTRY];
    CHECK_EQ_U64(rwq_part_runs(&p, r), 2);
    CHECK_EQ_U64(r[0].addr, 0x100000000ULL);
    CHECK_EQ_U64(r[0].len, 8);
    CHECK_EQ_U64(r[0].data[0], 0xCC);
    CHECK_EQ_U64(r[0].data[4], 0xBB);
    CHECK_EQ_U64(r[0].writer[0], 3);
    CHECK_EQ_U64(r[0].writer[4], 2);
    CHECK_EQ_U64(r[1].addr, 0x100001000ULL);
    rwq_part_free(&p);
}

static void test_f2_gap(void)
{
    /* SPEC F2: bytes 0-3 and 8-11 of one entry -> two runs, payload 18 */
    RwqConfig c = cfg(5, 4096);
    RwqPart p;
    rwq_part_init(&p, 64);
    put4(&p, &c, 0x80, 1, 1);
    put4(&p, &c, 0x88, 2, 2);
    CHECK_EQ_U64(p.payload, 18);
    CHECK_EQ_U64(p.n, 1);
    /* filling the gap joins the runs: 5 + 12 */
    put4(&p, &c, 0x84, 3, 3);
    CHECK_EQ_U64(p.payload, 17);
    rwq_part_free(&p);
}

static void test_byte_enables(void)
{
    /* a 8-byte store with byte enables 1,0,0,1,1,0,1,0 -> runs at 0, 3-4, 6 */
    RwqConfig c = cfg(2, 4096);
    RwqPart p;
    rwq_part_init(&p, 4);
    const uint8_t d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint8_t be[8] = {0xff, 0, 0, 0xff, 0xff, 0, 0xff, 0};
    CHECK_EQ_U64(rwq_part_insert(&p, &c, 0x10, 8, d, be, 9), 0);
    CHECK_EQ_U64(p.payload, 3 + 4 + 3);
    RwqRun r[4 * RWQ_RUNS_PER_ENTRY];
    CHECK_EQ_U64(rwq_part_runs(&p, r), 3);
    CHECK_EQ_U64(r[1].addr, 0x13);
    CHECK_EQ_U64(r[1].len, 2);
    CHECK_EQ_U64(r[1].data[1], 5);
    /* overwrite two enabled bytes */
    CHECK_EQ_U64(rwq_part_insert(&p, &c, 0x13, 2, d, NULL, 10), 2);
    rwq_part_free(&p);
}

static void test_entries_and_payload(void)
{
    RwqConfig c = cfg(5, 448);
    RwqPart p;
    rwq_part_init(&p, 2);
    put4(&p, &c, 0x000, 1, 1);
    put4(&p, &c, 0x080, 1, 2);
    CHECK(rwq_part_check(&p, &c, 0x004, 4, NULL) == RWQ_FIT_OK);
    CHECK(rwq_part_check(&p, &c, 0x100, 4, NULL) == RWQ_FIT_ENTRIES);
    /* payload: 9 + 9 now; a 128 B run in line 0 would give 133 + 9 = 142 */
    CHECK(rwq_part_check(&p, &c, 0x000, 128, NULL) == RWQ_FIT_OK);
    rwq_part_clear(&p);
    CHECK(rwq_part_check(&p, &c, 0x100, 4, NULL) == RWQ_FIT_OK);
    /* three full lines = 3 x 133 = 399; 448 - 399 = 49 = 5 + 44 fits, 45 does not */
    RwqPart q;
    rwq_part_init(&q, 8);
    for (int i = 0; i < 3; i++) {
        rwq_part_insert(&q, &c, 0x1000 + 128u * (uint32_t)i, 128, NULL, NULL, 1);
    }
    CHECK_EQ_U64(q.payload, 399);
    CHECK(rwq_part_check(&q, &c, 0x2000, 44, NULL) == RWQ_FIT_OK);
    CHECK(rwq_part_check(&q, &c, 0x2000, 45, NULL) == RWQ_FIT_PAYLOAD);
    rwq_part_free(&q);
    rwq_part_free(&p);
}

static void test_overlap(void)
{
    RwqConfig c = cfg(5, 4096);
    RwqPart p;
    rwq_part_init(&p, 4);
    put4(&p, &c, 0x108, 7, 1);
    CHECK(rwq_part_overlaps(&p, 0x10b, 1));
    CHECK(rwq_part_overlaps(&p, 0x100, 9));
    CHECK(!rwq_part_overlaps(&p, 0x100, 8));
    CHECK(!rwq_part_overlaps(&p, 0x10c, 4));
    CHECK(!rwq_part_overlaps(&p, 0x4108, 4));
    rwq_part_free(&p);
}

int main(void)
{
    RUN(test_f1);
    RUN(test_f2_gap);
    RUN(test_byte_enables);
    RUN(test_entries_and_payload);
    RUN(test_overlap);
    return harness_report();
}
