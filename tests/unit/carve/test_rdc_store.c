/* RDC sparse store: direct mapping, tags, epochs, invalidation, conflict replacement,
 * clearing, and host memory growing with the sets touched, not with the size. */
#include "hw/carve/rdc_store.h"
#include "hw/lib/fill.h"
#include "tests/unit/harness.h"

static void fill_pattern(uint8_t *buf, uint8_t v)
{
    for (int i = 0; i < 128; i++) {
        buf[i] = (uint8_t)(v + i);
    }
}

static void test_fill_get(void)
{
    RdcStore *s = rdc_store_new(1024, 128, false);
    uint8_t buf[128];
    RdcLine ln;
    CHECK(!rdc_store_get(s, 5, &ln));
    CHECK(!ln.valid);
    fill_pattern(buf, 7);
    rdc_store_fill(s, 5, 3, buf);
    CHECK(rdc_store_get(s, 5, &ln));
    CHECK(ln.valid);
    CHECK_EQ_U64(ln.tag, 5);
    CHECK_EQ_U64(ln.epoch, 3);
    CHECK_EQ_U64(ln.data[0], 7);
    CHECK_EQ_U64(ln.data[127], (uint8_t)(7 + 127));
    CHECK_EQ_U64(rdc_store_valid(s), 1);
    rdc_store_free(s);
}

static void test_conflict(void)
{
    RdcStore *s = rdc_store_new(1024, 128, false);
    uint8_t a[128], b[128];
    fill_pattern(a, 1);
    fill_pattern(b, 100);
    CHECK_EQ_U64(rdc_store_set_of(s, 5), rdc_store_set_of(s, 5 + 1024));
    rdc_store_fill(s, 5, 0, a);
    rdc_store_fill(s, 5 + 1024, 0, b);
    RdcLine ln;
    CHECK(rdc_store_get(s, 5, &ln));
    CHECK_EQ_U64(ln.tag, 5 + 1024);
    CHECK_EQ_U64(ln.data[0], 100);
    CHECK(!rdc_store_invalidate(s, 5));
    CHECK(rdc_store_invalidate(s, 5 + 1024));
    CHECK(!rdc_store_invalidate(s, 5 + 1024));
    CHECK_EQ_U64(rdc_store_valid(s), 0);
    CHECK_EQ_U64(rdc_store_sets_used(s), 1);
    rdc_store_free(s);
}

static void test_many_and_clear(void)
{
    uint64_t sets = (uint64_t)16 << 20; /* 2 GiB of 128 B lines */
    RdcStore *s = rdc_store_new(sets, 128, false);
    uint8_t buf[128];
    for (uint64_t n = 0; n < 5000; n++) {
        fill_pattern(buf, (uint8_t)n);
        rdc_store_fill(s, n * 977, (uint32_t)n, buf);
    }
    CHECK_EQ_U64(rdc_store_sets_used(s), 5000);
    CHECK(rdc_store_host_bytes(s) < 4u << 20);
    int bad = 0;
    for (uint64_t n = 0; n < 5000; n++) {
        RdcLine ln;
        if (!rdc_store_get(s, n * 977, &ln) || ln.tag != n * 977 || ln.epoch != n ||
            ln.data[1] != (uint8_t)(n + 1)) {
            bad++;
        }
    }
    CHECK_EQ_U64(bad, 0);
    rdc_store_clear(s);
    RdcLine ln;
    CHECK(!rdc_store_get(s, 977, &ln));
    CHECK_EQ_U64(rdc_store_valid(s), 0);
    CHECK_EQ_U64(rdc_store_sets_used(s), 0);
    rdc_store_free(s);
}

static void test_hash_index(void)
{
    RdcStore *m = rdc_store_new(32, 128, false);
    RdcStore *h = rdc_store_new(32, 128, true);
    /* Lines 8192 and 8224 (32 apart) share set 0 under modulo 32. */
    CHECK_EQ_U64(rdc_store_set_of(m, 8192), 0);
    CHECK_EQ_U64(rdc_store_set_of(m, 8224), 0);
    CHECK_EQ_U64(rdc_store_set_of(h, 8192), fill_mix(8192) % 32);
    CHECK_EQ_U64(rdc_store_set_of(h, 8224), fill_mix(8224) % 32);
    /* Regions at offset 0 of GPUs 0..3 (4 GiB apart = 2^25 lines) with 2^24 sets:
     * modulo puts line j of every GPU into set j; hash spreads the 4 x 128 lines. */
    RdcStore *big = rdc_store_new((uint64_t)1 << 24, 128, true);
    uint64_t distinct = 0;
    static uint8_t seen[(1u << 24) / 8];
    for (uint64_t g = 0; g < 4; g++) {
        for (uint64_t j = 0; j < 128; j++) {
            uint64_t set = rdc_store_set_of(big, (g << 25) + j);
            if (!(seen[set / 8] & (1u << (set % 8)))) {
                seen[set / 8] |= (uint8_t)(1u << (set % 8));
                distinct++;
            }
        }
    }
    CHECK(distinct >= 510);
    rdc_store_free(m);
    rdc_store_free(h);
    rdc_store_free(big);
}

int main(void)
{
    RUN(test_hash_index);
    RUN(test_fill_get);
    RUN(test_conflict);
    RUN(test_many_and_clear);
    return harness_report();
}
