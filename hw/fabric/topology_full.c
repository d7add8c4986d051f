/* Topology "fully_connected" (N = gpus >= 2): a switch per GPU, every pair joined by
 * a link. fabric.sw[i] (ports N): port[0] <-> gpu<i>.<uplink>, port[1..] to the peers
 * in ascending GPU order; fabric.link[k] for the pairs i < j in lexicographic order,
 * link.a at sw[i], link.b at sw[j]. routes[d] = 0 for d = i, else 1 + (d < i ? d :
 * d - 1). The user's params of the parts "switch" and "link" go to every switch and
 * link; the switches' "ports" and "routes" are computed. Wires: the uplinks of GPU
 * 0..N-1, then the links in pair order. */
#include "fabric_gen.h"

static const char *const topology_full_parts[] = {"switch", "link", NULL};

static uint64_t topology_full_route(uint32_t n, uint32_t i, uint32_t d)
{
    (void)n;
    if (d == i) {
        return 0;
    }
    return 1 + (d < i ? d : d - 1);
}

static bool topology_full_instances(TopologyGen *g, SimError *err)
{
    uint32_t n = topology_gpus(g);
    return fabric_gen_per_gpu(g, n, topology_full_route, n * (n - 1) / 2, err);
}

static bool topology_full_wires(TopologyGen *g, SimError *err)
{
    uint32_t n = topology_gpus(g);
    if (!fabric_gen_per_gpu_uplinks(g, err)) {
        return false;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = i + 1; j < n; j++, k++) {
            /* sw[i] reaches j through port 1 + (j - 1); sw[j] reaches i via 1 + i */
            if (!fabric_gen_join(g, i, j, k, j, i + 1, err)) {
                return false;
            }
        }
    }
    return true;
}

const TopologyType fully_connected_topology = {
    .name = "fully_connected",
    .doc = "a switch per GPU; every pair of switches linked",
    .min_gpus = 2,
    .parts = topology_full_parts,
    .computed = fabric_gen_computed,
    .instances = topology_full_instances,
    .wires = topology_full_wires,
};
