/* What the topology generators share: fabric switches with computed routing tables,
 * and switch-to-switch connections through a link. */
#ifndef MGTLM_HW_FABRIC_GEN_H
#define MGTLM_HW_FABRIC_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/topology.h"

/* The parameters of a fabric switch the generators compute: "ports", "routes". */
extern const char *const fabric_gen_computed[];

/* Output port of switch i (of n GPUs) towards GPU d. */
typedef uint64_t (*FabricRoute)(uint32_t n, uint32_t i, uint32_t d);

/* Adds the switch instance `name` (part "switch", type "switch") with `ports` ports
 * and routes[d] = route(gpus, i, d) for every GPU d. */
bool fabric_gen_switch(TopologyGen *g, const char *name, uint64_t ports, uint32_t i,
                       FabricRoute route, SimError *err);
/* Wires port sp of sw[i] to link[k].a and link[k].b to port dp of sw[j]. */
bool fabric_gen_join(TopologyGen *g, uint32_t i, uint32_t sp, uint32_t k, uint32_t j,
                     uint32_t dp, SimError *err);

#endif
