/* Unit tests of the cu's synthetic address streams (hw/workload/cu_pattern.c): every
 * rule stated in cu_pattern.h is checked as a property or on hand-worked offsets. */
#include "hw/workload/cu_pattern.h"
#include "tests/unit/harness.h"

#define MIB (1024ULL * 1024ULL)

static CuPatternCfg base_cfg(CuPatternKind kind)
{
    CuPatternCfg c = {
        .kind = kind,
        .target = CU_TARGET_ALL,
        .gpus = 4,
        .gpu = 1,
        .mem_bytes = MIB,
        .footprint = 4096,
        .line = 64,
        .size = 4,
        .stride = 256,
        .tile = 64,
        .reuse = 2,
        .owned = false,
        .owner = 6,
        .owners = 16,
    };
    return c;
}

static void test_uniform_targets(void)
{
    static const CuTarget targets[] = {CU_TARGET_ALL, CU_TARGET_LOCAL, CU_TARGET_REMOTE};
    for (int k = 0; k < 3; k++) {
        CuPatternCfg c = base_cfg(CU_PAT_UNIFORM);
        c.target = targets[k];
        CuPattern p;
        SimError err;
        CHECK(cu_pattern_init(&p, &c, &err));
        Rng r;
        rng_seed(&r, 1, 2, 1, 0);
        int hits[4] = {0, 0, 0, 0}, bad = 0;
        for (int i = 0; i < 2000; i++) {
            uint64_t a = cu_pattern_next(&p, &r);
            uint64_t g = a / MIB;
            bad += g >= 4 || a % MIB >= 4096 || a % 4 != 0;
            if (g < 4) {
                hits[g]++;
            }
        }
        CHECK_EQ_U64(bad, 0);
        CHECK((hits[1] > 0) == (targets[k] != CU_TARGET_REMOTE));
        CHECK((hits[0] > 0) == (targets[k] != CU_TARGET_LOCAL));
        CHECK((hits[3] > 0) == (targets[k] != CU_TARGET_LOCAL));
    }
}

static void test_owned_lines(void)
{
    CuPatternCfg c = base_cfg(CU_PAT_UNIFORM);
    c.owned = true;
    CuPattern p;
    SimError err;
    CHECK(cu_pattern_init(&p, &c, &err));
    /* 4096 B = 64 lines per GPU, 16 owners -> 4 owned lines per GPU, 4 GPUs. */
    CHECK_EQ_U64(p.lines_per_gpu, 4);
    CHECK_EQ_U64(p.space, 4 * 4 * 64);
    /* GPU 0 starts at line 0: owned lines 6, 22, ...; GPU 1 at line 16384. */
    CHECK_EQ_U64(cu_pattern_map(&p, 0), 6 * 64);
    CHECK_EQ_U64(cu_pattern_map(&p, 64 + 4), 22 * 64 + 4);
    CHECK_EQ_U64(cu_pattern_map(&p, 256), MIB + 6 * 64);
    Rng r;
    rng_seed(&r, 3, 0, 0, 0);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        uint64_t a = cu_pattern_next(&p, &r);
        bad += (a / 64) % 16 != 6 || a % MIB >= 4096;
    }
    CHECK_EQ_U64(bad, 0);
}

static void test_stream_and_strided(void)
{
    CuPatternCfg c = base_cfg(CU_PAT_STREAM);
    c.target = CU_TARGET_LOCAL;
    CuPattern p;
    SimError err;
    CHECK(cu_pattern_init(&p, &c, &err));
    Rng r;
    rng_seed(&r, 4, 0, 0, 0);
    uint64_t prev = cu_pattern_next(&p, &r);
    int bad = 0;
    for (int i = 1; i < 3000; i++) {
        uint64_t a = cu_pattern_next(&p, &r);
        /* +size, or a wrap from the footprint's end to its start */
        bad += !(a == prev + 4 || (prev == MIB + 4092 && a == MIB));
        prev = a;
    }
    CHECK_EQ_U64(bad, 0);

    c.kind = CU_PAT_STRIDED;
    CHECK(cu_pattern_init(&p, &c, &err));
    prev = cu_pattern_next(&p, &r);
    bad = 0;
    for (int i = 1; i < 100; i++) {
        uint64_t a = cu_pattern_next(&p, &r);
        bad += (a - MIB) != (prev - MIB + 256) % 4096;
        prev = a;
    }
    CHECK_EQ_U64(bad, 0);
}

