/* sm: one streaming multiprocessor executing the CTAs of an Accel-Sim trace at warp
 * level (SPEC.md 6.2 to 6.4, docs/cores.md "The sm block"), a requester on its mem
 * port and a worker of its GPU's dispatcher on its ctl port (hw/core/core_msg.h).
 *
 * Modelled: issue by sm_sched (schedulers, gto or lrr, the scoreboard, barriers,
 * fences, fixed latencies per class), the room of a kernel's CTAs by sm_occupancy,
 * coalescing of global and local accesses into 128 B lines by sm_coalesce (sm_mem.c
 * makes the transactions), translation of every page once through xlat, the kernel's
 * control path (kernel_begin at launch; release and kernel_end at finish, after every
 * answer), and statistics. Not modelled: instruction fetch and caches, register-bank
 * conflicts, the shared-memory and constant caches (fixed latencies), operand
 * collectors, a TLB (the translation table has no capacity limit), and data values
 * (stores write core_value; sm_check.c checks what loads return against the trace).
 *
 * Timing: one cycle is the platform clock. The block runs one process, the tick, only
 * at the cycle the scheduler names (sm_sched_next_cycle_if, leaving out warps waiting
 * for the memory pipe or a translation) or the cycle after an event that may let
 * something issue (a response, an xlat answer, a CTA, on_free): it
 * first sends what is due on mem, then runs the scheduler's cycle, executes what
 * issued and answers the CTAs that ended. A response or xlat answer arriving in cycle
 * c counts in cycle c (its loads' destinations are ready at c + 1, as sm_sched says).
 *
 * Decisions:
 * - The memory pipe (sm_mem.c) sends at most one transaction per cycle, in issue
 *   order, and takes the next memory instruction (or fence) only in a cycle after the
 *   last transaction of the previous ones has left (a refused send holds it), as
 *   GPGPU-Sim's load/store unit serves one access per cycle. Controls (kernel_begin,
 *   release, kernel_end) leave at once, behind what is queued, and take no cycle.
 * - An instruction is offered to the pipe only when its pages are translated; the
 *   first offer asks the dispatcher for every missing page (once per page and
 *   space), and the warp waits for the answers.
 * - A launch is answered at once (after queueing kernel_begin); a finish when no CTA
 *   is resident and every request is answered, after queueing release and kernel_end
 *   (they leave before any later request). A malformed or unexpected control message
 *   is answered with status generic_error and counted in ctl_errors.
 * - busy_ps counts time with at least one resident CTA.
 * - With the run's scan (every trace-driven run, sm_check.c), a kernel whose CTA does
 *   not fit an empty SM of these parameters is refused at load, naming the kernel file
 *   and the resource (exit 2): no SM could ever run it. An sm without a scan (a
 *   testbench's) lets the dispatcher learn it at the launch, counting fit_errors (a
 *   model error). A
 *   kernel file whose thread blocks are not listed once each in increasing index
 *   (TraceDisorder, trace_scan.h) is refused at load the same way: it is valid for
 *   Accel-Sim, which keeps each block's id, but the dispatchers read a file once, in
 *   index order, and would pass over a block that comes too late (dispatch.c). */
#include <stdlib.h>

#include "hw/core/sm_priv.h"
#include "hw/lib/fill.h"
#include "kernel/xalloc.h"

static const char *const sm_policies[] = {"gto", "lrr", NULL};

#define SM_LAT(key_, idx_, def_, doc_)                                                   \
    {                                                                                    \
        .key = (key_), .offset = offsetof(Sm, lat) + (idx_) * sizeof(uint64_t),          \
        .type = PT_U64, .def = (def_), .min = 1, .max = 65536, .doc = (doc_)             \
    }

static const char *const sm_fill_choices[] = FILL_CHOICES;
static const char *const sm_flush_choices[] = {"posted", "writes", NULL};

