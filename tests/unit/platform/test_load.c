/* Covers kernel/platform/platform_load.c, platform_source.c, platform_template.c,
 * platform_top.c, platform_blocks.c, platform_set.c, platform_wires.c,
 * platform_names.c, platform_check.c, platform_state.c, platform_fail.c,
 * platform_index.c, json_file.c and json_util.c through platform_load().
 * Platform loading: the extends chain (deep merge, relative paths, blame of the file
 * that wrote a bad value), expansion order and names, set globs from the file and the
 * command line, top-level blocks, inline documents and extra sets. Expected values are
 * read off the data files by hand (tests/unit/platform/data). */
#include "kernel/platform/platform_priv.h"
#include "support.h"

/* sub/child.json extends sub/mid.json extends base.json. */
static void test_extends_merge(void)
{
    PlatformDesc d;
    SimError err;
    if (!support_load("sub/child.json", "{\"gpu3.cu[*].count\": 9}", &d, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(false);
        return;
    }
    CHECK_STR(d.name, "child");
    CHECK_STR(d.file, "sub/child.json");
    CHECK_EQ_U64(d.info.gpus, 4);
    CHECK_EQ_U64(d.info.mem_bytes, 1ULL << 30);
    CHECK_EQ_U64(d.info.clock, 2000); /* 500MHz from mid */
    CHECK_EQ_U64(d.info.seed, 1);
    /* 4 GPUs x (cu[0..2], xbar, mem, rdma) + fabric.switch */
    CHECK_EQ_U64(d.ninst, 25);
    const char *order[] = {"gpu0.cu[0]", "gpu0.cu[1]", "gpu0.cu[2]", "gpu0.xbar",
                           "gpu0.mem",   "gpu0.rdma",  "gpu1.cu[0]"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        CHECK_STR(d.inst[i].name, order[i]);
    }
    CHECK_STR(d.inst[24].name, "fabric.switch");
    CHECK_EQ_U64(d.inst[2].index, 2);
    CHECK_EQ_U64(d.inst[2].gpu, 0);
    CHECK(d.inst[3].index == -1 && d.inst[24].gpu == -1 && d.inst[24].index == -1);
    /* deep merge: cus from child, latency from base */
    CHECK_STR(support_param(&d, "gpu0.xbar", "cus"), "3");
    CHECK_STR(support_param(&d, "gpu0.xbar", "latency"), "\"5ns\"");
    CHECK_STR(support_param(&d, "gpu0.mem", "latency"), "\"60ns\"");
    CHECK_STR(support_param(&d, "gpu0.mem", "bandwidth"), "\"1TB/s\"");
    /* merged set: base's key with child's value, mid's glob, child's glob, then CLI */
    CHECK_STR(support_param(&d, "gpu1.mem", "latency"), "\"90ns\"");
    CHECK_STR(support_param(&d, "gpu2.mem", "latency"), "\"60ns\"");
    CHECK_STR(support_param(&d, "gpu0.cu[0]", "count"), "5");
    CHECK_STR(support_param(&d, "gpu2.cu[1]", "count"), "7");
    CHECK_STR(support_param(&d, "gpu2.cu[2]", "count"), "(none)");
    CHECK_STR(support_param(&d, "gpu3.cu[0]", "count"), "9");
    CHECK_STR(support_param(&d, "gpu3.cu[2]", "count"), "9");
    CHECK_STR(support_param(&d, "gpu0.cu[0]", "pattern"), "\"none\"");
    /* origins name the most derived file that describes the block */
    CHECK_STR(platform_desc_find(&d, "gpu0.cu[1]")->origin,
              "sub/child.json: /gpu/blocks/cu");
    CHECK_STR(platform_desc_find(&d, "gpu0.mem")->origin,
              "sub/mid.json: /gpu/blocks/mem");
    CHECK_STR(platform_desc_find(&d, "gpu3.rdma")->origin,
              "sub/../base.json: /gpu/blocks/rdma");
    CHECK_STR(platform_desc_find(&d, "fabric.switch")->origin,
              "sub/../base.json: /fabric/switch");
    /* wires: per GPU 3 (cu[*]) + 2, then 4 uplinks */
    CHECK_EQ_U64(d.nwires, 24);
    CHECK_STR(support_wire(&d, 0), "gpu0.cu[0].mem <-> gpu0.xbar.cu[0] @1000");
    CHECK_STR(support_wire(&d, 2), "gpu0.cu[2].mem <-> gpu0.xbar.cu[2] @1000");
    CHECK_STR(support_wire(&d, 3), "gpu0.xbar.local <-> gpu0.mem.in @0");
    CHECK_STR(support_wire(&d, 4), "gpu0.xbar.remote <-> gpu0.rdma.gpu @4000");
    CHECK_STR(support_wire(&d, 5), "gpu1.cu[0].mem <-> gpu1.xbar.cu[0] @1000");
    CHECK_STR(support_wire(&d, 20), "fabric.switch.port[0] <-> gpu0.rdma.net @0");
    CHECK_STR(support_wire(&d, 23), "fabric.switch.port[3] <-> gpu3.rdma.net @0");
    CHECK_STR(d.wires[4].origin, "sub/../base.json: /gpu/wires/2");
    CHECK_STR(d.wires[23].origin, "sub/../base.json: /gpu/uplink");
    platform_desc_free(&d);
}

static void test_blame_parent(void)
{
    CHECK_STR(
        support_load_error("sub/badchild.json", NULL),
        "sub/../badbase.json: /gpu/blocks/mem/params/latency: bad time \"0.5ps\": not "
        "a whole number of picoseconds");
}

static void test_cli_set_errors(void)
{
    CHECK_STR(
        support_load_error("base.json", "{\"gpu0.mem.latency\": \"5\"}"),
        "--set gpu0.mem.latency: bad time \"5\": missing unit (expected ps, ns, us, "
        "ms, s or cycles)");
    CHECK_STR(support_load_error("base.json", "{\"gpu0.mem.foo\": 1}"),
              "--set gpu0.mem.foo: unknown parameter \"foo\" of block type memory (in "
              "gpu0.mem)");
    CHECK_STR(support_load_error("base.json", "{\"gpu9.*.latency\": \"1ns\"}"),
              "--set gpu9.*.latency: \"gpu9.*\" matches no instance");
    CHECK_STR(support_load_error("base.json", "{\"latency\": \"1ns\"}"),
              "--set latency: expected <instance-glob>.<param>");
    CHECK_STR(support_load_error("base.json", "{\"fabric.switch.ports\": 3}"),
              "--set fabric.switch.ports: ports of fabric.switch is computed from the "
              "fabric topology");
    CHECK_STR(support_load_error("base.json", "{\"gpu*.xbar.cus\": 0}"),
              "--set gpu*.xbar.cus: 0 is below minimum 1");
    /* a set that changes a port count is seen by the [*] expansion */
    CHECK_STR(support_load_error("base.json", "{\"gpu1.xbar.cus\": 3}"),
              "base.json: /gpu/wires/0: \"gpu1.cu[*].mem\" has 2 elements but "
              "\"gpu1.xbar.cu[*]\" has 3");
}

static void test_toplevel(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("toplevel.json", NULL, &d, &err));
    CHECK_EQ_U64(d.ninst, 4);
    CHECK_STR(d.inst[0].name, "drv[0]");
    CHECK_STR(d.inst[1].name, "drv[1]");
    CHECK(d.inst[1].index == 1 && d.inst[1].gpu == -1);
    CHECK_STR(d.inst[2].name, "mem");
    CHECK_STR(d.inst[3].name, "sw");
    CHECK_EQ_U64(d.info.clock, 500);
    CHECK_EQ_U64(d.info.seed, 42);
    CHECK_EQ_U64(d.nwires, 2);
    CHECK_STR(support_wire(&d, 1), "drv[1].out <-> sw.port[1] @0");
    platform_desc_free(&d);
    CHECK_STR(support_load_error("toplevel.json", "{\"sw.ports\": 3}"),
              "toplevel.json: /wires/0: \"drv[*].out\" has 2 elements but \"sw.port[*]\" "
              "has 3");
    CHECK_STR(support_load_error("toplevel.json", "{\"*.latency\": \"1ns\"}"),
              "--set *.latency: unknown parameter \"latency\" of block type driver (in "
              "drv[0])");
}

