/* link: a point-to-point serial link with one independent lane per direction
 * (SPEC.md 2.4 "Link protocols": serialises packets per direction and records bytes
 * on the wire split into payload, protocol overhead and padding).
 *
 * Modelled, per direction (a->b and b->a): an input FIFO (the receiving port's
 * buffer), serialisation at `bandwidth` with line-encoding efficiency
 * enc_data/enc_total, per-packet protocol overhead, flit padding, and a propagation
 * latency. Not modelled: link training, errors and replay, credit return traffic,
 * lane width changes, packet fragmentation (a transaction is one packet).
 *
 * Timing (exact, hand-derivable; arithmetic in wire.h): when a direction is idle
 * (now >= busy_until) the transaction at the head of its input is taken, provided
 * the output port accepts it. With
 *     payload = txn->wire if non-zero, else len if the transaction carries data
 *               (writes, atomics, read and atomic responses), else 0
 *               (read requests, write acks, controls, error responses),
 *     wire    = payload + overhead, padded up to a multiple of flit (flit > 0),
 *     ser     = ceil(wire * 10^12 * enc_total / (bandwidth * enc_data)) ps,
 * the transaction is sent with port_send_after(out, t, ser + latency): it arrives at
 * the far block ser + latency (+ the wire latency of that connection) after it was
 * taken. busy_until = now + ser; the next packet is taken at busy_until or when it
 * arrives, whichever is later. Example: a 64 B write with 24 B overhead on 32 GB/s,
 * 100 ns, taken at 0: wire 88 B, ser 2750 ps, arrival 102750 ps.
 *
 * Decisions:
 * - protocol "generic" uses bandwidth/latency/overhead/flit/enc_* as given;
 *   "ideal" ignores them: no overhead, no padding, zero latency, serialisation 0
 *   (infinite bandwidth), so any number of packets pass in one instant.
 * - Presets "pcie4", "pcie5", "pcie6", "nvlink" fix bandwidth, overhead, flit and
 *   encoding to the values of link_presets (sources in docs/wire-model.md); latency
 *   stays a parameter. Setting one of the fixed parameters to anything but its
 *   generic default or the preset's own value is an error (use "generic").
 * - The output port's buffer limits packets in flight (credit flow control covers
 *   ser + latency): give the far block a buffer of at least
 *   bandwidth * latency / packet size or the link runs below its bandwidth.
 * - A refused send leaves the head in the input buffer; the direction waits for
 *   on_free and serialisation starts when the packet is accepted. */
#include <stddef.h>

#include "hw/lib/wire.h"
#include "kernel/block.h"
#include "kernel/event.h"

enum { LINK_GENERIC, LINK_IDEAL, LINK_PCIE4, LINK_PCIE5, LINK_PCIE6, LINK_NVLINK };

/* Per-direction parameters of the presets, indexed by protocol (docs/wire-model.md):
 * PCIe 4/5: x16 at 16/32 GT/s, 128b/130b, 24 B per TLP (4 B framing token with the
 * sequence number, 16 B 4DW header, 4 B LCRC), payload padded to a DW.
 * PCIe 6 (flit mode): x16 at 64 GT/s, 16 B header per TLP, no framing token or LCRC
 * per TLP; 236 of every 256 flit bytes carry TLPs (DLP, CRC and FEC take 20).
 * NVLink 2 (GV100, six links): 8 lanes x 25.78125 Gb/s per link, 25 GB/s of data per
 * link (ratio 64/66), a 16 B header flit per packet and data in 16 B flits. */
typedef struct LinkPreset {
    uint64_t bandwidth, overhead, flit, enc_data, enc_total;
} LinkPreset;

static const LinkPreset link_presets[] = {
    [LINK_PCIE4] = {32000000000ULL, 24, 4, 128, 130},
    [LINK_PCIE5] = {64000000000ULL, 24, 4, 128, 130},
    [LINK_PCIE6] = {128000000000ULL, 16, 4, 236, 256},
    [LINK_NVLINK] = {154687500000ULL, 16, 16, 64, 66},
};

/* Generic defaults of the fixed parameters (as in link_params). */
static const LinkPreset link_generic = {32000000000ULL, 24, 0, 1, 1};

