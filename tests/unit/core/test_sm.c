/* Unit tests of the sm block (hw/core/sm.c, sm_mem.c, sm_ctl.c): one sm whose ctl port
 * is driven by a small dispatcher stand-in (launch, then CTAs as the launch answer
 * allows, then finish; xlat answered after a fixed latency) and whose mem port is
 * answered by a memory stand-in after a fixed latency. Every expected time is worked
 * by hand in the test's comment from the rules of docs/cores.md ("Issue", "The sm
 * block") and the stand-ins' latencies.
 *
 * Common setup: clock 1 GHz (a cycle is 1000 ps), every wire 0 ps, xlat answered 10
 * cycles after it arrives, memory answers 100 cycles after a request arrives. The
 * dispatcher sends the launch at 0, so kernel_begin leaves at 0 and the first CTAs
 * arrive at 0: cycle 0 is the first that runs. Translation: global page P maps to
 * P + 0x10000000, local page P to P + 0x20000000. */
#include <stdlib.h>
#include <string.h>

#include "hw/core/core_msg.h"
#include "hw/core/core_value.h"
#include "kernel/platform/platform.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

#define NONE (-1)
#define CYC 1000u
#define XLAT_CYCLES 10u
#define MEM_CYCLES 100u
#define GLOBAL_OFF 0x10000000ull
#define LOCAL_OFF 0x20000000ull
#define MAX_RECS 128

/* What the memory stand-in saw, in arrival order. */
typedef struct MemRec {
    SimTime at;
    TxnCmd cmd;
    uint64_t addr;
    uint32_t len;
    bool posted;
    uint32_t hint;
    uint8_t data[128];
    bool has_data;
    uint64_t be_lo; /* bit i: byte i enabled (first 64 bytes); all ones without be */
    uint32_t nthreads;
    TxnThread threads[8];
} MemRec;

typedef struct Script {
    /* input */
    CoreLaunch launch;
    const AtsCta *ctas;
    size_t nctas;
    uint32_t take_every; /* memory: 0 takes on arrival; else one per this many cycles,
                            with a one-slot buffer */
    bool finish_first;   /* the dispatcher sends a finish before the launch */
    uint32_t kernels;    /* launches, one after the other (0 means 1) */
    const char *trace;   /* the platform's trace folder (turns the data check on) */
    SimTime until;       /* the run stops after this time (0: at its end) */
    /* dispatcher results */
    size_t refused; /* answers with a status other than ok */
    TxnStatus launch_status;
    uint32_t fit;
    SimTime cta_at[8];
    uint64_t cta_index[8];
    size_t ndone, nsent, inflight;
    bool finished;
    SimTime finish_at;
    uint64_t insts;
    size_t nxlat;
    uint64_t xlat_addr[16];
    uint32_t xlat_space[16];
    SimTime xlat_at[16];
    /* memory results */
    size_t nrecs;
    MemRec recs[MAX_RECS];
} Script;

static Script *script;

typedef struct TestDisp {
    Block b;
    Script *sc;
    Port *p;
} TestDisp;

typedef struct TestMem {
    Block b;
    Script *sc;
    Port *p;
    bool taking; /* a take is scheduled */
} TestMem;

static const PortDef one_port[] = {{.name = "p", .required = true, .doc = "test"}};

static bool disp_realize(Block *b, SimError *err)
{
    (void)err;
    TestDisp *d = (TestDisp *)b;
    d->sc = script;
    d->p = block_port(b, "p", -1);
    return true;
}

static void disp_send_launch(void *subject, void *obj)
{
    TestDisp *d = subject;
    (void)obj;
    if (d->sc->finish_first) {
        CHECK(port_send(d->p, txn_new_declared(d->b.sim, &core_cmd_finish, 0, 0)));
        d->sc->finish_first = false;
    }
    uint8_t buf[CORE_LAUNCH_BYTES];
    core_launch_encode(&d->sc->launch, buf);
    Txn *t = txn_new_declared(d->b.sim, &core_cmd_launch, d->sc->launch.kernel,
                              CORE_LAUNCH_BYTES);
    txn_set_data(t, buf);
    CHECK(port_send(d->p, t));
}

static void disp_reset(Block *b)
{
    sim_schedule(b->sim, 0, SIM_PRIO_DEFAULT, disp_send_launch, b, NULL);
}

/* Sends CTAs while fewer than `fit` are in flight; finish when all are answered. */
static void disp_next(TestDisp *d)
{
    Script *sc = d->sc;
    while (sc->nsent < sc->nctas && sc->inflight < sc->fit) {
        size_t n;
        uint8_t *msg = core_cta_message(&sc->ctas[sc->nsent], &n);
        Txn *t = txn_new_declared(d->b.sim, &core_cmd_cta, sc->nsent, (uint32_t)n);
        memcpy(txn_set_data(t, NULL), msg, n);
        free(msg);
        CHECK(port_send(d->p, t));
        sc->nsent++;
        sc->inflight++;
    }
    if (sc->ndone == sc->nctas) {
        CHECK(port_send(
            d->p, txn_new_declared(d->b.sim, &core_cmd_finish, sc->launch.kernel, 0)));
    }
}

static void disp_on_recv(Block *b, Port *p)
{
    TestDisp *d = (TestDisp *)b;
    Script *sc = d->sc;
    SimTime now = sim_now(b->sim);
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (t->cmd == TXN_RESP && t->status != TXN_STATUS_OK) {
            sc->refused++;
        } else if (txn_is(t, &core_cmd_xlat)) {
            CHECK(sc->nxlat < 16);
            sc->xlat_addr[sc->nxlat] = t->addr;
            sc->xlat_space[sc->nxlat] = t->space;
            sc->xlat_at[sc->nxlat++] = now;
            CHECK_EQ_U64(t->unit, 0);
            Txn *r = txn_new_response(b->sim, t);
            r->paddr = t->addr + (t->space == CORE_SPACE_LOCAL ? LOCAL_OFF : GLOBAL_OFF);
            CHECK(port_send_after(p, r, XLAT_CYCLES * CYC));
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_launch) {
            sc->launch_status = t->status;
            sc->fit = t->ctas;
            disp_next(d);
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_cta) {
            CHECK(sc->ndone < 8);
            sc->cta_at[sc->ndone] = now;
            sc->cta_index[sc->ndone++] = t->addr;
            sc->inflight--;
            disp_next(d);
        } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_finish) {
            sc->finished = true;
            sc->finish_at = now;
            sc->insts = t->insts;
            if (sc->launch.kernel + 1 < sc->kernels) {
                /* the next kernel: the same CTAs again */
                sc->launch.kernel++;
                sc->nsent = sc->ndone = sc->inflight = 0;
                disp_send_launch(d, NULL);
            }
        } else {
            CHECK(!"unexpected message at the dispatcher");
        }
        txn_unref(t);
    }
}

