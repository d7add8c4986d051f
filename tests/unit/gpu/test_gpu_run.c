/* Runs of the GPU memory and fabric blocks through the platform API (working directory:
 * the source root): end-to-end data checks with many writers, every request answered
 * exactly once, the model-error counters firing when they must, and determinism. */
#include <stdlib.h>

#include "kernel/platform/platform.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

typedef struct Run {
    Sim *sim;
    Platform *p;
} Run;

static bool run_start(Run *r, const char *path, const char *sets_json)
{
    SimError err;
    PlatformDesc d;
    json_t *sets = sets_json ? json_loads(sets_json, 0, NULL) : NULL;
    bool ok = platform_load(hw_registry(), path, sets, &d, &err);
    json_decref(sets);
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    r->sim = sim_new();
    r->p = platform_build(&d, r->sim, &err);
    if (!r->p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(r->sim);
        return false;
    }
    return true;
}

static void run_finish(Run *r)
{
    platform_reset(r->p);
    sim_run(r->sim, SIM_TIME_MAX);
    platform_finish_stats(r->p);
}

static void run_free(Run *r)
{
    platform_free(r->p);
    sim_free(r->sim);
}

static uint64_t stat(const Run *r, const char *name)
{
    const uint64_t *v = stats_find_counter(r->p->stats, name);
    if (!v) {
        fprintf(stderr, "no stat %s\n", name);
        return UINT64_MAX;
    }
    return *v;
}

/* Sum of counter `stat` over every instance whose name matches "gpu%u.<inst>". */
static uint64_t stat_sum(const Run *r, uint32_t gpus, const char *fmt)
{
    uint64_t sum = 0;
    for (uint32_t g = 0; g < gpus; g++) {
        char name[128];
        snprintf(name, sizeof name, fmt, g);
        sum += stat(r, name);
    }
    return sum;
}

static void test_writers_check_exactly(void)
{
    Run r;
    CHECK(run_start(&r, "platforms/gpu4-baseline.json",
                    "{\"gpu*.cu[*].count\": 300, \"gpu*.cu[*].write_frac\": 0.5}"));
    run_finish(&r);
    uint64_t issued = 0, completed = 0, errors = 0, writes = 0;
    for (int g = 0; g < 4; g++) {
        for (int k = 0; k < 4; k++) {
            char n[96];
            snprintf(n, sizeof n, "gpu%d.cu[%d].issued", g, k);
            issued += stat(&r, n);
            snprintf(n, sizeof n, "gpu%d.cu[%d].completed", g, k);
            completed += stat(&r, n);
            snprintf(n, sizeof n, "gpu%d.cu[%d].writes", g, k);
            writes += stat(&r, n);
            snprintf(n, sizeof n, "gpu%d.cu[%d].data_errors", g, k);
            errors += stat(&r, n);
            snprintf(n, sizeof n, "gpu%d.cu[%d].status_errors", g, k);
            errors += stat(&r, n);
        }
    }
    CHECK_EQ_U64(issued, 16 * 300);
    CHECK_EQ_U64(completed, issued);
    CHECK(writes > 16 * 100 && writes < 16 * 200);
    CHECK_EQ_U64(errors, 0);
    /* Every write lands exactly once at some memory. */
    CHECK_EQ_U64(stat_sum(&r, 4, "gpu%u.mem.writes"), writes);
    CHECK_EQ_U64(stat_sum(&r, 4, "gpu%u.rdma.outstanding"), 0);
    CHECK_EQ_U64(stat_sum(&r, 4, "gpu%u.rdma.resp_unmatched_errors"), 0);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(r.sim)), 0);
    run_free(&r);
}

static void test_fill_mismatch_is_detected(void)
{
    Run r;
    CHECK(run_start(&r, "platforms/gpu4-baseline.json",
                    "{\"gpu*.cu[*].count\": 20, \"gpu*.mem.fill\": \"zero\"}"));
    run_finish(&r);
    CHECK(stat(&r, "gpu0.cu[0].data_errors") > 0);
    CHECK_EQ_U64(stat(&r, "gpu0.cu[0].completed"), 20);
    run_free(&r);
}

static char *stats_text(const char *sets)
{
    Run r;
    if (!run_start(&r, "platforms/gpu4-baseline.json", sets)) {
        return NULL;
    }
    run_finish(&r);
    json_t *j = stats_json(r.p->stats);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    run_free(&r);
    return s;
}

static void test_deterministic(void)
{
    const char *sets = "{\"gpu*.cu[*].count\": 200, \"gpu*.cu[*].write_frac\": 0.25}";
    char *a = stats_text(sets), *b = stats_text(sets);
    CHECK(a && b && strcmp(a, b) == 0);
    char *c = stats_text("{\"gpu*.cu[*].count\": 200, \"gpu*.cu[*].write_frac\": 0.25, "
                         "\"gpu*.cu[*].seed\": 2}");
    CHECK(a && c && strcmp(a, c) != 0);
    free(a);
    free(b);
    free(c);
}

/* Adds a sink "t.<name>" wired to port; the test sends through its port. */
static bool add_sink(PlatformDesc *d, const char *name, const char *port)
{
    SimError err;
    char inst[64], in[80];
    snprintf(inst, sizeof inst, "t.%s", name);
    snprintf(in, sizeof in, "t.%s.in", name);
    json_t *params = json_pack("{s:b}", "respond", 0);
    bool ok = platform_desc_add_instance(d, inst, "sink", -1, params, "test", &err) &&
              platform_desc_add_wire(d, in, port, 0, "test", &err);
    json_decref(params);
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
    }
    return ok;
}

static void test_rdma_unmatched_response(void)
{
    SimError err;
    PlatformDesc d;
    CHECK(platform_load(hw_registry(), "testbench/gpu/platforms/rdma1.json", NULL, &d,
                        &err));
    CHECK(add_sink(&d, "g", "rdma.gpu") && add_sink(&d, "n", "rdma.net"));
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    CHECK(p != NULL);
    if (!p) {
        sim_free(sim);
        return;
    }
    platform_reset(p);
    Txn *req = txn_new(sim, TXN_READ, 0x100000, 4);
    req->src = 0;
    req->dst = 1;
    uint64_t id = req->id;
    CHECK(port_send(platform_port(p, "t.g.in"), req));
    sim_run(sim, SIM_TIME_MAX);
    /* A response to an id never sent, then the right one, then a duplicate. */
    uint64_t ids[3] = {id + 100, id, id};
    for (int k = 0; k < 3; k++) {
        Txn *resp = txn_new(sim, TXN_RESP, 0x100000, 4);
        resp->id = ids[k];
        resp->req_cmd = TXN_READ;
        resp->status = TXN_STATUS_OK;
        resp->dst = 0;
        CHECK(port_send(platform_port(p, "t.n.in"), resp));
        sim_run(sim, SIM_TIME_MAX);
    }
    platform_finish_stats(p);
    CHECK_EQ_U64(*stats_find_counter(p->stats, "rdma.resp_unmatched_errors"), 2);
    CHECK_EQ_U64(*stats_find_counter(p->stats, "rdma.resp_in"), 1);
    CHECK_EQ_U64(*stats_find_counter(p->stats, "rdma.outstanding"), 0);
    CHECK_EQ_U64(*stats_find_counter(p->stats, "t.g.received"), 1);
    platform_free(p);
    sim_free(sim);
}

int main(void)
{
    RUN(test_writers_check_exactly);
    RUN(test_fill_mismatch_is_detected);
    RUN(test_deterministic);
    RUN(test_rdma_unmatched_response);
    return harness_report();
}