typedef struct LinkDir {
    struct Link *link;
    Port *in, *out;
    SimTime busy_until;
    WireRate rate; /* serialisation at the link's bandwidth and encoding */
    SimEvent ev;
    uint64_t *packets, *payload, *overhead, *padding, *busy_ps;
} LinkDir;

typedef struct Link {
    Block base;
    int protocol;
    uint64_t bandwidth;
    SimTime latency;
    uint64_t overhead;
    uint64_t flit;
    uint64_t enc_data, enc_total;
    LinkDir dir[2];
} Link;

static const char *const link_protocols[] = {"generic", "ideal",  "pcie4", "pcie5",
                                             "pcie6",   "nvlink", NULL};

static const ParamDef link_params[] = {
    {.key = "protocol",
     .offset = offsetof(Link, protocol),
     .type = PT_ENUM,
     .def = "generic",
     .choices = link_protocols,
     .doc = "generic: use the parameters below; ideal: zero overhead and latency, "
            "infinite bandwidth; pcie4/pcie5/pcie6/nvlink: presets fixing bandwidth, "
            "overhead, flit and encoding (docs/wire-model.md)"},
    {.key = "bandwidth",
     .offset = offsetof(Link, bandwidth),
     .type = PT_BW,
     .def = "32GB/s",
     .min = 1,
     .doc = "raw bandwidth per direction"},
    {.key = "latency",
     .offset = offsetof(Link, latency),
     .type = PT_TIME,
     .def = "100ns",
     .doc = "propagation latency after serialisation"},
    {.key = "overhead",
     .offset = offsetof(Link, overhead),
     .type = PT_SIZE,
     .def = "24",
     .max = 1u << 20,
     .doc = "protocol bytes per packet (PCIe TLP: 4 framing + 16 header + 4 LCRC)"},
    {.key = "flit",
     .offset = offsetof(Link, flit),
     .type = PT_SIZE,
     .def = "0",
     .max = 1u << 20,
     .doc = "flit size: wire bytes are padded to a multiple (0 = none)"},
    {.key = "enc_data",
     .offset = offsetof(Link, enc_data),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = WIRE_ENC_MAX,
     .doc = "line encoding: data bits per enc_total bits (e.g. 128 of 130)"},
    {.key = "enc_total",
     .offset = offsetof(Link, enc_total),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = WIRE_ENC_MAX,
     .doc = "line encoding: total bits per enc_data"},
};

static const PortDef link_ports[] = {
    {.name = "a", .required = true, .doc = "end a: a->b traffic in, b->a traffic out"},
    {.name = "b", .required = true, .doc = "end b: b->a traffic in, a->b traffic out"},
};

static void link_wake(void *subject, void *obj);

/* Applies a preset to one fixed parameter; false if the user set another value. */
static bool link_fix(Block *b, const char *key, uint64_t *field, uint64_t generic,
                     uint64_t preset, SimError *err)
{
    if (*field != generic && *field != preset) {
        return sim_error_set(err,
                             "%s: %s %llu conflicts with protocol %s (preset %llu); use "
                             "protocol generic to set it",
                             b->name, key, (unsigned long long)*field,
                             link_protocols[((Link *)b)->protocol],
                             (unsigned long long)preset);
    }
    *field = preset;
    return true;
}

static bool link_apply_preset(Link *l, SimError *err)
{
    if (l->protocol < LINK_PCIE4) {
        return true;
    }
    const LinkPreset *p = &link_presets[l->protocol];
    const LinkPreset *g = &link_generic;
    Block *b = &l->base;
    return link_fix(b, "bandwidth", &l->bandwidth, g->bandwidth, p->bandwidth, err) &&
           link_fix(b, "overhead", &l->overhead, g->overhead, p->overhead, err) &&
           link_fix(b, "flit", &l->flit, g->flit, p->flit, err) &&
           link_fix(b, "enc_data", &l->enc_data, g->enc_data, p->enc_data, err) &&
           link_fix(b, "enc_total", &l->enc_total, g->enc_total, p->enc_total, err);
}

