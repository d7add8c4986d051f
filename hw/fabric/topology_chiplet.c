/* Topology "chiplet" (docs/topologies.md): P packages of C chiplets, each chiplet one
 * GPU of the platform (GPU g is chiplet g mod C of package g / C; N = P x C GPUs), as
 * in LADM's hierarchical multi-GPU (paper 002, Fig. 1 and section IV.A: GPUs of
 * chiplets joined by a switch).
 *
 * Settings (fabric "params"): chiplets = C (1 to 64, default 4; it must divide the
 * GPU count), inter = the fabric between packages, "switch" (default) or "ring".
 *
 * Instances, in order: fabric.pkg[p] (part "package", type switch), the package's
 * switch: port[c] for its chiplet c, then, with P >= 2, port[C] to the inter-package
 * fabric (and port[C+1] with a ring); fabric.switch (part "switch", P ports; inter
 * "switch" with P >= 2 only) joining the packages; fabric.clink[g] (part
 * "chiplet_link", type link) the intra-package link of GPU g; fabric.link[p] (part
 * "link", type link) the inter-package link of package p (P >= 2). Each kind of link
 * takes its own params (bandwidth, latency, overhead) from its part.
 * Wires: gpu<g>.<uplink> <-> clink[g].a and clink[g].b <-> pkg[g / C].port[g mod C]
 * for g = 0..N-1; then per package p: switch "pkg[p].port[C] <-> link[p].a, link[p].b
 * <-> switch.port[p]", ring "pkg[p].port[C] <-> link[p].a, link[p].b <->
 * pkg[(p+1) mod P].port[C+1]".
 *
 * Routing (by destination GPU d, package q = d / C): pkg[p] sends d to port[d mod C]
 * when q = p, else to port[C] (inter "switch"; fabric.switch sends it to port[q]) or,
 * with a ring, to port[C] (forward, towards p+1) or port[C+1] (back): the shorter way
 * round (ties forward) unless it passes through package 0, then the other way
 * (fabric_gen_ring_forward: the switch has no virtual channels, and a ring routed
 * the shorter way can deadlock; docs/topologies.md, "Deadlock").
 * A transaction so crosses one package switch inside a package, three switches
 * (package, fabric, package) between packages joined by a switch, and 1 + the ring
 * distance the way it goes package switches on a ring.
 * Decisions: intra-package links form a star around the package switch (one link per
 * chiplet), not LADM's ring of chiplets: with 4 chiplets a ring's longest path is two
 * links, and a star keeps the one rule "intra-package traffic crosses one switch";
 * one package (P = 1) has no inter-package fabric. */
#include <stdio.h>

#include "fabric_gen.h"

typedef struct ChipletParams {
    uint64_t chiplets;
    int inter;
} ChipletParams;

enum { CHIPLET_INTER_SWITCH, CHIPLET_INTER_RING };

static const char *const topology_chiplet_inter[] = {"switch", "ring", NULL};

static const ParamDef topology_chiplet_params[] = {
    {.key = "chiplets",
     .offset = offsetof(ChipletParams, chiplets),
     .type = PT_U64,
     .def = "4",
     .min = 1,
     .max = FABRIC_GEN_MAX_GPUS,
     .doc = "chiplets per package (GPUs of the platform per package)"},
    {.key = "inter",
     .offset = offsetof(ChipletParams, inter),
     .type = PT_ENUM,
     .def = "switch",
     .choices = topology_chiplet_inter,
     .doc = "fabric between packages: one switch, or a bidirectional ring"},
};

static const char *const topology_chiplet_parts[] = {"package", "switch", "chiplet_link",
                                                     "link", NULL};

typedef struct ChipletShape {
    uint32_t c, p; /* chiplets per package, packages */
    bool ring;     /* inter-package ring (else a switch) */
} ChipletShape;

static bool topology_chiplet_shape(const TopologyGen *g, ChipletShape *s, SimError *err)
{
    const ChipletParams *cp = topology_params(g);
    uint32_t n = topology_gpus(g);
    if (n % cp->chiplets != 0) {
        return topology_fail_param(g, "chiplets", err,
                                   "%u GPUs are not a whole number of packages of %llu "
                                   "chiplets",
                                   n, (unsigned long long)cp->chiplets);
    }
    *s = (ChipletShape){.c = (uint32_t)cp->chiplets,
                        .p = n / (uint32_t)cp->chiplets,
                        .ring = cp->inter == CHIPLET_INTER_RING};
    return true;
}