static const ParamDef sm_params[] = {
    {.key = "schedulers",
     .offset = offsetof(Sm, schedulers),
     .type = PT_U64,
     .def = "4",
     .min = 1,
     .max = SM_SCHED_MAX_WARPS,
     .doc = "warp schedulers (at most max_warps); slot s belongs to s mod schedulers"},
    {.key = "policy",
     .offset = offsetof(Sm, policy),
     .type = PT_ENUM,
     .def = "gto",
     .choices = sm_policies,
     .doc = "scheduling policy: gto (greedy then oldest) or lrr (loose round robin)"},
    {.key = "max_warps",
     .offset = offsetof(Sm, max_warps),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = SM_SCHED_MAX_WARPS,
     .doc = "warp slots"},
    {.key = "max_ctas",
     .offset = offsetof(Sm, max_ctas),
     .type = PT_U64,
     .def = "32",
     .min = 1,
     .max = SM_SCHED_MAX_WARPS,
     .doc = "resident CTAs at most"},
    {.key = "regs",
     .offset = offsetof(Sm, regs),
     .type = PT_U64,
     .def = "65536",
     .min = 1,
     .max = UINT32_MAX,
     .doc = "32-bit registers"},
    {.key = "shmem",
     .offset = offsetof(Sm, shmem),
     .type = PT_SIZE,
     .def = "96KiB",
     .min = 1,
     .max = UINT32_MAX,
     .doc = "shared memory bytes"},
    SM_LAT("lat_int", SM_LAT_INT, "4", "cycles: integer ALU (IADD, IMAD, ...)"),
    SM_LAT("lat_fp32", SM_LAT_FP32, "4", "cycles: fp32 (FADD, FFMA, ...)"),
    SM_LAT("lat_fp64", SM_LAT_FP64, "8", "cycles: fp64 (DADD, DFMA, ...)"),
    SM_LAT("lat_sfu", SM_LAT_SFU, "100", "cycles: special functions (MUFU)"),
    SM_LAT("lat_tensor", SM_LAT_TENSOR, "64", "cycles: tensor (HMMA, IMMA)"),
    SM_LAT("lat_control", SM_LAT_CONTROL, "4", "cycles: control (MOV, S2R, BRA, ...)"),
    SM_LAT("lat_shared", SM_LAT_SHARED, "20", "cycles: shared memory (LDS, STS, ATOMS)"),
    SM_LAT("lat_const", SM_LAT_CONST, "20", "cycles: constant loads (LDC)"),
    {.key = "line",
     .offset = offsetof(Sm, line),
     .type = PT_SIZE,
     .def = "128",
     .min = 32,
     .max = 128,
     .doc = "bytes per request piece: 32, 64 or 128 (each 128 B line request is split)"},
    {.key = "wavefront",
     .offset = offsetof(Sm, wavefront),
     .type = PT_BOOL,
     .def = "false",
     .doc = "send a warp's access as one transaction with its lanes as threads (bgu)"},
    {.key = "posted",
     .offset = offsetof(Sm, posted),
     .type = PT_BOOL,
     .def = "false",
     .doc = "writes are posted (no response; FinePack platforms)"},
    {.key = "page",
     .offset = offsetof(Sm, page),
     .type = PT_SIZE,
     .def = "4KiB",
     .min = 128,
     .max = (uint64_t)1 << 30,
     .doc = "translation page bytes, a power of two (as the host's page)"},
    {.key = "check",
     .offset = offsetof(Sm, check),
     .type = PT_BOOL,
     .def = "true",
     .doc = "check every read response against the trace (a trace-driven run only)"},
    {.key = "spool",
     .offset = offsetof(Sm, spool),
     .type = PT_BOOL,
     .def = "true",
     .doc = "the run's scan of the trace writes every block's cta message to a "
            "temporary file that the dispatchers read instead of the trace's text (one "
            "scan per run: every sm must have the same value)"},
    {.key = "flush",
     .offset = offsetof(Sm, flush),
     .type = PT_ENUM,
     .def = "posted",
     .choices = sm_flush_choices,
     .doc = "writes a finish waits for with a flush read per GPU: posted, or all writes"
            " (a write-back cache on the path, DualOpt's RDMA$)"},
    {.key = "fill",
     .offset = offsetof(Sm, fill),
     .type = PT_ENUM,
     .def = "hash",
     .choices = sm_fill_choices,
     .doc = "initial memory content the check expects (the memories' fill)"},
};

