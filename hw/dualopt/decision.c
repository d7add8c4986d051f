/* decision: the DualOpt decision engine, one per GPU (paper 000 section 4.3, Fig. 11,
 * Table 1; SPEC.md 1.6).
 *
 * Modelled: the monitoring phase over the access records (`monitor`) the L1s send
 * on ports monitor[k]: the first `warmup` records are ignored, then records are
 * counted until `window` remote accesses have been seen; at that record the engine
 * computes
 *   remote ratio      = remote accesses / all accesses,
 *   block utilisation = mean over distinct remote lines read in the window of
 *                       popcount(ORed mask) / words per line,
 *   hit rate          = remote accesses that hit the L1 / remote accesses,
 * and declares `none` if remote ratio < remote_thresh, else `coalesce` if block
 * utilisation < block_thresh and hit rate < hit_thresh, else `cache`. The declaration
 * is one `mode` transaction (dualopt_mode = mode, hw/dualopt/dualopt_mode.h) on every
 * bound port among decision[k] (the L1s: SCBU bypass and fine-grained reads),
 * `codec` and `rdma_cache`, and the stats mode / declared_ps.
 * Not modelled: re-declaration (the paper decides once per run), the divider/adder
 * timing (the declaration leaves at the instant of the deciding record).
 *
 * Decisions:
 * - `mode` forces a declaration at time 0 (`none`, `coalesce`, `cache`); `auto`
 *   (default) monitors. Before the declaration every block runs baseline DCA.
 * - `warmup` defaults to 0 (the paper gives no number). Writes count as accesses for
 *   the ratio and the hit rate; block utilisation uses remote reads only (with no
 *   remote read in the window it is 0).
 * - Comparisons are strict (<), on doubles computed by one division each, so a
 *   ratio exactly equal to a threshold does not fall below it.
 * - A mode that cannot be sent at once (full buffer) is retried on on_free. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/dualopt/dualopt_mode.h"
#include "hw/dualopt/dualopt_monitor.h"
#include "hw/lib/addr.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/event.h"
#include "kernel/idmap.h"

enum { DEC_AUTO, DEC_FORCED_NONE, DEC_FORCED_COALESCE, DEC_FORCED_CACHE };

typedef struct Decision {
    Block base;
    int force;
    uint64_t cus, warmup, window, line;
    double remote_thresh, block_thresh, hit_thresh;
    bool declared;
    uint64_t seen, all, nremote, remote_hits;
    IdMap lines;    /* remote line read in the window -> ORed mask */
    uint64_t *outs; /* port indices to send the mode on */
    bool *pending;  /* per entry of outs: still to send */
    size_t nouts;
    int mode;
    SimEvent ev;
    uint64_t *records, *st_mode, *declared_ps, *declarations;
    double *st_ratio, *st_util, *st_hit;
} Decision;

static const char *const decision_modes[] = {"auto", "none", "coalesce", "cache", NULL};

