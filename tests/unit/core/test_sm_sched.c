/* Unit tests of the warp scheduler (hw/core/sm_sched.c). Every expected issue cycle is
 * worked by hand from the rules of SPEC.md 6.2 (the comment of each test shows the
 * derivation); W1, W2 and W3 are SPEC's worked examples. */
#include <stdlib.h>

#include "hw/core/sm_sched.h"
#include "tests/unit/harness.h"

#define NONE (-1)
#define MAX_LOG 64
#define MAX_HELD 64

/* The CTAs given to schedulers, as an SM holds them (core_cta_from), freed at the end. */
static CoreCta held[MAX_HELD];
static size_t nheld;

static const CoreCta *intern(const AtsCta *c)
{
    if (nheld == MAX_HELD) {
        abort(); /* raise MAX_HELD */
    }
    core_cta_from(c, &held[nheld]);
    return &held[nheld++];
}

typedef struct Log {
    size_t n;
    uint64_t cycle[MAX_LOG];
    SmIssue is[MAX_LOG];
} Log;

static AtsInst inst(AtsClass cls, int dst, int src1, int src2)
{
    AtsInst in = {.cls = cls, .mask = 0xffffffffu};
    if (dst != NONE) {
        in.dst[in.ndst++] = (uint8_t)dst;
    }
    if (src1 != NONE) {
        in.src[in.nsrc++] = (uint8_t)src1;
    }
    if (src2 != NONE) {
        in.src[in.nsrc++] = (uint8_t)src2;
    }
    return in;
}

static SmSched *make(uint32_t schedulers, uint32_t max_warps, SmPolicy policy)
{
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    cfg.schedulers = schedulers;
    cfg.max_warps = max_warps;
    cfg.policy = policy;
    SmSched *s = sm_sched_new(&cfg, &err);
    CHECK(s != NULL);
    return s;
}

/* Runs cycles [from, to) and appends what issues to the log. */
static void run(SmSched *s, uint64_t from, uint64_t to, Log *log)
{
    SmIssue out[8];
    for (uint64_t c = from; c < to; c++) {
        size_t n = sm_sched_cycle(s, c, out);
        for (size_t k = 0; k < n && log->n < MAX_LOG; k++) {
            log->cycle[log->n] = c;
            log->is[log->n++] = out[k];
        }
    }
}

static void test_default_latencies(void)
{
    /* Accel-Sim SM7_QV100 (cited in sm_sched.h): ADD columns int 4, fp 4, dp 8; sfu
     * 100; tensor 64; shared memory 20; 4 gto schedulers over 64 warps. */
    SmSchedConfig cfg;
    sm_sched_config_default(&cfg);
    CHECK_EQ_U64(cfg.latency[ATS_INT], 4);
    CHECK_EQ_U64(cfg.latency[ATS_FP32], 4);
    CHECK_EQ_U64(cfg.latency[ATS_FP64], 8);
    CHECK_EQ_U64(cfg.latency[ATS_SFU], 100);
    CHECK_EQ_U64(cfg.latency[ATS_TENSOR], 64);
    CHECK_EQ_U64(cfg.latency[ATS_LDS], 20);
    CHECK_EQ_U64(cfg.schedulers, 4);
    CHECK_EQ_U64(cfg.max_warps, 64);
    CHECK_EQ_U64(cfg.policy, SM_POLICY_GTO);
}

static void test_w1_dependent_chain(void)
{
    /* W1: IADD R1; IADD R2 <- R1 (R1 ready at 0 + 4); FFMA R3 <- R2 (ready 4 + 4). */
    AtsInst in[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE),
                     inst(ATS_FP32, 3, 2, NONE)};
    AtsWarp w = {.ninst = 3, .inst = in};
    AtsCta cta = {.nwarps = 1, .warps = &w};
    SmSched *s = make(4, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 7, intern(&cta));
    run(s, 0, 20, &log);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(log.cycle[0], 0);
    CHECK_EQ_U64(log.cycle[1], 4);
    CHECK_EQ_U64(log.cycle[2], 8);
    CHECK_EQ_U64(log.is[2].inst, 2);
    CHECK_EQ_U64(log.is[2].kind, SM_ISSUE_FIXED);
    CHECK(log.is[2].warp_done);
    uint32_t tag = 0;
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 7);
    sm_sched_free(s);
}

