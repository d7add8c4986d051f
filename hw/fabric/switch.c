/* switch: a fabric switch joining GPU uplinks (DESIGN.md "Platforms": the topologies
 * of docs/topologies.md, switch, ring, fully connected, mesh, torus and chiplet
 * packages, are built from switch and link blocks).
 *
 * Modelled: table routing by destination GPU (param routes: routes[g] is the output
 * port for transactions with dst == g; the topology generators compute it for
 * fabrics), per-input FIFOs with head-of-line blocking, round-robin arbitration per
 * output, at most one transaction per output and per input per platform clock cycle,
 * a fixed traversal latency, and backpressure (rules in arb.h). Responses route like
 * requests, by dst (a response's dst is the requester's GPU).
 * Not modelled: virtual channels, cut-through vs store-and-forward timing (the link
 * models serialisation), adaptive routing, multicast.
 *
 * Timing (exact): a transaction at the head of input i routed to output o is granted
 * at the first instant both i and o are free (each is busy for one clock cycle after
 * a grant) and it is its turn in o's round-robin order; it then arrives at o's peer
 * `latency` (+ wire latency) after the grant.
 *
 * Decisions:
 * - realize checks len(routes) == platform gpus and every entry < ports.
 * - A transaction whose dst is outside [0, gpus) cannot be routed: it is counted in
 *   the model-error counter route_errors and released instead of aborting the run
 *   (the runner then reports the run as failed). */
#include <stddef.h>

#include "hw/lib/arb.h"
#include "kernel/block.h"

typedef struct Switch {
    Block base;
    uint64_t ports;
    U64List routes;
    SimTime latency;
    Arb arb;
    uint64_t *route_errors;
} Switch;

static const ParamDef switch_params[] = {
    {.key = "ports",
     .offset = offsetof(Switch, ports),
     .type = PT_U64,
     .def = "2",
     .min = 1,
     .max = 4096,
     .doc = "number of ports (port[0] .. port[ports-1])"},
    {.key = "routes",
     .offset = offsetof(Switch, routes),
     .type = PT_U64_LIST,
     .def = "[]",
     .doc = "routes[g] = output port index for dst GPU g; one entry per platform GPU "
            "(computed by the loader for fabrics)"},
    {.key = "latency",
     .offset = offsetof(Switch, latency),
     .type = PT_TIME,
     .def = "10ns",
     .doc = "traversal latency from grant to the output"},
};

static const PortDef switch_ports[] = {
    {.name = "port",
     .count_param = "ports",
     .required = true,
     .doc = "bidirectional port: transactions in, routed transactions out"},
};

static int switch_route(Block *b, uint32_t in, const Txn *t)
{
    Switch *s = (Switch *)b;
    (void)in;
    if (t->dst < 0 || (size_t)t->dst >= s->routes.n) {
        return ARB_ABSORB;
    }
    return (int)s->routes.v[t->dst];
}

static void switch_absorb(Block *b, uint32_t in, Txn *t)
{
    Switch *s = (Switch *)b;
    (void)in;
    (*s->route_errors)++;
    txn_unref(t);
}

static bool switch_realize(Block *b, SimError *err)
{
    Switch *s = (Switch *)b;
    if (s->routes.n != b->plat->gpus) {
        return sim_error_set(err, "%s: routes has %zu entries, expected one per GPU (%u)",
                             b->name, s->routes.n, (unsigned)b->plat->gpus);
    }
    for (size_t g = 0; g < s->routes.n; g++) {
        if (s->routes.v[g] >= s->ports) {
            return sim_error_set(
                err, "%s: routes[%zu] = %llu is not a port (ports = %llu)", b->name, g,
                (unsigned long long)s->routes.v[g], (unsigned long long)s->ports);
        }
    }
    return arb_init(&s->arb, b, s->latency, switch_route, switch_absorb, err);
}

static void switch_reset(Block *b)
{
    arb_reset(&((Switch *)b)->arb);
}

static void switch_on_recv(Block *b, Port *p)
{
    arb_on_recv(&((Switch *)b)->arb, p);
}

static void switch_on_free(Block *b, Port *p)
{
    arb_on_free(&((Switch *)b)->arb, p);
}

static void switch_finalize(Block *b)
{
    arb_destroy(&((Switch *)b)->arb);
}

static const StatDef switch_stat_defs[] = {
    STAT(Switch, route_errors, "route_errors", STAT_COUNTER, "",
         "model error: transactions with a dst outside routes", .is_error = true),
    ARB_STAT(Switch, arb),
};

const BlockType switch_type = {
    .name = "switch",
    .doc = "fabric switch: dst routing table, round-robin per output, one per cycle",
    .size = sizeof(Switch),
    .params = switch_params,
    .nparams = sizeof switch_params / sizeof switch_params[0],
    .ports = switch_ports,
    .nports = sizeof switch_ports / sizeof switch_ports[0],
    .stat_defs = switch_stat_defs,
    .nstat_defs = sizeof switch_stat_defs / sizeof switch_stat_defs[0],
    .realize = switch_realize,
    .reset = switch_reset,
    .on_recv = switch_on_recv,
    .on_free = switch_on_free,
    .finalize = switch_finalize,
};
