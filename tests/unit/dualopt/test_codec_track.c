/* Unit tests of the de-coalescer's request records (hw/dualopt/codec_track.c): the
 * fine-grained predicate, lookups by id and by 16-bit response id, clashes, growth. */
#include <string.h>

#include "hw/dualopt/codec_track.h"
#include "tests/unit/harness.h"

static Txn req(uint64_t id, uint64_t addr, uint32_t len, uint32_t mask)
{
    Txn t;
    memset(&t, 0, sizeof t);
    t.id = id;
    t.cmd = TXN_READ;
    t.addr = addr;
    t.len = len;
    t.mask = mask;
    t.src = 2;
    t.unit = 7;
    return t;
}

static void test_is_fine(void)
{
    Txn t = req(1, 0x1040, 4, 0x1);
    CHECK(codec_is_fine(&t));
    t = req(1, 0x1040, 4, 0x2); /* word 1 = 0x1044 is outside [0x1040, 0x1044) */
    CHECK(!codec_is_fine(&t));
    t = req(1, 0x1044, 4, 0x2);
    CHECK(codec_is_fine(&t));
    t = req(1, 0x1040, 64, 0xffff);
    CHECK(codec_is_fine(&t));
    t = req(1, 0x1040, 64, 0);
    CHECK(!codec_is_fine(&t));
    t = req(1, 0x1040, 64, 0x10000);
    CHECK(!codec_is_fine(&t));
    t = req(1, 0x1048, 8, 0x0c); /* words 2 and 3 */
    CHECK(codec_is_fine(&t));
    t = req(1, 0x1048, 8, 0x1c);
    CHECK(!codec_is_fine(&t));
}

static void test_add_find_remove(void)
{
    CodecTrack k = {0};
    bool clash = true;
    Txn a = req(0x12345, 0x1040, 64, 0x5);
    CHECK(codec_track_add(&k, &a, &clash));
    CHECK(!clash);
    CHECK(!codec_track_add(&k, &a, &clash));
    CodecReq *r = codec_track_by_tag(&k, 0x2345);
    CHECK(r != NULL);
    CHECK(r == codec_track_by_id(&k, 0x12345));
    CHECK_EQ_U64(r->addr, 0x1040);
    CHECK_EQ_U64(r->mask, 0x5);
    CHECK_EQ_U64(r->unit, 7);
    CHECK_EQ_U64(r->got, 0);
    CHECK(codec_track_by_tag(&k, 0x2346) == NULL);
    codec_track_remove(&k, r);
    CHECK(codec_track_by_id(&k, 0x12345) == NULL);
    CHECK(codec_track_by_tag(&k, 0x2345) == NULL);
    CHECK_EQ_U64(codec_track_count(&k), 0);
    codec_track_destroy(&k);
}

static void test_clash(void)
{
    CodecTrack k = {0};
    bool clash;
    Txn a = req(5, 0x40, 4, 1), b = req(5 + 65536, 0x80, 4, 1);
    CHECK(codec_track_add(&k, &a, &clash));
    CHECK(!clash);
    CHECK(codec_track_add(&k, &b, &clash));
    CHECK(clash);
    CHECK_EQ_U64(codec_track_by_tag(&k, 5)->id, 5);
    CodecReq *rb = codec_track_by_id(&k, 5 + 65536);
    CHECK(rb != NULL && !rb->tagged);
    codec_track_remove(&k, codec_track_by_id(&k, 5));
    CHECK(codec_track_by_tag(&k, 5) == NULL);
    CHECK(codec_track_by_id(&k, 5 + 65536) != NULL);
    codec_track_destroy(&k);
}

static void test_growth(void)
{
    CodecTrack k = {0};
    bool clash;
    for (uint64_t i = 1; i <= 300; i++) {
        Txn t = req(i, 0x40 * i, 4, 1);
        CHECK(codec_track_add(&k, &t, &clash));
    }
    CHECK_EQ_U64(codec_track_count(&k), 300);
    for (uint64_t i = 1; i <= 300; i += 2) {
        codec_track_remove(&k, codec_track_by_id(&k, i));
    }
    CHECK_EQ_U64(codec_track_count(&k), 150);
    for (uint64_t i = 2; i <= 300; i += 2) {
        CodecReq *r = codec_track_by_tag(&k, (uint16_t)i);
        CHECK(r != NULL && r->addr == 0x40 * i);
    }
    codec_track_destroy(&k);
}

int main(void)
{
    RUN(test_is_fine);
    RUN(test_add_find_remove);
    RUN(test_clash);
    RUN(test_growth);
    return harness_report();
}
