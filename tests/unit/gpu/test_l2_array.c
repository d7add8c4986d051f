/* L2 tag/data array (hw/gpu/l2_array.c): geometry, set mapping, LRU victims and the
 * byte masks. */
#include <stdint.h>

#include "hw/gpu/l2_array.h"
#include "tests/unit/harness.h"

static void test_geometry(void)
{
    L2Array a;
    char msg[128];
    CHECK(l2a_init(&a, 2u << 20, 16, 64, msg, sizeof msg));
    CHECK_EQ_U64(a.sets, 2048);
    l2a_free(&a);
    CHECK(!l2a_init(&a, 1000, 16, 64, msg, sizeof msg));
    CHECK(!l2a_init(&a, 4096, 4, 48, msg, sizeof msg));
    CHECK(!l2a_init(&a, 4096, 4, 256, msg, sizeof msg));
}

/* 2 sets x 2 ways of 64 B: lines 0x0, 0x80, 0x100 share set 0. */
static void test_lru(void)
{
    L2Array a;
    char msg[128];
    CHECK(l2a_init(&a, 256, 2, 64, msg, sizeof msg));
    static const uint64_t lines[] = {0x0, 0x80};
    for (int k = 0; k < 2; k++) {
        size_t v = l2a_victim(&a, lines[k]);
        CHECK_EQ_U64(v, (size_t)k);
        l2a_fill(&a, v, lines[k]);
    }
    CHECK_EQ_U64(l2a_find(&a, 0x80), 1);
    CHECK(l2a_find(&a, 0x40) < 0);
    CHECK_EQ_U64(l2a_victim(&a, 0x40), 2);
    CHECK_EQ_U64(l2a_victim(&a, 0x100), 0);
    l2a_touch(&a, 0);
    CHECK_EQ_U64(l2a_victim(&a, 0x100), 1);
    /* a dropped way is found no more and is the next victim of its set */
    l2a_drop(&a, 0);
    CHECK(l2a_find(&a, 0x0) < 0);
    CHECK_EQ_U64(l2a_find(&a, 0x80), 1);
    CHECK_EQ_U64(l2a_victim(&a, 0x100), 0);
    l2a_clear(&a);
    CHECK(l2a_find(&a, 0x80) < 0);
    l2a_free(&a);
}

static void test_masks(void)
{
    uint64_t m[L2A_MASK_WORDS] = {0};
    CHECK(!l2m_any(m));
    l2m_set(m, 60, 8);
    CHECK(l2m_all(m, 60, 8));
    CHECK(!l2m_all(m, 59, 2));
    CHECK(l2m_bit(m, 64) && l2m_bit(m, 67) && !l2m_bit(m, 68));
    CHECK_EQ_U64(m[0], 0xf000000000000000ULL);
    CHECK_EQ_U64(m[1], 0xf);
}

int main(void)
{
    RUN(test_geometry);
    RUN(test_lru);
    RUN(test_masks);
    return harness_report();
}