static const BlockType disp_type = {.name = "test_disp",
                                    .size = sizeof(TestDisp),
                                    .ports = one_port,
                                    .nports = 1,
                                    .realize = disp_realize,
                                    .reset = disp_reset,
                                    .on_recv = disp_on_recv};

static bool mem_realize(Block *b, SimError *err)
{
    (void)err;
    TestMem *m = (TestMem *)b;
    m->sc = script;
    m->p = block_port(b, "p", -1);
    return true;
}

/* Takes one request: records it and answers it MEM_CYCLES later. */
static void mem_take_one(TestMem *m)
{
    Script *sc = m->sc;
    Txn *t = port_take(m->p);
    CHECK(sc->nrecs < MAX_RECS);
    if (sc->nrecs < MAX_RECS) {
        MemRec *r = &sc->recs[sc->nrecs++];
        *r = (MemRec){.at = sim_now(m->b.sim),
                      .cmd = t->cmd,
                      .addr = t->addr,
                      .len = t->len,
                      .posted = t->posted,
                      .hint = t->kernel_hint,
                      .has_data = t->data != NULL,
                      .be_lo = UINT64_MAX,
                      .nthreads = t->nthreads};
        if (t->data) {
            memcpy(r->data, t->data, t->len < 128 ? t->len : 128);
        }
        if (t->be) {
            r->be_lo = 0;
            for (uint32_t i = 0; i < t->len && i < 64; i++) {
                r->be_lo |= (uint64_t)(t->be[i] != 0) << i;
            }
        }
        for (uint32_t i = 0; i < t->nthreads && i < 8; i++) {
            r->threads[i] = t->threads[i];
        }
    }
    if (txn_needs_response(t)) {
        CHECK(port_send_after(m->p, txn_new_response(m->b.sim, t), MEM_CYCLES * CYC));
    }
    txn_unref(t);
}

static void mem_take(void *subject, void *obj)
{
    TestMem *m = subject;
    (void)obj;
    mem_take_one(m);
    m->taking = port_count(m->p) > 0;
    if (m->taking) {
        sim_schedule(m->b.sim, m->sc->take_every * CYC, SIM_PRIO_DEFAULT, mem_take, m,
                     NULL);
    }
}

static void mem_on_recv(Block *b, Port *p)
{
    TestMem *m = (TestMem *)b;
    if (m->sc->take_every == 0) {
        while (port_count(p) > 0) {
            mem_take_one(m);
        }
    } else if (!m->taking) {
        m->taking = true;
        sim_schedule(b->sim, m->sc->take_every * CYC, SIM_PRIO_DEFAULT, mem_take, m,
                     NULL);
    }
}

static const BlockType mem_type = {.name = "test_mem",
                                   .size = sizeof(TestMem),
                                   .ports = one_port,
                                   .nports = 1,
                                   .realize = mem_realize,
                                   .on_recv = mem_on_recv};

static Registry *registry(void)
{
    static bool added;
    Registry *r = hw_registry();
    if (!added) {
        SimError err;
        CHECK(registry_add(r, &disp_type, &err));
        CHECK(registry_add(r, &mem_type, &err));
        added = true;
    }
    return r;
}

typedef struct Run {
    Sim *sim;
    Platform *p;
    SimError err; /* the build error when p is NULL */
} Run;

/* Builds sm (params: a JSON object text, may be NULL), disp and mem, runs to the end
 * and returns the platform (NULL with the message printed on a build error). */
static Run run_sm(Script *sc, const char *params)
{
    Run run = {.sim = sim_new()};
    SimError err = {0};
    PlatformDesc d = {.registry = registry()};
    d.info = (PlatformInfo){
        .gpus = 1, .mem_bytes = 1ull << 40, .clock = CYC, .seed = 1, .trace = sc->trace};
    json_t *pj = params ? json_loads(params, 0, NULL) : NULL;
    json_t *mj = sc->take_every ? json_pack("{s:i}", "buffer", 1) : NULL;
    CHECK(!params || pj);
    bool ok =
        platform_desc_add_instance(&d, "sm", "sm", 0, pj, "test", &err) &&
        platform_desc_add_instance(&d, "disp", "test_disp", 0, NULL, "test", &err) &&
        platform_desc_add_instance(&d, "mem", "test_mem", 0, mj, "test", &err) &&
        platform_desc_add_wire(&d, "sm.ctl", "disp.p", 0, "test", &err) &&
        platform_desc_add_wire(&d, "sm.mem", "mem.p", 0, "test", &err);
    json_decref(pj);
    json_decref(mj);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "description: %s\n", err.msg);
    }
    script = sc;
    run.p = ok ? platform_build(&d, run.sim, &err) : NULL;
    if (!ok) {
        platform_desc_free(&d);
    }
    if (!run.p) {
        run.err = err;
        return run;
    }
    platform_reset(run.p);
    sim_run(run.sim, sc->until ? sc->until : SIM_TIME_MAX);
    platform_finish_stats(run.p);
    return run;
}

static uint64_t stat(const Run *r, const char *name)
{
    char full[128];
    snprintf(full, sizeof full, "sm.%s", name);
    const uint64_t *v = stats_find_counter(r->p->stats, full);
    CHECK(v != NULL);
    return v ? *v : UINT64_MAX;
}

/* The read_latency histogram's sum and count. */
static void latency_of(const Run *r, uint64_t *sum, uint64_t *count)
{
    *sum = *count = UINT64_MAX;
    for (size_t i = 0; i < stats_count(r->p->stats); i++) {
        StatView v = stats_at(r->p->stats, i);
        if (strcmp(v.name, "sm.read_latency") == 0) {
            *sum = v.hist->sum;
            *count = v.hist->count;
        }
    }
}