static void test_w2_independent(void)
{
    /* W2: three independent IADDs: one per cycle, 0, 1, 2. */
    AtsInst in[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE),
                     inst(ATS_INT, 3, NONE, NONE)};
    AtsWarp w = {.ninst = 3, .inst = in};
    AtsCta cta = {.nwarps = 1, .warps = &w};
    SmSched *s = make(4, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 10, &log);
    CHECK_EQ_U64(log.n, 3);
    for (size_t k = 0; k < 3; k++) {
        CHECK_EQ_U64(log.cycle[k], k);
        CHECK_EQ_U64(log.is[k].inst, k);
    }
    sm_sched_free(s);
}

static void test_w3(SmPolicy policy, const uint32_t *want_warp)
{
    /* W3: two warps of three independent IADDs on one scheduler. */
    AtsInst in[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE),
                     inst(ATS_INT, 3, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 3, .inst = in}, {.ninst = 3, .inst = in}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    SmSched *s = make(1, 64, policy);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 10, &log);
    CHECK_EQ_U64(log.n, 6);
    for (size_t k = 0; k < 6; k++) {
        CHECK_EQ_U64(log.cycle[k], k);
        CHECK_EQ_U64(log.is[k].warp, want_warp[k]);
    }
    sm_sched_free(s);
}

static void test_w3_gto(void)
{
    /* gto keeps issuing w0 while it is ready: w0 at 0, 1, 2, then w1 at 3, 4, 5. */
    static const uint32_t want[6] = {0, 0, 0, 1, 1, 1};
    test_w3(SM_POLICY_GTO, want);
}

static void test_w3_lrr(void)
{
    /* lrr moves to the next slot after the one issued last: w0, w1, w0, w1, ... */
    static const uint32_t want[6] = {0, 1, 0, 1, 0, 1};
    test_w3(SM_POLICY_LRR, want);
}

static void test_lrr_skips_stalled_warp(void)
{
    /* One scheduler, lrr. w0: IADD R1; IADD R2 <- R1 (ready at 4). w1, w2: two
     * independent IADDs. 0: w0, 1: w1, 2: w2; 3: after w2 comes w0, not ready until
     * 4, so w1; 4: after w1, w2; 5: after w2, w0. */
    AtsInst a[2] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE)};
    AtsInst b[2] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE)};
    AtsWarp w[3] = {
        {.ninst = 2, .inst = a}, {.ninst = 2, .inst = b}, {.ninst = 2, .inst = b}};
    AtsCta cta = {.nwarps = 3, .warps = w};
    SmSched *s = make(1, 8, SM_POLICY_LRR);
    Log log = {0};
    CHECK(sm_sched_add_cta(s, 0, intern(&cta)));
    run(s, 0, 10, &log);
    static const uint32_t want[6] = {0, 1, 2, 1, 2, 0};
    CHECK_EQ_U64(log.n, 6);
    for (size_t k = 0; k < 6; k++) {
        CHECK_EQ_U64(log.cycle[k], k);
        CHECK_EQ_U64(log.is[k].warp, want[k]);
    }
    sm_sched_free(s);
}

static void test_chains_waw_and_zero_register(void)
{
    /* DADD R2 <- R2 three times: fp64 latency 8 -> 0, 8, 16. Then IADD R2 is a WAW on
     * the third DADD (ready 16 + 8 = 24) -> 24. MUFU R4 (sfu 100) at 25, IADD R255 at
     * 26 (not RAW on R4), IADD R5 <- R255 at 27 (R255 is never pending), IADD R6 <-
     * R4 at 25 + 100 = 125. */
    AtsInst in[8] = {inst(ATS_FP64, 2, 2, NONE),   inst(ATS_FP64, 2, 2, NONE),
                     inst(ATS_FP64, 2, 2, NONE),   inst(ATS_INT, 2, NONE, NONE),
                     inst(ATS_SFU, 4, NONE, NONE), inst(ATS_INT, 255, NONE, NONE),
                     inst(ATS_INT, 5, 255, NONE),  inst(ATS_INT, 6, 4, NONE)};
    static const uint64_t want[8] = {0, 8, 16, 24, 25, 26, 27, 125};
    AtsWarp w = {.ninst = 8, .inst = in};
    AtsCta cta = {.nwarps = 1, .warps = &w};
    SmSched *s = make(4, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 200, &log);
    CHECK_EQ_U64(log.n, 8);
    for (size_t k = 0; k < 8; k++) {
        CHECK_EQ_U64(log.cycle[k], want[k]);
    }
    sm_sched_free(s);
}

