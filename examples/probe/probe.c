/* An out-of-tree block, loaded as a plug-in: "probe", a latency probe spliced into a
 * path (e.g. between a crossbar and its memory) that delays both directions and
 * measures how long requests take to be answered below it.
 * - Whatever arrives at `up` leaves at `down`, and whatever arrives at `down` leaves
 *   at `up`, `latency` after it arrived, in arrival order per direction.
 * - Backpressure: at most `entries` transactions wait in each direction; while a
 *   direction is full the probe leaves arrivals in its port buffer (the sender then
 *   sees a full port), and takes them once a departure frees room.
 * - round_trip: for each request that needs a response (read, non-posted write,
 *   atomic), the time from its arrival at `up` to the arrival of its response at
 *   `down`: the probe's own latency plus everything below it.
 * It is built with the installed headers only (examples/meson.build) and registered
 * by mgtlm_plugin_register; docs/kernel.md walks through it. */
#include <stddef.h>

#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/idmap.h"
#include "kernel/plugin.h"

typedef struct Probe {
    Block base;
    SimTime latency;
    uint64_t entries;
    Port *up, *down;
    Egress to_down, to_up; /* the two directions, each owning what waits in it */
    IdMap born;            /* request id -> arrival time at up */
    uint64_t *passed_down, *passed_up;
    StatHist *round_trip;
} Probe;

/* Takes what arrived at in into q (towards the other side) while q has room. */
static void probe_take(Probe *pr, Port *in, Egress *q)
{
    SimTime now = sim_now(pr->base.sim);
    while (port_count(in) > 0 && egress_len(q) < pr->entries) {
        Txn *t = port_take(in);
        uint64_t since;
        if (in == pr->up) {
            (*pr->passed_down)++;
            if (txn_needs_response(t)) {
                (void)idmap_insert(&pr->born, t->id, now);
            }
        } else {
            (*pr->passed_up)++;
            if (t->cmd == TXN_RESP && idmap_remove(&pr->born, t->id, &since)) {
                stat_hist_add(pr->round_trip, now - since);
            }
        }
        (void)egress_push(q, t, pr->latency);
    }
}

static void probe_recv(Block *b, Port *p)
{
    Probe *pr = (Probe *)b;
    probe_take(pr, p, p == pr->up ? &pr->to_down : &pr->to_up);
}

/* A departure freed room in a direction: take what waits at its input. */
static void probe_drained(Block *b)
{
    Probe *pr = (Probe *)b;
    probe_take(pr, pr->up, &pr->to_down);
    probe_take(pr, pr->down, &pr->to_up);
}

static void probe_free(Block *b, Port *p)
{
    Probe *pr = (Probe *)b;
    (void)egress_pump(p == pr->down ? &pr->to_down : &pr->to_up);
}

static bool probe_realize(Block *b, SimError *err)
{
    Probe *pr = (Probe *)b;
    pr->up = block_port(b, "up", -1);
    pr->down = block_port(b, "down", -1);
    if (!pr->up || !pr->down) {
        return sim_error_set(err, "%s: has no port up or down", b->name);
    }
    EgressOpts opts = {.drained = probe_drained};
    egress_init(&pr->to_down, b, pr->down, &opts);
    egress_init(&pr->to_up, b, pr->up, &opts);
    idmap_init(&pr->born);
    return true;
}

static void probe_finalize(Block *b)
{
    Probe *pr = (Probe *)b;
    egress_destroy(&pr->to_down);
    egress_destroy(&pr->to_up);
    idmap_destroy(&pr->born);
}

static const ParamDef probe_params[] = {
    {.key = "latency",
     .offset = offsetof(Probe, latency),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "delay added in each direction"},
    {.key = "entries",
     .offset = offsetof(Probe, entries),
     .type = PT_U64,
     .def = "16",
     .min = 1,
     .max = 65536,
     .doc = "transactions that may wait in each direction"},
};

static const PortDef probe_ports[] = {
    {.name = "up", .required = true, .doc = "towards the requesters"},
    {.name = "down", .required = true, .doc = "towards the responders"},
};

static const StatDef probe_stat_defs[] = {
    STAT(Probe, passed_down, "passed_down", STAT_COUNTER, "",
         "transactions taken at up (towards down)"),
    STAT(Probe, passed_up, "passed_up", STAT_COUNTER, "",
         "transactions taken at down (towards up)"),
    STAT(Probe, round_trip, "round_trip", STAT_HIST, "ps",
         "request arrival at up to its response's arrival at down (ps)",
         .width = 10 * SIM_NS, .buckets = 100),
};

static const BlockType probe_type = {
    .name = "probe",
    .doc = "example plug-in: delays a path both ways and measures round trips below it",
    .size = sizeof(Probe),
    .params = probe_params,
    .nparams = sizeof probe_params / sizeof probe_params[0],
    .ports = probe_ports,
    .nports = sizeof probe_ports / sizeof probe_ports[0],
    .stat_defs = probe_stat_defs,
    .nstat_defs = sizeof probe_stat_defs / sizeof probe_stat_defs[0],
    .realize = probe_realize,
    .on_recv = probe_recv,
    .on_free = probe_free,
    .finalize = probe_finalize,
};

MGTLM_PLUGIN_DEFINE_ABI;

bool mgtlm_plugin_register(Registry *r, SimError *err)
{
    return registry_add(r, &probe_type, err);
}
