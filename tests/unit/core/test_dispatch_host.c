/* Runs of the host and dispatch blocks (hw/core/host.c, hw/core/dispatch.c) with a
 * stand-in SM defined here, over the hand-written traces of
 * tests/unit/core/data/dispatch (working directory: the source root; README there).
 *
 * The stand-in SM ("standin_sm", port ctl) answers a launch at once with ctas =
 * its parameter `ctas`, a CTA `cta_time` after it arrives, and a finish at once with
 * insts = the warp instructions of the CTAs it got in the kernel; for every LDG or
 * LDL of a CTA it sends an xlat for the page of the first lane's address when the
 * CTA arrives. It logs what it saw in this file's globals.
 *
 * Every rig: platform clock 1 ns (1000 ps), `dispatch.interval` 1 cycle unless set,
 * host wires 100 ns, SM wires 0 ns, 1 MiB of memory per GPU. Times below in ns. */
#include <stdlib.h>

#include "hw/blocks.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/core_msg.h"
#include "kernel/egress.h"
#include "kernel/platform/platform.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"

#define NS 1000ull
#define MIB 0x100000ull
#define DATA "tests/unit/core/data/dispatch/"

/* What the stand-ins saw. */
typedef struct Seen {
    int gpu, sm;
    uint64_t cta; /* the message's index */
    uint32_t x;   /* the CTA's x */
    SimTime t;
} Seen;

typedef struct Xlat {
    int gpu, sm;
    uint64_t paddr;
    TxnStatus status;
} Xlat;

static Seen seen[64];
static size_t nseen;
static Xlat xl[16];
static size_t nxl;
static uint64_t launches, finishes, bad_msgs;
static uint32_t last_hint;

typedef struct Standin {
    Block base;
    uint64_t ctas;
    SimTime cta_time;
    bool mute;      /* never answers a finish */
    uint64_t fault; /* 1: xlat of len 100; 2: answers every finish twice */
    Port *ctl;
    Egress out;
    uint64_t insts;
} Standin;

static void standin_xlat(Standin *s, const CoreCta *c)
{
    for (size_t w = 0; w < c->nwarps; w++) {
        for (size_t i = 0; i < c->warps[w].ninst; i++) {
            const AtsInst *in = core_warp_inst(&c->warps[w], i);
            if (in->cls != ATS_LDG && in->cls != ATS_LDL) {
                continue;
            }
            uint64_t a = c->warps[w].addrs[in->addr_off] & ~0xfffull;
            Txn *t = txn_new_declared(s->base.sim, &core_cmd_xlat, a,
                                      s->fault == 1 ? 100 : 4096);
            t->space = in->cls == ATS_LDL ? CORE_SPACE_LOCAL : CORE_SPACE_GLOBAL;
            t->src = (int16_t)s->base.gpu;
            t->unit = (int16_t)s->base.index;
            (void)egress_push(&s->out, t, 0);
        }
    }
}

static void standin_take(Standin *s, Txn *t)
{
    SimError err;
    Txn *r = NULL;
    SimTime delay = 0;
    if (txn_is(t, &core_cmd_launch)) {
        CoreLaunch l;
        bad_msgs += !core_launch_decode(t->data, t->len, &l, &err) || l.kernel != t->addr;
        last_hint = l.hint;
        launches++;
        s->insts = 0;
        r = txn_new_response(s->base.sim, t);
        r->ctas = (uint32_t)s->ctas;
    } else if (txn_is(t, &core_cmd_cta)) {
        CoreCta c;
        if (core_cta_decode(t->data, t->len, &c, &err)) {
            if (nseen < sizeof seen / sizeof seen[0]) {
                seen[nseen++] = (Seen){s->base.gpu, s->base.index, t->addr, c.x,
                                       sim_now(s->base.sim)};
            }
            for (size_t w = 0; w < c.nwarps; w++) {
                s->insts += c.warps[w].ninst;
            }
            standin_xlat(s, &c);
            core_cta_free(&c);
        } else {
            bad_msgs++;
        }
        r = txn_new_response(s->base.sim, t);
        delay = s->cta_time;
    } else if (txn_is(t, &core_cmd_finish)) {
        finishes++;
        if (!s->mute) {
            r = txn_new_response(s->base.sim, t);
            r->insts = s->insts;
        }
        if (s->fault == 2) {
            (void)egress_push(&s->out, txn_new_response(s->base.sim, t), 0);
        }
    } else if (t->cmd == TXN_RESP && t->declared == &core_cmd_xlat) {
        if (nxl < sizeof xl / sizeof xl[0]) {
            xl[nxl++] = (Xlat){s->base.gpu, s->base.index, t->paddr, t->status};
        }
    } else {
        bad_msgs++;
    }
    if (r) {
        (void)egress_push(&s->out, r, delay);
    }
    txn_unref(t);
}

