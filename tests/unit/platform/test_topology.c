/* Covers the loader's side of topology generators (kernel/platform/platform_fabric.c,
 * kernel/topology.h) with a generator defined here, "hub": one switch "fabric.hub"
 * built from the fabric part "hub", "ports" (= gpus) and "routes" (reversed: GPU d
 * through port gpus-1-d) computed, every GPU's uplink on hub.port[i]. Registered
 * beside the hardware's generators, it must be picked by name, listed in the choices,
 * its part must be an allowed fabric key, its params must reach the instance, its
 * computed parameters must be refused in the part and in `set`, and its min_gpus
 * enforced. Registered alone, the fabric keys are its own; a registry without
 * block types knows none of base.json's. */
#include "support.h"

static const char *const hub_parts[] = {"hub", NULL};
static const char *const hub_computed[] = {"ports", "routes", NULL};

static bool hub_instances(TopologyGen *g, SimError *err)
{
    uint32_t n = topology_gpus(g);
    json_t *routes = json_array();
    for (uint32_t d = 0; d < n; d++) {
        json_array_append_new(routes, json_integer(n - 1 - d));
    }
    json_t *computed = json_pack("{s:i, s:o}", "ports", (json_int_t)n, "routes", routes);
    bool ok = topology_add(g, "hub", "hub", "switch", computed, err);
    json_decref(computed);
    return ok;
}

static bool hub_wires(TopologyGen *g, SimError *err)
{
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        char port[32];
        snprintf(port, sizeof port, "hub.port[%u]", i);
        if (!topology_uplink(g, i, port, err)) {
            return false;
        }
    }
    return true;
}

static const TopologyType hub_topology = {
    .name = "hub",
    .doc = "test: one switch, routes reversed",
    .min_gpus = 2,
    .parts = hub_parts,
    .computed = hub_computed,
    .instances = hub_instances,
    .wires = hub_wires,
};

/* hw_registry()'s block types, its generators when with_hw, then the hub generator
 * (freed by the caller). */
static Registry *hub_registry(bool with_hw)
{
    Registry *r = registry_new();
    SimError err;
    size_t ntypes, ntopo;
    const BlockType *const *types = registry_types(hw_registry(), &ntypes);
    const TopologyType *const *topo = registry_topologies(hw_registry(), &ntopo);
    CHECK(r != NULL);
    for (size_t i = 0; i < ntypes; i++) {
        CHECK(registry_add(r, types[i], &err));
    }
    for (size_t i = 0; with_hw && i < ntopo; i++) {
        CHECK(registry_add_topology(r, topo[i], &err));
    }
    CHECK(registry_add_topology(r, &hub_topology, &err));
    return r;
}

/* Loads base.json with the fabric replaced by fabric_json and optional sets. */
static bool hub_load(const Registry *r, const char *fabric_json, const char *sets_json,
                     PlatformDesc *d, SimError *err)
{
    json_t *doc = json_pack("{s:s, s:o}", "extends", "base.json", "fabric",
                            json_loads(fabric_json, 0, NULL));
    json_t *sets = sets_json ? json_loads(sets_json, 0, NULL) : NULL;
    PlatformLoadArgs a = {.registry = r,
                          .path = "tb.json",
                          .inline_doc = doc,
                          .inline_pointer = "/platform",
                          .cli_sets = sets};
    bool ok = platform_load_args(&a, d, err);
    if (!ok && getenv("TEST_VERBOSE")) {
        fprintf(stderr, "%s\n", err->msg);
    }
    json_decref(doc);
    json_decref(sets);
    return ok;
}

