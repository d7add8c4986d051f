/* bench/port_chain.c: transactions per second through a chain of ports.
 *
 * Usage: port_chain K M [BUF]
 *
 * K blocks in a line (K >= 2): a source, K - 2 relays and a sink, joined by K - 1
 * connections of 1 ns latency; every receive buffer holds BUF transactions (default
 * 4). The source offers M posted 64-byte writes as fast as the chain accepts them;
 * each relay forwards what arrives as long as its output has credit and otherwise
 * leaves it queued, so refusals and on_free wake-ups (backpressure) happen at every
 * hop; the sink takes and frees every arrival. The blocks are minimal in-bench
 * BlockTypes using kernel/port.h directly (no platform loader).
 *
 * The run must deliver all M transactions in order and return every transaction to
 * the pool; otherwise it says so on stderr and exits 1.
 * stdout: "transactions <M> hops <M * (K - 1)> end_ps <simulated end time>".
 * stderr: "wall_s <seconds> txn_per_s <rate> hops_per_s <rate> events_per_s <rate>",
 * timing only sim_run. Bad arguments: a one-line usage error and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_util.h"
#include "kernel/block.h"
#include "kernel/port.h"
#include "kernel/sim.h"
#include "kernel/txn.h"

#define CHAIN_LEN_BYTES 64
#define CHAIN_LATENCY SIM_NS
#define CHAIN_DEFAULT_BUF 4

/* Stage state: the base block, then the stage's own fields. Source: ports[0] = out;
 * relay: ports[0] = in, ports[1] = out; sink: ports[0] = in. */
typedef struct ChainStage {
    Block base;
    uint64_t total;    /* source: transactions to offer */
    uint64_t created;  /* source: transactions created so far */
    Txn *held;         /* source: created, refused, to be sent on on_free (owned) */
    uint64_t received; /* sink: transactions taken */
    uint64_t next_id;  /* sink: the id expected next (order check) */
    bool out_of_order; /* sink: an arrival broke the order */
} ChainStage;

/* Sends until the chain refuses (then on_free calls again) or all are sent. A send is
 * always attempted: only a refused port_send() registers the sender for on_free. */
static void source_pump(Block *b, Port *p)
{
    ChainStage *s = (ChainStage *)b;
    (void)p;
    Port *out = &b->ports[0];
    for (;;) {
        if (!s->held) {
            if (s->created == s->total) {
                return;
            }
            s->held =
                txn_new(b->sim, TXN_WRITE, s->created * CHAIN_LEN_BYTES, CHAIN_LEN_BYTES);
            s->held->posted = true;
            s->held->src = 0;
            s->held->dst = 0;
            s->created++;
        }
        if (!port_send(out, s->held)) {
            return;
        }
        s->held = NULL;
    }
}

/* Forwards queued arrivals in order; the head stays queued while the output refuses
 * (the refusal registers this relay for on_free). A successful send moved the
 * buffer's reference on, so the head is then taken without another unref. */
static void relay_forward(Block *b, Port *p)
{
    (void)p;
    Port *in = &b->ports[0];
    Port *out = &b->ports[1];
    Txn *t;
    while ((t = port_peek(in)) != NULL && port_send(out, t)) {
        port_take(in);
    }
}

static void sink_take(Block *b, Port *p)
{
    ChainStage *s = (ChainStage *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (t->id != s->next_id) {
            s->out_of_order = true;
        }
        s->next_id++;
        s->received++;
        txn_unref(t);
    }
}

static const BlockType chain_source_type = {
    .name = "chain_source",
    .doc = "offers M posted writes as fast as the chain accepts them",
    .size = sizeof(ChainStage),
    .on_free = source_pump,
};

static const BlockType chain_relay_type = {
    .name = "chain_relay",
    .doc = "forwards arrivals while its output has credit",
    .size = sizeof(ChainStage),
    .on_recv = relay_forward,
    .on_free = relay_forward,
};

static const BlockType chain_sink_type = {
    .name = "chain_sink",
    .doc = "takes and frees every arrival",
    .size = sizeof(ChainStage),
    .on_recv = sink_take,
};

