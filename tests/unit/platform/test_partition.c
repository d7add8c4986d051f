/* Partition maps (platform_partition.c) of hand-built descriptions: two GPUs of two
 * instances each and a fabric switch, the GPUs' second instance wired to the switch.
 * Default map: one partition per GPU plus one outside, merged across wires of
 * latency 0, numbered by first instance; the lookahead is the smallest latency of
 * the wires left between partitions. Explicit map: first matching glob, and a cut
 * wire of latency 0 refused with its name. */
#include "tests/unit/platform/support.h"

/* The description: gpu0.a - gpu0.b (inner), gpu1.a - gpu1.b (inner), gpu0.b - switch
 * (up0), gpu1.b - switch (up1). */
static void build(PlatformDesc *d, SimTime inner, SimTime up0, SimTime up1)
{
    SimError err;
    *d = (PlatformDesc){.registry = hw_registry()};
    d->info.gpus = 2;
    const char *names[] = {"gpu0.a", "gpu0.b", "gpu1.a", "gpu1.b", "fabric.s"};
    const int gpus[] = {0, 0, 1, 1, -1};
    for (int i = 0; i < 5; i++) {
        CHECK(
            platform_desc_add_instance(d, names[i], "memory", gpus[i], NULL, "t", &err));
    }
    CHECK(platform_desc_add_wire(d, "gpu0.a.out", "gpu0.b.in", inner, "w0", &err));
    CHECK(platform_desc_add_wire(d, "gpu1.a.out", "gpu1.b.in", inner, "w1", &err));
    CHECK(platform_desc_add_wire(d, "gpu0.b.out", "fabric.s.in[0]", up0, "up0", &err));
    CHECK(platform_desc_add_wire(d, "gpu1.b.out", "fabric.s.in[1]", up1, "up1", &err));
}

static void check_map(const PlatformPartition *pp, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CHECK_EQ_U64(pp->of[i], want[i]);
    }
}

static void test_default_per_gpu(void)
{
    PlatformDesc d;
    PlatformPartition pp;
    SimError err;
    build(&d, 0, 5, 7);
    CHECK(platform_partition(&d, &pp, &err));
    CHECK_EQ_U64(pp.n, 3);
    CHECK_EQ_U64(pp.ncut, 2);
    CHECK_EQ_U64(pp.lookahead, 5);
    const uint32_t want[] = {0, 0, 1, 1, 2};
    check_map(&pp, want, 5);
    platform_partition_free(&pp);
    platform_desc_free(&d);
}

/* up0 of latency 0 merges GPU 0 with the fabric; GPU 1 stays alone. */
static void test_default_merges_zero_latency(void)
{
    PlatformDesc d;
    PlatformPartition pp;
    SimError err;
    build(&d, 0, 0, 7);
    CHECK(platform_partition(&d, &pp, &err));
    CHECK_EQ_U64(pp.n, 2);
    CHECK_EQ_U64(pp.ncut, 1);
    CHECK_EQ_U64(pp.lookahead, 7);
    const uint32_t want[] = {0, 0, 1, 1, 0};
    check_map(&pp, want, 5);
    platform_partition_free(&pp);
    platform_desc_free(&d);
}

/* Every uplink of latency 0 (the shipped platforms): one partition, no cut. */
static void test_default_one_partition(void)
{
    PlatformDesc d;
    PlatformPartition pp;
    SimError err;
    build(&d, 3, 0, 0);
    CHECK(platform_partition(&d, &pp, &err));
    CHECK_EQ_U64(pp.n, 1);
    CHECK_EQ_U64(pp.ncut, 0);
    CHECK_EQ_U64(pp.lookahead, SIM_TIME_MAX);
    platform_partition_free(&pp);
    platform_desc_free(&d);
}

/* The first matching glob wins: gpu1.* in 1, the rest in 0; the inner wire of GPU 0
 * (latency 2) is not cut, up1 (3) is. */
static void test_explicit(void)
{
    PlatformDesc d;
    PlatformPartition pp;
    SimError err;
    build(&d, 2, 0, 3);
    d.partitions = json_pack("{s:i, s:i}", "gpu1.*", 1, "*", 0);
    d.partitions_origin = strdup("x.json: /partitions");
    CHECK(platform_partition(&d, &pp, &err));
    CHECK_EQ_U64(pp.n, 2);
    CHECK_EQ_U64(pp.ncut, 1);
    CHECK_EQ_U64(pp.lookahead, 3);
    const uint32_t want[] = {0, 0, 1, 1, 0};
    check_map(&pp, want, 5);
    platform_partition_free(&pp);
    platform_desc_free(&d);
}

static void test_explicit_zero_cut(void)
{
    PlatformDesc d;
    PlatformPartition pp;
    SimError err;
    build(&d, 2, 0, 0);
    d.partitions = json_pack("{s:i, s:i}", "gpu1.*", 1, "*", 0);
    d.partitions_origin = strdup("x.json: /partitions");
    CHECK(!platform_partition(&d, &pp, &err));
    CHECK_STR(err.msg, "up1: wire gpu1.b.out - fabric.s.in[1] has latency 0 and joins "
                       "partitions 1 and 0 (a cut wire needs a latency)");
    platform_desc_free(&d);
}

int main(void)
{
    RUN(test_default_per_gpu);
    RUN(test_default_merges_zero_latency);
    RUN(test_default_one_partition);
    RUN(test_explicit);
    RUN(test_explicit_zero_cut);
    return harness_report();
}