static void test_scoreboard_stall_on_load(void)
{
    /* w0: LDG R4 <- R2; IADD R5 <- R4; IADD R6. w1 (same scheduler): four IADDs.
     * gto: LDG at 0; w0 stalls on R4 (in order, so R6 waits too); w1 issues at 1..4.
     * The last response at 30 makes R4 ready at 31: IADD R5 at 31, IADD R6 at 32. */
    AtsInst a[3] = {inst(ATS_LDG, 4, 2, NONE), inst(ATS_INT, 5, 4, NONE),
                    inst(ATS_INT, 6, NONE, NONE)};
    AtsInst b[4] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE),
                    inst(ATS_INT, 3, NONE, NONE), inst(ATS_INT, 4, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 3, .inst = a}, {.ninst = 4, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    SmSched *s = make(1, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 30, &log);
    CHECK_EQ_U64(log.n, 5);
    CHECK_EQ_U64(log.is[0].kind, SM_ISSUE_LOAD);
    CHECK_EQ_U64(log.is[0].warp, 0);
    for (size_t k = 1; k < 5; k++) {
        CHECK_EQ_U64(log.cycle[k], k);
        CHECK_EQ_U64(log.is[k].warp, 1);
    }
    /* Nothing can issue until the response. */
    CHECK_EQ_U64(sm_sched_next_cycle(s, 30), UINT64_MAX);
    sm_sched_load_done(s, log.is[0].slot, log.is[0].inst, 30);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 30), 31);
    run(s, 30, 40, &log);
    CHECK_EQ_U64(log.n, 7);
    CHECK_EQ_U64(log.cycle[5], 31);
    CHECK_EQ_U64(log.cycle[6], 32);
    uint32_t tag;
    CHECK(sm_sched_take_done(s, &tag));
    sm_sched_free(s);
}

