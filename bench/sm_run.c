/* bench/sm_run.c: warp instructions and line requests per second of one sm block
 * (hw/core/sm.c) in a simulation, with a dispatcher and a memory stand-in.
 *
 * Usage: sm_run CTAS LOAD_EVERY
 *
 * CTAS thread blocks of 8 warps x 256 instructions (the warps of bench/core_sched: a
 * dependent chain over 16 registers, int and fp32 alternating, EXIT last; with
 * LOAD_EVERY > 0 every LOAD_EVERY-th instruction is an LDG of 32 lanes x 4 B at
 * stride 4, one 128 B line) run on one sm of the default configuration, clock 1 GHz.
 * The dispatcher stand-in launches one kernel, keeps as many CTAs on the sm as its
 * launch answer allows, and answers every xlat at once; the memory stand-in answers
 * every request 300 cycles after it arrives. Everything the sm does goes through its
 * ports and the event queue, as in a platform.
 *
 * stdout: "warp_insts <n> cycles <c> line_requests <r>".
 * stderr: "wall_s <seconds> warp_insts_per_s <rate> line_requests_per_s <rate>".
 * Bad arguments: a one-line usage error and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_util.h"
#include "bench/bench_warp.h"
#include "hw/blocks.h"
#include "hw/core/core_msg.h"
#include "kernel/platform/platform.h"
#include "kernel/xalloc.h"

#define BENCH_CLOCK 1000
#define BENCH_MEM_CYCLES 300

typedef struct BenchDisp {
    Block b;
    Port *p;
    uint8_t *cta; /* the encoded CTA, sent CTAS times */
    uint32_t cta_len;
    uint64_t ctas, sent, done, inflight, fit, insts;
} BenchDisp;

typedef struct BenchMem {
    Block b;
    Port *p;
} BenchMem;

static const PortDef bench_port[] = {{.name = "p", .required = true, .doc = "bench"}};

static BenchDisp *bench_disp;

static bool disp_realize(Block *b, SimError *err)
{
    (void)err;
    bench_disp = (BenchDisp *)b;
    bench_disp->p = block_port(b, "p", -1);
    return true;
}

static void disp_launch(void *subject, void *obj)
{
    BenchDisp *d = subject;
    (void)obj;
    CoreLaunch l = {.grid = {1, 1, 1}, .block = {32 * BENCH_WARPS, 1, 1}, .nregs = 16};
    uint8_t buf[CORE_LAUNCH_BYTES];
    core_launch_encode(&l, buf);
    Txn *t = txn_new_declared(d->b.sim, &core_cmd_launch, 0, CORE_LAUNCH_BYTES);
    txn_set_data(t, buf);
    (void)port_send(d->p, t);
}

static void disp_reset(Block *b)
{
    sim_schedule(b->sim, 0, SIM_PRIO_DEFAULT, disp_launch, b, NULL);
}

static void disp_next(BenchDisp *d)
{
    while (d->sent < d->ctas && d->inflight < d->fit) {
        Txn *t = txn_new_declared(d->b.sim, &core_cmd_cta, d->sent++, d->cta_len);
        txn_set_data(t, d->cta);
        (void)port_send(d->p, t);
        d->inflight++;
    }
    if (d->done == d->ctas) {
        (void)port_send(d->p, txn_new_declared(d->b.sim, &core_cmd_finish, 0, 0));
    }
}

static void disp_on_recv(Block *b, Port *p)
{
    BenchDisp *d = (BenchDisp *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (txn_is(t, &core_cmd_xlat)) {
            Txn *r = txn_new_response(b->sim, t);
            r->paddr = t->addr;
            (void)port_send(p, r);
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_launch) {
            d->fit = t->ctas;
            disp_next(d);
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_cta) {
            d->done++;
            d->inflight--;
            disp_next(d);
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_finish) {
            d->insts = t->insts;
        }
        txn_unref(t);
    }
}

static const BlockType disp_type = {.name = "bench_disp",
                                    .size = sizeof(BenchDisp),
                                    .ports = bench_port,
                                    .nports = 1,
                                    .realize = disp_realize,
                                    .reset = disp_reset,
                                    .on_recv = disp_on_recv};

static bool mem_realize(Block *b, SimError *err)
{
    (void)err;
    ((BenchMem *)b)->p = block_port(b, "p", -1);
    return true;
}