static void test_generated(void)
{
    Registry *r = hub_registry(true);
    PlatformDesc d;
    SimError err;
    CHECK(hub_load(r,
                   "{\"topology\": \"hub\", \"latency\": \"2ns\", \"hub\": {\"params\": "
                   "{\"latency\": \"4ns\"}}}",
                   NULL, &d, &err));
    CHECK(platform_desc_find(&d, "fabric.switch") == NULL);
    CHECK_STR(support_param(&d, "fabric.hub", "ports"), "2");
    CHECK_STR(support_param(&d, "fabric.hub", "latency"), "\"4ns\"");
    CHECK_STR(support_param(&d, "fabric.hub", "routes"), "[1,0]");
    const PlatformInstance *hub = platform_desc_find(&d, "fabric.hub");
    CHECK_STR(hub ? hub->origin : "(none)", "tb.json: /platform/fabric/hub");
    CHECK_STR(support_wire(&d, d.nwires - 2),
              "fabric.hub.port[0] <-> gpu0.rdma.net @2000");
    CHECK_STR(support_wire(&d, d.nwires - 1),
              "fabric.hub.port[1] <-> gpu1.rdma.net @2000");
    CHECK_STR(d.nwires ? d.wires[d.nwires - 1].origin : "(none)",
              "base.json: /gpu/uplink");
    platform_desc_free(&d);
    registry_free(r);
}

static void test_errors(void)
{
    Registry *r = hub_registry(true);
    PlatformDesc d;
    SimError err;
    CHECK(!hub_load(r, "{\"topology\": \"star\"}", NULL, &d, &err));
    CHECK_STR(err.msg, "tb.json: /platform/fabric/topology: unknown topology \"star\" "
                       "(choices: none, switch, ring, fully_connected, mesh, torus, "
                       "chiplet, hub)");
    CHECK(!hub_load(r, "{\"topology\": \"hub\", \"bus\": {}}", NULL, &d, &err));
    CHECK_STR(err.msg, "tb.json: /platform/fabric/bus: unknown key \"bus\" (expected "
                       "topology, switch, link, package, chiplet_link, hub, params, "
                       "latency, doc)");
    CHECK(!hub_load(r, "{\"topology\": \"hub\", \"params\": {\"rows\": 2}}", NULL, &d,
                    &err));
    CHECK_STR(err.msg, "tb.json: /platform/fabric/params/rows: unknown parameter "
                       "\"rows\" of topology hub");
    CHECK(!hub_load(r, "{\"topology\": \"none\", \"params\": {\"rows\": 2}}", NULL, &d,
                    &err));
    CHECK_STR(err.msg, "tb.json: /platform/fabric/params/rows: unknown parameter "
                       "\"rows\" of topology none");
    CHECK(!hub_load(r, "{\"topology\": \"hub\", \"params\": 2}", NULL, &d, &err));
    CHECK_STR(err.msg,
              "tb.json: /platform/fabric/params: expected an object, got integer");
    CHECK(!hub_load(r, "{\"topology\": \"hub\", \"hub\": {\"params\": {\"ports\": 2}}}",
                    NULL, &d, &err));
    CHECK_STR(err.msg, "tb.json: /platform/fabric/hub/params/ports: computed from the "
                       "fabric topology; remove it");
    CHECK(!hub_load(r, "{\"topology\": \"hub\"}", "{\"fabric.hub.ports\": 4}", &d, &err));
    CHECK_STR(err.msg,
              "--set fabric.hub.ports: ports of fabric.hub is computed from the fabric "
              "topology");
    CHECK(!hub_load(r, "{\"topology\": \"hub\"}", "{\"gpus\": 1}", &d, &err));
    CHECK_STR(err.msg,
              "tb.json: /platform/fabric/topology: topology hub needs at least 2 GPUs");
    registry_free(r);
}

static void test_own_registry(void)
{
    Registry *r = hub_registry(false);
    PlatformDesc d;
    SimError err;
    CHECK(!hub_load(r, "{\"topology\": \"hub\"}", NULL, &d, &err));
    CHECK_STR(err.msg, "base.json: /fabric/switch: unknown key \"switch\" (expected "
                       "topology, hub, params, latency, doc)");
    registry_free(r);
}

static void test_bare_registry(void)
{
    Registry *r = registry_new();
    PlatformDesc d;
    SimError err;
    CHECK(!hub_load(r, "{}", NULL, &d, &err));
    CHECK_STR(err.msg, "base.json: /gpu/blocks/cu/type: unknown block type \"cu\" (see "
                       "mgtlm blocks)");
    registry_free(r);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_generated);
    RUN(test_errors);
    RUN(test_own_registry);
    RUN(test_bare_registry);
    return harness_report();
}
