/* Covers kernel/platform/platform_cores.c and the trace, sms and cus values of
 * platform_top.c: the cores section of a template platform. The block types sm,
 * dispatch and host are stood for by test types defined here (test_sm,
 * test_dispatch, test_host, with the ports and count parameters contract of issue 14
 * names) plus test_tap (a template entry with a bounded parameter to scale),
 * registered beside the hardware's. data/cores.json extends base.json (2 GPUs, cu
 * count 2). Expected names, counts and wires are read off the section's rules in
 * docs/platform-format.md by hand. */
#include <stddef.h>

#include "kernel/platform/platform_priv.h"
#include "support.h"

typedef struct TestCtl {
    Block b;
    uint64_t n;
} TestCtl;

static const ParamDef test_sm_params[] = {
    {"lanes", offsetof(TestCtl, n), PT_U64, false, "32", 1, 64, 0, 0, NULL, "test"},
};
static const PortDef test_sm_ports[] = {
    {"mem", NULL, true, "memory side", false, false},
    {"ctl", NULL, true, "to the dispatcher", false, false},
};
static const BlockType test_sm = {.name = "test_sm",
                                  .doc = "stands for sm",
                                  .size = sizeof(TestCtl),
                                  .params = test_sm_params,
                                  .nparams = 1,
                                  .ports = test_sm_ports,
                                  .nports = 2};

static const ParamDef test_disp_params[] = {
    {"sms", offsetof(TestCtl, n), PT_U64, false, "1", 1, 4096, 0, 0, NULL, "test"},
    {"interval", offsetof(TestCtl, n), PT_U64, false, "1", 1, 64, 0, 0, NULL, "test"},
};
static const PortDef test_disp_ports[] = {
    {"sm", "sms", true, "to sm k", false, false},
    {"host", NULL, true, "to the host", false, false},
};
static const BlockType test_dispatch = {.name = "test_dispatch",
                                        .doc = "stands for dispatch",
                                        .size = sizeof(TestCtl),
                                        .params = test_disp_params,
                                        .nparams = 2,
                                        .ports = test_disp_ports,
                                        .nports = 2};

static const ParamDef test_host_params[] = {
    {"gpus", offsetof(TestCtl, n), PT_U64, false, "1", 1, 64, 0, 0, NULL, "test"},
};
static const PortDef test_host_ports[] = {
    {"gpu", "gpus", true, "to GPU g's dispatcher", false, false},
};
static const BlockType test_host = {.name = "test_host",
                                    .doc = "stands for host",
                                    .size = sizeof(TestCtl),
                                    .params = test_host_params,
                                    .nparams = 1,
                                    .ports = test_host_ports,
                                    .nports = 1};

static const ParamDef test_tap_params[] = {
    {"slots", offsetof(TestCtl, n), PT_U64, false, "1", 1, 4, 0, 0, NULL, "test"},
};
static const BlockType test_tap = {.name = "test_tap",
                                   .doc = "scaled entry",
                                   .size = sizeof(TestCtl),
                                   .params = test_tap_params,
                                   .nparams = 1};

static Registry *reg;

/* Loads path (or, with over_json, an inline document at "/platform" of tb.json that
 * extends path and merges over_json) with the command-line sets of sets_json. */
static bool cores_load(const char *path, const char *over_json, const char *sets_json,
                       PlatformDesc *d, SimError *err)
{
    json_t *doc = NULL;
    if (over_json) {
        doc = json_loads(over_json, 0, NULL);
        CHECK(doc != NULL);
        json_object_set_new(doc, "extends", json_string(path));
    }
    json_t *sets = sets_json ? json_loads(sets_json, 0, NULL) : NULL;
    PlatformLoadArgs a = {.registry = reg,
                          .path = over_json ? "tb.json" : path,
                          .inline_doc = doc,
                          .inline_pointer = over_json ? "/platform" : NULL,
                          .cli_sets = sets};
    bool ok = platform_load_args(&a, d, err);
    json_decref(doc);
    json_decref(sets);
    return ok;
}

static const char *cores_error(const char *path, const char *over_json,
                               const char *sets_json)
{
    static SimError err;
    PlatformDesc d;
    if (cores_load(path, over_json, sets_json, &d, &err)) {
        platform_desc_free(&d);
        return "(loaded)";
    }
    return err.msg;
}