static void test_barrier_slow_warp(void)
{
    /* Two schedulers, w0 on slot 0 (scheduler 0), w1 on slot 1 (scheduler 1).
     * w0: IADD R1; BAR; IADD R2. w1: MUFU R1; IADD R3 <- R1; BAR; IADD R4.
     * 0: w0 IADD, w1 MUFU. 1: w0 BAR (waits). 100: w1 IADD (R1 at 0 + 100). 101: w1
     * BAR, the last unfinished warp: both leave, 102: w0 IADD R2 and w1 IADD R4. */
    AtsInst a[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_BAR, NONE, NONE, NONE),
                    inst(ATS_INT, 2, NONE, NONE)};
    AtsInst b[4] = {inst(ATS_SFU, 1, NONE, NONE), inst(ATS_INT, 3, 1, NONE),
                    inst(ATS_BAR, NONE, NONE, NONE), inst(ATS_INT, 4, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 3, .inst = a}, {.ninst = 4, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    SmSched *s = make(2, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 200, &log);
    static const uint64_t want_cycle[7] = {0, 0, 1, 100, 101, 102, 102};
    static const uint32_t want_warp[7] = {0, 1, 0, 1, 1, 0, 1};
    CHECK_EQ_U64(log.n, 7);
    for (size_t k = 0; k < 7; k++) {
        CHECK_EQ_U64(log.cycle[k], want_cycle[k]);
        CHECK_EQ_U64(log.is[k].warp, want_warp[k]);
    }
    CHECK_EQ_U64(log.is[2].kind, SM_ISSUE_BAR);
    sm_sched_free(s);
}

static void test_barrier_ignores_ended_warps(void)
{
    /* w0 (scheduler 0): BAR; IADD. w1 (scheduler 1): EXIT. At 0 scheduler 0 issues
     * the BAR (w1 still unfinished: wait), then scheduler 1 the EXIT: w1 ends, every
     * unfinished warp is at the barrier, w0 leaves at 1. */
    AtsInst a[2] = {inst(ATS_BAR, NONE, NONE, NONE), inst(ATS_INT, 2, NONE, NONE)};
    AtsInst b[1] = {inst(ATS_EXIT, NONE, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 2, .inst = a}, {.ninst = 1, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    SmSched *s = make(2, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 10, &log);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(log.is[1].kind, SM_ISSUE_EXIT);
    CHECK(log.is[1].warp_done);
    CHECK_EQ_U64(log.cycle[2], 1);
    CHECK_EQ_U64(log.is[2].warp, 0);
    sm_sched_free(s);
}

static void test_membar(void)
{
    /* LDG R4; STG; MEMBAR; IADD R5. LDG at 0, the posted STG at 1; MEMBAR waits for
     * the load only, like its destination register: response at 9 -> MEMBAR at 10,
     * IADD at 11. */
    AtsInst in[4] = {inst(ATS_LDG, 4, 2, NONE), inst(ATS_STG, NONE, 2, 3),
                     inst(ATS_MEMBAR, NONE, NONE, NONE), inst(ATS_INT, 5, NONE, NONE)};
    AtsWarp w = {.ninst = 4, .inst = in};
    AtsCta cta = {.nwarps = 1, .warps = &w};
    SmSched *s = make(4, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 9, &log);
    CHECK_EQ_U64(log.n, 2);
    CHECK_EQ_U64(log.is[1].kind, SM_ISSUE_POSTED);
    CHECK_EQ_U64(log.cycle[1], 1);
    sm_sched_load_done(s, log.is[0].slot, 0, 9);
    run(s, 9, 20, &log);
    CHECK_EQ_U64(log.n, 4);
    CHECK_EQ_U64(log.is[2].kind, SM_ISSUE_MEMBAR);
    CHECK_EQ_U64(log.cycle[2], 10);
    CHECK_EQ_U64(log.cycle[3], 11);
    sm_sched_free(s);
}

static void test_exit_and_cta_end(void)
{
    /* IADD; EXIT of lanes 0-15; IADD; EXIT: the warp ends at its last instruction
     * (3), not at the partial EXIT. LDG R1; EXIT in a second CTA: the warp ends at 1,
     * its CTA only when the load is answered. */
    AtsInst a[4] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_EXIT, NONE, NONE, NONE),
                    inst(ATS_INT, 2, NONE, NONE), inst(ATS_EXIT, NONE, NONE, NONE)};
    a[1].mask = 0xffffu;
    a[3].mask = 0xffff0000u;
    AtsInst b[2] = {inst(ATS_LDG, 1, NONE, NONE), inst(ATS_EXIT, NONE, NONE, NONE)};
    AtsWarp wa = {.ninst = 4, .inst = a}, wb = {.ninst = 2, .inst = b};
    AtsCta ca = {.nwarps = 1, .warps = &wa}, cb = {.nwarps = 1, .warps = &wb};
    SmSched *s = make(1, 2, SM_POLICY_GTO);
    Log log = {0};
    CHECK(sm_sched_add_cta(s, 10, intern(&ca)));
    CHECK(sm_sched_add_cta(s, 11, intern(&cb)));
    CHECK_EQ_U64(sm_sched_free_slots(s), 0);
    /* A third CTA has no room; one without warps is refused too. */
    AtsCta none = {.nwarps = 0, .warps = NULL};
    CHECK(!sm_sched_add_cta(s, 12, intern(&ca)));
    CHECK(!sm_sched_add_cta(s, 12, intern(&none)));
    run(s, 0, 4, &log);
    CHECK_EQ_U64(log.n, 4);
    CHECK(!log.is[1].warp_done);
    CHECK(log.is[3].warp_done);
    uint32_t tag;
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 10);
    CHECK_EQ_U64(sm_sched_free_slots(s), 1);
    /* CTA 11: LDG at 4, EXIT at 5 ends the warp, the CTA waits for the load. */
    run(s, 4, 10, &log);
    CHECK_EQ_U64(log.n, 6);
    CHECK(log.is[5].warp_done);
    CHECK(!sm_sched_take_done(s, &tag));
    sm_sched_load_done(s, log.is[4].slot, 0, 12);
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 11);
    CHECK_EQ_U64(sm_sched_free_slots(s), 2);
    sm_sched_free(s);
}

