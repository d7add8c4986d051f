/* Unit tests of the RDMA$ line array (hw/dualopt/rcache_store.c): geometry, set
 * mapping with a non-power-of-two set count, byte masks, free ways and LRU. */
#include "hw/dualopt/rcache_store.h"
#include "tests/unit/harness.h"

static void test_geometry(void)
{
    RcStore s;
    SimError err;
    CHECK(rc_store_init(&s, 3 * 1024 * 1024 / 2, 16, 64, &err));
    CHECK_EQ_U64(s.sets, 1536);
    /* line 1536 * 64 wraps to set 0, line 1537 * 64 to set 1 */
    RcLine *v0 = rc_victim(&s, 0);
    CHECK(v0 == rc_victim(&s, 1536 * 64));
    CHECK(v0 != rc_victim(&s, 1537 * 64));
    rc_store_destroy(&s);
    CHECK(!rc_store_init(&s, 4096, 4, 48, &err));
    CHECK(!rc_store_init(&s, 100, 2, 64, &err));
    CHECK(!rc_store_init(&s, 4096, 4, 128, &err));
}

static void test_byte_mask(void)
{
    RcStore s;
    SimError err;
    CHECK(rc_store_init(&s, 256, 2, 64, &err));
    CHECK_EQ_U64(rc_byte_mask(&s, 0x84, 4), 0xf0);
    CHECK_EQ_U64(rc_byte_mask(&s, 0x80, 64), UINT64_MAX);
    CHECK_EQ_U64(rc_byte_mask(&s, 0xbc, 4), 0xf000000000000000ull);
    CHECK_EQ_U64(rc_line_addr(&s, 0x1bf), 0x180);
    rc_store_destroy(&s);
}

/* Fills line la into its set the way the cache does: victim, then use. */
static RcLine *fill(RcStore *s, uint64_t la)
{
    RcLine *ln = rc_victim(s, la);
    ln->addr = la;
    ln->valid = 1;
    ln->dirty = 0;
    rc_touch(s, ln);
    return ln;
}

static void test_lru(void)
{
    RcStore s;
    SimError err;
    CHECK(rc_store_init(&s, 256, 2, 64, &err)); /* 2 sets x 2 ways */
    RcLine *a = fill(&s, 0x000);
    RcLine *b = fill(&s, 0x080);
    CHECK(a != b);
    CHECK(rc_lookup(&s, 0x000) == a);
    CHECK(rc_lookup(&s, 0x080) == b);
    CHECK(rc_lookup(&s, 0x040) == NULL);
    rc_touch(&s, a);
    CHECK(rc_victim(&s, 0x100) == b);
    fill(&s, 0x100);
    CHECK(rc_lookup(&s, 0x080) == NULL);
    CHECK(rc_lookup(&s, 0x100) == b);
    CHECK(rc_victim(&s, 0x180) == a);
    a->valid = 0; /* a free way is taken before any LRU victim */
    rc_touch(&s, b);
    CHECK(rc_victim(&s, 0x180) == a);
    CHECK(rc_lookup(&s, 0x000) == NULL);
    rc_store_destroy(&s);
}

int main(void)
{
    RUN(test_geometry);
    RUN(test_byte_mask);
    RUN(test_lru);
    return harness_report();
}