static void standin_recv(Block *b, Port *p)
{
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        standin_take((Standin *)b, t);
    }
}

static void standin_free_slot(Block *b, Port *p)
{
    (void)p;
    egress_pump(&((Standin *)b)->out);
}

static bool standin_realize(Block *b, SimError *err)
{
    (void)err;
    Standin *s = (Standin *)b;
    s->ctl = block_port(b, "ctl", -1);
    egress_init(&s->out, b, s->ctl, NULL);
    return true;
}

static void standin_finalize(Block *b)
{
    egress_destroy(&((Standin *)b)->out);
}

static const ParamDef standin_params[] = {
    {.key = "ctas", .offset = offsetof(Standin, ctas), .type = PT_U64, .def = "1"},
    {.key = "cta_time",
     .offset = offsetof(Standin, cta_time),
     .type = PT_TIME,
     .def = "100ns"},
    {.key = "mute", .offset = offsetof(Standin, mute), .type = PT_BOOL, .def = "false"},
    {.key = "fault", .offset = offsetof(Standin, fault), .type = PT_U64, .def = "0"},
};
static const PortDef standin_ports[] = {{.name = "ctl", .required = true}};

static const BlockType standin_type = {
    .name = "standin_sm",
    .size = sizeof(Standin),
    .params = standin_params,
    .nparams = 4,
    .ports = standin_ports,
    .nports = 1,
    .realize = standin_realize,
    .on_recv = standin_recv,
    .on_free = standin_free_slot,
    .finalize = standin_finalize,
};

static Registry *registry(void)
{
    static Registry *r;
    if (!r) {
        SimError err;
        r = registry_new();
        if (!r || !hw_register(r, &err) || !registry_add(r, &standin_type, &err)) {
            abort();
        }
    }
    return r;
}

typedef struct Rig {
    Sim *sim;
    Platform *p;
} Rig;

/* Builds host + gpus x (dispatch + sms stand-ins) over trace dir; host_params and
 * disp_params are JSON objects (NULL = none), and so is sm0, parameters of every
 * GPU's sm[0] that override ctas. */
static bool rig_build(Rig *r, const char *dir, uint32_t gpus, uint32_t sms, uint64_t ctas,
                      const char *sm0, uint64_t mem, const char *host_params,
                      const char *disp_params)
{
    SimError err;
    PlatformDesc d = {.registry = registry()};
    d.info = (PlatformInfo){
        .gpus = gpus, .mem_bytes = mem, .clock = NS, .seed = 1, .trace = dir};
    json_t *hp = json_loads(host_params ? host_params : "{}", 0, NULL);
    json_object_set_new(hp, "gpus", json_integer(gpus));
    bool ok = platform_desc_add_instance(&d, "host", "host", -1, hp, "test", &err);
    json_decref(hp);
    for (uint32_t g = 0; ok && g < gpus; g++) {
        char n[64], a[64], b[64];
        json_t *dp = json_loads(disp_params ? disp_params : "{}", 0, NULL);
        json_object_set_new(dp, "sms", json_integer(sms));
        snprintf(n, sizeof n, "gpu%u.disp", g);
        ok = platform_desc_add_instance(&d, n, "dispatch", (int)g, dp, "test", &err);
        json_decref(dp);
        snprintf(a, sizeof a, "host.gpu[%u]", g);
        snprintf(b, sizeof b, "gpu%u.disp.host", g);
        ok = ok && platform_desc_add_wire(&d, a, b, 100 * NS, "test", &err);
        for (uint32_t k = 0; ok && k < sms; k++) {
            json_t *sp = json_loads(k == 0 && sm0 ? sm0 : "{}", 0, NULL);
            if (!json_object_get(sp, "ctas")) {
                json_object_set_new(sp, "ctas", json_integer((json_int_t)ctas));
            }
            snprintf(n, sizeof n, "gpu%u.sm[%u]", g, k);
            ok =
                platform_desc_add_instance(&d, n, "standin_sm", (int)g, sp, "test", &err);
            json_decref(sp);
            snprintf(a, sizeof a, "gpu%u.sm[%u].ctl", g, k);
            snprintf(b, sizeof b, "gpu%u.disp.sm[%u]", g, k);
            ok = ok && platform_desc_add_wire(&d, a, b, 0, "test", &err);
        }
    }
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
        platform_desc_free(&d);
        return false;
    }
    r->sim = sim_new();
    r->p = platform_build(&d, r->sim, &err);
    if (!r->p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(r->sim);
        return false;
    }
    nseen = nxl = 0;
    launches = finishes = bad_msgs = 0;
    platform_reset(r->p);
    sim_run(r->sim, SIM_TIME_MAX);
    platform_finish_stats(r->p);
    return true;
}

