/* L2 tag/data array (hw/gpu/l2_array.c): geometry, set mapping (modulo and xor), LRU
 * victims and the byte masks. */
#include <stdint.h>
#include <string.h>

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

/* Sets used by lines 4k x 64 B, k = 0..255 (a stride of 4 lines, as a GPU's lines of
 * pages interleaved across 4 GPUs or a cu's `owned` lines with 4 owners) in a 64 KiB
 * cache of 16 ways (64 sets of 64 B lines), and how many lines each holds.
 * By hand: modulo puts line number n = 4k in set 4k mod 64 = 4 (k mod 16): 16 sets
 * (0, 4, ..., 60) of 16 lines each, 48 sets empty. xor (6-bit fields; n < 1024 has
 * two) gives set (4a) ^ b with a = k mod 16, b = k / 16 (0..15): for a set v, b =
 * v ^ 4a is below 16 iff bits 2-3 of a equal bits 4-5 of v, which leaves 4 values of
 * a, each with one b: all 64 sets, 4 lines each. */
static void occupancy(L2Index index, uint32_t want_used, uint32_t want_per_set)
{
    L2Array a;
    char msg[128];
    CHECK(l2a_init(&a, 64 * 16 * 64, 16, 64, msg, sizeof msg));
    CHECK(l2a_set_index(&a, index, msg, sizeof msg));
    CHECK_EQ_U64(a.sets, 64);
    uint32_t count[64] = {0};
    for (uint64_t k = 0; k < 256; k++) {
        size_t set = l2a_set(&a, 4 * k * 64);
        CHECK(set < 64);
        count[set]++;
    }
    uint32_t used = 0;
    for (int s = 0; s < 64; s++) {
        if (count[s]) {
            used++;
            CHECK_EQ_U64(count[s], want_per_set);
        }
    }
    CHECK_EQ_U64(used, want_used);
    l2a_free(&a);
}

static void test_index_occupancy(void)
{
    occupancy(L2A_MODULO, 16, 16);
    occupancy(L2A_XOR, 64, 4);
}

/* The same 256 strided lines in 64 sets x 8 ways (512 lines, twice the footprint),
 * filled in order and then looked up: modulo's 16 sets get 16 lines each and keep the
 * last 8 (LRU), so 128 lines are found; xor's 4 lines per set all stay. */
static uint32_t resident(L2Index index)
{
    L2Array a;
    char msg[128];
    CHECK(l2a_init(&a, 64 * 8 * 64, 8, 64, msg, sizeof msg));
    CHECK(l2a_set_index(&a, index, msg, sizeof msg));
    for (uint64_t k = 0; k < 256; k++) {
        uint64_t line = 4 * k * 64;
        l2a_fill(&a, l2a_victim(&a, line), line);
    }
    uint32_t found = 0;
    for (uint64_t k = 0; k < 256; k++) {
        found += l2a_find(&a, 4 * k * 64) >= 0;
    }
    l2a_free(&a);
    return found;
}

static void test_index_resident(void)
{
    CHECK_EQ_U64(resident(L2A_MODULO), 128);
    CHECK_EQ_U64(resident(L2A_XOR), 256);
}

/* xor keeps an aligned run of 64 lines one line per set, as modulo does (line numbers
 * n = 0x1fc0 + i, i = 0..63: the upper fields are the same for all, so the set is i
 * XOR a constant); n = 0x1fc5 has the 6-bit fields 000101, 111111 and 1, set 0x3b.
 * A set count that is not a power of two (1.5 KiB / (4 x 64 B) = 6 sets) is refused. */
static void test_index_contiguous(void)
{
    L2Array a;
    char msg[128];
    CHECK(l2a_init(&a, 64 * 16 * 64, 16, 64, msg, sizeof msg));
    CHECK(l2a_set_index(&a, L2A_XOR, msg, sizeof msg));
    uint32_t seen[64] = {0};
    for (uint64_t i = 0; i < 64; i++) {
        seen[l2a_set(&a, (0x1fc0 + i) * 64)]++;
    }
    for (int s = 0; s < 64; s++) {
        CHECK_EQ_U64(seen[s], 1);
    }
    CHECK_EQ_U64(l2a_set(&a, (0x1fc0 + 5) * 64), 0x3b);
    l2a_free(&a);
    CHECK(l2a_init(&a, 1536, 4, 64, msg, sizeof msg));
    CHECK(!l2a_set_index(&a, L2A_XOR, msg, sizeof msg));
    CHECK(strstr(msg, "power-of-two set count") != NULL);
    CHECK(l2a_set_index(&a, L2A_MODULO, msg, sizeof msg));
    l2a_free(&a);
}

int main(void)
{
    RUN(test_geometry);
    RUN(test_lru);
    RUN(test_masks);
    RUN(test_index_occupancy);
    RUN(test_index_resident);
    RUN(test_index_contiguous);
    return harness_report();
}