static void test_inline_and_extra_sets(void)
{
    json_t *doc = json_loads("{\"extends\": \"base.json\", \"name\": \"inl\"}", 0, NULL);
    json_t *sets = json_loads("{\"gpu0.mem.latency\": \"7ns\"}", 0, NULL);
    PlatformLoadArgs a = {.registry = hw_registry(),
                          .path = "tb.json",
                          .inline_doc = doc,
                          .inline_pointer = "/platform",
                          .sets = sets,
                          .sets_file = "tb.json",
                          .sets_pointer = "/set"};
    PlatformDesc d;
    SimError err;
    CHECK(platform_load_args(&a, &d, &err));
    CHECK_STR(d.name, "inl");
    CHECK_STR(support_param(&d, "gpu0.mem", "latency"), "\"7ns\"");
    CHECK_STR(support_param(&d, "gpu1.mem", "latency"), "\"80ns\"");
    platform_desc_free(&d);
    json_decref(sets);
    sets = json_loads("{\"gpu0.mem.latency\": 7}", 0, NULL);
    a.sets = sets;
    CHECK(!platform_load_args(&a, &d, &err));
    CHECK_STR(err.msg, "tb.json: /set/gpu0.mem.latency: expected a time string like "
                       "\"30ns\", got integer");
    json_object_set_new(doc, "gpus", json_integer(0));
    CHECK(!platform_load_args(&a, &d, &err));
    CHECK_STR(err.msg, "tb.json: /platform/gpus: 0 is below minimum 1");
    json_decref(doc);
    json_decref(sets);
}