static void rig_free(Rig *r)
{
    platform_free(r->p);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(r->sim)), 0);
    sim_free(r->sim);
}

static uint64_t stat(const Rig *r, const char *name)
{
    const uint64_t *v = stats_find_counter(r->p->stats, name);
    if (!v) {
        fprintf(stderr, "no stat %s\n", name);
        return UINT64_MAX;
    }
    return *v;
}

static double real_stat(const Rig *r, const char *name)
{
    for (size_t i = 0; i < stats_count(r->p->stats); i++) {
        StatView v = stats_at(r->p->stats, i);
        if (strcmp(v.name, name) == 0) {
            return v.real;
        }
    }
    fprintf(stderr, "no stat %s\n", name);
    return -1.0;
}

/* Sum of the model errors of every block. */
static uint64_t errors(const Rig *r)
{
    uint64_t n = 0;
    for (size_t i = 0; i < stats_count(r->p->stats); i++) {
        StatView v = stats_at(r->p->stats, i);
        n += v.def->is_error ? v.counter : 0;
    }
    return n;
}

static bool saw(size_t i, int gpu, int sm, uint64_t cta, uint64_t t_ns)
{
    return i < nseen && seen[i].gpu == gpu && seen[i].sm == sm && seen[i].cta == cta &&
           seen[i].x == cta && seen[i].t == t_ns * NS;
}

/* W5: 10 CTAs on 4 GPUs, contiguous: GPUs 0,0,0,1,1,2,2,2,3,3; 2 SMs per GPU holding
 * one CTA each, CTAs of 100 ns. The launch reaches every dispatcher at 100; the SMs
 * answer at 100 and the round at 100 gives sm0 the GPU's first CTA and sm1 its second.
 * Both end at 200; the round at 200 gives GPU 0 and 2 their third CTA (to sm0), which
 * ends at 300. GPUs 1 and 3 finish at 200 and answer the host at 300; GPUs 0 and 2
 * finish at 300 and answer at 400: the kernel runs 0..400 ns = 400 cycles, 10 CTAs x
 * 2 instructions = 20 warp instructions, ipc 20 / 400 = 0.05. */
static void test_w5(void)
{
    Rig r;
    if (!rig_build(&r, DATA "w5", 4, 2, 1, NULL, MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 10);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 0, 1, 1, 100));
    CHECK(saw(2, 1, 0, 3, 100) && saw(3, 1, 1, 4, 100));
    CHECK(saw(4, 2, 0, 5, 100) && saw(5, 2, 1, 6, 100));
    CHECK(saw(6, 3, 0, 8, 100) && saw(7, 3, 1, 9, 100));
    CHECK(saw(8, 0, 0, 2, 200) && saw(9, 2, 0, 7, 200));
    CHECK_EQ_U64(stat(&r, "host.k0.start_ps"), 0);
    CHECK_EQ_U64(stat(&r, "host.k0.end_ps"), 400 * NS);
    CHECK_EQ_U64(stat(&r, "host.k0.cycles"), 400);
    CHECK_EQ_U64(stat(&r, "host.k0.warp_insts"), 20);
    CHECK(real_stat(&r, "host.k0.ipc") == 20.0 / 400.0);
    CHECK_EQ_U64(stat(&r, "host.exec_ps"), 400 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[0]_end_ps"), 400 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[1]_end_ps"), 300 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[2]_busy_ps"), 400 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[3]_busy_ps"), 300 * NS);
    CHECK_EQ_U64(stat(&r, "host.ctas"), 10);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 10);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(stat(&r, "gpu0.disp.ctas"), 3);
    CHECK_EQ_U64(stat(&r, "gpu3.disp.ctas"), 2);
    CHECK_EQ_U64(launches, 8);
    CHECK_EQ_U64(finishes, 8);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* round_robin puts CTA i on GPU i mod 4: GPU 1 gets 1, 5, 9 (sm0, sm1 at 100; sm0 at
 * 200). */