static void mem_on_recv(Block *b, Port *p)
{
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (txn_needs_response(t)) {
            (void)port_send_after(p, txn_new_response(b->sim, t),
                                  BENCH_MEM_CYCLES * BENCH_CLOCK);
        }
        txn_unref(t);
    }
}

static const BlockType mem_type = {.name = "bench_mem",
                                   .size = sizeof(BenchMem),
                                   .ports = bench_port,
                                   .nports = 1,
                                   .realize = mem_realize,
                                   .on_recv = mem_on_recv};

/* The platform sm + disp + mem (NULL with err set). */
static Platform *bench_build(Registry *r, Sim *sim, SimError *err)
{
    PlatformDesc d = {.registry = r};
    d.info = (PlatformInfo){.gpus = 1, .mem_bytes = 1ull << 40, .clock = BENCH_CLOCK};
    if (!platform_desc_add_instance(&d, "sm", "sm", 0, NULL, "bench", err) ||
        !platform_desc_add_instance(&d, "disp", "bench_disp", 0, NULL, "bench", err) ||
        !platform_desc_add_instance(&d, "mem", "bench_mem", 0, NULL, "bench", err) ||
        !platform_desc_add_wire(&d, "sm.ctl", "disp.p", 0, "bench", err) ||
        !platform_desc_add_wire(&d, "sm.mem", "mem.p", 0, "bench", err)) {
        platform_desc_free(&d);
        return NULL;
    }
    return platform_build(&d, sim, err);
}

static uint64_t bench_stat(const Platform *p, const char *name)
{
    const uint64_t *v = stats_find_counter(p->stats, name);
    return v ? *v : 0;
}

int main(int argc, char **argv)
{
    uint64_t ctas, load_every;
    if (argc != 3 || !bench_parse_u64(argv[1], 1, 1000000, &ctas) ||
        !bench_parse_u64(argv[2], 0, BENCH_INSTS, &load_every)) {
        fprintf(stderr, "usage: sm_run CTAS(1..1000000) LOAD_EVERY(0..%d)\n",
                BENCH_INSTS);
        return 2;
    }
    static AtsInst inst[BENCH_WARPS][BENCH_INSTS];
    static uint64_t addrs[BENCH_WARPS][BENCH_INSTS * ATS_LANES];
    AtsWarp warps[BENCH_WARPS];
    for (size_t w = 0; w < BENCH_WARPS; w++) {
        bench_build_warp(&warps[w], inst[w], addrs[w], load_every, (uint64_t)w << 20);
    }
    AtsCta cta = {.nwarps = BENCH_WARPS, .warps = warps};
    size_t cta_len;
    uint8_t *encoded = core_cta_message(&cta, &cta_len);
    SimError err;
    Registry *r = registry_new();
    Sim *sim = sim_new();
    Platform *p = NULL;
    if (r && sim && hw_register(r, &err) && registry_add(r, &disp_type, &err) &&
        registry_add(r, &mem_type, &err)) {
        p = bench_build(r, sim, &err);
    }
    if (!p) {
        fprintf(stderr, "sm_run: %s\n", err.msg);
        return 1;
    }
    bench_disp->cta = encoded;
    bench_disp->cta_len = (uint32_t)cta_len;
    bench_disp->ctas = ctas;
    platform_reset(p);
    double t0 = bench_seconds();
    sim_run(sim, SIM_TIME_MAX);
    double wall = bench_seconds() - t0;
    platform_finish_stats(p);
    uint64_t issued = bench_stat(p, "sm.warp_insts");
    uint64_t lines = bench_stat(p, "sm.line_reqs");
    uint64_t cycles = sim_now(sim) / BENCH_CLOCK;
    bool ok = bench_disp->insts == ctas * BENCH_INSTS * BENCH_WARPS &&
              issued == bench_disp->insts;
    platform_free(p);
    sim_free(sim);
    registry_free(r);
    free(encoded);
    printf("warp_insts %" PRIu64 " cycles %" PRIu64 " line_requests %" PRIu64 "\n",
           issued, cycles, lines);
    fprintf(stderr, "wall_s %.6f warp_insts_per_s %.0f line_requests_per_s %.0f\n", wall,
            (double)issued / wall, (double)lines / wall);
    return ok ? 0 : 1;
}
