/* Covers kernel/platform/platform_build.c and platform.c (reset, lookups).
 * Building platforms: block fields, ports (names, array counts, buffer capacity),
 * wire latencies, lookups; and the build errors (not connected, already connected,
 * unknown port or instance, a wire to itself, realize and parameter errors), each
 * naming the origin. Run under valgrind to check that failed builds free everything. */
#include "support.h"

static Platform *build(const char *file, const char *sets, SimError *err, Sim *sim)
{
    PlatformDesc d;
    if (!support_load(file, sets, &d, err)) {
        return NULL;
    }
    return platform_build(&d, sim, err);
}

static void test_fields(void)
{
    Sim *sim = sim_new();
    SimError err;
    Platform *p = build("base.json", "{\"gpu1.xbar.buffer\": 5}", &err, sim);
    CHECK(p != NULL);
    if (!p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        return;
    }
    CHECK_EQ_U64(p->nblocks, 11);
    Block *x = platform_block(p, "gpu1.xbar");
    CHECK(x && x->gpu == 1 && x->index == -1 && x->buffer == 5);
    CHECK_STR(x->type->name, "xbar");
    CHECK(x->plat == &p->desc.info && x->sim == sim && x->stats == p->stats);
    /* ports in table order, the array expanded: cu[0], cu[1], local, remote */
    CHECK_EQ_U64(x->nports, 4);
    CHECK_STR(x->ports[1].name, "gpu1.xbar.cu[1]");
    CHECK_STR(x->ports[3].name, "gpu1.xbar.remote");
    CHECK_EQ_U64(x->ports[2].index, 2);
    CHECK_EQ_U64(x->ports[0].cap, 5);
    CHECK(x->ports[0].owner == x);
    Block *cu = platform_block(p, "gpu0.cu[1]");
    CHECK(cu && cu->index == 1 && cu->buffer == 8);
    Port *rem = platform_port(p, "gpu0.xbar.remote");
    CHECK(rem && rem->peer == platform_port(p, "gpu0.rdma.gpu"));
    CHECK_EQ_U64(rem->latency, 2000); /* 2cycles at 1GHz */
    CHECK_EQ_U64(platform_port(p, "gpu1.cu[0].mem")->latency, 1000);
    CHECK(platform_port(p, "fabric.switch.port[1]")->peer ==
          platform_port(p, "gpu1.rdma.net"));
    CHECK(platform_port(p, "gpu0.xbar.cu[2]") == NULL);
    CHECK(platform_port(p, "gpu9.xbar.local") == NULL);
    CHECK(platform_port(p, "nonsense") == NULL);
    CHECK(platform_block(p, "fabric.switch") == p->blocks[10]);
    platform_reset(p);
    platform_finish_stats(p);
    platform_free(p);
    sim_free(sim);
}

static const char *build_error(const char *file, const char *sets)
{
    static SimError err;
    Sim *sim = sim_new();
    Platform *p = build(file, sets, &err, sim);
    platform_free(p);
    sim_free(sim);
    return p ? "(built)" : err.msg;
}

static void test_errors(void)
{
    CHECK_STR(build_error("toplevel.json", NULL),
              "toplevel.json: /blocks/mem: port mem.in is not connected");
    CHECK_STR(build_error("toplevel.json", "{\"sw.routes\": [1, 0]}"),
              "toplevel.json: /blocks/sw: sw: routes has 2 entries, expected one per GPU "
              "(1)");
}

/* Wires added to a loaded description (as the testbench runner does). */
static const char *wire_error(const char *a, const char *b)
{
    static SimError err;
    PlatformDesc d;
    CHECK(support_load("toplevel.json", NULL, &d, &err));
    CHECK(platform_desc_unwire(&d, "drv[0].out"));
    CHECK(platform_desc_add_wire(&d, a, b, 0, "x.json: /w", &err));
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    CHECK(d.inst == NULL && d.ninst == 0);
    platform_free(p);
    sim_free(sim);
    return p ? "(built)" : err.msg;
}

static void test_wire_errors(void)
{
    CHECK_STR(wire_error("mem.in", "drv[1].out"),
              "x.json: /w: port drv[1].out is already connected to sw.port[1] "
              "(toplevel.json: /wires/0)");
    CHECK_STR(wire_error("mem.in", "drv[0].in"),
              "x.json: /w: unknown port drv[0].in (block type driver)");
    CHECK_STR(wire_error("mem.in", "drv[2].out"), "x.json: /w: no instance drv[2] (port "
                                                  "drv[2].out)");
    CHECK_STR(wire_error("mem.in", "mem.in"),
              "x.json: /w: wire joins port mem.in to itself");
    CHECK_STR(wire_error("mem.in", "mem"),
              "x.json: /w: \"mem\" is not a port name (<instance>.<port>)");
    CHECK_STR(wire_error("mem.in", "drv[0].out"),
              "toplevel.json: /blocks/sw: port sw.port[0] is not connected");
}

static void test_param_error_in_build(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("toplevel.json", NULL, &d, &err));
    json_object_set_new(d.inst[2].params, "latency", json_string("fast"));
    Sim *sim = sim_new();
    CHECK(platform_build(&d, sim, &err) == NULL);
    CHECK_STR(err.msg, "toplevel.json: /blocks/mem/params/latency: bad time \"fast\": "
                       "expected a digit at the start");
    sim_free(sim);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_fields);
    RUN(test_errors);
    RUN(test_wire_errors);
    RUN(test_param_error_in_build);
    return harness_report();
}