static void test_two_schedulers(void)
{
    /* Slots 0, 2 on scheduler 0 and 1, 3 on scheduler 1; each warp two independent
     * IADDs. Per cycle one issue per scheduler, gto: 0: slots 0, 1; 1: 0, 1; 2: 2, 3;
     * 3: 2, 3. */
    AtsInst in[2] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE)};
    AtsWarp w[4] = {{.ninst = 2, .inst = in},
                    {.ninst = 2, .inst = in},
                    {.ninst = 2, .inst = in},
                    {.ninst = 2, .inst = in}};
    AtsCta cta = {.nwarps = 4, .warps = w};
    SmSched *s = make(2, 8, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 10, &log);
    static const uint64_t want_cycle[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    static const uint32_t want_slot[8] = {0, 1, 0, 1, 2, 3, 2, 3};
    CHECK_EQ_U64(log.n, 8);
    for (size_t k = 0; k < 8; k++) {
        CHECK_EQ_U64(log.cycle[k], want_cycle[k]);
        CHECK_EQ_U64(log.is[k].slot, want_slot[k]);
    }
    sm_sched_free(s);
}

typedef struct Pipe {
    uint32_t refuse; /* refusals left */
    uint32_t asked;
} Pipe;

static bool pipe_accept(void *ctx, uint32_t slot, const AtsInst *in)
{
    Pipe *p = ctx;
    (void)slot;
    (void)in;
    p->asked++;
    if (p->refuse > 0) {
        p->refuse--;
        return false;
    }
    return true;
}

static void test_memory_pipe_refusal(void)
{
    /* w0: STG; w1: IADD; IADD (one scheduler, gto). The pipe refuses twice. 0: asked
     * for w0's STG, refused: w1 issues. 1: gto stays on w1 (not asked). 2: w1 has
     * ended; asked again, refused: nothing issues. 3: asked, taken: STG at 3. */
    AtsInst a[1] = {inst(ATS_STG, NONE, 1, 2)};
    AtsInst b[2] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 1, .inst = a}, {.ninst = 2, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    Pipe pipe = {.refuse = 2};
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    cfg.schedulers = 1;
    cfg.mem_accept = pipe_accept;
    cfg.mem_ctx = &pipe;
    SmSched *s = sm_sched_new(&cfg, &err);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 5, &log);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(log.is[0].warp, 1);
    CHECK_EQ_U64(log.is[1].warp, 1);
    CHECK_EQ_U64(log.is[2].warp, 0);
    CHECK_EQ_U64(log.cycle[2], 3);
    CHECK_EQ_U64(pipe.asked, 3);
    sm_sched_free(s);
}

/* A pipe that takes one instruction per cycle and says so through mem_open; its
 * mem_accept takes whatever it is asked, so an offer the scheduler should not make
 * shows as a second issue in the cycle. */
typedef struct OpenPipe {
    bool taken; /* in this cycle (the test clears it between cycles) */
    uint32_t opened, asked;
    SmSched *s;
    int32_t hold;       /* slot to hold at an offer, or -1 */
    uint32_t hold_skip; /* offers of it taken before that one */
} OpenPipe;

static bool open_pipe_open(void *ctx)
{
    OpenPipe *p = ctx;
    p->opened++;
    return !p->taken;
}

static bool open_pipe_accept(void *ctx, uint32_t slot, const AtsInst *in)
{
    OpenPipe *p = ctx;
    (void)in;
    p->asked++;
    if (p->hold == (int32_t)slot && p->hold_skip-- == 0) {
        p->hold = -1;
        sm_sched_hold(p->s, slot);
        return false;
    }
    p->taken = true;
    return true;
}

static SmSched *make_open_pipe(OpenPipe *p, uint32_t schedulers)
{
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    cfg.schedulers = schedulers;
    cfg.mem_accept = open_pipe_accept;
    cfg.mem_open = open_pipe_open;
    cfg.mem_ctx = p;
    p->s = sm_sched_new(&cfg, &err);
    CHECK(p->s != NULL);
    return p->s;
}

static void run_open_pipe(OpenPipe *p, uint64_t from, uint64_t to, Log *log)
{
    for (uint64_t c = from; c < to; c++) {
        p->taken = false;
        run(p->s, c, c + 1, log);
    }
}

