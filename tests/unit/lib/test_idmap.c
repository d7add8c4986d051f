/* Unit tests of the id map (hw/lib/idmap.c) against a plain array reference. */
#include "hw/lib/idmap.h"
#include "hw/lib/rng.h"
#include "tests/unit/harness.h"

static void test_basic(void)
{
    IdMap m;
    idmap_init(&m);
    uint64_t v = 0;
    CHECK(!idmap_get(&m, 5, &v));
    CHECK(!idmap_remove(&m, 5, &v));
    CHECK(idmap_insert(&m, 5, 50));
    CHECK(!idmap_insert(&m, 5, 51));
    CHECK(idmap_get(&m, 5, &v));
    CHECK_EQ_U64(v, 50);
    CHECK_EQ_U64(idmap_count(&m), 1);
    CHECK(idmap_remove(&m, 5, &v));
    CHECK_EQ_U64(v, 50);
    CHECK(!idmap_get(&m, 5, NULL));
    CHECK_EQ_U64(idmap_count(&m), 0);
    idmap_destroy(&m);
}

static void test_random_against_reference(void)
{
    enum { KEYS = 3000 };
    static uint64_t ref[KEYS]; /* 0 = absent, else value + 1 */
    IdMap m;
    idmap_init(&m);
    Rng r;
    rng_seed(&r, 7, 0, -1, -1);
    int bad = 0;
    for (int step = 0; step < 200000; step++) {
        uint64_t k = rng_below(&r, KEYS);
        uint64_t v;
        switch (rng_below(&r, 3)) {
        case 0:
            bad += idmap_insert(&m, k * 977, k + step) != (ref[k] == 0);
            if (ref[k] == 0) {
                ref[k] = k + step + 1;
            }
            break;
        case 1:
            if (idmap_remove(&m, k * 977, &v)) {
                bad += ref[k] != v + 1;
                ref[k] = 0;
            } else {
                bad += ref[k] != 0;
            }
            break;
        default:
            if (idmap_get(&m, k * 977, &v)) {
                bad += ref[k] != v + 1;
            } else {
                bad += ref[k] != 0;
            }
            break;
        }
    }
    size_t live = 0;
    for (int k = 0; k < KEYS; k++) {
        live += ref[k] != 0;
    }
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(idmap_count(&m), live);
    idmap_destroy(&m);
}

int main(void)
{
    RUN(test_basic);
    RUN(test_random_against_reference);
    return harness_report();
}
