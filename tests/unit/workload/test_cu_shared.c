/* Unit tests of the cu's shared pattern (hw/workload/cu_shared.c): the predicates and
 * values against numbers computed by the independent reference tools/ref/workload.py,
 * and the generator's rules (every written line written by its owner exactly once per
 * kernel, exactly `count` accesses, reads never on lines written in the kernel, the
 * expected bytes). */
#include <stdlib.h>

#include "hw/workload/cu_shared.h"
#include "tests/unit/harness.h"

#define MIB (1024ULL * 1024ULL)

/* tools/ref/workload.py value 0x40 4 0 / 0x40 4 1 / 0x100000000 4 2 */
static void test_values(void)
{
    static const uint8_t k0[] = {0x8c, 0x14, 0x7d, 0x9b};
    static const uint8_t k1[] = {0x5a, 0x2b, 0x5f, 0xd2};
    static const uint8_t k2[] = {0x33, 0x3f, 0xc8, 0x80};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U64(cu_value(0x40 + (uint64_t)i, 0), k0[i]);
        CHECK_EQ_U64(cu_value(0x40 + (uint64_t)i, 1), k1[i]);
        CHECK_EQ_U64(cu_value(0x100000000ULL + (uint64_t)i, 2), k2[i]);
    }
    /* v differs from the hash fill for most bytes (a stale byte is visible) */
    int same = 0;
    for (uint64_t a = 0; a < 4096; a++) {
        same += cu_value(a, 0) == fill_byte(FILL_HASH, a);
    }
    CHECK(same < 40);
}

/* tools/ref/workload.py lines 1 0 64 0 0.25, lines 1 0 64 1 0.25,
 * lines 7 0 64 2 0.5 0.5 */