/* Without a trace the section changes nothing. */
static void test_not_applied(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(cores_load("cores.json", NULL, "{\"sms\": 3}", &d, &err));
    CHECK(d.info.trace == NULL && d.trace == NULL);
    CHECK(platform_desc_find(&d, "gpu0.cu[1]") != NULL);
    CHECK(platform_desc_find(&d, "gpu0.sm[0]") == NULL);
    CHECK(platform_desc_find(&d, "host") == NULL);
    CHECK(platform_desc_find(&d, "gpu1.tap[2]") == NULL);
    CHECK_STR(support_param(&d, "gpu0.xbar", "cus"), "2");
    CHECK_STR(support_wire(&d, 0), "gpu0.cu[0].mem <-> gpu0.xbar.cu[0] @1000");
    platform_desc_free(&d);
}

/* With a trace: sm[*] and disp in cu's place, host last, counts from cu. */
static void test_applied(void)
{
    PlatformDesc d;
    SimError err;
    if (!cores_load("cores.json", NULL, "{\"trace\": \"tr/k\"}", &d, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(false);
        return;
    }
    CHECK_STR(d.info.trace, "tr/k");
    CHECK(d.info.trace == d.trace);
    const char *order[] = {"gpu0.sm[0]",  "gpu0.sm[1]",  "gpu0.disp",
                           "gpu0.xbar",   "gpu0.mem",    "gpu0.rdma",
                           "gpu0.tap[0]", "gpu0.tap[1]", "gpu1.sm[0]"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        CHECK_STR(d.inst[i].name, order[i]);
    }
    /* 2 GPUs x 8 + fabric.switch + host */
    CHECK_EQ_U64(d.ninst, 18);
    CHECK_STR(d.inst[17].name, "host");
    CHECK(platform_desc_find(&d, "gpu0.cu[0]") == NULL);
    CHECK_STR(platform_desc_find(&d, "gpu1.sm[1]")->type->name, "test_sm");
    CHECK_STR(platform_desc_find(&d, "gpu1.sm[1]")->origin, "cores.json: /cores/sm");
    CHECK_STR(platform_desc_find(&d, "gpu1.disp")->origin, "cores.json: /cores/dispatch");
    CHECK_STR(support_param(&d, "gpu1.sm[1]", "lanes"), "4");
    CHECK_STR(support_param(&d, "gpu0.disp", "sms"), "2");
    CHECK_STR(support_param(&d, "gpu0.disp", "interval"), "2");
    CHECK_STR(support_param(&d, "host", "gpus"), "2");
    CHECK_STR(support_param(&d, "gpu0.xbar", "cus"), "2");
    CHECK_STR(support_param(&d, "gpu1.tap[1]", "slots"), "2");
    /* per GPU: 2 renamed cu wires, local, remote, 2 ctl wires; then the fabric's 2,
     * then the host's 2 */
    CHECK_EQ_U64(d.nwires, 2 * 6 + 2 + 2);
    CHECK_STR(support_wire(&d, 0), "gpu0.sm[0].mem <-> gpu0.xbar.cu[0] @1000");
    CHECK_STR(support_wire(&d, 1), "gpu0.sm[1].mem <-> gpu0.xbar.cu[1] @1000");
    CHECK_STR(support_wire(&d, 4), "gpu0.sm[0].ctl <-> gpu0.disp.sm[0] @0");
    CHECK_STR(support_wire(&d, 5), "gpu0.sm[1].ctl <-> gpu0.disp.sm[1] @0");
    CHECK_STR(support_wire(&d, 11), "gpu1.sm[1].ctl <-> gpu1.disp.sm[1] @0");
    CHECK_STR(support_wire(&d, 14), "host.gpu[0] <-> gpu0.disp.host @50000");
    CHECK_STR(support_wire(&d, 15), "host.gpu[1] <-> gpu1.disp.host @50000");
    /* the flat dump keeps the trace and loads back to the same instances */
    json_t *flat = platform_dump(&d);
    CHECK_STR(support_json(json_object_get(flat, "trace")), "\"tr/k\"");
    PlatformDesc back;
    PlatformLoadArgs a = {.registry = reg, .path = "flat.json", .inline_doc = flat};
    CHECK(platform_load_args(&a, &back, &err));
    CHECK_STR(back.info.trace, "tr/k");
    CHECK_EQ_U64(back.ninst, d.ninst);
    CHECK_EQ_U64(back.nwires, d.nwires);
    platform_desc_free(&back);
    json_decref(flat);
    platform_desc_free(&d);
}

/* sms scales the counts and parameters; a set still wins over a scaled parameter;
 * the value may come from the document, a set is the last word. */
static void test_sms(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(cores_load("cores.json", "{\"sms\": 3}",
                     "{\"trace\": \"t\", \"gpu1.tap[*].slots\": 1}", &d, &err));
    CHECK(platform_desc_find(&d, "gpu1.sm[2]") != NULL);
    CHECK(platform_desc_find(&d, "gpu1.sm[3]") == NULL);
    CHECK(platform_desc_find(&d, "gpu1.tap[2]") != NULL);
    CHECK_STR(support_param(&d, "gpu0.xbar", "cus"), "3");
    CHECK_STR(support_param(&d, "gpu0.disp", "sms"), "3");
    CHECK_STR(support_param(&d, "gpu0.tap[2]", "slots"), "3");
    CHECK_STR(support_param(&d, "gpu1.tap[2]", "slots"), "1");
    CHECK_STR(support_wire(&d, 2), "gpu0.sm[2].mem <-> gpu0.xbar.cu[2] @1000");
    platform_desc_free(&d);
    CHECK(cores_load("cores.json", "{\"sms\": 3, \"trace\": \"doc\"}",
                     "{\"sms\": 1, \"trace\": \"cli\"}", &d, &err));
    CHECK_STR(d.info.trace, "cli");
    CHECK(platform_desc_find(&d, "gpu1.sm[0]") != NULL);
    CHECK(platform_desc_find(&d, "gpu1.sm[1]") == NULL);
    platform_desc_free(&d);
    /* an empty trace is no trace */
    CHECK(
        cores_load("cores.json", "{\"trace\": \"doc\"}", "{\"trace\": \"\"}", &d, &err));
    CHECK(d.info.trace == NULL && platform_desc_find(&d, "gpu0.cu[0]") != NULL);
    platform_desc_free(&d);
}

/* cus without a trace: the CU count, the cu's own cus and every scale item follow
 * it (a set still wins); with a trace it is the SM count unless sms is given. */
static void test_cus(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(
        cores_load("cores.json", "{\"cus\": 3}", "{\"gpu1.tap[*].slots\": 1}", &d, &err));
    CHECK(platform_desc_find(&d, "gpu1.cu[2]") != NULL);
    CHECK(platform_desc_find(&d, "gpu1.cu[3]") == NULL);
    CHECK(platform_desc_find(&d, "gpu0.sm[0]") == NULL);
    CHECK(platform_desc_find(&d, "gpu1.tap[2]") != NULL);
    CHECK_STR(support_param(&d, "gpu0.cu[2]", "cus"), "3");
    CHECK_STR(support_param(&d, "gpu0.xbar", "cus"), "3");
    CHECK_STR(support_param(&d, "gpu0.tap[2]", "slots"), "3");
    CHECK_STR(support_param(&d, "gpu1.tap[2]", "slots"), "1");
    CHECK_STR(support_wire(&d, 2), "gpu0.cu[2].mem <-> gpu0.xbar.cu[2] @1000");
    platform_desc_free(&d);
    CHECK(cores_load("cores.json", NULL, "{\"cus\": 3, \"trace\": \"t\"}", &d, &err));
    CHECK(platform_desc_find(&d, "gpu1.sm[2]") != NULL);
    CHECK(platform_desc_find(&d, "gpu1.sm[3]") == NULL);
    platform_desc_free(&d);
    CHECK(cores_load("cores.json", NULL, "{\"cus\": 3, \"sms\": 1, \"trace\": \"t\"}", &d,
                     &err));
    CHECK(platform_desc_find(&d, "gpu1.sm[0]") != NULL);
    CHECK(platform_desc_find(&d, "gpu1.sm[1]") == NULL);
    platform_desc_free(&d);
    CHECK_STR(cores_error("cores.json", NULL, "{\"cus\": 5}"),
              "cores.json: /cores/scale/2: cus: 5 is above maximum 4");
    CHECK_STR(cores_error("cores.json", NULL, "{\"cus\": 4097}"),
              "--set cus: 4097 is above maximum 4096");
    CHECK_STR(cores_error("base.json", NULL, "{\"cus\": 2}"),
              "--set cus: the platform has no \"cores\" section naming its CU entry "
              "(cores.replace)");
    CHECK_STR(cores_error("cores.json",
                          "{\"cus\": 2, \"cores\": {\"replace\": \"xbar\", "
                          "\"scale\": []}}",
                          NULL),
              "tb.json: /platform/cus: entry xbar (cores.replace) has no count to set");
}

static void test_errors(void)
{
    CHECK_STR(cores_error("base.json", NULL, "{\"trace\": \"t\"}"),
              "--set trace: the platform has no \"cores\" section to run a trace with");
    CHECK_STR(cores_error("base.json", "{\"trace\": \"t\"}", NULL),
              "tb.json: /platform/trace: the platform has no \"cores\" section to run a "
              "trace with");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"replace\": \"cus\"}}", NULL),
              "tb.json: /platform/cores/replace: \"cus\" names no entry of the GPU "
              "template (/gpu/blocks)");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"replacer\": 1}}", NULL),
              "tb.json: /platform/cores/replacer: unknown key \"replacer\" (expected "
              "doc, replace, sm, dispatch, host, scale)");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"scale\": [\"bus.cus\"]}}", NULL),
              "tb.json: /platform/cores/scale/0: \"bus.cus\" names no entry of the GPU "
              "template (other than the replaced \"cu\")");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"scale\": [\"cu\"]}}", NULL),
              "tb.json: /platform/cores/scale/0: \"cu\" names no entry of the GPU "
              "template (other than the replaced \"cu\")");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"scale\": [\"xbar\"]}}", NULL),
              "tb.json: /platform/cores/scale/0: \"xbar\": entry xbar has no count to "
              "scale (name one of its parameters: \"xbar.<param>\")");
    CHECK_STR(
        cores_error("cores.json", "{\"cores\": {\"scale\": [\"xbar.ports\"]}}", NULL),
        "tb.json: /platform/cores/scale/0: block type xbar has no parameter "
        "\"ports\"");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"scale\": [7]}}", NULL),
              "tb.json: /platform/cores/scale/0: expected a string, got integer");
    CHECK_STR(
        cores_error("cores.json", "{\"cores\": {\"host\": {\"latency\": \"5\"}}}", NULL),
        "tb.json: /platform/cores/host/latency: bad time \"5\": missing unit (expected "
        "ps, ns, us, ms, s or cycles)");
    CHECK_STR(
        cores_error("cores.json", "{\"cores\": {\"sm\": {\"latency\": \"5ns\"}}}", NULL),
        "tb.json: /platform/cores/sm/latency: unknown key \"latency\" (expected "
        "type, params, doc)");
    CHECK_STR(
        cores_error("cores.json", "{\"cores\": {\"sm\": {\"type\": \"nosuch\"}}}", NULL),
        "(loaded)");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"sm\": {\"type\": \"nosuch\"}}}",
                          "{\"trace\": \"t\"}"),
              "tb.json: /platform/cores/sm/type: unknown block type \"nosuch\" (see "
              "mgtlm blocks)");
    CHECK_STR(cores_error("cores.json", NULL, "{\"trace\": \"t\", \"sms\": 5}"),
              "cores.json: /cores/scale/2: sms: 5 is above maximum 4");
    CHECK_STR(cores_error("cores.json", NULL, "{\"sms\": 4097}"),
              "--set sms: 4097 is above maximum 4096");
    CHECK_STR(cores_error("cores.json", NULL, "{\"trace\": 1}"),
              "--set trace: expected a string, got integer");
    CHECK_STR(cores_error("cores.json", "{\"cores\": {\"sm\": {\"params\": {\"x\": 1}}}}",
                          "{\"trace\": \"t\"}"),
              "tb.json: /platform/cores/sm/params/x: unknown parameter \"x\" of block "
              "type test_sm");
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    const BlockType *const mine[] = {&test_sm, &test_dispatch, &test_host, &test_tap};
    reg = support_registry(mine, 4);
    RUN(test_not_applied);
    RUN(test_applied);
    RUN(test_sms);
    RUN(test_cus);
    RUN(test_errors);
    registry_free(reg);
    return harness_report();
}