static const ParamDef decision_params[] = {
    {.key = "mode",
     .offset = offsetof(Decision, force),
     .type = PT_ENUM,
     .def = "auto",
     .choices = decision_modes,
     .doc = "auto (monitor and declare) or a mode forced at time 0"},
    {.key = "cus",
     .offset = offsetof(Decision, cus),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 4096,
     .doc = "number of L1s (ports monitor[k] and decision[k])"},
    {.key = "warmup",
     .offset = offsetof(Decision, warmup),
     .type = PT_U64,
     .def = "0",
     .doc = "access records ignored before the window"},
    {.key = "window",
     .offset = offsetof(Decision, window),
     .type = PT_U64,
     .def = "20000",
     .min = 1,
     .doc = "remote accesses observed before declaring"},
    {.key = "remote_thresh",
     .offset = offsetof(Decision, remote_thresh),
     .type = PT_DOUBLE,
     .def = "0.02",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "below this remote ratio: none"},
    {.key = "block_thresh",
     .offset = offsetof(Decision, block_thresh),
     .type = PT_DOUBLE,
     .def = "0.2",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "block utilisation below this (and hit rate below hit_thresh): coalesce"},
    {.key = "hit_thresh",
     .offset = offsetof(Decision, hit_thresh),
     .type = PT_DOUBLE,
     .def = "0.4",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "L1 hit rate of remote accesses below this (and low utilisation): coalesce"},
    {.key = "line",
     .offset = offsetof(Decision, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 4,
     .max = 128,
     .doc = "line size (words per line = line / 4)"},
};

static const PortDef decision_ports[] = {
    {.name = "monitor",
     .count_param = "cus",
     .required = false,
     .doc = "access records from L1 k"},
    {.name = "decision",
     .count_param = "cus",
     .required = false,
     .doc = "mode declaration to L1 k (SCBU bypass, fine-grained reads)"},
    {.name = "codec", .required = false, .doc = "mode declaration to the CoDec"},
    {.name = "rdma_cache", .required = false, .doc = "mode declaration to the RDMA$"},
};

static void decision_send(Decision *d)
{
    for (size_t k = 0; k < d->nouts; k++) {
        if (!d->pending[k]) {
            continue;
        }
        Port *p = &d->base.ports[d->outs[k]];
        Txn *t = txn_new_declared(d->base.sim, &dualopt_cmd_mode, 0, 0);
        t->src = t->dst = (int16_t)(d->base.gpu >= 0 ? d->base.gpu : 0);
        t->dualopt_mode = (uint32_t)d->mode;
        if (!port_send(p, t)) {
            txn_unref(t);
            continue;
        }
        d->pending[k] = false;
    }
}

static void decision_declare(Decision *d, int mode)
{
    d->declared = true;
    d->mode = mode;
    *d->st_mode = (uint64_t)mode;
    *d->declared_ps = sim_now(d->base.sim);
    (*d->declarations)++;
    for (size_t k = 0; k < d->nouts; k++) {
        d->pending[k] = true;
    }
    decision_send(d);
}

static void decision_forced(void *subject, void *obj)
{
    Decision *d = subject;
    (void)obj;
    decision_declare(d, d->force - DEC_FORCED_NONE);
}

static void decision_judge(Decision *d)
{
    uint64_t words = d->line / 4, sum = 0;
    size_t n = 0;
    uint64_t mask;
    for (size_t pos = 0; idmap_next(&d->lines, &pos, NULL, &mask);) {
        sum += (uint64_t)bits_popcount64(mask);
        n++;
    }
    double ratio = (double)d->nremote / (double)d->all;
    double util = n ? (double)sum / (double)(n * words) : 0.0;
    double hit = (double)d->remote_hits / (double)d->nremote;
    *d->st_ratio = ratio;
    *d->st_util = util;
    *d->st_hit = hit;
    int mode = DUALOPT_MODE_CACHE;
    if (ratio < d->remote_thresh) {
        mode = DUALOPT_MODE_NONE;
    } else if (util < d->block_thresh && hit < d->hit_thresh) {
        mode = DUALOPT_MODE_COALESCE;
    }
    idmap_destroy(&d->lines);
    decision_declare(d, mode);
}

static void decision_record(Decision *d, const Txn *t)
{
    (*d->records)++;
    if (d->declared || !txn_is(t, &dualopt_cmd_monitor)) {
        return;
    }
    if (d->seen < d->warmup) {
        d->seen++;
        return;
    }
    d->all++;
    if (!(t->dualopt_access & DUALOPT_MON_REMOTE)) {
        return;
    }
    d->nremote++;
    d->remote_hits += (t->dualopt_access & DUALOPT_MON_HIT) != 0;
    if (!(t->dualopt_access & DUALOPT_MON_WRITE)) {
        uint64_t m = 0;
        idmap_remove(&d->lines, t->addr, &m);
        idmap_insert(&d->lines, t->addr, m | t->mask);
    }
    if (d->nremote == d->window) {
        decision_judge(d);
    }
}

static bool decision_realize(Block *b, SimError *err)
{
    Decision *d = (Decision *)b;
    d->outs = calloc(b->nports, sizeof *d->outs);
    d->pending = calloc(b->nports, sizeof *d->pending);
    if (!d->outs || !d->pending) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    idmap_init(&d->lines);
    sim_event_init(&d->ev, b->sim, SIM_PRIO_DEFAULT, decision_forced, d, NULL);
    return true;
}

static void decision_reset(Block *b)
{
    Decision *d = (Decision *)b;
    d->nouts = 0;
    for (size_t i = 0; i < b->nports; i++) {
        const char *n = b->ports[i].name + strlen(b->name) + 1;
        if (strncmp(n, "monitor", 7) != 0 && b->ports[i].peer) {
            d->outs[d->nouts++] = i;
        }
    }
    d->declared = false;
    d->seen = d->all = d->nremote = d->remote_hits = 0;
    idmap_destroy(&d->lines);
    if (d->force != DEC_AUTO) {
        sim_event_notify(&d->ev, 0);
    }
}

static void decision_on_recv(Block *b, Port *p)
{
    Decision *d = (Decision *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        decision_record(d, t);
        txn_unref(t);
    }
}

static void decision_on_free(Block *b, Port *p)
{
    (void)p;
    decision_send((Decision *)b);
}

static void decision_finalize(Block *b)
{
    Decision *d = (Decision *)b;
    idmap_destroy(&d->lines);
    free(d->outs);
    free(d->pending);
    d->outs = NULL;
    d->pending = NULL;
}

static void decision_cost(Block *b, CostReport *r)
{
    Decision *d = (Decision *)b;
    cost_add_storage(r, b->name, "counters", 3, 32,
                     "all, remote and remote-hit access counters");
    cost_add_storage(r, b->name, "line masks", d->window, d->line / 4 + HW_ADDR_BITS,
                     "ORed mask per distinct remote line (upper bound: window lines)");
}

static const char *const decision_declared[] = {"none", "coalesce", "cache", NULL};

static const StatDef decision_stat_defs[] = {
    STAT(Decision, records, "records", STAT_COUNTER, "", "access records received"),
    STAT(Decision, st_mode, "mode", STAT_ENUM, "",
         "declared mode (0 none, 1 coalesce, 2 cache)", .choices = decision_declared),
    STAT(Decision, declared_ps, "declared_ps", STAT_TIME, "ps",
         "time of the declaration (ps)"),
    STAT(Decision, declarations, "declarations", STAT_COUNTER, "",
         "modes declared (0 or 1)"),
    STAT(Decision, st_ratio, "remote_ratio", STAT_GAUGE, "",
         "remote ratio of the window"),
    STAT(Decision, st_util, "block_util", STAT_GAUGE, "",
         "block utilisation of remote reads"),
    STAT(Decision, st_hit, "hit_rate", STAT_GAUGE, "", "L1 hit rate of remote accesses"),
};

const BlockType decision_type = {
    .name = "decision",
    .doc = "DualOpt decision engine: monitors L1 accesses, declares none/coalesce/cache",
    .size = sizeof(Decision),
    .params = decision_params,
    .nparams = sizeof decision_params / sizeof decision_params[0],
    .ports = decision_ports,
    .nports = sizeof decision_ports / sizeof decision_ports[0],
    .stat_defs = decision_stat_defs,
    .nstat_defs = sizeof decision_stat_defs / sizeof decision_stat_defs[0],
    .realize = decision_realize,
    .reset = decision_reset,
    .on_recv = decision_on_recv,
    .on_free = decision_on_free,
    .finalize = decision_finalize,
    .cost = decision_cost,
};