/* The sm counted no malformed control, error status or unmatched answer. */
static void check_no_errors(const Run *r)
{
    CHECK_EQ_U64(stat(r, "ctl_errors"), 0);
    CHECK_EQ_U64(stat(r, "status_errors"), 0);
    CHECK_EQ_U64(stat(r, "resp_unmatched_errors"), 0);
}

static void run_free(Run *r)
{
    if (r->p) {
        check_no_errors(r);
    }
    platform_free(r->p);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(r->sim)), 0);
    sim_free(r->sim);
}

/* A warp under construction: instructions and the address pool. */
typedef struct WarpB {
    AtsInst in[40];
    uint64_t addrs[256];
    size_t ninst, naddrs;
} WarpB;

static void alu(WarpB *w, AtsClass cls, int dst, int src)
{
    AtsInst in = {.cls = cls, .mask = 0xffffffffu};
    if (dst != NONE) {
        in.dst[in.ndst++] = (uint8_t)dst;
    }
    if (src != NONE) {
        in.src[in.nsrc++] = (uint8_t)src;
    }
    w->in[w->ninst++] = in;
}

/* A memory instruction: lane i (in mask) accesses base + i * stride. */
static void memop(WarpB *w, AtsClass cls, int dst, int src, uint32_t mask, uint32_t width,
                  uint64_t base, uint64_t stride)
{
    alu(w, cls, dst, src);
    AtsInst *in = &w->in[w->ninst - 1];
    in->mask = mask;
    in->width = width;
    in->addr_off = (uint32_t)w->naddrs;
    for (uint32_t i = 0; i < ATS_LANES; i++) {
        if (mask >> i & 1) {
            w->addrs[w->naddrs++] = base + i * stride;
        }
    }
}

/* Adds source register r to the last instruction. */
static void add_src(WarpB *w, int r)
{
    AtsInst *in = &w->in[w->ninst - 1];
    in->src[in->nsrc++] = (uint8_t)r;
}

static AtsWarp warp_of(WarpB *w)
{
    return (AtsWarp){
        .ninst = w->ninst, .inst = w->in, .naddrs = w->naddrs, .addrs = w->addrs};
}

static CoreLaunch launch_small(void)
{
    /* one warp per CTA, no registers or shared memory: 32 CTAs fit (max_ctas) */
    return (CoreLaunch){.kernel = 0, .grid = {1, 1, 1}, .block = {32, 1, 1}, .hint = 7};
}

/* W1 before a load, a stall on the load, a store the warp does not wait for, and the
 * kernel's control path. One warp: IADD R1; IADD R2 <- R1; LDG R3 <- [R2] (32 lanes x
 * 4 B from 0x1000: one 128 B line); IADD R4 <- R3; STG [R2], R4 (lane 0, 4 B at
 * 0x2000); EXIT.
 * - W1: the IADDs issue at 0 and 4; the LDG is ready at 8, its page 0x1000 is not
 *   translated: xlat at 8000, answered at 18000, the LDG issues at 18 and its read
 *   (0x10001000, 128 B) leaves at 18000.
 * - The read is answered at 118000 (cycle 118): R3 ready at 119, IADD R4 at 119, R4
 *   ready at 123; the STG's page 0x2000 is asked at 123000 and answered at 133000: the
 *   write (0x10002000, 32 B, bytes 0-3 enabled) leaves at 133000; EXIT at 134.
 * - The CTA ends at 134 (its warp ended, its load answered; the store is not waited
 *   for): answered at 134000, and the finish comes at once. The write is answered at
 *   233000: only then do release and kernel_end leave and finish is answered, insts 6.
 * - kernel_begin left at 0 with the launch's hint 7. */
static void test_w1_load_store_and_finish(void)
{
    WarpB w = {0};
    alu(&w, ATS_INT, 1, NONE);
    alu(&w, ATS_INT, 2, 1);
    memop(&w, ATS_LDG, 3, 2, 0xffffffffu, 4, 0x1000, 4);
    alu(&w, ATS_INT, 4, 3);
    memop(&w, ATS_STG, NONE, 2, 0x1, 4, 0x2000, 4);
    add_src(&w, 4);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    Run r = run_sm(&sc, NULL);
    CHECK(r.p != NULL);
    CHECK_EQ_U64(sc.launch_status, TXN_STATUS_OK);
    CHECK_EQ_U64(sc.fit, 32);
    CHECK_EQ_U64(sc.nxlat, 2);
    CHECK_EQ_U64(sc.xlat_at[0], 8000);
    CHECK_EQ_U64(sc.xlat_addr[0], 0x1000);
    CHECK_EQ_U64(sc.xlat_at[1], 123000);
    CHECK_EQ_U64(sc.xlat_addr[1], 0x2000);
    CHECK_EQ_U64(sc.nrecs, 5);
    CHECK_EQ_U64(sc.recs[0].cmd, TXN_KERNEL_BEGIN);
    CHECK_EQ_U64(sc.recs[0].at, 0);
    CHECK_EQ_U64(sc.recs[0].hint, 7);
    CHECK_EQ_U64(sc.recs[1].cmd, TXN_READ);
    CHECK_EQ_U64(sc.recs[1].at, 18000);
    CHECK_EQ_U64(sc.recs[1].addr, 0x10001000);
    CHECK_EQ_U64(sc.recs[1].len, 128);
    CHECK_EQ_U64(sc.recs[2].cmd, TXN_WRITE);
    CHECK_EQ_U64(sc.recs[2].at, 133000);
    CHECK_EQ_U64(sc.recs[2].addr, 0x10002000);
    CHECK_EQ_U64(sc.recs[2].len, 32);
    CHECK(!sc.recs[2].posted);
    CHECK_EQ_U64(sc.recs[2].be_lo, 0xf);
    CHECK_EQ_U64(sc.recs[2].data[0], core_value(0x2000, 0));
    CHECK_EQ_U64(sc.recs[2].data[3], core_value(0x2003, 0));
    CHECK_EQ_U64(sc.recs[3].cmd, TXN_RELEASE);
    CHECK_EQ_U64(sc.recs[3].at, 233000);
    CHECK_EQ_U64(sc.recs[4].cmd, TXN_KERNEL_END);
    CHECK_EQ_U64(sc.recs[4].at, 233000);
    CHECK_EQ_U64(sc.ndone, 1);
    CHECK_EQ_U64(sc.cta_at[0], 134000);
    CHECK(sc.finished);
    CHECK_EQ_U64(sc.finish_at, 233000);
    CHECK_EQ_U64(sc.insts, 6);
    CHECK_EQ_U64(stat(&r, "warp_insts"), 6);
    CHECK_EQ_U64(stat(&r, "ctas"), 1);
    CHECK_EQ_U64(stat(&r, "kernels"), 1);
    CHECK_EQ_U64(stat(&r, "line_reqs"), 2);
    CHECK_EQ_U64(stat(&r, "reads"), 1);
    CHECK_EQ_U64(stat(&r, "writes"), 1);
    CHECK_EQ_U64(stat(&r, "xlats"), 2);
    CHECK_EQ_U64(stat(&r, "busy_ps"), 134000);
    run_free(&r);
}

