/* Unit tests of the u64 map (kernel/idmap.c): basic use, growth across many
 * capacities, deletion (backward shift) against a plain array reference, and
 * iteration: every entry once, in an order fixed by the insert/remove sequence; the
 * same for ordered maps, whose keys sit at their value modulo the size (keys on a
 * stride of 16 collide there, so probing and backward shift get long runs); the
 * Robin Hood layout by hand, at home and across the end of the table. */
#include "kernel/idmap.h"

#include <stdlib.h>

#include "kernel/bits.h"
#include "tests/unit/harness.h"

/* xorshift64: the test's own deterministic key stream. */
static uint64_t test_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

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

/* The layout rule a search's and a remove's early stops rely on: each used slot
 * records its distance from its key's home (1 at home), and along a run no key sits
 * more than one slot further from home than the key before it (Robin Hood order);
 * the used slots are the map's count. */
static void test_robin_hood(const IdMap *m)
{
    size_t used = 0, bad_dist = 0, bad_order = 0;
    for (size_t i = 0; i < m->cap; i++) {
        const IdMapSlot *s = &m->slots[i];
        if (s->dist == 0) {
            continue;
        }
        used++;
        uint64_t h = (m->ordered ? s->key : bits_mix64(s->key)) & (m->cap - 1);
        bad_dist += s->dist != ((i - h) & (m->cap - 1)) + 1;
        bad_order += s->dist > m->slots[(i + m->cap - 1) & (m->cap - 1)].dist + 1;
    }
    CHECK_EQ_U64(used, idmap_count(m));
    CHECK_EQ_U64(bad_dist, 0);
    CHECK_EQ_U64(bad_order, 0);
}