static const PortDef sm_ports[] = {
    {.name = "mem", .required = true, .doc = "memory requests out, responses in"},
    {.name = "ctl",
     .required = true,
     .doc = "dispatcher: launch, cta, finish in (answered), xlat out"},
};

uint64_t sm_cycle_of(const Sm *s, SimTime now)
{
    return now / s->base.plat->clock;
}

void sm_wake(Sm *s, uint64_t cycle)
{
    SimTime clock = s->base.plat->clock;
    uint64_t first = (sim_now(s->base.sim) + clock - 1) / clock;
    if (s->ran && first <= s->last_cycle) {
        first = s->last_cycle + 1;
    }
    if (cycle < first) {
        cycle = first;
    }
    sim_event_notify_at(&s->tick, cycle > SIM_TIME_MAX / clock ? SIM_TIME_MAX
                                                               : (SimTime)cycle * clock);
}

/* A warp whose next instruction uses the memory pipe waits for an event (not a
 * cycle) while the pipe still has transactions to send (one waiting for its pages is
 * held by the scheduler: sm_mem_accept). */
static bool sm_pipe_waits(void *ctx, uint32_t slot, const AtsInst *in)
{
    Sm *s = ctx;
    (void)slot;
    (void)in;
    return egress_len(&s->memq) > 0;
}

static void sm_tick(void *subject, void *obj)
{
    Sm *s = subject;
    (void)obj;
    uint64_t cycle = sm_cycle_of(s, sim_now(s->base.sim));
    s->ran = true;
    s->last_cycle = cycle;
    sm_mem_pump(s);
    s->pipe_taken = false;
    size_t n = sm_sched_cycle(s->sched, cycle, s->issued);
    for (size_t i = 0; i < n; i++) {
        const SmIssue *is = &s->issued[i];
        (*s->warp_insts)++;
        s->kernel_insts++;
        if (is->kind == SM_ISSUE_LOAD || is->kind == SM_ISSUE_POSTED ||
            is->kind == SM_ISSUE_MEMBAR) {
            sm_mem_issue(s, is, cycle);
        }
    }
    sm_mem_pump(s);
    sm_ctl_progress(s);
    uint64_t next = sm_sched_next_cycle_if(s->sched, cycle + 1, sm_pipe_waits, s);
    if (!s->mem_blocked && egress_len(&s->memq) > 0) {
        SimTime clock = s->base.plat->clock;
        uint64_t due = (egress_next(&s->memq) + clock - 1) / clock;
        if (due < next) {
            next = due;
        }
    }
    if (next != UINT64_MAX) {
        sm_wake(s, next);
    }
}

static void sm_sched_setup(Sm *s, SmSchedConfig *cfg)
{
    sm_sched_config_default(cfg);
    cfg->schedulers = (uint32_t)s->schedulers;
    cfg->max_warps = (uint32_t)s->max_warps;
    cfg->policy = s->policy == 1 ? SM_POLICY_LRR : SM_POLICY_GTO;
    cfg->latency[ATS_INT] = (uint32_t)s->lat[SM_LAT_INT];
    cfg->latency[ATS_FP32] = (uint32_t)s->lat[SM_LAT_FP32];
    cfg->latency[ATS_FP64] = (uint32_t)s->lat[SM_LAT_FP64];
    cfg->latency[ATS_SFU] = (uint32_t)s->lat[SM_LAT_SFU];
    cfg->latency[ATS_TENSOR] = (uint32_t)s->lat[SM_LAT_TENSOR];
    cfg->latency[ATS_CONTROL] = (uint32_t)s->lat[SM_LAT_CONTROL];
    cfg->latency[ATS_LDS] = (uint32_t)s->lat[SM_LAT_SHARED];
    cfg->latency[ATS_STS] = (uint32_t)s->lat[SM_LAT_SHARED];
    cfg->latency[ATS_ATOMS] = (uint32_t)s->lat[SM_LAT_SHARED];
    cfg->latency[ATS_LDC] = (uint32_t)s->lat[SM_LAT_CONST];
    cfg->mem_accept = sm_mem_accept;
    cfg->mem_open = sm_mem_open;
    cfg->mem_ctx = s;
}

