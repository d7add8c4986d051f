/* Storage formulas of the codec and rdma_cache cost callbacks, on the testbench
 * platforms (working directory: the source root; the block's gpu port is bound to a
 * driver here, and its net port to a sink when unbound), against hand arithmetic:
 * rc1.json: 256 B / 64 B = 4 lines in 2 sets of 2 ways; tag = 48 - 6 (offset)
 * - 1 (index) = 41 bits + 1 LRU bit = 42; masks 2 x 64; data 8 x 64:
 * 4 x (42 + 128 + 512) = 2728 bits. codec4.json: 4 GPUs -> 3 buffers x 64 entries
 * x 48 bits = 9216 bits. A bad geometry fails at realize with the instance named. */
#include <string.h>

#include "kernel/block.h"
#include "kernel/platform/platform.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

static uint64_t cost_bits(const char *path, const char *inst, const char *sets_json)
{
    SimError err;
    PlatformDesc d;
    json_t *sets = sets_json ? json_loads(sets_json, 0, NULL) : NULL;
    bool ok = platform_load(hw_registry(), path, sets, &d, &err);
    json_decref(sets);
    char gpu[64], net[64];
    snprintf(gpu, sizeof gpu, "%s.gpu", inst);
    snprintf(net, sizeof net, "%s.net", inst);
    ok = ok && platform_desc_add_instance(&d, "tb.d", "driver", -1, NULL, "test", &err) &&
         platform_desc_add_wire(&d, "tb.d.out", gpu, 0, "test", &err);
    if (ok && platform_desc_wire_of(&d, net) == NULL) {
        ok = platform_desc_add_instance(&d, "tb.s", "sink", -1, NULL, "test", &err) &&
             platform_desc_add_wire(&d, "tb.s.in", net, 0, "test", &err);
    }
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
        return 0;
    }
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    if (p == NULL) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        return 0;
    }
    Block *b = platform_block(p, inst);
    CostReport *r = cost_report_new();
    b->type->cost(b, r);
    uint64_t bits = cost_report_total_bits(r);
    cost_report_free(r);
    platform_free(p);
    sim_free(sim);
    return bits;
}

static void test_rdma_cache(void)
{
    const char *rc1 = "testbench/dualopt/platforms/rc1.json";
    CHECK_EQ_U64(cost_bits(rc1, "rc", NULL), 2728);
    /* default geometry: 24576 lines, 1536 sets (11 index bits): 31 + 4 + 128 + 512 */
    CHECK_EQ_U64(cost_bits(rc1, "rc", "{\"rc.size\": \"1.5MiB\", \"rc.ways\": 16}"),
                 24576ull * 675);
}

static void test_codec(void)
{
    CHECK_EQ_U64(cost_bits("testbench/dualopt/platforms/codec4.json", "codec", NULL),
                 9216);
}

static void test_bad_geometry(void)
{
    SimError err;
    PlatformDesc d;
    json_t *sets = json_loads("{\"rc.size\": 200}", 0, NULL);
    CHECK(platform_load(hw_registry(), "testbench/dualopt/platforms/rc1.json", sets, &d,
                        &err));
    json_decref(sets);
    CHECK(platform_desc_add_instance(&d, "tb.d", "driver", -1, NULL, "test", &err));
    CHECK(platform_desc_add_wire(&d, "tb.d.out", "rc.gpu", 0, "test", &err));
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    CHECK(p == NULL);
    CHECK(strstr(err.msg, "rc") != NULL && strstr(err.msg, "multiple") != NULL);
    if (p != NULL) {
        platform_free(p);
    }
    sim_free(sim);
}

int main(void)
{
    RUN(test_rdma_cache);
    RUN(test_codec);
    RUN(test_bad_geometry);
    return harness_report();
}