static void test_tiled(void)
{
    CuPatternCfg c = base_cfg(CU_PAT_TILED);
    c.target = CU_TARGET_LOCAL;
    CuPattern p;
    SimError err;
    CHECK(cu_pattern_init(&p, &c, &err));
    Rng r;
    rng_seed(&r, 5, 0, 0, 0);
    /* tile 64 B of 4 B accesses: 16 per sweep, 2 sweeps, then a new tile. */
    for (int t = 0; t < 10; t++) {
        uint64_t first = cu_pattern_next(&p, &r);
        int bad = first % 64 != 0;
        for (int k = 1; k < 32; k++) {
            bad += cu_pattern_next(&p, &r) != first + (uint64_t)(k % 16) * 4;
        }
        CHECK_EQ_U64(bad, 0);
    }
}

static void test_scatter(void)
{
    CuPatternCfg c = base_cfg(CU_PAT_SCATTER);
    c.target = CU_TARGET_LOCAL;
    c.reuse = 3;
    CuPattern p;
    SimError err;
    CHECK(cu_pattern_init(&p, &c, &err));
    Rng r;
    rng_seed(&r, 6, 0, 0, 0);
    for (int g = 0; g < 20; g++) {
        uint64_t s = cu_pattern_next(&p, &r) - MIB;
        CHECK_EQ_U64(cu_pattern_next(&p, &r) - MIB, (s + 256) % 4096);
        CHECK_EQ_U64(cu_pattern_next(&p, &r) - MIB, (s + 512) % 4096);
    }
}

static void test_errors(void)
{
    CuPattern p;
    SimError err;
    CuPatternCfg c = base_cfg(CU_PAT_UNIFORM);
    c.size = 3;
    CHECK(!cu_pattern_init(&p, &c, &err));
    CHECK_STR(err.msg, "size 3 does not divide line 64");
    c = base_cfg(CU_PAT_UNIFORM);
    c.gpus = 1;
    c.gpu = 0;
    c.target = CU_TARGET_REMOTE;
    CHECK(!cu_pattern_init(&p, &c, &err));
    c = base_cfg(CU_PAT_UNIFORM);
    c.owned = true;
    c.footprint = 512; /* 8 lines < 16 owners */
    CHECK(!cu_pattern_init(&p, &c, &err));
    c = base_cfg(CU_PAT_STRIDED);
    c.stride = 6;
    CHECK(!cu_pattern_init(&p, &c, &err));
    c = base_cfg(CU_PAT_UNIFORM);
    c.footprint = 2 * MIB;
    CHECK(!cu_pattern_init(&p, &c, &err));
}

static void test_deterministic(void)
{
    CuPatternCfg c = base_cfg(CU_PAT_UNIFORM);
    CuPattern p, q;
    SimError err;
    CHECK(cu_pattern_init(&p, &c, &err));
    CHECK(cu_pattern_init(&q, &c, &err));
    Rng r1, r2;
    rng_seed(&r1, 9, 1, 2, 3);
    rng_seed(&r2, 9, 1, 2, 3);
    int diff = 0;
    for (int i = 0; i < 100; i++) {
        diff += cu_pattern_next(&p, &r1) != cu_pattern_next(&q, &r2);
    }
    CHECK_EQ_U64(diff, 0);
    /* Another index gives another stream. */
    rng_seed(&r2, 9, 1, 2, 4);
    cu_pattern_restart(&q);
    rng_seed(&r1, 9, 1, 2, 3);
    cu_pattern_restart(&p);
    diff = 0;
    for (int i = 0; i < 100; i++) {
        diff += cu_pattern_next(&p, &r1) != cu_pattern_next(&q, &r2);
    }
    CHECK(diff > 50);
}

int main(void)
{
    RUN(test_uniform_targets);
    RUN(test_owned_lines);
    RUN(test_stream_and_strided);
    RUN(test_tiled);
    RUN(test_scatter);
    RUN(test_errors);
    RUN(test_deterministic);
    return harness_report();
}