/* Two kernels of the W1 CTA (test_w1_load_store_and_finish has kernel 0's times).
 * Kernel 1 is launched when kernel 0's finish is answered (233000): kernel_begin then,
 * the CTA arrives at 233000 and runs from cycle 233 with its pages translated (the
 * table is kept for the run: no xlat): IADDs at 233 and 237, the read at 241000,
 * answered at 341000, IADD R4 at 342 (R4 ready at 346), the write at 346000 with
 * kernel 1's values, EXIT at 347; the write's answer at 446000 lets release,
 * kernel_end and the finish go. */
static void test_second_kernel_keeps_translations(void)
{
    WarpB w = {0};
    alu(&w, ATS_INT, 1, NONE);
    alu(&w, ATS_INT, 2, 1);
    memop(&w, ATS_LDG, 3, 2, 0xffffffffu, 4, 0x1000, 4);
    alu(&w, ATS_INT, 4, 3);
    memop(&w, ATS_STG, NONE, 2, 0x1, 4, 0x2000, 4);
    add_src(&w, 4);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1, .kernels = 2};
    Run r = run_sm(&sc, NULL);
    CHECK_EQ_U64(sc.nxlat, 2);
    CHECK_EQ_U64(sc.nrecs, 10);
    static const TxnCmd cmd[5] = {TXN_KERNEL_BEGIN, TXN_READ, TXN_WRITE, TXN_RELEASE,
                                  TXN_KERNEL_END};
    static const SimTime at[5] = {233000, 241000, 346000, 446000, 446000};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_U64(sc.recs[5 + i].cmd, cmd[i]);
        CHECK_EQ_U64(sc.recs[5 + i].at, at[i]);
    }
    CHECK_EQ_U64(sc.recs[5].hint, 7);
    CHECK_EQ_U64(sc.recs[7].data[0], core_value(0x2000, 1));
    CHECK_EQ_U64(sc.cta_at[0], 347000);
    CHECK_EQ_U64(sc.finish_at, 446000);
    CHECK_EQ_U64(sc.insts, 6);
    CHECK_EQ_U64(stat(&r, "kernels"), 2);
    CHECK_EQ_U64(stat(&r, "ctas"), 2);
    CHECK_EQ_U64(stat(&r, "warp_insts"), 12);
    CHECK_EQ_U64(stat(&r, "xlats"), 2);
    run_free(&r);
}

/* W2 and W3 seen on the ports. Each warp: IADD R1; IADD R2; IADD R3 (independent);
 * LDG R4 [its own line of page 0x1000]; EXIT.
 * W2, one warp: the IADDs issue at 0, 1, 2; the LDG is ready at 3: xlat at 3000,
 * answered at 13000, the read leaves at 13000.
 * W3 gto, two warps on one scheduler: w0 0, 1, 2; w0's LDG asks for the page at 3 and
 * is refused, so w1 issues 3, 4, 5; at 6 both LDGs wait for the page. At 13 gto takes
 * w1 (the warp it issued last): read at 13000; at 14 it stays on w1 (EXIT); w0's read
 * leaves at 15000.
 * W3 lrr: w0 0, 2, 4 and w1 1, 3, 5 (alternating); at 6 w0's LDG asks for the page
 * (xlat at 6000, answered at 16000) and w1's waits too; at 16 lrr starts after w1
 * (slot 1): w0's read at 16000, w1's at 17000. */
