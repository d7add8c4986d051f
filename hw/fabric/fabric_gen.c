/* Helpers of the topology generators: a switch with its computed "ports" and
 * "routes" (from a table or a route function), the switch-per-GPU layout, the
 * direction rule of the mesh's wrap-arounds and the chiplet ring, and the two wires
 * of a switch-link-switch connection. */
#include "fabric_gen.h"

#include <stdio.h>

const char *const fabric_gen_computed[] = {"ports", "routes", NULL};

bool fabric_gen_switch_table(TopologyGen *g, const char *part, const char *name,
                             uint64_t ports, const uint64_t *routes, SimError *err)
{
    json_t *computed = json_object();
    json_t *list = json_array();
    for (uint32_t d = 0; list && d < topology_gpus(g); d++) {
        json_array_append_new(list, json_integer((json_int_t)routes[d]));
    }
    bool ok =
        computed && list &&
        json_object_set_new(computed, "ports", json_integer((json_int_t)ports)) == 0 &&
        json_object_set(computed, "routes", list) == 0;
    ok = ok ? topology_add(g, part, name, "switch", computed, err)
            : topology_fail(g, err, "out of memory");
    json_decref(list);
    json_decref(computed);
    return ok;
}

bool fabric_gen_switch(TopologyGen *g, const char *name, uint64_t ports, uint32_t i,
                       FabricRoute route, SimError *err)
{
    uint32_t n = topology_gpus(g);
    uint64_t routes[FABRIC_GEN_MAX_GPUS];
    for (uint32_t d = 0; d < n && d < FABRIC_GEN_MAX_GPUS; d++) {
        routes[d] = route(n, i, d);
    }
    return fabric_gen_switch_table(g, "switch", name, ports, routes, err);
}

bool fabric_gen_per_gpu(TopologyGen *g, uint64_t ports, FabricRoute route,
                        uint32_t nlinks, SimError *err)
{
    char name[64];
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        snprintf(name, sizeof name, "sw[%u]", i);
        if (!fabric_gen_switch(g, name, ports, i, route, err)) {
            return false;
        }
    }
    for (uint32_t k = 0; k < nlinks; k++) {
        snprintf(name, sizeof name, "link[%u]", k);
        if (!topology_add(g, "link", name, "link", NULL, err)) {
            return false;
        }
    }
    return true;
}

bool fabric_gen_per_gpu_uplinks(TopologyGen *g, SimError *err)
{
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        char port[64];
        snprintf(port, sizeof port, "sw[%u].port[0]", i);
        if (!topology_uplink(g, i, port, err)) {
            return false;
        }
    }
    return true;
}

bool fabric_gen_ring_forward(uint32_t k, uint32_t at, uint32_t to)
{
    uint32_t fwd = (to + k - at) % k;
    bool forward = fwd <= k - fwd;
    bool through_zero = at != 0 && to != 0 && (forward ? to < at : to > at);
    return forward != through_zero;
}

bool fabric_gen_join(TopologyGen *g, uint32_t i, uint32_t sp, uint32_t k, uint32_t j,
                     uint32_t dp, SimError *err)
{
    char s[64], la[64], lb[64], d[64];
    snprintf(s, sizeof s, "sw[%u].port[%u]", i, sp);
    snprintf(la, sizeof la, "link[%u].a", k);
    snprintf(lb, sizeof lb, "link[%u].b", k);
    snprintf(d, sizeof d, "sw[%u].port[%u]", j, dp);
    return topology_wire(g, s, la, err) && topology_wire(g, lb, d, err);
}