static void test_memory_pipe_open(void)
{
    /* Four warps, one STG each, on four schedulers; the pipe takes one per cycle. 0:
     * scheduler 0 asks mem_open (open), w0's STG taken; scheduler 1 asks again (the
     * pipe took something): closed, so w1 is not offered, nor are w2 and w3 (no new
     * ask: nothing was taken since). 1, 2, 3: w1, w2, w3 in turn the same way.
     * mem_open: 2 + 2 + 2 + 1 asks, mem_accept: 4. */
    AtsInst a[4] = {inst(ATS_STG, NONE, 1, 2), inst(ATS_STG, NONE, 1, 2),
                    inst(ATS_STG, NONE, 1, 2), inst(ATS_STG, NONE, 1, 2)};
    AtsWarp w[4] = {{.ninst = 1, .inst = &a[0]},
                    {.ninst = 1, .inst = &a[1]},
                    {.ninst = 1, .inst = &a[2]},
                    {.ninst = 1, .inst = &a[3]}};
    AtsCta cta = {.nwarps = 4, .warps = w};
    OpenPipe pipe = {.hold = -1};
    SmSched *s = make_open_pipe(&pipe, 4);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run_open_pipe(&pipe, 0, 6, &log);
    CHECK_EQ_U64(log.n, 4);
    for (size_t k = 0; k < 4; k++) {
        CHECK_EQ_U64(log.cycle[k], k);
        CHECK_EQ_U64(log.is[k].warp, k);
    }
    CHECK_EQ_U64(pipe.asked, 4);
    CHECK_EQ_U64(pipe.opened, 7);
    sm_sched_free(s);
}

static void test_hold_and_release(void)
{
    /* One scheduler, gto. w0: LDG R1; LDG R5 (held at its offer); w1: IADD R2; IADD
     * R3. 0: w0's first LDG taken. 1: w0's second offered and held; w1's first IADD.
     * 2: w1's second (greedy). The first LDG is answered at 5: w0 stays held (its
     * registers do not end a hold), so no cycle is next and 6 to 9 issue nothing.
     * Released before 10: w0's second LDG at 10. The pipe was asked three times. */
    AtsInst a[2] = {inst(ATS_LDG, 1, NONE, NONE), inst(ATS_LDG, 5, NONE, NONE)};
    AtsInst b[2] = {inst(ATS_INT, 2, NONE, NONE), inst(ATS_INT, 3, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 2, .inst = a}, {.ninst = 2, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    OpenPipe pipe = {.hold = 0, .hold_skip = 1};
    SmSched *s = make_open_pipe(&pipe, 1);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run_open_pipe(&pipe, 0, 5, &log);
    sm_sched_load_done(s, 0, 0, 5);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 6), UINT64_MAX);
    run_open_pipe(&pipe, 6, 10, &log);
    static const uint64_t want_cycle[3] = {0, 1, 2};
    static const uint32_t want_warp[3] = {0, 1, 1};
    CHECK_EQ_U64(log.n, 3);
    for (size_t k = 0; k < 3; k++) {
        CHECK_EQ_U64(log.cycle[k], want_cycle[k]);
        CHECK_EQ_U64(log.is[k].warp, want_warp[k]);
    }
    sm_sched_release_all(s);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 10), 10);
    run_open_pipe(&pipe, 10, 12, &log);
    CHECK_EQ_U64(log.n, 4);
    CHECK_EQ_U64(log.cycle[3], 10);
    CHECK_EQ_U64(log.is[3].warp, 0);
    CHECK_EQ_U64(log.is[3].inst, 1);
    CHECK_EQ_U64(pipe.asked, 3);
    sm_sched_free(s);
}