/* The output port of package switch p towards GPU d. */
static uint64_t topology_chiplet_route(const ChipletShape *s, uint32_t p, uint32_t d)
{
    uint32_t q = d / s->c;
    if (q == p) {
        return d % s->c;
    }
    if (!s->ring) {
        return s->c;
    }
    if (s->p == 2) {
        return s->c;
    }
    return fabric_gen_ring_forward(s->p, p, q) ? s->c : s->c + 1;
}

static bool topology_chiplet_packages(TopologyGen *g, const ChipletShape *s,
                                      SimError *err)
{
    uint32_t n = topology_gpus(g);
    uint64_t routes[FABRIC_GEN_MAX_GPUS];
    uint64_t ports = s->c + (s->p < 2 ? 0 : s->ring ? 2 : 1);
    char name[64];
    for (uint32_t p = 0; p < s->p; p++) {
        for (uint32_t d = 0; d < n; d++) {
            routes[d] = topology_chiplet_route(s, p, d);
        }
        snprintf(name, sizeof name, "pkg[%u]", p);
        if (!fabric_gen_switch_table(g, "package", name, ports, routes, err)) {
            return false;
        }
    }
    if (s->p < 2 || s->ring) {
        return true;
    }
    for (uint32_t d = 0; d < n; d++) {
        routes[d] = d / s->c;
    }
    return fabric_gen_switch_table(g, "switch", "switch", s->p, routes, err);
}

static bool topology_chiplet_instances(TopologyGen *g, SimError *err)
{
    ChipletShape s = {0};
    if (!topology_chiplet_shape(g, &s, err) || !topology_chiplet_packages(g, &s, err)) {
        return false;
    }
    char name[64];
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        snprintf(name, sizeof name, "clink[%u]", i);
        if (!topology_add(g, "chiplet_link", name, "link", NULL, err)) {
            return false;
        }
    }
    for (uint32_t p = 0; s.p >= 2 && p < s.p; p++) {
        snprintf(name, sizeof name, "link[%u]", p);
        if (!topology_add(g, "link", name, "link", NULL, err)) {
            return false;
        }
    }
    return true;
}

/* The wires of chiplet link i: GPU i's uplink to its a end, its b end to the package
 * switch. */
static bool topology_chiplet_clink(TopologyGen *g, const ChipletShape *s, uint32_t i,
                                   SimError *err)
{
    char a[64], b[64], sw[64];
    snprintf(a, sizeof a, "clink[%u].a", i);
    snprintf(b, sizeof b, "clink[%u].b", i);
    snprintf(sw, sizeof sw, "pkg[%u].port[%u]", i / s->c, i % s->c);
    return topology_uplink(g, i, a, err) && topology_wire(g, b, sw, err);
}

/* The wires of inter-package link p. */
static bool topology_chiplet_link(TopologyGen *g, const ChipletShape *s, uint32_t p,
                                  SimError *err)
{
    char from[64], a[64], b[64], to[64];
    snprintf(from, sizeof from, "pkg[%u].port[%u]", p, s->c);
    snprintf(a, sizeof a, "link[%u].a", p);
    snprintf(b, sizeof b, "link[%u].b", p);
    if (s->ring) {
        snprintf(to, sizeof to, "pkg[%u].port[%u]", (p + 1) % s->p, s->c + 1);
    } else {
        snprintf(to, sizeof to, "switch.port[%u]", p);
    }
    return topology_wire(g, from, a, err) && topology_wire(g, b, to, err);
}

static bool topology_chiplet_wires(TopologyGen *g, SimError *err)
{
    ChipletShape s = {0};
    if (!topology_chiplet_shape(g, &s, err)) {
        return false;
    }
    for (uint32_t i = 0; i < topology_gpus(g); i++) {
        if (!topology_chiplet_clink(g, &s, i, err)) {
            return false;
        }
    }
    for (uint32_t p = 0; s.p >= 2 && p < s.p; p++) {
        if (!topology_chiplet_link(g, &s, p, err)) {
            return false;
        }
    }
    return true;
}

const TopologyType chiplet_topology = {
    .name = "chiplet",
    .doc = "packages of chiplets: a switch per package, joined by a switch or a ring",
    .min_gpus = 1,
    .parts = topology_chiplet_parts,
    .computed = fabric_gen_computed,
    .params = topology_chiplet_params,
    .nparams = sizeof topology_chiplet_params / sizeof topology_chiplet_params[0],
    .size = sizeof(ChipletParams),
    .instances = topology_chiplet_instances,
    .wires = topology_chiplet_wires,
};