/* Creates stage k's ports (named "s<k>.in" / "s<k>.out"); false on OOM. */
static bool chain_stage_init(ChainStage *s, Sim *sim, uint64_t k, uint64_t nstages,
                             uint32_t buf)
{
    Block *b = &s->base;
    bool first = k == 0, last = k + 1 == nstages;
    b->type = first ? &chain_source_type : last ? &chain_sink_type : &chain_relay_type;
    b->sim = sim;
    b->gpu = -1;
    b->index = (int)k;
    b->buffer = buf;
    b->nports = (first || last) ? 1 : 2;
    b->ports = calloc(b->nports, sizeof *b->ports);
    if (!b->ports) {
        return false;
    }
    char name[64];
    size_t i = 0;
    if (!first) {
        snprintf(name, sizeof name, "s%" PRIu64 ".in", k);
        if (!port_init(&b->ports[i], b, (uint32_t)i, name, buf)) {
            return false;
        }
        i++;
    }
    if (!last) {
        snprintf(name, sizeof name, "s%" PRIu64 ".out", k);
        if (!port_init(&b->ports[i], b, (uint32_t)i, name, buf)) {
            return false;
        }
    }
    return true;
}

static void chain_free(ChainStage *stages, uint64_t nstages, Sim *sim)
{
    for (uint64_t k = 0; stages && k < nstages; k++) {
        for (size_t i = 0; stages[k].base.ports && i < stages[k].base.nports; i++) {
            port_destroy(&stages[k].base.ports[i]);
        }
        free(stages[k].base.ports);
    }
    free(stages);
    sim_free(sim);
}

int main(int argc, char **argv)
{
    uint64_t k = 0, m = 0, buf = CHAIN_DEFAULT_BUF;
    if (argc < 3 || argc > 4 || !bench_parse_u64(argv[1], 2, 1000000, &k) ||
        !bench_parse_u64(argv[2], 1, UINT64_C(1) << 40, &m) ||
        (argc == 4 && !bench_parse_u64(argv[3], 1, 1u << 20, &buf))) {
        fprintf(stderr, "usage: port_chain K M [BUF] "
                        "(2 <= K <= 1000000, 1 <= M <= 2^40, 1 <= BUF <= 2^20)\n");
        return 2;
    }

    Sim *sim = sim_new();
    ChainStage *stages = calloc(k, sizeof *stages);
    bool ok = sim && stages;
    for (uint64_t i = 0; ok && i < k; i++) {
        ok = chain_stage_init(&stages[i], sim, i, k, (uint32_t)buf);
    }
    SimError err;
    for (uint64_t i = 0; ok && i + 1 < k; i++) {
        Port *out = &stages[i].base.ports[i == 0 ? 0 : 1];
        ok = port_connect(out, &stages[i + 1].base.ports[0], CHAIN_LATENCY, &err);
        if (!ok) {
            fprintf(stderr, "port_chain: %s\n", err.msg);
        }
    }
    if (!ok) {
        fprintf(stderr, "port_chain: could not build a chain of %" PRIu64 " blocks\n", k);
        chain_free(stages, k, sim);
        return 1;
    }
    ChainStage *source = &stages[0], *sink = &stages[k - 1];
    source->total = m;
    sink->next_id = 1; /* a kernel's transaction ids are 1, 2, 3, ... (sim.h) */

    double t0 = bench_seconds();
    source_pump(&source->base, &source->base.ports[0]);
    sim_run(sim, SIM_TIME_MAX);
    double wall = bench_seconds() - t0;

    int status = 0;
    if (sink->received != m || sink->out_of_order) {
        fprintf(stderr,
                "port_chain: sink took %" PRIu64 " of %" PRIu64 " transactions%s\n",
                sink->received, m, sink->out_of_order ? ", out of order" : "");
        status = 1;
    }
    if (txn_pool_live(sim_txn_pool(sim)) != 0) {
        fprintf(stderr, "port_chain: %zu transactions were never freed\n",
                txn_pool_live(sim_txn_pool(sim)));
        status = 1;
    }
    uint64_t hops = m * (k - 1);
    printf("transactions %" PRIu64 " hops %" PRIu64 " end_ps %" PRIu64 "\n", m, hops,
           (uint64_t)sim_now(sim));
    double events = (double)sim_events_executed(sim);
    fprintf(stderr, "wall_s %.6f txn_per_s %.0f hops_per_s %.0f events_per_s %.0f\n",
            wall, wall > 0 ? (double)m / wall : 0.0, wall > 0 ? (double)hops / wall : 0.0,
            wall > 0 ? events / wall : 0.0);
    chain_free(stages, k, sim);
    return status;
}