static void w23_case(int warps, const char *params, SimTime xlat_at, const SimTime *at,
                     const uint64_t *addr)
{
    WarpB w[2] = {0};
    AtsWarp aw[2];
    for (int k = 0; k < warps; k++) {
        alu(&w[k], ATS_INT, 1, NONE);
        alu(&w[k], ATS_INT, 2, NONE);
        alu(&w[k], ATS_INT, 3, NONE);
        memop(&w[k], ATS_LDG, 4, NONE, 0x1, 4, 0x1000 + 0x80 * (uint64_t)k, 4);
        alu(&w[k], ATS_EXIT, NONE, NONE);
        aw[k] = warp_of(&w[k]);
    }
    AtsCta cta = {.nwarps = (size_t)warps, .warps = aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    sc.launch.block[0] = 32 * (uint32_t)warps;
    Run r = run_sm(&sc, params);
    CHECK_EQ_U64(sc.nxlat, 1);
    CHECK_EQ_U64(sc.xlat_at[0], xlat_at);
    CHECK_EQ_U64(sc.nrecs, 1 + (size_t)warps + 2);
    for (int k = 0; k < warps; k++) {
        CHECK_EQ_U64(sc.recs[1 + k].at, at[k]);
        CHECK_EQ_U64(sc.recs[1 + k].addr, GLOBAL_OFF + addr[k]);
    }
    CHECK_EQ_U64(sc.insts, 5 * (uint64_t)warps);
    run_free(&r);
}

static void test_w2_w3_on_the_ports(void)
{
    static const SimTime w2_at[1] = {13000};
    static const uint64_t w2_addr[1] = {0x1000};
    w23_case(1, NULL, 3000, w2_at, w2_addr);
    static const SimTime gto_at[2] = {13000, 15000};
    static const uint64_t gto_addr[2] = {0x1080, 0x1000};
    w23_case(2, "{\"schedulers\": 1}", 3000, gto_at, gto_addr);
    static const SimTime lrr_at[2] = {16000, 17000};
    static const uint64_t lrr_addr[2] = {0x1000, 0x1080};
    w23_case(2, "{\"schedulers\": 1, \"policy\": \"lrr\"}", 6000, lrr_at, lrr_addr);
}

/* The same CTA with posted: the write leaves posted and nothing waits for it, so the
 * CTA is answered at 134000 and the finish arrives then; release and kernel_end leave
 * at once, and behind them the flush read of the GPU posted to (one byte at the
 * posted write's address, sm_ctl.c): the pipe's cycle 134 has run, so it leaves in
 * cycle 135 (135000), is answered 100 cycles later (235000), and the finish is
 * answered then. */
static void test_posted_write_not_waited_for(void)
{
    WarpB w = {0};
    alu(&w, ATS_INT, 1, NONE);
    alu(&w, ATS_INT, 2, 1);
    memop(&w, ATS_LDG, 3, 2, 0xffffffffu, 4, 0x1000, 4);
    alu(&w, ATS_INT, 4, 3);
    memop(&w, ATS_STG, NONE, 2, 0x1, 4, 0x2000, 4);
    add_src(&w, 4);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    Run r = run_sm(&sc, "{\"posted\": true}");
    CHECK_EQ_U64(sc.nrecs, 6);
    CHECK(sc.recs[2].posted);
    CHECK_EQ_U64(sc.recs[2].at, 133000);
    CHECK_EQ_U64(sc.recs[3].cmd, TXN_RELEASE);
    CHECK_EQ_U64(sc.recs[3].at, 134000);
    CHECK_EQ_U64(sc.recs[4].cmd, TXN_KERNEL_END);
    CHECK_EQ_U64(sc.recs[5].cmd, TXN_READ);
    CHECK_EQ_U64(sc.recs[5].at, 135000);
    CHECK_EQ_U64(sc.recs[5].addr, sc.recs[2].addr);
    CHECK_EQ_U64(sc.finish_at, 235000);
    run_free(&r);
}

/* Two warps of one CTA on one scheduler, each LDG R1 [a]; LDG R2 [b]; EXIT with four
 * lines of one page. Cycle 0: w0's LDG asks for the page (xlat at 0), w1's finds it
 * pending; the answer at 10000 lets them issue from cycle 10, one transaction per
 * cycle through the pipe.
 * gto: w0 a0 at 10, w0 a1 at 11 (greedy), w0 EXIT at 12, w1 b0 at 13, b1 at 14.
 * lrr: w0 a0 at 10, w1 b0 at 11, w0 a1 at 12, w1 b1 at 13. */
static void order_case(const char *params, const uint64_t *want_addr,
                       const SimTime *want_at)
{
    WarpB w[2] = {0};
    for (int k = 0; k < 2; k++) {
        memop(&w[k], ATS_LDG, 1, NONE, 0x1, 4, 0x1000 + (uint64_t)k * 0x100, 4);
        memop(&w[k], ATS_LDG, 2, NONE, 0x1, 4, 0x1080 + (uint64_t)k * 0x100, 4);
        alu(&w[k], ATS_EXIT, NONE, NONE);
    }
    AtsWarp aw[2] = {warp_of(&w[0]), warp_of(&w[1])};
    AtsCta cta = {.nwarps = 2, .warps = aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    sc.launch.block[0] = 64;
    Run r = run_sm(&sc, params);
    CHECK_EQ_U64(sc.nxlat, 1);
    CHECK_EQ_U64(sc.nrecs, 7);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U64(sc.recs[1 + i].addr, GLOBAL_OFF + want_addr[i]);
        CHECK_EQ_U64(sc.recs[1 + i].at, want_at[i]);
    }
    run_free(&r);
}

static void test_gto_and_lrr_request_order(void)
{
    static const uint64_t gto_addr[4] = {0x1000, 0x1080, 0x1100, 0x1180};
    static const SimTime gto_at[4] = {10000, 11000, 13000, 14000};
    order_case("{\"schedulers\": 1}", gto_addr, gto_at);
    static const uint64_t lrr_addr[4] = {0x1000, 0x1100, 0x1080, 0x1180};
    static const SimTime lrr_at[4] = {10000, 11000, 12000, 13000};
    order_case("{\"schedulers\": 1, \"policy\": \"lrr\"}", lrr_addr, lrr_at);
}

/* A barrier with a slow warp, then two loads through the pipe. w0 (scheduler 0):
 * MUFU R1; IADD R2 <- R1; BAR; LDG [0x1000]; EXIT. w1 (scheduler 1): BAR; LDG
 * [0x1080]; EXIT. w1 waits at the barrier from 0; w0's IADD waits for the MUFU (100
 * cycles) and issues at 100, its BAR at 101 releases both for 102. At 102 both LDGs
 * find the page missing (one xlat at 102000, answered at 112000). At 112 scheduler 0
 * takes the pipe for w0 (read at 112000); w1 is refused this cycle and goes at 113. */
static void test_barrier_slow_warp(void)
{
    WarpB w[2] = {0};
    alu(&w[0], ATS_SFU, 1, NONE);
    alu(&w[0], ATS_INT, 2, 1);
    alu(&w[0], ATS_BAR, NONE, NONE);
    memop(&w[0], ATS_LDG, 3, NONE, 0x1, 4, 0x1000, 4);
    alu(&w[0], ATS_EXIT, NONE, NONE);
    alu(&w[1], ATS_BAR, NONE, NONE);
    memop(&w[1], ATS_LDG, 3, NONE, 0x1, 4, 0x1080, 4);
    alu(&w[1], ATS_EXIT, NONE, NONE);
    AtsWarp aw[2] = {warp_of(&w[0]), warp_of(&w[1])};
    AtsCta cta = {.nwarps = 2, .warps = aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    sc.launch.block[0] = 64;
    Run r = run_sm(&sc, NULL);
    CHECK_EQ_U64(sc.nxlat, 1);
    CHECK_EQ_U64(sc.xlat_at[0], 102000);
    CHECK_EQ_U64(sc.recs[1].addr, GLOBAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[1].at, 112000);
    CHECK_EQ_U64(sc.recs[2].addr, GLOBAL_OFF + 0x1080);
    CHECK_EQ_U64(sc.recs[2].at, 113000);
    /* read latency, issue to answer: 212000 - 112000 and 213000 - 113000 (w1 issues
     * at 113, when the pipe takes it, not at 112) */
    uint64_t sum, count;
    latency_of(&r, &sum, &count);
    CHECK_EQ_U64(count, 2);
    CHECK_EQ_U64(sum, 200000);
    /* the loads are answered at 212000 and 213000; EXITs at 113 and 114 */
    CHECK_EQ_U64(sc.cta_at[0], 213000);
    CHECK_EQ_U64(sc.insts, 8);
    run_free(&r);
}

/* Launch answers: the CTAs the sm holds, each resource the limit in turn
 * (sm_occupancy: min(max_ctas, max_warps / W, regs / (nregs 32 W), shmem / CTA
 * shmem)). A kernel with no CTA for this sm still gets kernel_begin and kernel_end. */
static uint32_t fit_of(uint32_t threads, uint32_t nregs, uint32_t shmem,
                       const char *params)
{
    Script sc = {.launch = launch_small()};
    sc.launch.block[0] = threads;
    sc.launch.nregs = nregs;
    sc.launch.shmem = shmem;
    Run r = run_sm(&sc, params);
    CHECK(sc.finished);
    CHECK_EQ_U64(sc.insts, 0);
    CHECK_EQ_U64(sc.nrecs, 3);
    CHECK_EQ_U64(sc.recs[0].cmd, TXN_KERNEL_BEGIN);
    CHECK_EQ_U64(sc.recs[2].cmd, TXN_KERNEL_END);
    run_free(&r);
    return sc.fit;
}

static void test_occupancy_limits(void)
{
    /* W6: 1024 threads (32 warps), 30 registers, 8 KiB: 64 / 32 = 2 (warps) */
    CHECK_EQ_U64(fit_of(1024, 30, 8192, NULL), 2);
    /* max_ctas 1 */
    CHECK_EQ_U64(fit_of(1024, 30, 8192, "{\"max_ctas\": 1}"), 1);
    /* 256 threads (8 warps), 64 registers: 65536 / (64 x 32 x 8) = 4; warps 8 */
    CHECK_EQ_U64(fit_of(256, 64, 0, NULL), 4);
    /* 32 threads, 40 KiB shared: 96 / 40 = 2 */
    CHECK_EQ_U64(fit_of(32, 0, 40 * 1024, NULL), 2);
    /* 32 threads, 200 KiB: none fits an empty sm */
    CHECK_EQ_U64(fit_of(32, 0, 200 * 1024, NULL), 0);
    /* the parameters are the resources: shmem 16KiB gives 16 / 8 = 2 here */
    CHECK_EQ_U64(fit_of(32, 0, 8192, "{\"shmem\": \"16KiB\"}"), 2);
}

/* One CTA at a time (max_ctas 1): CTA 0 (IADD; EXIT) issues at 0 and 1 and is
 * answered at 1000; CTA 1 arrives at 1000, after cycle 1 ran, so it issues at 2 and 3
 * and is answered at 3000; finish at 3000, insts 4. */
static void test_second_cta_when_slot_frees(void)
{
    WarpB w = {0};
    alu(&w, ATS_INT, 1, NONE);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta ctas[2] = {{.nwarps = 1, .warps = &aw}, {.nwarps = 1, .warps = &aw}};
    Script sc = {.launch = launch_small(), .ctas = ctas, .nctas = 2};
    Run r = run_sm(&sc, "{\"max_ctas\": 1}");
    CHECK_EQ_U64(sc.fit, 1);
    CHECK_EQ_U64(sc.ndone, 2);
    CHECK_EQ_U64(sc.cta_index[0], 0);
    CHECK_EQ_U64(sc.cta_at[0], 1000);
    CHECK_EQ_U64(sc.cta_index[1], 1);
    CHECK_EQ_U64(sc.cta_at[1], 3000);
    CHECK_EQ_U64(sc.finish_at, 3000);
    CHECK_EQ_U64(sc.insts, 4);
    CHECK_EQ_U64(stat(&r, "ctas"), 2);
    /* busy: [0, 1000) and [1000, 3000) */
    CHECK_EQ_U64(stat(&r, "busy_ps"), 3000);
    run_free(&r);
}

/* W4 coalescing and the pieces of a line, one warp, every access in page 0x1000
 * except the wavefront case; instructions are independent, so each issues when the
 * pipe is free (one transaction per cycle). Returns the records after kernel_begin. */
static void build_coalesce_warp(WarpB *w)
{
    /* 32 lanes x 4 B from 0x1000: one line, sectors 0-3 */
    memop(w, ATS_LDG, 1, NONE, 0xffffffffu, 4, 0x1000, 4);
    /* lanes 0-3: sector 0 only */
    memop(w, ATS_LDG, 2, NONE, 0xf, 4, 0x1000, 4);
    /* 8 lanes x 4 B from 0x1030: sectors 1 and 2 (bytes 0x30-0x4f) */
    memop(w, ATS_STG, NONE, NONE, 0xff, 4, 0x1030, 4);
    /* stride 128: 32 lines, one sector each */
    memop(w, ATS_LDG, 3, NONE, 0xffffffffu, 4, 0x1000, 128);
    alu(w, ATS_EXIT, NONE, NONE);
}

static void test_coalescing_line_128(void)
{
    WarpB w = {0};
    build_coalesce_warp(&w);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    Run r = run_sm(&sc, NULL);
    /* kernel_begin, 1 + 1 + 1 + 32 requests, release, kernel_end */
    CHECK_EQ_U64(sc.nrecs, 1 + 35 + 2);
    CHECK_EQ_U64(sc.recs[1].addr, GLOBAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[1].len, 128);
    CHECK_EQ_U64(sc.recs[2].addr, GLOBAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[2].len, 32);
    /* the write: from sector 1's first byte to sector 2's end, bytes 0x30-0x4f */
    CHECK_EQ_U64(sc.recs[3].cmd, TXN_WRITE);
    CHECK_EQ_U64(sc.recs[3].addr, GLOBAL_OFF + 0x1020);
    CHECK_EQ_U64(sc.recs[3].len, 64);
    CHECK_EQ_U64(sc.recs[3].be_lo, 0x0000ffffffff0000ull);
    CHECK_EQ_U64(sc.recs[3].data[16], core_value(0x1030, 0));
    CHECK_EQ_U64(sc.recs[3].data[0], 0);
    for (int i = 0; i < 32; i++) {
        CHECK_EQ_U64(sc.recs[4 + i].addr, GLOBAL_OFF + 0x1000 + 128 * (uint64_t)i);
        CHECK_EQ_U64(sc.recs[4 + i].len, 32);
    }
    /* the first request at 10 (after the xlat), then one per cycle: the stride-128
     * load's 32 requests leave at 13 ... 44 */
    CHECK_EQ_U64(sc.recs[1].at, 10000);
    CHECK_EQ_U64(sc.recs[3].at, 12000);
    CHECK_EQ_U64(sc.recs[35].at, 44000);
    CHECK_EQ_U64(stat(&r, "line_reqs"), 35);
    CHECK_EQ_U64(stat(&r, "reads"), 34);
    CHECK_EQ_U64(stat(&r, "writes"), 1);
    CHECK_EQ_U64(stat(&r, "xlats"), 1);
    run_free(&r);
}

/* line 64: the full line becomes two 64 B pieces; the write's sectors 1 and 2 fall in
 * two pieces: 0x1020 (32 B, bytes 16-31 enabled) and 0x1040 (32 B, bytes 0-15). */
static void test_coalescing_line_64(void)
{
    WarpB w = {0};
    build_coalesce_warp(&w);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    Run r = run_sm(&sc, "{\"line\": 64}");
    CHECK_EQ_U64(sc.nrecs, 1 + 37 + 2);
    CHECK_EQ_U64(sc.recs[1].addr, GLOBAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[1].len, 64);
    CHECK_EQ_U64(sc.recs[2].addr, GLOBAL_OFF + 0x1040);
    CHECK_EQ_U64(sc.recs[2].len, 64);
    CHECK_EQ_U64(sc.recs[3].addr, GLOBAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[3].len, 32);
    CHECK_EQ_U64(sc.recs[4].addr, GLOBAL_OFF + 0x1020);
    CHECK_EQ_U64(sc.recs[4].len, 32);
    CHECK_EQ_U64(sc.recs[4].be_lo, 0xffff0000ull);
    CHECK_EQ_U64(sc.recs[5].addr, GLOBAL_OFF + 0x1040);
    CHECK_EQ_U64(sc.recs[5].len, 32);
    CHECK_EQ_U64(sc.recs[5].be_lo, 0xffffull);
    CHECK_EQ_U64(sc.recs[5].data[0], core_value(0x1040, 0));
    CHECK_EQ_U64(stat(&r, "line_reqs"), 35);
    run_free(&r);
}

/* Atomics (one per active lane, operand 1; width 2 goes as 4 bytes and is counted),
 * a local load (its own translation, space 1), a wavefront access (lanes as
 * threads, a lane crossing a page split in two) and a fence's release after the
 * loads are answered. */
static void test_atomics_local_wavefront_fence(void)
{
    WarpB w = {0};
    memop(&w, ATS_ATOMG, 1, NONE, 0xf, 4, 0x1100, 8);
    memop(&w, ATS_RED, NONE, NONE, 0x1, 2, 0x1200, 4);
    memop(&w, ATS_LDL, 2, NONE, 0x1, 4, 0x1000, 4);
    memop(&w, ATS_LDG, 3, NONE, 0x3, 8, 0x1ffc, 0x1004);
    alu(&w, ATS_MEMBAR, NONE, NONE);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1};
    Run r = run_sm(&sc, "{\"wavefront\": true}");
    /* pages: global 0x1000 (asked at 0), local 0x1000, global 0x2000 and 0x3000 */
    CHECK_EQ_U64(sc.nxlat, 4);
    CHECK_EQ_U64(sc.xlat_addr[1], 0x1000);
    CHECK_EQ_U64(sc.xlat_space[1], CORE_SPACE_LOCAL);
    CHECK_EQ_U64(stat(&r, "xlats"), 4);
    /* kernel_begin, 4 + 1 atomics, the local read, the wavefront read, release (the
     * fence), release and kernel_end (finish) */
    CHECK_EQ_U64(sc.nrecs, 1 + 5 + 1 + 1 + 3);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_U64(sc.recs[1 + i].cmd, TXN_ATOMIC);
        CHECK_EQ_U64(sc.recs[1 + i].addr, GLOBAL_OFF + 0x1100 + 8 * (uint64_t)i);
        CHECK_EQ_U64(sc.recs[1 + i].len, 4);
        CHECK_EQ_U64(sc.recs[1 + i].data[0], 1);
    }
    CHECK_EQ_U64(sc.recs[5].len, 4);
    CHECK_EQ_U64(stat(&r, "atomic_width"), 1);
    CHECK_EQ_U64(stat(&r, "atomics"), 5);
    CHECK_EQ_U64(sc.recs[6].addr, LOCAL_OFF + 0x1000);
    CHECK_EQ_U64(sc.recs[6].nthreads, 1);
    /* lanes 0x1ffc (8 B: 4 in page 1, 4 in page 2) and 0x3000 (8 B) */
    CHECK_EQ_U64(sc.recs[7].addr, GLOBAL_OFF + 0x1ffc);
    CHECK_EQ_U64(sc.recs[7].len, 16);
    CHECK_EQ_U64(sc.recs[7].nthreads, 3);
    CHECK_EQ_U64(sc.recs[7].threads[1].addr, GLOBAL_OFF + 0x2000);
    CHECK_EQ_U64(sc.recs[7].threads[1].size, 4);
    CHECK_EQ_U64(sc.recs[7].threads[2].addr, GLOBAL_OFF + 0x3000);
    CHECK_EQ_U64(sc.recs[8].cmd, TXN_RELEASE);
    /* the fence waits for the last load's answer: the wavefront read left at t, was
     * answered at t + 100000, and the fence issues the cycle after */
    CHECK_EQ_U64(sc.recs[8].at, sc.recs[7].at + MEM_CYCLES * CYC + CYC);
    CHECK_EQ_U64(sc.recs[9].cmd, TXN_RELEASE);
    CHECK_EQ_U64(sc.recs[10].cmd, TXN_KERNEL_END);
    run_free(&r);
}