static void test_names(void)
{
    char inst[64], port[64];
    int k = 7;
    CHECK(platform_name_split_port("gpu0.xbar.cu[12]", inst, port, sizeof inst, &k));
    CHECK_STR(inst, "gpu0.xbar");
    CHECK_STR(port, "cu");
    CHECK_EQ_U64(k, 12);
    CHECK(platform_name_split_port("fabric.sw[1].port[0]", inst, port, sizeof inst, &k));
    CHECK_STR(inst, "fabric.sw[1]");
    CHECK(platform_name_split_port("mem.in", inst, port, sizeof inst, &k) && k == -1);
    CHECK(!platform_name_split_port("mem", inst, port, sizeof inst, &k));
    CHECK(!platform_name_split_port("gpu0.mem.in[x]", inst, port, sizeof inst, &k));
    CHECK(!platform_name_split_port(".in", inst, port, sizeof inst, &k));
    CHECK(platform_name_valid("gpu0.cu[1]"));
    CHECK(platform_name_valid("tb.d0"));
    CHECK(!platform_name_valid("gpu0..cu"));
    CHECK(!platform_name_valid("gpu0.cu[01]"));
    CHECK(!platform_name_valid("gpu0.cu[]"));
    CHECK(!platform_name_valid("a b"));
    CHECK(!platform_name_valid(""));
    CHECK(!platform_name_valid("0gpu"));
    CHECK_EQ_U64(platform_name_index("fabric.link[5]"), 5);
    CHECK(platform_name_index("gpu0.mem") == -1);
}

static void test_desc_api(void)
{
    PlatformDesc d = {.registry = hw_registry()};
    SimError err;
    CHECK(platform_desc_add_instance(&d, "tb.d0", "driver", -1, NULL,
                                     "tb.json: /drive/d0", &err));
    CHECK(!platform_desc_add_instance(&d, "tb.d0", "driver", -1, NULL, "x", &err));
    CHECK_STR(err.msg, "duplicate instance name tb.d0");
    CHECK(!platform_desc_add_instance(&d, "tb.d1", "nope", -1, NULL, "x", &err));
    CHECK_STR(err.msg, "unknown block type \"nope\" (see mgtlm blocks)");
    CHECK(!platform_desc_add_instance(&d, "tb d1", "driver", -1, NULL, "x", &err));
    CHECK_STR(err.msg, "invalid instance name \"tb d1\"");
    CHECK(platform_desc_add_wire(&d, "tb.d0.out", "gpu0.mem.in", 0, "w0", &err));
    CHECK(platform_desc_add_wire(&d, "a.x", "b.y", 5, "w1", &err));
    CHECK(platform_desc_wire_of(&d, "gpu0.mem.in") == &d.wires[0]);
    CHECK(platform_desc_unwire(&d, "gpu0.mem.in"));
    CHECK(!platform_desc_unwire(&d, "gpu0.mem.in"));
    CHECK_EQ_U64(d.nwires, 1);
    CHECK_STR(d.wires[0].origin, "w1");
    /* many instances: the name index grows */
    char name[32];
    for (int i = 0; i < 500; i++) {
        snprintf(name, sizeof name, "x.y[%d]", i);
        CHECK(platform_desc_add_instance(&d, name, "sink", -1, NULL, "o", &err));
    }
    CHECK(platform_desc_find(&d, "x.y[499]") == &d.inst[500]);
    CHECK(platform_desc_find(&d, "x.y[0]")->index == 0);
    CHECK(platform_desc_find(&d, "x.y[500]") == NULL);
    platform_desc_free(&d);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_extends_merge);
    RUN(test_blame_parent);
    RUN(test_cli_set_errors);
    RUN(test_toplevel);
    RUN(test_inline_and_extra_sets);
    RUN(test_names);
    RUN(test_desc_api);
    return harness_report();
}
