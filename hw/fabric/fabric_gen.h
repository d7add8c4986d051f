/* What the topology generators share: fabric switches with computed routing tables,
 * switch-to-switch connections through a link, and the switch-per-GPU layout of the
 * ring and fully connected topologies. */
#ifndef MGTLM_HW_FABRIC_GEN_H
#define MGTLM_HW_FABRIC_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/topology.h"

/* The most GPUs a platform has (the loader's bound of the top-level gpus): the size
 * of the generators' per-destination tables. */
#define FABRIC_GEN_MAX_GPUS 64

/* The parameters of a fabric switch the generators compute: "ports", "routes". */
extern const char *const fabric_gen_computed[];

/* Output port of switch i (of n GPUs) towards GPU d. */
typedef uint64_t (*FabricRoute)(uint32_t n, uint32_t i, uint32_t d);

/* Adds the switch instance `name` (of fabric part `part`, type "switch") with
 * `ports` ports and the routes routes[0..gpus-1] (borrowed). */
bool fabric_gen_switch_table(TopologyGen *g, const char *part, const char *name,
                             uint64_t ports, const uint64_t *routes, SimError *err);
/* Adds the switch instance `name` (part "switch", type "switch") with `ports` ports
 * and routes[d] = route(gpus, i, d) for every GPU d. */
bool fabric_gen_switch(TopologyGen *g, const char *name, uint64_t ports, uint32_t i,
                       FabricRoute route, SimError *err);
/* Switch-per-GPU layout, instances: sw[0..N-1] (N = gpus) with `ports` ports and
 * routes from route, then link[0..nlinks-1] (part "link", type "link"). */
bool fabric_gen_per_gpu(TopologyGen *g, uint64_t ports, FabricRoute route,
                        uint32_t nlinks, SimError *err);
/* Switch-per-GPU layout, first wires: port[0] of sw[i] to GPU i's uplink, i = 0..N-1. */
bool fabric_gen_per_gpu_uplinks(TopologyGen *g, SimError *err);
/* The direction from position `at` to `to` (at != to) on a ring of k >= 3 switches
 * that breaks the ring's cycle of channels at position 0: the shorter way (ties go
 * forward, towards at + 1), unless it passes through 0 (0 lies strictly between at
 * and to that way), then the other way, which does not. True = forward. No path so
 * continues through switch 0, so the channels' dependencies cannot close the ring:
 * without virtual channels, a ring routed the shorter way can deadlock once its
 * buffers fill (docs/topologies.md, "Deadlock"). */
bool fabric_gen_ring_forward(uint32_t k, uint32_t at, uint32_t to);
/* Wires port sp of sw[i] to link[k].a and link[k].b to port dp of sw[j]. */
bool fabric_gen_join(TopologyGen *g, uint32_t i, uint32_t sp, uint32_t k, uint32_t j,
                     uint32_t dp, SimError *err);

#endif