static bool sm_pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static void sm_finalize(Block *b);

/* Refuses, with the scan, a kernel file whose thread blocks are not listed once each
 * in increasing index, or whose CTA fits no SM of these parameters. */
static bool sm_check_runnable(const Sm *s, SimError *err)
{
    if (!s->scan) {
        return true;
    }
    SmResources r = sm_resources(s);
    for (size_t k = 0; k < trace_scan_kernels(s->scan); k++) {
        const TraceKernel *tk = trace_scan_kernel(s->scan, k);
        const TraceDisorder *d = &tk->disorder;
        if (!tk->in_order) {
            return sim_error_set(
                err,
                "%s:%llu: thread block %u,%u,%u (index %llu) after index "
                "%llu: a run needs the blocks listed once each, in "
                "increasing index",
                tk->path, (unsigned long long)d->line, d->x, d->y, d->z,
                (unsigned long long)d->index, (unsigned long long)d->prev);
        }
        SmLimit why;
        if (sm_occupancy(&r, &tk->info, &why) > 0) {
            continue;
        }
        uint64_t need, have;
        sm_occupancy_need(&r, &tk->info, why, &need, &have);
        return sim_error_set(err,
                             "%s: a thread block of (%u,%u,%u) threads needs %s %llu, "
                             "more than the sm's %llu: it fits no SM",
                             tk->path, tk->info.block[0], tk->info.block[1],
                             tk->info.block[2], sm_occupancy_limit_name(why),
                             (unsigned long long)need, (unsigned long long)have);
    }
    return true;
}

static bool sm_realize(Block *b, SimError *err)
{
    Sm *s = (Sm *)b;
    s->mem = block_port(b, "mem", -1);
    s->ctl = block_port(b, "ctl", -1);
    if (!sm_pow2(s->line)) {
        return sim_error_set(err, "%s: line %llu is not 32, 64 or 128", b->name,
                             (unsigned long long)s->line);
    }
    if (!sm_pow2(s->page)) {
        return sim_error_set(err, "%s: page %llu is not a power of two", b->name,
                             (unsigned long long)s->page);
    }
    s->page_shift = (unsigned)__builtin_ctzll(s->page);
    SmSchedConfig cfg;
    sm_sched_setup(s, &cfg);
    s->sched = sm_sched_new(&cfg, err);
    if (!s->sched) {
        return sim_error_prefix(err, b->name);
    }
    s->issued = xrealloc_array(NULL, s->schedulers, sizeof *s->issued);
    s->ctas = xrealloc_array(NULL, s->max_ctas, sizeof *s->ctas);
    for (uint64_t i = 0; i < s->max_ctas; i++) {
        s->ctas[i] = (SmCtaRec){0};
    }
    idmap_init_ordered(&s->reqs);
    idmap_init_ordered(&s->checks);
    idmap_init_ordered(&s->xlat_ids);
    egress_init(&s->memq, b, s->mem, &(EgressOpts){.external_wake = true});
    egress_init(&s->ctlq, b, s->ctl, NULL);
    sim_event_init(&s->tick, b->sim, SIM_PRIO_DEFAULT, sm_tick, s, NULL);
    if (!sm_check_start(s, err) || !sm_check_runnable(s, err)) {
        sm_finalize(b); /* the platform discards a block that fails its realize */
        return false;
    }
    return true;
}

static void sm_reset(Block *b)
{
    Sm *s = (Sm *)b;
    sim_event_cancel(&s->tick);
    sm_ctl_clear(s);
    sm_mem_clear(s);
    sm_check_clear(s);
    SmSchedConfig cfg;
    sm_sched_setup(s, &cfg);
    sm_sched_free(s->sched);
    s->sched = sm_sched_new(&cfg, NULL);
    s->ran = false;
    s->last_cycle = 0;
    s->pipe_taken = false;
}

static void sm_on_recv(Block *b, Port *p)
{
    Sm *s = (Sm *)b;
    if (p == s->mem) {
        sm_mem_recv(s);
    } else {
        sm_ctl_recv(s);
    }
}