static void test_wake_below_bound(void)
{
    /* One scheduler, gto. w0: LDG R1; IADD R2 <- R1. w1: MUFU R3; IADD R4 <- R3. 0:
     * w0's LDG. 1: w1's MUFU (w0 waits for R1). Cycles 2 to 4 find nothing ready: the
     * walk at 2 notes w1 wakes at 101 (w0 waits for an event). The load is answered
     * at 4: w0's IADD wakes at 5, below what the walk noted, and issues at 5. */
    AtsInst a[2] = {inst(ATS_LDG, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE)};
    AtsInst b[2] = {inst(ATS_SFU, 3, NONE, NONE), inst(ATS_INT, 4, 3, NONE)};
    AtsWarp w[2] = {{.ninst = 2, .inst = a}, {.ninst = 2, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    SmSched *s = make(1, 2, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    run(s, 0, 5, &log);
    CHECK_EQ_U64(log.n, 2);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 5), 101);
    sm_sched_load_done(s, 0, 0, 4);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 5), 5);
    run(s, 5, 6, &log);
    CHECK_EQ_U64(log.n, 3);
    CHECK_EQ_U64(log.cycle[2], 5);
    CHECK_EQ_U64(log.is[2].warp, 0);
    sm_sched_free(s);
}

static void test_gto_oldest_by_dispatch(void)
{
    /* One scheduler, 2 slots. CTA A (slot 0): IADD. CTA B (slot 1): IADD R1; IADD R2
     * <- R1; IADD R3. A issues at 0 and ends; C (IADD x3) is dispatched into slot 0
     * after cycle 0. At 1 the last-issued warp is gone: the oldest is B (dispatched
     * before C though in a higher slot): B at 1; B stalls on R1 until 5: C at 2, 3, 4
     * (greedy); B at 5, 6. */
    AtsInst a[1] = {inst(ATS_INT, 1, NONE, NONE)};
    AtsInst b[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE),
                    inst(ATS_INT, 3, NONE, NONE)};
    AtsInst c[3] = {inst(ATS_INT, 1, NONE, NONE), inst(ATS_INT, 2, NONE, NONE),
                    inst(ATS_INT, 3, NONE, NONE)};
    AtsWarp wa = {.ninst = 1, .inst = a}, wb = {.ninst = 3, .inst = b},
            wc = {.ninst = 3, .inst = c};
    AtsCta ca = {.nwarps = 1, .warps = &wa}, cb = {.nwarps = 1, .warps = &wb},
           cc = {.nwarps = 1, .warps = &wc};
    SmSched *s = make(1, 2, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&ca));
    sm_sched_add_cta(s, 1, intern(&cb));
    run(s, 0, 1, &log);
    uint32_t tag;
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 0);
    sm_sched_add_cta(s, 2, intern(&cc));
    run(s, 1, 10, &log);
    static const uint64_t want_cycle[7] = {0, 1, 2, 3, 4, 5, 6};
    static const uint32_t want_cta[7] = {0, 1, 2, 2, 2, 1, 1};
    CHECK_EQ_U64(log.n, 7);
    for (size_t k = 0; k < 7; k++) {
        CHECK_EQ_U64(log.cycle[k], want_cycle[k]);
        CHECK_EQ_U64(log.is[k].cta, want_cta[k]);
    }
    CHECK_EQ_U64(log.is[2].slot, 0);
    sm_sched_free(s);
}

static void test_empty_warp(void)
{
    /* A CTA of an empty warp (no instructions: it has ended at dispatch) and a warp
     * BAR; IADD: the barrier has every unfinished warp, so the BAR at 0 releases at
     * once and the IADD issues at 1. A CTA of only empty warps ends at dispatch. */
    AtsInst a[2] = {inst(ATS_BAR, NONE, NONE, NONE), inst(ATS_INT, 1, NONE, NONE)};
    AtsWarp w[2] = {{.ninst = 0, .inst = NULL}, {.ninst = 2, .inst = a}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    AtsCta empty = {.nwarps = 1, .warps = w};
    SmSched *s = make(4, 4, SM_POLICY_GTO);
    Log log = {0};
    uint32_t tag;
    sm_sched_add_cta(s, 5, intern(&empty));
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 5);
    CHECK_EQ_U64(sm_sched_free_slots(s), 4);
    sm_sched_add_cta(s, 6, intern(&cta));
    run(s, 0, 5, &log);
    CHECK_EQ_U64(log.n, 2);
    CHECK_EQ_U64(log.cycle[1], 1);
    CHECK(sm_sched_take_done(s, &tag));
    CHECK_EQ_U64(tag, 6);
    sm_sched_free(s);
}

static bool waits_on_slot0(void *ctx, uint32_t slot, const AtsInst *in)
{
    (void)in;
    (*(int *)ctx)++;
    return slot == 0;
}