static void test_round_robin(void)
{
    Rig r;
    if (!rig_build(&r, DATA "w5", 4, 2, 1, NULL, MIB, NULL,
                   "{\"cta_policy\": \"round_robin\"}")) {
        CHECK(false);
        return;
    }
    CHECK(saw(2, 1, 0, 1, 100) && saw(3, 1, 1, 5, 100));
    CHECK(saw(8, 0, 0, 8, 200) && saw(9, 1, 0, 9, 200));
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* Rounds: 6 CTAs on 1 GPU, 2 SMs of 2 CTAs, interval 3 cycles. The launch answers
 * reach the dispatcher at 100: the round at 100 gives CTAs 0, 1 to sm0, sm1; room is
 * left, so the next round is at 103: CTAs 2, 3. CTAs 0 and 1 end at 200 (> 103 + 3):
 * the round at 200 gives 4 and 5, which end at 300; finish at 300, host at 400. */
static void test_rounds(void)
{
    Rig r;
    if (!rig_build(&r, DATA "rounds", 1, 2, 2, NULL, MIB, NULL,
                   "{\"interval\": \"3cycles\"}")) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 6);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 0, 1, 1, 100));
    CHECK(saw(2, 0, 0, 2, 103) && saw(3, 0, 1, 3, 103));
    CHECK(saw(4, 0, 0, 4, 200) && saw(5, 0, 1, 5, 200));
    CHECK_EQ_U64(stat(&r, "host.exec_ps"), 400 * NS);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* An interval longer than a CTA: interval 150 cycles, 1 SM of 1 CTA. Round at 100
 * (CTA 0, ends 200); the next round waits for 100 + 150 = 250 (CTA 1, ends 350); then
 * 400, 550, 700, 850; CTA 5 ends at 950, the host hears at 1050. */
static void test_interval(void)
{
    Rig r;
    if (!rig_build(&r, DATA "rounds", 1, 1, 1, NULL, MIB, NULL,
                   "{\"interval\": \"150cycles\"}")) {
        CHECK(false);
        return;
    }
    static const uint64_t at[] = {100, 250, 400, 550, 700, 850};
    for (size_t i = 0; i < 6; i++) {
        CHECK(saw(i, 0, 0, i, at[i]));
    }
    CHECK_EQ_U64(stat(&r, "host.exec_ps"), 1050 * NS);
    rig_free(&r);
}

/* Two kernels on 4 GPUs, 1 SM each, contiguous. Kernel 0 (2 CTAs): CTA 0 on GPU
 * floor(0 x 4 / 2) = 0, CTA 1 on GPU 2; GPUs 1 and 3 have none: they finish at 100
 * and answer at 200; GPUs 0 and 2 run 100..200 and answer at 300. Kernel 1 (3 CTAs:
 * GPUs 0, 1, 2) is launched at 300: CTAs at 400, answers at 600; GPU 3 answers at
 * 500. CTAs have 3 + 2 instructions: kernel 0 10, kernel 1 15 warp instructions, 300
 * cycles each. Busy: GPU 0 300 + 300, GPU 1 200 + 300, GPU 3 200 + 200. */
static void test_two_kernels(void)
{
    Rig r;
    if (!rig_build(&r, DATA "two", 4, 1, 1, NULL, MIB, "{\"hint\": 7}", NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 5);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 2, 0, 1, 100));
    CHECK(saw(2, 0, 0, 0, 400) && saw(3, 1, 0, 1, 400) && saw(4, 2, 0, 2, 400));
    CHECK_EQ_U64(stat(&r, "host.k0.end_ps"), 300 * NS);
    CHECK_EQ_U64(stat(&r, "host.k1.start_ps"), 300 * NS);
    CHECK_EQ_U64(stat(&r, "host.k1.end_ps"), 600 * NS);
    CHECK_EQ_U64(stat(&r, "host.k0.cycles"), 300);
    CHECK_EQ_U64(stat(&r, "host.k1.cycles"), 300);
    CHECK_EQ_U64(stat(&r, "host.k0.warp_insts"), 10);
    CHECK_EQ_U64(stat(&r, "host.k1.warp_insts"), 15);
    CHECK(real_stat(&r, "host.k1.ipc") == 15.0 / 300.0);
    CHECK_EQ_U64(stat(&r, "host.warp_insts"), 25);
    CHECK_EQ_U64(stat(&r, "host.exec_ps"), 600 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[0]_busy_ps"), 600 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[1]_busy_ps"), 500 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[3]_busy_ps"), 400 * NS);
    CHECK_EQ_U64(stat(&r, "host.gpu[3]_end_ps"), 500 * NS);
    CHECK_EQ_U64(stat(&r, "host.kernels"), 2);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 5);
    /* every SM of every GPU saw both launches and both finishes, with the hint */
    CHECK_EQ_U64(launches, 8);
    CHECK_EQ_U64(finishes, 8);
    CHECK_EQ_U64(last_hint, 7);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* xlat through the blocks: 4 CTAs on 4 GPUs (CTA g on GPU g), interleave, 4 KiB pages,
 * 1 MiB per GPU. CTA 0 and 1 touch page 0x7f0000003 (W7: home 3, its frame 0: 3 M),
 * CTA 2 page 0x7f0000004 (home 0, frame 0: 0), CTA 3 a local page (GPU 3's frame
 * F - 1 = 255: 3 M + 0xff000). 4 translations, 3 pages. */