static bool link_realize(Block *b, SimError *err)
{
    Link *l = (Link *)b;
    if (!link_apply_preset(l, err)) {
        return false;
    }
    if (l->enc_data > l->enc_total) {
        return sim_error_set(err, "%s: enc_data %llu exceeds enc_total %llu", b->name,
                             (unsigned long long)l->enc_data,
                             (unsigned long long)l->enc_total);
    }
    for (int d = 0; d < 2; d++) {
        LinkDir *ld = &l->dir[d];
        ld->link = l;
        ld->in = block_port(b, d == 0 ? "a" : "b", -1);
        ld->out = block_port(b, d == 0 ? "b" : "a", -1);
        wire_rate_init(&ld->rate, l->bandwidth, l->enc_data, l->enc_total);
        sim_event_init(&ld->ev, b->sim, SIM_PRIO_DEFAULT, link_wake, ld, NULL);
    }
    return true;
}

static void link_reset(Block *b)
{
    Link *l = (Link *)b;
    l->dir[0].busy_until = 0;
    l->dir[1].busy_until = 0;
}

static uint64_t link_payload(const Txn *t)
{
    if (t->wire) {
        return t->wire;
    }
    return t->data ? t->len : 0;
}

static void link_pump(LinkDir *ld)
{
    Link *l = ld->link;
    SimTime now = sim_now(l->base.sim);
    Txn *t;
    while (ld->busy_until <= now && (t = port_peek(ld->in)) != NULL) {
        WireCost c;
        SimTime ser = 0, lat = 0;
        if (l->protocol == LINK_IDEAL) {
            c = wire_cost(link_payload(t), 0, 0);
        } else {
            c = wire_cost(link_payload(t), l->overhead, l->flit);
            ser = wire_rate_ser(&ld->rate, c.total);
            lat = l->latency;
        }
        /* On success the reference moves from our input buffer to the peer. */
        if (!port_send_after(ld->out, t, ser + lat)) {
            return;
        }
        (void)port_take(ld->in);
        ld->busy_until = now + ser;
        (*ld->packets)++;
        *ld->payload += c.payload;
        *ld->overhead += c.overhead;
        *ld->padding += c.padding;
        *ld->busy_ps += ser;
    }
    if (port_peek(ld->in) && ld->busy_until > now) {
        sim_event_notify_at(&ld->ev, ld->busy_until);
    }
}

static void link_wake(void *subject, void *obj)
{
    (void)obj;
    link_pump(subject);
}

static void link_on_recv(Block *b, Port *p)
{
    Link *l = (Link *)b;
    link_pump(&l->dir[p == l->dir[0].in ? 0 : 1]);
}

static void link_on_free(Block *b, Port *p)
{
    Link *l = (Link *)b;
    link_pump(&l->dir[p == l->dir[0].out ? 0 : 1]);
}

/* The counters of direction d (0: a->b, 1: b->a), named with its prefix. */
#define LINK_DIR_STATS(d, prefix)                                                        \
    STAT(Link, dir[d].packets, prefix "_packets", STAT_COUNTER, "",                      \
         "packets sent in this direction"),                                              \
        STAT(Link, dir[d].payload, prefix "_payload_bytes", STAT_COUNTER, "B",           \
             "payload bytes on the wire"),                                               \
        STAT(Link, dir[d].overhead, prefix "_overhead_bytes", STAT_COUNTER, "B",         \
             "protocol overhead bytes on the wire"),                                     \
        STAT(Link, dir[d].padding, prefix "_padding_bytes", STAT_COUNTER, "B",           \
             "flit padding bytes on the wire"),                                          \
        STAT(Link, dir[d].busy_ps, prefix "_busy_ps", STAT_TIME, "ps",                   \
             "time spent serialising (ps)")

static const StatDef link_stat_defs[] = {LINK_DIR_STATS(0, "ab"),
                                         LINK_DIR_STATS(1, "ba")};

const BlockType link_type = {
    .name = "link",
    .doc = "point-to-point link: per-direction serialisation, overhead, flits, latency",
    .size = sizeof(Link),
    .params = link_params,
    .nparams = sizeof link_params / sizeof link_params[0],
    .ports = link_ports,
    .nports = sizeof link_ports / sizeof link_ports[0],
    .stat_defs = link_stat_defs,
    .nstat_defs = sizeof link_stat_defs / sizeof link_stat_defs[0],
    .realize = link_realize,
    .reset = link_reset,
    .on_recv = link_on_recv,
    .on_free = link_on_free,
};