/* With the data check on (a trace: the hand-written one of data/check, whose scan the
 * sm takes; its kernels fit the sm), a read is kept until its answer: a piece as its
 * address and length, a wavefront as a reference to the read. A reset before the
 * answer lets the reference go. One warp: LDG R1 (2 lanes x 4 B at 0x1000, 0x1004);
 * EXIT. The read leaves at 10000 (after the xlat) and would be answered at 110000; the
 * run stops at 50000 and the platform is reset: the wavefront run's reset gives back
 * one transaction more than the piece run's (the kept read). */
static size_t given_back_at_reset(const char *params)
{
    WarpB w = {0};
    memop(&w, ATS_LDG, 1, NONE, 0x3, 4, 0x1000, 4);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(),
                 .ctas = &cta,
                 .nctas = 1,
                 .trace = "tests/unit/core/data/check",
                 .until = 50 * CYC};
    Run r = run_sm(&sc, params);
    CHECK(r.p != NULL);
    if (!r.p) {
        return 0;
    }
    CHECK_EQ_U64(sc.nrecs, 2); /* kernel_begin, the read */
    CHECK_EQ_U64(sc.recs[1].at, 10000);
    CHECK_EQ_U64(stat(&r, "reads"), 1);
    check_no_errors(&r);
    TxnPool *pool = sim_txn_pool(r.sim);
    size_t live = txn_pool_live(pool);
    platform_reset(r.p);
    size_t back = live - txn_pool_live(pool);
    platform_free(r.p);
    sim_free(r.sim); /* the answer in flight is an event's until here */
    return back;
}