static void test_next_cycle_if_and_warp(void)
{
    /* Slot 0: LDG (ready at 0, uses the pipe); slot 1: MUFU R1; IADD R2 <- R1. After
     * cycle 0 (the LDG refused by the pipe, the MUFU issued) the next cycle is 1 for
     * the LDG, or 100 for the IADD when the caller says slot 0 waits for an event of
     * its own. The IADD does not use the pipe, so waits is asked about slot 0 only. */
    AtsInst a[1] = {inst(ATS_LDG, 3, NONE, NONE)};
    AtsInst b[2] = {inst(ATS_SFU, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE)};
    AtsWarp w[2] = {{.ninst = 1, .inst = a}, {.ninst = 2, .inst = b}};
    AtsCta cta = {.nwarps = 2, .warps = w};
    Pipe pipe = {.refuse = 1};
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    cfg.mem_accept = pipe_accept;
    cfg.mem_ctx = &pipe;
    SmSched *s = sm_sched_new(&cfg, &err);
    Log log = {0};
    const CoreCta *c = intern(&cta);
    sm_sched_add_cta(s, 0, c);
    CHECK(sm_sched_warp(s, 0) == &c->warps[0]);
    CHECK(sm_sched_warp(s, 1) == &c->warps[1]);
    CHECK(sm_sched_warp(s, 2) == NULL);
    CHECK(sm_sched_warp(s, 64) == NULL);
    run(s, 0, 1, &log);
    CHECK_EQ_U64(log.n, 1);
    CHECK_EQ_U64(log.is[0].warp, 1);
    int asked = 0;
    CHECK_EQ_U64(sm_sched_next_cycle(s, 1), 1);
    CHECK_EQ_U64(sm_sched_next_cycle_if(s, 1, waits_on_slot0, &asked), 100);
    CHECK_EQ_U64(asked, 1);
    sm_sched_free(s);
}

static void test_next_cycle_and_bad_config(void)
{
    /* MUFU R1; IADD R2 <- R1: after the MUFU at 0 the next possible issue is 100. */
    AtsInst in[2] = {inst(ATS_SFU, 1, NONE, NONE), inst(ATS_INT, 2, 1, NONE)};
    AtsWarp w = {.ninst = 2, .inst = in};
    AtsCta cta = {.nwarps = 1, .warps = &w};
    SmSched *s = make(4, 64, SM_POLICY_GTO);
    Log log = {0};
    sm_sched_add_cta(s, 0, intern(&cta));
    CHECK_EQ_U64(sm_sched_next_cycle(s, 0), 0);
    run(s, 0, 1, &log);
    CHECK_EQ_U64(sm_sched_next_cycle(s, 1), 100);
    sm_sched_free(s);
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    cfg.schedulers = 0;
    CHECK(sm_sched_new(&cfg, &err) == NULL);
    CHECK_STR(err.msg, "schedulers 0 is out of range 1..max_warps (64)");
    cfg.schedulers = 4;
    cfg.max_warps = 0;
    CHECK(sm_sched_new(&cfg, &err) == NULL);
    CHECK_STR(err.msg, "max_warps 0 is out of range 1..1024");
}

int main(void)
{
    RUN(test_default_latencies);
    RUN(test_w1_dependent_chain);
    RUN(test_w2_independent);
    RUN(test_w3_gto);
    RUN(test_w3_lrr);
    RUN(test_lrr_skips_stalled_warp);
    RUN(test_chains_waw_and_zero_register);
    RUN(test_scoreboard_stall_on_load);
    RUN(test_barrier_slow_warp);
    RUN(test_barrier_ignores_ended_warps);
    RUN(test_membar);
    RUN(test_exit_and_cta_end);
    RUN(test_two_schedulers);
    RUN(test_memory_pipe_refusal);
    RUN(test_memory_pipe_open);
    RUN(test_hold_and_release);
    RUN(test_wake_below_bound);
    RUN(test_gto_oldest_by_dispatch);
    RUN(test_empty_warp);
    RUN(test_next_cycle_and_bad_config);
    RUN(test_next_cycle_if_and_warp);
    for (size_t k = 0; k < nheld; k++) {
        core_cta_free(&held[k]);
    }
    return harness_report();
}