static void test_xlat(void)
{
    Rig r;
    if (!rig_build(&r, DATA "xlat", 4, 1, 1, NULL, MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nxl, 4);
    uint64_t want[4] = {3 * MIB, 3 * MIB, 0, 3 * MIB + 0xff000};
    for (size_t i = 0; i < nxl; i++) {
        CHECK(xl[i].gpu >= 0 && xl[i].gpu < 4 && xl[i].sm == 0);
        CHECK_EQ_U64(xl[i].paddr, want[xl[i].gpu]);
        CHECK(xl[i].status == TXN_STATUS_OK);
    }
    CHECK_EQ_U64(stat(&r, "host.xlats"), 4);
    CHECK_EQ_U64(stat(&r, "host.pages"), 3);
    CHECK_EQ_U64(stat(&r, "gpu3.disp.xlats"), 1);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* first_touch puts page 0x7f0000003 on the
 * GPU asking first: GPUs 0 and 1 ask at the same time, GPU 0's request is taken first
 * (the host takes its ports' arrivals in the order they were sent: GPU 0's CTA went
 * out first), so both get GPU 0's frame 0; CTA 2's page is GPU 2's frame 0. */
static void test_xlat_first_touch(void)
{
    Rig r;
    if (!rig_build(&r, DATA "xlat", 4, 1, 1, NULL, MIB,
                   "{\"placement\": \"first_touch\"}", NULL)) {
        CHECK(false);
        return;
    }
    uint64_t want[4] = {0, 0, 2 * MIB, 3 * MIB + 0xff000};
    CHECK_EQ_U64(nxl, 4);
    for (size_t i = 0; i < nxl; i++) {
        CHECK_EQ_U64(xl[i].paddr, want[xl[i].gpu]);
    }
    rig_free(&r);
}

/* split: the allocation [0x7f0000000000, +0x8000) is cut in 4 parts of 0x2000 bytes:
 * page 0x7f0000003 (offset 0x3000) is in part 1, GPU 1's frame 0 (M); page
 * 0x7f0000004 (offset 0x4000) in part 2 (2 M); the local page as before. */
static void test_xlat_split(void)
{
    Rig r;
    if (!rig_build(&r, DATA "split", 4, 1, 1, NULL, MIB, "{\"placement\": \"split\"}",
                   NULL)) {
        CHECK(false);
        return;
    }
    uint64_t want[4] = {MIB, MIB, 2 * MIB, 3 * MIB + 0xff000};
    CHECK_EQ_U64(nxl, 4);
    for (size_t i = 0; i < nxl; i++) {
        CHECK_EQ_U64(xl[i].paddr, want[xl[i].gpu]);
    }
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* Malformed xlats (len 100, not the 4 KiB page) of every GPU's sm[0] are answered
 * address_error and counted; the run still ends. */
static void test_xlat_errors(void)
{
    Rig r;
    if (!rig_build(&r, DATA "xlat", 4, 1, 1, "{\"fault\": 1}", MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nxl, 4);
    for (size_t i = 0; i < nxl; i++) {
        CHECK(xl[i].status == TXN_STATUS_ADDRESS_ERROR);
    }
    CHECK_EQ_U64(stat(&r, "host.xlat_errors"), 4);
    CHECK_EQ_U64(stat(&r, "host.xlats"), 0);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    rig_free(&r);
}

/* sm[0] of each GPU answers every finish twice: the second answer is unexpected, one
 * ctl_error per GPU; the kernel still ends when the first answers are in. */
static void test_ctl_errors(void)
{
    Rig r;
    if (!rig_build(&r, DATA "w5", 4, 2, 1, "{\"fault\": 2}", MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(stat(&r, "gpu0.disp.ctl_errors"), 1);
    CHECK_EQ_U64(stat(&r, "gpu3.disp.ctl_errors"), 1);
    CHECK_EQ_U64(stat(&r, "host.ctl_errors"), 0);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(errors(&r), 4);
    rig_free(&r);
}

/* Memory of one 4 KiB page per GPU: home 3 gets the global page 0x7f0000003 and
 * GPU 3's local page: 2 frames > 1, one oom_error; the run still ends. */
static void test_oom(void)
{
    Rig r;
    if (!rig_build(&r, DATA "xlat", 4, 1, 1, NULL, 4096, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(stat(&r, "host.oom_errors"), 1);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(nxl, 4);
    rig_free(&r);
}

/* sm0 answers the launch with ctas 0: one fit_error per GPU; sm1 runs all the CTAs
 * (W5 GPU 0: CTAs 0, 1, 2 at 100, 200, 300). With every SM at 0, the GPU runs nothing
 * and the kernel still ends. */
static void test_fit(void)
{
    Rig r;
    if (!rig_build(&r, DATA "w5", 4, 2, 1, "{\"ctas\": 0}", MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(stat(&r, "gpu0.disp.fit_errors"), 1);
    CHECK(saw(0, 0, 1, 0, 100));
    CHECK_EQ_U64(nseen, 10);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 10);
    rig_free(&r);
    if (!rig_build(&r, DATA "w5", 4, 1, 1, "{\"ctas\": 0}", MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 0);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 0);
    CHECK_EQ_U64(errors(&r), 4);
    rig_free(&r);
}

/* sm[0] of every GPU never answers a finish: no GPU answers the launch, the run ends
 * idle with kernel 0 not ended: one unfinished_error. */
static void test_unfinished(void)
{
    Rig r;
    if (!rig_build(&r, DATA "w5", 4, 2, 1, "{\"mute\": true}", MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(stat(&r, "host.unfinished_errors"), 1);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 0);
    CHECK_EQ_U64(nseen, 10);
    rig_free(&r);
}

/* CTAs listed 1, 0, 2 on one GPU: CTA 1 runs at 100 (index 0, not listed before it,
 * is absent); CTA 0 comes after index 1: a trace error, not run; CTA 2 runs at 200
 * and is the GPU's last: the kernel ends. */
static void test_order(void)
{
    Rig r;
    if (!rig_build(&r, DATA "order", 1, 1, 1, NULL, MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 2);
    CHECK(saw(0, 0, 0, 1, 100) && saw(1, 0, 0, 2, 200));
    CHECK_EQ_U64(stat(&r, "gpu0.disp.trace_errors"), 1);
    CHECK_EQ_U64(stat(&r, "gpu0.disp.ctas_absent"), 1);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 2);
    rig_free(&r);
}

/* Grid 6 on 2 GPUs (contiguous: 0-2 on GPU 0, 3-5 on GPU 1), the file lists 0, 1, 3,
 * 5. GPU 0 runs 0 (100) and 1 (200); 2 is absent at the end of the file. GPU 1 skips
 * 0 and 1, runs 3 (100); 5 (rank 2) shows 4 absent and runs at 200. No error. */
static void test_gap(void)
{
    Rig r;
    if (!rig_build(&r, DATA "gap", 2, 1, 1, NULL, MIB, NULL, NULL)) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 4);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 1, 0, 3, 100));
    CHECK(saw(2, 0, 0, 1, 200) && saw(3, 1, 0, 5, 200));
    CHECK_EQ_U64(stat(&r, "gpu0.disp.ctas_absent"), 1);
    CHECK_EQ_U64(stat(&r, "gpu1.disp.ctas_absent"), 1);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 4);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* LADM (docs/cores.md "LADM's policies") on trace `ladm`: 10 CTAs, CTA x reads 32
 * lanes x 4 B at 0x7f0000000000 + x 2 KiB, one allocation of 32 KiB. The analysis
 * sees one NL structure whose starts differ by 2 KiB: datablock 2 KiB, batch =
 * floor(4 KiB / 2 KiB) = 2 (at most floor(10 / 4) = 2), so the align-aware scheduler
 * runs unit u (CTAs 2u, 2u + 1) of 5 on GPU floor(4u / 5) = 0, 0, 1, 2, 3: GPU 0 runs
 * 0-3, GPU 1 4-5, GPU 2 6-7, GPU 3 8-9 (contiguous would give 0-2, 3-4, 5-7, 8-9).
 * One SM per GPU holding one CTA of 100 ns: first CTAs at 100, second at 200, GPU 0's
 * third and fourth at 300 and 400. Page p holds the data of CTAs 2p and 2p + 1, so
 * every lane access to it comes from the GPU of unit p: homes 0, 0, 1, 2, 3 (split
 * would give 0, 0, 1, 1, 2, interleave 0, 1, 2, 3, 0). Every CTA's xlat is of its own
 * page: GPU 0 gets its pages 0 and 1 as frames 0 and 1 (paddr 0 twice, then 0x1000
 * twice), GPUs 1 to 3 their home's frame 0 (g M). Not ITL: the launch carries `hint`
 * (3). */
static void test_ladm(void)
{
    Rig r;
    if (!rig_build(&r, DATA "ladm", 4, 1, 1, NULL, MIB,
                   "{\"placement\": \"ladm\", \"hint\": 3}",
                   "{\"cta_policy\": \"ladm\"}")) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 10);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 1, 0, 4, 100));
    CHECK(saw(2, 2, 0, 6, 100) && saw(3, 3, 0, 8, 100));
    CHECK(saw(4, 0, 0, 1, 200) && saw(5, 1, 0, 5, 200));
    CHECK(saw(6, 2, 0, 7, 200) && saw(7, 3, 0, 9, 200));
    CHECK(saw(8, 0, 0, 2, 300) && saw(9, 0, 0, 3, 400));
    CHECK_EQ_U64(nxl, 10);
    uint64_t n0 = 0;
    for (size_t i = 0; i < nxl; i++) {
        if (xl[i].gpu == 0) {
            CHECK_EQ_U64(xl[i].paddr, n0++ < 2 ? 0 : 0x1000);
        } else {
            CHECK_EQ_U64(xl[i].paddr, (uint64_t)xl[i].gpu * MIB);
        }
    }
    CHECK_EQ_U64(n0, 4);
    CHECK_EQ_U64(stat(&r, "host.pages"), 5);
    CHECK_EQ_U64(last_hint, 3);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* The dispatcher's `page` is the analysis's: with 2 KiB pages the batch is
 * floor(2 KiB / 2 KiB) = 1, the kernel-wide scheduler, as contiguous: GPU 0 runs 0-2,
 * GPU 1 3-4, GPU 2 5-7, GPU 3 8-9 (first CTAs at 100). The blocks alone: a platform
 * file's loader requires the host's page (kernel/platform/platform_cores_agree.c). */
static void test_ladm_page(void)
{
    Rig r;
    if (!rig_build(&r, DATA "ladm", 4, 1, 1, NULL, MIB, NULL,
                   "{\"cta_policy\": \"ladm\", \"page\": \"2KiB\"}")) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 10);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 1, 0, 3, 100));
    CHECK(saw(2, 2, 0, 5, 100) && saw(3, 3, 0, 8, 100));
    CHECK_EQ_U64(stat(&r, "gpu0.disp.ctas"), 3);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* Trace `ladm_itl`: each lane of CTA x reads 4 B at 0x7f0000000000 + x 2 KiB + 64
 * lane, then 4 and 8 bytes further at the same PC: every move of a lane is one access
 * width (a step), so the structure is ITL and the kernel's locality intra-thread: the
 * host launches it with `once_hint` (7) instead of `hint` (3). */
static void test_ladm_itl(void)
{
    Rig r;
    if (!rig_build(&r, DATA "ladm_itl", 2, 1, 1, NULL, MIB,
                   "{\"placement\": \"ladm\", \"hint\": 3, \"once_hint\": 7}",
                   "{\"cta_policy\": \"ladm\"}")) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(launches, 2);
    CHECK_EQ_U64(last_hint, 7);
    CHECK_EQ_U64(stat(&r, "host.ctas_done"), 2);
    CHECK_EQ_U64(bad_msgs + errors(&r), 0);
    rig_free(&r);
}

/* Trace `ladm_bad`: grid 2, the file lists CTAs 0, 1 and then 5 (outside the grid):
 * both analyses fail at CTA 5, one trace error each in the host and the dispatcher;
 * the launch carries `hint` (3), the CTAs go contiguous (0 at 100, 1 at 200) and the
 * dispatcher stops reading after CTA 1, its last; the kernel ends. */
static void test_ladm_bad(void)
{
    Rig r;
    if (!rig_build(&r, DATA "ladm_bad", 1, 1, 1, NULL, MIB,
                   "{\"placement\": \"ladm\", \"hint\": 3}",
                   "{\"cta_policy\": \"ladm\"}")) {
        CHECK(false);
        return;
    }
    CHECK_EQ_U64(nseen, 2);
    CHECK(saw(0, 0, 0, 0, 100) && saw(1, 0, 0, 1, 200));
    CHECK_EQ_U64(stat(&r, "host.trace_errors"), 1);
    CHECK_EQ_U64(stat(&r, "gpu0.disp.trace_errors"), 1);
    CHECK_EQ_U64(last_hint, 3);
    CHECK_EQ_U64(stat(&r, "host.kernels_done"), 1);
    CHECK_EQ_U64(bad_msgs + errors(&r), 2);
    rig_free(&r);
}

/* The stats of a run, as JSON text (new string), NULL if the rig failed. */
static char *stats_text(const char *dir, uint64_t mem, const char *host_params)
{
    Rig r;
    if (!rig_build(&r, dir, 4, 2, 1, NULL, mem, host_params, NULL)) {
        return NULL;
    }
    json_t *j = stats_json(r.p->stats);
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    rig_free(&r);
    return text;
}

/* Same input, same stats, byte for byte. With one page per GPU, interleave fills
 * GPU 3 (one oom_error, as test_oom) and first_touch does not (pages on GPUs 0, 2 and
 * GPU 3's local page): the stats differ. */
static void test_deterministic(void)
{
    char *a = stats_text(DATA "two", MIB, NULL), *b = stats_text(DATA "two", MIB, NULL);
    CHECK(a && b && strcmp(a, b) == 0);
    char *c = stats_text(DATA "xlat", 4096, NULL),
         *d = stats_text(DATA "xlat", 4096, NULL);
    char *e = stats_text(DATA "xlat", 4096, "{\"placement\": \"first_touch\"}");
    CHECK(c && d && strcmp(c, d) == 0);
    CHECK(c && e && strcmp(c, e) != 0);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
}

/* Builds the one-GPU rig by hand with trace dir (NULL: none) and host gpus; returns
 * the platform or NULL with err set. */
static Platform *rig_plain(Sim *sim, const char *dir, int host_gpus, SimError *err)
{
    PlatformDesc d = {.registry = registry()};
    d.info = (PlatformInfo){.gpus = 1, .mem_bytes = MIB, .clock = NS, .trace = dir};
    json_t *hp = json_pack("{si}", "gpus", host_gpus);
    bool ok =
        platform_desc_add_instance(&d, "host", "host", -1, hp, "t", err) &&
        platform_desc_add_instance(&d, "gpu0.disp", "dispatch", 0, NULL, "t", err) &&
        platform_desc_add_instance(&d, "gpu0.sm[0]", "standin_sm", 0, NULL, "t", err);
    json_decref(hp);
    for (int g = 0; ok && g < host_gpus; g++) {
        char a[32];
        snprintf(a, sizeof a, "host.gpu[%d]", g);
        ok = platform_desc_add_wire(&d, a, g ? "gpu0.sm[0].ctl" : "gpu0.disp.host", 0,
                                    "t", err);
    }
    if (!ok ||
        (host_gpus == 1 &&
         !platform_desc_add_wire(&d, "gpu0.sm[0].ctl", "gpu0.disp.sm[0]", 0, "t", err))) {
        platform_desc_free(&d);
        return NULL;
    }
    return platform_build(&d, sim, err);
}

/* Without a trace the blocks are inert: no launch, execution time 0. A trace folder
 * without kernelslist.g, and a host whose gpus is not the platform's, fail realize. */
static void test_realize(void)
{
    SimError err;
    Sim *sim = sim_new();
    Platform *p = rig_plain(sim, NULL, 1, &err);
    CHECK(p != NULL);
    if (p) {
        launches = 0;
        platform_reset(p);
        sim_run(sim, SIM_TIME_MAX);
        CHECK_EQ_U64(launches, 0);
        CHECK_EQ_U64(*stats_find_counter(p->stats, "host.kernels"), 0);
        CHECK_EQ_U64(*stats_find_counter(p->stats, "host.exec_ps"), 0);
        platform_free(p);
    }
    CHECK(rig_plain(sim, "/nonexistent", 1, &err) == NULL);
    CHECK(strstr(err.msg, "/nonexistent/kernelslist.g") != NULL);
    CHECK(rig_plain(sim, DATA "w5", 2, &err) == NULL);
    CHECK(strstr(err.msg, "host: gpus 2 differs from the platform's 1 GPUs") != NULL);
    sim_free(sim);
}

int main(void)
{
    RUN(test_w5);
    RUN(test_round_robin);
    RUN(test_rounds);
    RUN(test_interval);
    RUN(test_two_kernels);
    RUN(test_xlat);
    RUN(test_xlat_first_touch);
    RUN(test_xlat_split);
    RUN(test_xlat_errors);
    RUN(test_ctl_errors);
    RUN(test_oom);
    RUN(test_fit);
    RUN(test_unfinished);
    RUN(test_order);
    RUN(test_gap);
    RUN(test_ladm);
    RUN(test_ladm_page);
    RUN(test_ladm_itl);
    RUN(test_ladm_bad);
    RUN(test_deterministic);
    RUN(test_realize);
    registry_free(registry());
    return harness_report();
}