static void test_reset_lets_kept_reads_go(void)
{
    size_t piece = given_back_at_reset(NULL);
    size_t wavefront = given_back_at_reset("{\"wavefront\": true}");
    CHECK_EQ_U64(wavefront, piece + 1);
}

/* Backpressure: the memory holds one request and takes one per 5 cycles. One warp:
 * LDG R1 (4 lanes, stride 128: 4 lines); LDG R2 (one lane, line 0x1200); EXIT. The
 * first LDG issues at 10 (after the xlat); its requests are due at 10 ... 13, but
 * each waits for the slot: sent at 10, 15, 20, 25 (each on the on_free of the take
 * before), taken at 15, 20, 25, 30. The second LDG is taken by the pipe only once the
 * first's last request has left (25); its request waits for the slot until the take
 * at 30 and is taken at 35. Answers at take + 100 cycles; the last at 135000 ends the
 * CTA. */
static void test_backpressure(void)
{
    WarpB w = {0};
    memop(&w, ATS_LDG, 1, NONE, 0xf, 4, 0x1000, 128);
    memop(&w, ATS_LDG, 2, NONE, 0x1, 4, 0x1200, 4);
    alu(&w, ATS_EXIT, NONE, NONE);
    AtsWarp aw = warp_of(&w);
    AtsCta cta = {.nwarps = 1, .warps = &aw};
    Script sc = {.launch = launch_small(), .ctas = &cta, .nctas = 1, .take_every = 5};
    Run r = run_sm(&sc, NULL);
    CHECK_EQ_U64(sc.nrecs, 1 + 5 + 2);
    /* kernel_begin (sent at 0) is taken at 5 */
    CHECK_EQ_U64(sc.recs[0].at, 5000);
    static const SimTime at[5] = {15000, 20000, 25000, 30000, 35000};
    static const uint64_t addr[5] = {0x1000, 0x1080, 0x1100, 0x1180, 0x1200};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_U64(sc.recs[1 + i].at, at[i]);
        CHECK_EQ_U64(sc.recs[1 + i].addr, GLOBAL_OFF + addr[i]);
    }
    CHECK_EQ_U64(sc.cta_at[0], 135000);
    CHECK(sc.finished);
    CHECK_EQ_U64(sc.insts, 3);
    run_free(&r);
}