static void test_random_against_reference(bool ordered)
{
    enum { KEYS = 3000 };
    static uint64_t ref[KEYS]; /* 0 = absent, else value + 1 */
    const uint64_t stride = ordered ? 16 : 977;
    for (int k = 0; k < KEYS; k++) {
        ref[k] = 0;
    }
    IdMap m;
    if (ordered) {
        idmap_init_ordered(&m);
    } else {
        idmap_init(&m);
    }
    uint64_t r = 7;
    int bad = 0;
    for (int step = 0; step < 200000; step++) {
        uint64_t k = test_next(&r) % KEYS;
        uint64_t v;
        switch (test_next(&r) % 3) {
        case 0:
            bad += idmap_insert(&m, k * stride, k + step) != (ref[k] == 0);
            if (ref[k] == 0) {
                ref[k] = k + step + 1;
            }
            break;
        case 1:
            if (idmap_remove(&m, k * stride, &v)) {
                bad += ref[k] != v + 1;
                ref[k] = 0;
            } else {
                bad += ref[k] != 0;
            }
            break;
        default:
            if (idmap_get(&m, k * stride, &v)) {
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
    test_robin_hood(&m);
    idmap_destroy(&m);
}

static void test_random_mixed(void)
{
    test_random_against_reference(false);
}

static void test_random_ordered(void)
{
    test_random_against_reference(true);
}

/* Keys 1..100 of an ordered map sit in key order (table of 256 slots), and stay so
 * after idmap_destroy and a refill; a mixed map's order is not the key order. */
static void test_ordered_layout(void)
{
    IdMap m, mixed;
    idmap_init_ordered(&m);
    idmap_init(&mixed);
    for (int round = 0; round < 2; round++) {
        for (uint64_t k = 1; k <= 100; k++) {
            CHECK(idmap_insert(&m, k, k * 3));
            CHECK(round > 0 || idmap_insert(&mixed, k, k));
        }
        size_t pos = 0;
        uint64_t key, value, want = 1;
        while (idmap_next(&m, &pos, &key, &value)) {
            CHECK_EQ_U64(key, want);
            CHECK_EQ_U64(value, want * 3);
            want++;
        }
        CHECK_EQ_U64(want, 101);
        idmap_destroy(&m);
    }
    size_t pos = 0, in_order = 0;
    uint64_t key, prev = 0;
    while (idmap_next(&mixed, &pos, &key, NULL)) {
        in_order += key > prev;
        prev = key;
    }
    CHECK(in_order < 100);
    idmap_destroy(&mixed);
}

/* An ordered map of 64 slots with keys 10..19 and 40..49 at home. 74 (home 10) goes
 * right after 10, moving 11..19 one slot on (a run is in the order of its keys'
 * homes; plain linear probing put 74 after 19); removing 74 brings them back home,
 * one slot each; removing 15 then leaves 16 at home and slot 15 free. */
static void test_remove_at_home(void)
{
    IdMap m;
    idmap_init_ordered(&m);
    for (uint64_t k = 10; k < 20; k++) {
        CHECK(idmap_insert(&m, k, k));
        CHECK(idmap_insert(&m, k + 30, k + 30));
    }
    CHECK_EQ_U64(m.cap, 64);
    CHECK(idmap_insert(&m, 74, 74));
    CHECK_EQ_U64(m.slots[11].key, 74);
    CHECK_EQ_U64(m.slots[11].dist, 2);
    CHECK_EQ_U64(m.slots[20].key, 19);
    CHECK_EQ_U64(m.slots[20].dist, 2);
    test_robin_hood(&m);
    CHECK(idmap_remove(&m, 74, NULL));
    CHECK_EQ_U64(m.slots[11].key, 11);
    CHECK_EQ_U64(m.slots[11].dist, 1);
    CHECK_EQ_U64(m.slots[20].dist, 0);
    CHECK(idmap_remove(&m, 15, NULL));
    CHECK_EQ_U64(m.slots[15].dist, 0);
    CHECK_EQ_U64(m.slots[16].key, 16);
    CHECK_EQ_U64(m.slots[16].dist, 1);
    uint64_t v = 0;
    CHECK(idmap_get(&m, 19, &v));
    CHECK_EQ_U64(v, 19);
    CHECK(!idmap_get(&m, 15, NULL));
    CHECK(!idmap_get(&m, 74, NULL));
    CHECK_EQ_U64(idmap_count(&m), 19);
    test_robin_hood(&m);
    idmap_destroy(&m);
}

/* The end of the table (ordered, 16 slots): 15, 31 and 47 all have home 15 and wrap
 * to slots 0 and 1; 16 (home 0) finds slots 0 and 1 held by keys further from home
 * and goes to slot 2. Removing 15 shifts the three back across the wrap, one slot
 * each: 31 home, 47 and 16 one slot away. */
static void test_wrap(void)
{
    IdMap m;
    idmap_init_ordered(&m);
    const uint64_t keys[] = {15, 31, 47, 16};
    for (size_t i = 0; i < 4; i++) {
        CHECK(idmap_insert(&m, keys[i], keys[i] * 10));
    }
    CHECK_EQ_U64(m.cap, 16);
    const struct {
        size_t slot;
        uint64_t key, dist;
    } before[] = {{15, 15, 1}, {0, 31, 2}, {1, 47, 3}, {2, 16, 3}},
      after[] = {{15, 31, 1}, {0, 47, 2}, {1, 16, 2}, {2, 0, 0}};
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ_U64(m.slots[before[i].slot].key, before[i].key);
        CHECK_EQ_U64(m.slots[before[i].slot].dist, before[i].dist);
    }
    test_robin_hood(&m);
    uint64_t v = 0;
    CHECK(idmap_remove(&m, 15, &v));
    CHECK_EQ_U64(v, 150);
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ_U64(m.slots[after[i].slot].dist, after[i].dist);
        if (after[i].dist) {
            CHECK_EQ_U64(m.slots[after[i].slot].key, after[i].key);
        }
    }
    for (size_t i = 1; i < 4; i++) {
        CHECK(idmap_get(&m, keys[i], &v) && v == keys[i] * 10);
    }
    CHECK(!idmap_get(&m, 15, NULL));
    test_robin_hood(&m);
    idmap_destroy(&m);
}

static void test_growth(void)
{
    IdMap m;
    idmap_init(&m);
    CHECK_EQ_U64(m.cap, 0);
    size_t grows = 0, cap = 0;
    for (uint64_t k = 0; k < 100000; k++) {
        CHECK(idmap_insert(&m, k << 20, ~k));
        if (m.cap != cap) {
            grows++;
            cap = m.cap;
        }
        CHECK(2 * m.count <= m.cap); /* never above half load */
    }
    CHECK_EQ_U64(idmap_count(&m), 100000);
    CHECK(grows >= 10);
    uint64_t bad = 0;
    for (uint64_t k = 0; k < 100000; k++) {
        uint64_t v = 0;
        bad += !idmap_get(&m, k << 20, &v) || v != ~k;
    }
    CHECK_EQ_U64(bad, 0);
    idmap_destroy(&m);
    CHECK_EQ_U64(idmap_count(&m), 0);
    CHECK(!idmap_get(&m, 0, NULL));
}

/* Visits m; returns the number of entries, checks each against the value rule and
 * writes the keys in visit order to keys (up to max). */
static size_t test_walk(const IdMap *m, uint64_t *keys, size_t max)
{
    size_t n = 0, pos = 0;
    uint64_t k, v;
    while (idmap_next(m, &pos, &k, &v)) {
        CHECK_EQ_U64(v, k * 3);
        if (n < max) {
            keys[n] = k;
        }
        n++;
    }
    CHECK(!idmap_next(m, &pos, &k, &v));
    return n;
}

static void test_iteration(void)
{
    enum { N = 1000 };
    IdMap a, b;
    idmap_init(&a);
    idmap_init(&b);
    size_t pos = 0;
    CHECK(!idmap_next(&a, &pos, NULL, NULL));
    uint64_t s = 99;
    for (int i = 0; i < N; i++) {
        uint64_t k = test_next(&s) % 5000;
        idmap_insert(&a, k, k * 3);
        idmap_insert(&b, k, k * 3);
        if (i % 3 == 0) {
            idmap_remove(&a, k / 2, NULL);
            idmap_remove(&b, k / 2, NULL);
        }
    }
    static uint64_t ka[N], kb[N];
    size_t na = test_walk(&a, ka, N), nb = test_walk(&b, kb, N);
    CHECK_EQ_U64(na, idmap_count(&a));
    CHECK_EQ_U64(na, nb);
    /* the same operations give the same order; each key is visited once */
    CHECK(memcmp(ka, kb, na * sizeof *ka) == 0);
    uint64_t dup = 0;
    for (size_t i = 0; i < na; i++) {
        CHECK(idmap_get(&a, ka[i], NULL));
        for (size_t j = i + 1; j < na; j++) {
            dup += ka[i] == ka[j];
        }
    }
    CHECK_EQ_U64(dup, 0);
    idmap_destroy(&a);
    idmap_destroy(&b);
}

int main(void)
{
    RUN(test_basic);
    RUN(test_wrap);
    RUN(test_random_mixed);
    RUN(test_random_ordered);
    RUN(test_ordered_layout);
    RUN(test_remove_at_home);
    RUN(test_growth);
    RUN(test_iteration);
    return harness_report();
}
