/* Topology "switch": one central switch. Instance fabric.switch (ports N = gpus);
 * port[i] <-> gpu<i>.<uplink>; routes[d] = d. The user's params of the fabric part
 * "switch" go to the switch; "ports" and "routes" are computed. */
#include <stdio.h>

#include "fabric_gen.h"

static const char *const topology_switch_parts[] = {"switch", NULL};

static uint64_t topology_switch_route(uint32_t n, uint32_t i, uint32_t d)
{
    (void)n;
    (void)i;
    return d;
}

static bool topology_switch_instances(TopologyGen *g, SimError *err)
{
    return fabric_gen_switch(g, "switch", topology_gpus(g), 0, topology_switch_route,
                             err);
}

static bool topology_switch_wires(TopologyGen *g, SimError *err)
{
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        char port[64];
        snprintf(port, sizeof port, "switch.port[%u]", i);
        if (!topology_uplink(g, i, port, err)) {
            return false;
        }
    }
    return true;
}

const TopologyType switch_topology = {
    .name = "switch",
    .doc = "one central switch with a port per GPU",
    .min_gpus = 1,
    .parts = topology_switch_parts,
    .computed = fabric_gen_computed,
    .instances = topology_switch_instances,
    .wires = topology_switch_wires,
};