/* A finish before any launch is a malformed control sequence: answered with an error
 * and counted; the kernel that follows runs as usual. */
static void test_ctl_error(void)
{
    Script sc = {.launch = launch_small(), .finish_first = true};
    Run r = run_sm(&sc, NULL);
    CHECK_EQ_U64(sc.refused, 1);
    CHECK(sc.finished);
    CHECK_EQ_U64(stat(&r, "ctl_errors"), 1);
    CHECK_EQ_U64(stat(&r, "kernels"), 1);
    platform_free(r.p);
    sim_free(r.sim);
}

/* Parameters are checked: a line that is not a power of two, a page that is not. */
static void test_bad_params(void)
{
    Script sc = {.launch = launch_small()};
    Run r = run_sm(&sc, "{\"line\": 96}");
    CHECK(r.p == NULL);
    CHECK_STR(r.err.msg, "test: sm: line 96 is not 32, 64 or 128");
    sim_free(r.sim);
    r = run_sm(&sc, "{\"page\": 6000}");
    CHECK(r.p == NULL);
    CHECK_STR(r.err.msg, "test: sm: page 6000 is not a power of two");
    sim_free(r.sim);
    r = run_sm(&sc, "{\"schedulers\": 8, \"max_warps\": 4}");
    CHECK(r.p == NULL);
    CHECK_STR(r.err.msg, "test: sm: schedulers 8 is out of range 1..max_warps (4)");
    sim_free(r.sim);
}

int main(void)
{
    RUN(test_w1_load_store_and_finish);
    RUN(test_second_kernel_keeps_translations);
    RUN(test_w2_w3_on_the_ports);
    RUN(test_posted_write_not_waited_for);
    RUN(test_gto_and_lrr_request_order);
    RUN(test_barrier_slow_warp);
    RUN(test_occupancy_limits);
    RUN(test_second_cta_when_slot_frees);
    RUN(test_coalescing_line_128);
    RUN(test_coalescing_line_64);
    RUN(test_atomics_local_wavefront_fence);
    RUN(test_reset_lets_kept_reads_go);
    RUN(test_backpressure);
    RUN(test_ctl_error);
    RUN(test_bad_params);
    return harness_report();
}
