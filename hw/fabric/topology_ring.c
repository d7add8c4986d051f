/* Topology "ring" (N = gpus >= 2): a switch per GPU, neighbours joined by links.
 * fabric.sw[i] (ports 3): port[0] <-> gpu<i>.<uplink>, port[1] towards i+1, port[2]
 * towards i-1; fabric.link[i]: sw[i].port[1] <-> link.a, link.b <-> sw[i+1 mod
 * N].port[2]. routes[d] = 0 for d = i, else 1 (forward) or 2 (back): the shorter way
 * (Decision: ties go forward) unless it passes through switch 0, then the other way
 * (fabric_gen_ring_forward; with N = 2 always forward). Decision: without the
 * exception the ring deadlocked with 64 GPUs on 1 TB/s links and 8-slot buffers
 * (every link's buffer waiting for the next one forward); no path now continues
 * through switch 0, which breaks that cycle (docs/topologies.md, "Deadlock"). The
 * user's params
 * of the parts "switch" and "link" go to every switch and link; the switches'
 * "ports" and "routes" are computed. Wires: the uplinks of GPU 0..N-1, then the
 * links of sw[0..N-1]. */
#include "fabric_gen.h"

static const char *const topology_ring_parts[] = {"switch", "link", NULL};

static uint64_t topology_ring_route(uint32_t n, uint32_t i, uint32_t d)
{
    if (d == i) {
        return 0;
    }
    return n == 2 || fabric_gen_ring_forward(n, i, d) ? 1 : 2;
}

static bool topology_ring_instances(TopologyGen *g, SimError *err)
{
    uint32_t n = topology_gpus(g);
    return fabric_gen_per_gpu(g, 3, topology_ring_route, n, err);
}

static bool topology_ring_wires(TopologyGen *g, SimError *err)
{
    uint32_t n = topology_gpus(g);
    if (!fabric_gen_per_gpu_uplinks(g, err)) {
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!fabric_gen_join(g, i, 1, i, (i + 1) % n, 2, err)) {
            return false;
        }
    }
    return true;
}

const TopologyType ring_topology = {
    .name = "ring",
    .doc = "a switch per GPU; each switch linked to its two neighbours",
    .min_gpus = 2,
    .parts = topology_ring_parts,
    .computed = fabric_gen_computed,
    .instances = topology_ring_instances,
    .wires = topology_ring_wires,
};