static void sm_on_free(Block *b, Port *p)
{
    Sm *s = (Sm *)b;
    if (p == s->mem) {
        sm_mem_pump(s);
        sm_wake(s, 0);
    } else {
        (void)egress_pump(&s->ctlq);
    }
}

static void sm_stats(Block *b)
{
    Sm *s = (Sm *)b;
    if (s->resident > 0) {
        SimTime now = sim_now(b->sim);
        *s->busy_ps += now - s->busy_since;
        s->busy_since = now;
    }
}

static void sm_finalize(Block *b)
{
    Sm *s = (Sm *)b;
    if (s->ctas) {
        sm_ctl_clear(s);
    }
    sm_mem_clear(s);
    sm_check_stop(s);
    egress_destroy(&s->memq);
    egress_destroy(&s->ctlq);
    sm_sched_free(s->sched);
    s->sched = NULL;
    free(s->issued);
    free(s->ctas);
    free(s->recs);
    free(s->rec_free);
    s->issued = NULL;
    s->ctas = NULL;
    s->recs = NULL;
    s->rec_free = NULL;
    s->recs_cap = 0;
}

static const StatDef sm_stat_defs[] = {
    STAT(Sm, warp_insts, "warp_insts", STAT_COUNTER, "", "warp instructions issued"),
    STAT(Sm, ctas_done, "ctas", STAT_COUNTER, "", "CTAs executed (answered)"),
    STAT(Sm, kernels, "kernels", STAT_COUNTER, "", "kernels finished (finish answered)"),
    STAT(Sm, line_reqs, "line_reqs", STAT_COUNTER, "",
         "128 B line requests of global and local accesses (SPEC.md 6.3)"),
    STAT(Sm, reads, "reads", STAT_COUNTER, "", "read transactions sent"),
    STAT(Sm, writes, "writes", STAT_COUNTER, "", "write transactions sent"),
    STAT(Sm, atomics, "atomics", STAT_COUNTER, "", "atomic transactions sent (per lane)"),
    STAT(Sm, xlats, "xlats", STAT_COUNTER, "", "pages translated (xlat requests sent)"),
    STAT(Sm, busy_ps, "busy_ps", STAT_TIME, "ps", "time with a resident CTA (ps)"),
    STAT(Sm, atomic_width, "atomic_width", STAT_COUNTER, "",
         "atomic instructions of a width other than 4 or 8 bytes (sent as 4 bytes)"),
    STAT(Sm, read_latency, "read_latency", STAT_HIST, "ps",
         "read latency, instruction issue to response arrival (ps)", .width = 10 * SIM_NS,
         .buckets = 200),
    STAT(Sm, status_errors, "status_errors", STAT_COUNTER, "",
         "model error: responses or xlat answers with a status other than ok",
         .is_error = true),
    STAT(Sm, resp_unmatched, "resp_unmatched_errors", STAT_COUNTER, "",
         "model error: arrivals on mem, or xlat answers, matching no request",
         .is_error = true),
    STAT(Sm, ctl_errors, "ctl_errors", STAT_COUNTER, "",
         "model error: malformed or unexpected control messages", .is_error = true),
    STAT(Sm, flush_reads, "flush_reads", STAT_COUNTER, "",
         "reads sent at a finish behind posted writes (sm_ctl.c)"),
    STAT(Sm, data_errors, "data_errors", STAT_COUNTER, "",
         "model error: bytes of read responses the trace does not allow (docs/cores.md"
         " \"Data check\")",
         .is_error = true),
};

const BlockType sm_type = {
    .name = "sm",
    .doc = "streaming multiprocessor: executes trace CTAs (warp scheduling, coalescing)",
    .size = sizeof(Sm),
    .params = sm_params,
    .nparams = sizeof sm_params / sizeof sm_params[0],
    .ports = sm_ports,
    .nports = sizeof sm_ports / sizeof sm_ports[0],
    .stat_defs = sm_stat_defs,
    .nstat_defs = sizeof sm_stat_defs / sizeof sm_stat_defs[0],
    .realize = sm_realize,
    .reset = sm_reset,
    .on_recv = sm_on_recv,
    .on_free = sm_on_free,
    .stats = sm_stats,
    .finalize = sm_finalize,
};