static void test_predicates(void)
{
    static const int l0[] = {2,  7,  11, 12, 14, 18, 19, 22,
                             31, 35, 37, 45, 54, 57, 58, 60};
    static const int l1[] = {0,  1,  2,  4,  5,  10, 18, 21, 30, 31,
                             36, 37, 40, 42, 43, 51, 53, 58, 59};
    static const int l2[] = {2,  3,  4,  8,  9,  10, 14, 16, 18, 19, 20, 22,
                             23, 24, 27, 28, 34, 36, 38, 39, 42, 47, 55, 56};
    const struct {
        uint64_t seed;
        uint32_t k;
        double wf, ro;
        const int *lines;
        size_t n;
    } cases[] = {
        {1, 0, 0.25, 0.0, l0, sizeof l0 / sizeof l0[0]},
        {1, 1, 0.25, 0.0, l1, sizeof l1 / sizeof l1[0]},
        {7, 2, 0.5, 0.5, l2, sizeof l2 / sizeof l2[0]},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t j = 0;
        int bad = 0;
        for (uint64_t n = 0; n < 64; n++) {
            bool want = j < cases[c].n && (uint64_t)cases[c].lines[j] == n;
            j += want;
            bad += cu_shared_written(cases[c].seed, n, cases[c].k, cases[c].wf,
                                     cases[c].ro) != want;
        }
        CHECK_EQ_U64(bad, 0);
        CHECK_EQ_U64(j, cases[c].n);
    }
    /* fractions and the read-only exclusion over many lines */
    uint64_t w = 0, ro = 0, bad = 0;
    for (uint64_t n = 0; n < 100000; n++) {
        bool r = cu_shared_read_only(3, n, 0.3);
        bool x = cu_shared_written(3, n, 5, 0.2, 0.3);
        ro += r;
        w += x;
        bad += r && x;
        bad += cu_shared_written(3, n, 5, 0.0, 0.0);
        bad += !cu_shared_written(3, n, 5, 1.0, 0.0);
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(ro > 29000 && ro < 31000);
    CHECK(w > 13000 && w < 15000); /* 0.2 x 0.7 x 100000 */
}

static CuSharedCfg cfg_for(uint32_t gpu, uint64_t index)
{
    CuSharedCfg c = {
        .target = CU_TARGET_ALL,
        .gpus = 4,
        .gpu = gpu,
        .mem_bytes = MIB,
        .footprint = 4096, /* 64 lines per GPU, 256 in all, 16 owned per cu */
        .line = 64,
        .size = 4,
        .owner = gpu * 4 + index,
        .owners = 16,
        .seed = 11,
        .write_frac = 0.3,
        .read_only_frac = 0.1,
        .count = 40,
        .kernels = 3,
        .fill = FILL_HASH,
    };
    return c;
}

/* All 16 cus together write every written line of the region exactly once per
 * kernel, each cu only its own lines, with exactly count accesses per kernel. */
static void test_generator(void)
{
    static const CuTarget targets[] = {CU_TARGET_ALL, CU_TARGET_LOCAL, CU_TARGET_REMOTE};
    for (int t = 0; t < 3; t++) {
        for (uint32_t k = 0; k < 3; k++) {
            uint8_t seen[256] = {0};
            int bad = 0;
            for (uint32_t g = 0; g < 4; g++) {
                for (uint64_t i = 0; i < 4; i++) {
                    CuSharedCfg c = cfg_for(g, i);
                    c.target = targets[t];
                    CuShared s;
                    SimError err;
                    CHECK(cu_shared_init(&s, &c, &err));
                    cu_shared_begin(&s, k);
                    Rng r;
                    rng_seed(&r, 1, 2, (int)g, (int)i);
                    uint64_t addr, n = 0, last = 0;
                    uint32_t len;
                    bool write;
                    while (cu_shared_next(&s, &r, &addr, &len, &write)) {
                        n++;
                        uint64_t line = addr / 64;
                        uint64_t slot = (addr / MIB) * 64 + (addr % MIB) / 64;
                        bad += addr % MIB >= 4096;
                        if (write) {
                            bad += len != 64 || addr % 64 != 0 || line % 16 != c.owner;
                            bad += !cu_shared_written(11, line, k, 0.3, 0.1);
                            bad += addr < last; /* ascending */
                            last = addr;
                            seen[slot]++;
                        } else {
                            bad += len != 4 || addr % 4 != 0;
                            bad += cu_shared_written(11, line, k, 0.3, 0.1);
                            bad += targets[t] == CU_TARGET_LOCAL && addr / MIB != g;
                            bad += targets[t] == CU_TARGET_REMOTE && addr / MIB == g;
                        }
                    }
                    CHECK_EQ_U64(n, 40);
                    CHECK_EQ_U64(s.skipped, 0);
                    cu_shared_free(&s);
                }
            }
            CHECK_EQ_U64(bad, 0);
            for (uint64_t slot = 0; slot < 256; slot++) {
                uint64_t line = (slot / 64) * (MIB / 64) + slot % 64;
                bad += seen[slot] != (cu_shared_written(11, line, k, 0.3, 0.1) ? 1 : 0);
            }
            CHECK_EQ_U64(bad, 0);
        }
    }
}

/* tools/ref/workload.py expect 1 0x80 4 64 2 0.25 -> 0xdec9d2f1 (line 2 written in
 * kernels 0 and 1); expect 1 0x1c0 4 64 3 0.25 -> 0xd3a2ccb1 (line 7 last written in
 * kernel 0); kernel 0 expects the fill (tools/ref/fill_hash.py 0x80 4). */
static void test_expect(void)
{
    CuSharedCfg c = cfg_for(0, 0);
    c.seed = 1;
    c.write_frac = 0.25;
    c.read_only_frac = 0.0;
    c.footprint = MIB;
    c.count = 20000;
    CuShared s;
    SimError err;
    CHECK(cu_shared_init(&s, &c, &err));
    uint8_t b[4];
    static const uint8_t e2[] = {0xde, 0xc9, 0xd2, 0xf1};
    static const uint8_t e3[] = {0xd3, 0xa2, 0xcc, 0xb1};
    static const uint8_t f0[] = {0xe6, 0x55, 0xa6, 0x85};
    cu_shared_expect(&s, 2, 0x80, b, 4);
    CHECK(memcmp(b, e2, 4) == 0);
    cu_shared_expect(&s, 3, 0x1c0, b, 4);
    CHECK(memcmp(b, e3, 4) == 0);
    cu_shared_expect(&s, 0, 0x80, b, 4);
    CHECK(memcmp(b, f0, 4) == 0);
    /* a read across two lines takes each line's own history */
    uint8_t two[8];
    cu_shared_expect(&s, 2, 0x7c, two, 8);
    CHECK(memcmp(two + 4, e2, 4) == 0);
    CHECK_EQ_U64(two[0], cu_value(0x7c, 1)); /* line 1 written in kernel 1 only */
    cu_shared_free(&s);
}

static void test_errors(void)
{
    CuShared s;
    SimError err;
    CuSharedCfg c = cfg_for(1, 2);
    c.count = 3; /* each cu owns 16 lines; with write_frac 0.3 some kernel writes > 3 */
    CHECK(!cu_shared_init(&s, &c, &err));
    CHECK(strstr(err.msg, "more than count 3") != NULL);
    c = cfg_for(1, 2);
    c.size = 3;
    CHECK(!cu_shared_init(&s, &c, &err));
    CHECK_STR(err.msg, "size 3 does not divide line 64");
    c = cfg_for(1, 2);
    c.footprint = 100;
    CHECK(!cu_shared_init(&s, &c, &err));
    c = cfg_for(0, 0);
    c.gpus = 1;
    c.owners = 4;
    c.target = CU_TARGET_REMOTE;
    CHECK(!cu_shared_init(&s, &c, &err));
    CHECK_STR(err.msg, "target remote needs at least 2 GPUs");
}

/* Every line written: reads have nowhere to go and are skipped, never loop. */
static void test_all_written(void)
{
    CuSharedCfg c = cfg_for(0, 0);
    c.write_frac = 1.0;
    c.read_only_frac = 0.0;
    c.count = 20;
    CuShared s;
    SimError err;
    CHECK(cu_shared_init(&s, &c, &err));
    Rng r;
    rng_seed(&r, 1, 2, 0, 0);
    uint64_t addr, writes = 0;
    uint32_t len;
    bool write;
    while (cu_shared_next(&s, &r, &addr, &len, &write)) {
        writes += write;
    }
    CHECK_EQ_U64(writes, 16);
    CHECK_EQ_U64(s.skipped, 4);
    cu_shared_free(&s);
}

int main(void)
{
    RUN(test_values);
    RUN(test_predicates);
    RUN(test_generator);
    RUN(test_expect);
    RUN(test_errors);
    RUN(test_all_written);
    return harness_report();
}
