/* host: the top-level host of a trace-driven platform (docs/cores.md "The host",
 * SPEC.md 6.4 and 6.5): launches the trace's kernels one after another on every GPU,
 * answers the SMs' page translations, and measures execution time.
 *
 * Ports: gpu[g] (count `gpus`, set by the loader to the platform's GPU count) to
 * gpu<g>.disp.host. Messages (hw/core/core_msg.h):
 * - launch k (addr k, kernel_hint = `hint`; under ladm see below) goes out of
 *   every gpu[g] at once; GPU g's answer carries the warp instructions (insts) and
 *   the CTAs (ctas) it ran. Kernel k starts when the launches are sent and ends when
 *   the last GPU answers; kernel k + 1 is launched at that same instant. Execution
 *   time (`exec_ps`) is the end of the last kernel.
 * - xlat (addr = a virtual page, len = `page`, space, src = the GPU) is answered on
 *   the port it came in on with paddr = the platform physical address of the page
 *   (host_xlat.h: placement by `placement` for global pages, frames from the top of
 *   the asking GPU's memory for local ones).
 * - placement ladm (docs/cores.md "LADM's policies"): before sending launch k the
 *   host runs ladm_plan_kernel over kernel k's file (ladm.h), which plans the homes
 *   of the pages the kernel uses under LADM's schedule (the dispatchers' cta_policy
 *   ladm) and says whether the kernel's locality is intra-thread; such a kernel's
 *   kernel_hint is `once_hint` (the l2's once_hint: remote_insert auto then caches
 *   its remote lines once, RONCE), any other kernel's is `hint`. A kernel named in
 *   the trace folder's ladm_hints file (ladm_hints.h, read at realize) is planned
 *   with its hinted class instead of the analysis's.
 *
 * Decisions:
 * - Without a trace (b->plat->trace NULL: a platform that names a host itself and is
 *   run without --trace) the host launches nothing and answers xlat with
 *   address_error; the loader adds a host only to a trace-driven run.
 * - The kernel list and every kernel's header are read at realize (core_kernels.h);
 *   the allocations of kernelslist.g are all given to the placement then, so `split`
 *   knows every allocation from the first access.
 * - A full memory (host_xlat.h) counts in oom_errors and the page gets a wrapped frame:
 *   the run goes on and fails as a model error at its end.
 * - A malformed xlat (len not `page`, addr not page-aligned, space not 0 or 1, src not
 *   the port's GPU) counts in xlat_errors and is answered with status address_error,
 *   so the asking SM is not left waiting; anything else that is not an expected answer
 *   to a launch counts in ctl_errors and is dropped.
 * - A run that ends idle with a kernel not ended (a GPU never answered its launch)
 *   counts the kernels left in unfinished_errors; a run cut by --until does not.
 * - A failed LADM analysis (a malformed CTA in the file) counts in trace_errors (the
 *   first message goes to stderr): the kernel is launched with `hint` and its
 *   unplanned pages are placed as split, so the run goes on and fails at its end.
 *   The analysis is done at the launch's simulated instant and takes no time (LADM
 *   does it at compile time); each kernel file is read twice more for it.
 * - Per-kernel statistics (k<k>.start_ps, .end_ps, .cycles = (end - start) / clock,
 *   .warp_insts, .ipc = warp_insts / cycles) are registered at realize, one set per
 *   launch of kernelslist.g; per GPU, <port>_end_ps is the time of its last answer and
 *   <port>_busy_ps the sum over kernels of (its answer - the kernel's start).
 * Not modelled: host-device copies (MemcpyHtoD only declares an allocation), launch
 * overheads, streams (kernels run in kernelslist.g order, one at a time). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/core/core_kernels.h"
#include "hw/core/core_msg.h"
#include "hw/core/host_xlat.h"
#include "hw/core/ladm.h"
#include "hw/core/ladm_hints.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"
#include "kernel/xalloc.h"

/* One kernel's statistics (storage owned by the registry). */
typedef struct HostKernelStats {
    uint64_t *start_ps, *end_ps, *cycles, *warp_insts;
    double *ipc;
} HostKernelStats;

typedef struct Host {
    Block base;
    uint64_t gpus;
    int placement;
    uint64_t page;
    uint64_t hint;
    uint64_t once_hint;
    CoreKernels ks;
    LadmAlloc *allocs; /* ks's allocations for ladm_plan_kernel (owned) */
    LadmClass *hints;  /* ladm: per launch, its ladm_hints class (owned) */
    bool reported;     /* a trace error went to stderr */
    HostXlat xlat;
    Egress *out; /* one per gpu port (owned) */
    SimEvent launch_ev;
    size_t next;      /* launch index of the running kernel, or the next to launch */
    bool running;     /* kernel `next` is running */
    uint32_t waiting; /* GPUs that have not answered the running kernel */
    bool *answered;   /* per GPU (owned) */
    SimTime start;
    HostKernelStats *kst; /* per kernel (owned) */
    uint64_t *exec_ps, *kernels, *kernels_done, *ctas, *ctas_done, *warp_insts;
    uint64_t *xlats, *pages, *oom_errors, *xlat_errors, *ctl_errors, *unfinished;
    uint64_t *trace_errors;
    uint64_t **end_ps, **busy_ps;
} Host;

static const char *const host_placement_choices[] = {"interleave", "split", "first_touch",
                                                     "ladm", NULL};

static const StatDef host_k_start = {.name = "start_ps",
                                     .kind = STAT_TIME,
                                     .unit = "ps",
                                     .doc = "time the host launched the kernel"};
static const StatDef host_k_end = {.name = "end_ps",
                                   .kind = STAT_TIME,
                                   .unit = "ps",
                                   .doc =
                                       "time the last GPU answered the kernel's launch"};
static const StatDef host_k_cycles = {.name = "cycles",
                                      .kind = STAT_COUNTER,
                                      .unit = "cycles",
                                      .doc = "(end_ps - start_ps) / platform clock"};
static const StatDef host_k_insts = {.name = "warp_insts",
                                     .kind = STAT_COUNTER,
                                     .unit = "",
                                     .doc = "warp instructions the GPUs issued in it"};
static const StatDef host_k_ipc = {.name = "ipc",
                                   .kind = STAT_GAUGE,
                                   .unit = "",
                                   .doc = "warp_insts / cycles (0 when cycles is 0)"};

/* Kernel k's kernel_hint; under ladm, plans its pages first. */
static uint32_t host_kernel_hint(Host *h, size_t k)
{
    if (h->placement != PLACE_LADM) {
        return (uint32_t)h->hint;
    }
    bool itl = false;
    SimError err;
    if (!ladm_plan_kernel(h->ks.kernels[k].path, (uint32_t)h->gpus, h->page, h->allocs,
                          h->ks.nallocs, h->hints[k], NULL, &itl, h->xlat.pl, &err)) {
        (*h->trace_errors)++;
        if (!h->reported) {
            sim_report(h->base.sim, "mgtlm: %s: %s (LADM's analysis; pages split)",
                       h->base.name, err.msg);
            h->reported = true;
        }
        return (uint32_t)h->hint;
    }
    return (uint32_t)(itl ? h->once_hint : h->hint);
}

static void host_launch(Host *h)
{
    if (h->next >= h->ks.nkernels) {
        return;
    }
    uint32_t hint = host_kernel_hint(h, h->next);
    SimTime now = sim_now(h->base.sim);
    h->running = true;
    h->start = now;
    h->waiting = (uint32_t)h->gpus;
    *h->kst[h->next].start_ps = now;
    for (uint32_t g = 0; g < h->gpus; g++) {
        h->answered[g] = false;
        Txn *t = txn_new_declared(h->base.sim, &core_cmd_launch, h->next, 0);
        t->src = -1;
        t->dst = (int16_t)g;
        t->kernel_hint = hint;
        (void)egress_push(&h->out[g], t, 0);
    }
}

static void host_launch_ev(void *subject, void *obj)
{
    (void)obj;
    host_launch(subject);
}

/* GPU g answered the launch of the running kernel. */
static void host_answered(Host *h, uint32_t g, const Txn *t)
{
    SimTime now = sim_now(h->base.sim);
    HostKernelStats *k = &h->kst[h->next];
    h->answered[g] = true;
    h->waiting--;
    *k->warp_insts += t->insts;
    *h->warp_insts += t->insts;
    *h->ctas_done += t->ctas;
    *h->end_ps[g] = now;
    *h->busy_ps[g] += now - h->start;
    if (h->waiting > 0) {
        return;
    }
    *k->end_ps = now;
    *k->cycles = (now - h->start) / h->base.plat->clock;
    *k->ipc = *k->cycles ? (double)*k->warp_insts / (double)*k->cycles : 0.0;
    *h->exec_ps = now;
    (*h->kernels_done)++;
    h->running = false;
    h->next++;
    host_launch(h);
}

static bool host_xlat_ok(const Host *h, uint32_t g, const Txn *t)
{
    return h->xlat.pl && t->len == h->page && t->addr % h->page == 0 &&
           t->space <= CORE_SPACE_LOCAL && t->src == (int16_t)g;
}

static void host_xlat(Host *h, uint32_t g, const Txn *t)
{
    Txn *r = txn_new_response(h->base.sim, t);
    r->dst = (int16_t)g;
    if (host_xlat_ok(h, g, t)) {
        HostXlatAddr a =
            host_xlat_translate(&h->xlat, t->addr, t->space == CORE_SPACE_LOCAL, g);
        r->paddr = a.paddr;
        (*h->xlats)++;
        *h->pages += a.fresh;
        *h->oom_errors += a.oom;
    } else {
        r->status = TXN_STATUS_ADDRESS_ERROR;
        (*h->xlat_errors)++;
    }
    (void)egress_push(&h->out[g], r, 0);
}

static void host_recv(Block *b, Port *p)
{
    Host *h = (Host *)b;
    uint32_t g = p->index;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (txn_is(t, &core_cmd_xlat)) {
            host_xlat(h, g, t);
        } else if (t->cmd == TXN_RESP && t->req_cmd == TXN_DECLARED &&
                   t->declared == &core_cmd_launch && h->running && t->addr == h->next &&
                   !h->answered[g] && t->status == TXN_STATUS_OK) {
            host_answered(h, g, t);
        } else {
            (*h->ctl_errors)++;
        }
        txn_unref(t);
    }
}

static void host_free_slot(Block *b, Port *p)
{
    egress_pump(&((Host *)b)->out[p->index]);
}

static bool host_register_kernels(Host *h, SimError *err)
{
    Block *b = &h->base;
    h->kst = xcalloc(h->ks.nkernels ? h->ks.nkernels : 1, sizeof *h->kst);
    for (size_t k = 0; k < h->ks.nkernels; k++) {
        char n[5][48];
        snprintf(n[0], sizeof n[0], "k%zu.start_ps", k);
        snprintf(n[1], sizeof n[1], "k%zu.end_ps", k);
        snprintf(n[2], sizeof n[2], "k%zu.cycles", k);
        snprintf(n[3], sizeof n[3], "k%zu.warp_insts", k);
        snprintf(n[4], sizeof n[4], "k%zu.ipc", k);
        HostKernelStats *s = &h->kst[k];
        s->start_ps = stats_counter(b->stats, b->name, n[0], &host_k_start);
        s->end_ps = stats_counter(b->stats, b->name, n[1], &host_k_end);
        s->cycles = stats_counter(b->stats, b->name, n[2], &host_k_cycles);
        s->warp_insts = stats_counter(b->stats, b->name, n[3], &host_k_insts);
        s->ipc = stats_real(b->stats, b->name, n[4], &host_k_ipc);
        if (!s->start_ps || !s->end_ps || !s->cycles || !s->warp_insts || !s->ipc) {
            return sim_error_set(err, "%s: cannot register the stats of kernel %zu",
                                 b->name, k);
        }
        *h->ctas += h->ks.kernels[k].ctas;
    }
    *h->kernels = h->ks.nkernels;
    return true;
}

static void host_finalize(Block *b)
{
    Host *h = (Host *)b;
    if (h->out) {
        for (uint32_t g = 0; g < h->gpus; g++) {
            egress_destroy(&h->out[g]);
        }
    }
    free(h->out);
    free(h->answered);
    free(h->kst);
    free(h->allocs);
    free(h->hints);
    host_xlat_free(&h->xlat);
    core_kernels_free(&h->ks);
    h->out = NULL;
    h->answered = NULL;
    h->kst = NULL;
    h->allocs = NULL;
    h->hints = NULL;
}

static bool host_realize(Block *b, SimError *err)
{
    Host *h = (Host *)b;
    const PlatformInfo *pi = b->plat;
    h->out = xcalloc(h->gpus, sizeof *h->out);
    h->answered = xcalloc(h->gpus, sizeof *h->answered);
    for (uint32_t g = 0; g < h->gpus; g++) {
        egress_init(&h->out[g], b, block_port(b, "gpu", (int)g), NULL);
    }
    sim_event_init(&h->launch_ev, b->sim, SIM_PRIO_DEFAULT, host_launch_ev, h, NULL);
    if (!pi->trace) {
        return true;
    }
    if (h->gpus != pi->gpus) {
        host_finalize(b);
        return sim_error_set(err, "%s: gpus %llu differs from the platform's %u GPUs",
                             b->name, (unsigned long long)h->gpus, pi->gpus);
    }
    if (!core_kernels_load(pi->trace, &h->ks, err)) {
        host_finalize(b);
        return false;
    }
    h->hints = xcalloc(h->ks.nkernels ? h->ks.nkernels : 1, sizeof *h->hints);
    if (h->placement == PLACE_LADM &&
        !ladm_hints_load(pi->trace, &h->ks, (uint32_t)h->gpus, h->hints, err)) {
        host_finalize(b);
        return false;
    }
    SimError e;
    bool ok = host_xlat_init(&h->xlat, (PlacePolicy)h->placement, (uint32_t)h->gpus,
                             h->page, pi->mem_bytes, &e);
    h->allocs = xcalloc(h->ks.nallocs ? h->ks.nallocs : 1, sizeof *h->allocs);
    for (size_t i = 0; ok && i < h->ks.nallocs; i++) {
        ok = host_xlat_add_alloc(&h->xlat, h->ks.allocs[i].base, h->ks.allocs[i].bytes,
                                 &e);
        h->allocs[i] = (LadmAlloc){h->ks.allocs[i].base, h->ks.allocs[i].bytes};
    }
    if (!ok) {
        host_finalize(b);
        return sim_error_set(err, "%s: %s", b->name, e.msg);
    }
    if (!host_register_kernels(h, err)) {
        host_finalize(b);
        return false;
    }
    return true;
}

/* Kernels that never ended in a run that ended idle: some block never answered
 * (a run cut by --until is not counted). */
static void host_stats(Block *b)
{
    Host *h = (Host *)b;
    *h->unfinished = sim_idle(b->sim) ? h->ks.nkernels - h->next : 0;
}

static void host_reset(Block *b)
{
    Host *h = (Host *)b;
    h->next = 0;
    h->running = false;
    h->reported = false;
    sim_event_notify(&h->launch_ev, 0);
}

static const ParamDef host_params[] = {
    {.key = "gpus",
     .offset = offsetof(Host, gpus),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = PLACEMENT_MAX_GPUS,
     .doc = "GPUs (ports gpu[*]); the loader sets the platform's GPU count"},
    {.key = "placement",
     .offset = offsetof(Host, placement),
     .type = PT_ENUM,
     .def = "interleave",
     .choices = host_placement_choices,
     .doc = "home of global pages: interleave (page mod GPUs), split (each allocation "
            "in GPU-count parts), first_touch (the first GPU to ask), ladm (LADM's "
            "plan per kernel; with the dispatchers' cta_policy ladm)"},
    {.key = "page",
     .offset = offsetof(Host, page),
     .type = PT_SIZE,
     .def = "4KiB",
     .min = PLACEMENT_PAGE_MIN,
     .max = PLACEMENT_PAGE_MAX,
     .doc = "page size of the placement and of xlat (a power of two)"},
    {.key = "hint",
     .offset = offsetof(Host, hint),
     .type = PT_U64,
     .def = "0",
     .max = UINT32_MAX,
     .doc = "kernel_begin hint of every kernel (LADM; 0 = none), sent with the launch"},
    {.key = "once_hint",
     .offset = offsetof(Host, once_hint),
     .type = PT_U64,
     .def = "1",
     .max = UINT32_MAX,
     .doc = "ladm: the hint of kernels with intra-thread locality (the l2's once_hint)"},
};

static const PortDef host_ports[] = {
    {.name = "gpu",
     .count_param = "gpus",
     .required = true,
     .doc = "to gpu<g>.disp.host: launches out, their answers and xlat requests in"},
};

static const StatDef host_stat_defs[] = {
    STAT(Host, exec_ps, "exec_ps", STAT_TIME, "ps",
         "execution time: the end of the last kernel"),
    STAT(Host, kernels, "kernels", STAT_COUNTER, "", "kernel launches in the trace"),
    STAT(Host, kernels_done, "kernels_done", STAT_COUNTER, "", "kernels that ended"),
    STAT(Host, ctas, "ctas", STAT_COUNTER, "", "CTAs in the trace (grid sizes)"),
    STAT(Host, ctas_done, "ctas_done", STAT_COUNTER, "",
         "CTAs the GPUs reported run, summed over the launches answered"),
    STAT(Host, warp_insts, "warp_insts", STAT_COUNTER, "",
         "warp instructions the GPUs reported issued"),
    STAT(Host, xlats, "xlats", STAT_COUNTER, "", "page translations answered"),
    STAT(Host, pages, "pages", STAT_COUNTER, "", "pages placed (global and local)"),
    STAT(Host, oom_errors, "oom_errors", STAT_COUNTER, "",
         "pages placed on a home whose memory was full (frame wrapped)",
         .is_error = true),
    STAT(Host, xlat_errors, "xlat_errors", STAT_COUNTER, "",
         "malformed xlat requests (answered address_error)", .is_error = true),
    STAT(Host, ctl_errors, "ctl_errors", STAT_COUNTER, "",
         "unexpected control messages (dropped)", .is_error = true),
    STAT(Host, unfinished, "unfinished_errors", STAT_COUNTER, "",
         "kernels not ended when the run ended idle (an answer never came)",
         .is_error = true),
    STAT(Host, trace_errors, "trace_errors", STAT_COUNTER, "",
         "failed LADM analyses of kernel files (pages split, hint `hint`)",
         .is_error = true),
    STAT(Host, end_ps, "_end_ps", STAT_TIME, "ps",
         "time this GPU answered its last launch"),
    STAT(Host, busy_ps, "_busy_ps", STAT_TIME, "ps",
         "sum over kernels of the time from the launch to this GPU's answer"),
};

const BlockType host_type = {
    .name = "host",
    .doc =
        "trace-driven host: launches kernels on every GPU, places pages, times the run",
    .size = sizeof(Host),
    .params = host_params,
    .nparams = sizeof host_params / sizeof host_params[0],
    .ports = host_ports,
    .nports = sizeof host_ports / sizeof host_ports[0],
    .stat_defs = host_stat_defs,
    .nstat_defs = sizeof host_stat_defs / sizeof host_stat_defs[0],
    .realize = host_realize,
    .reset = host_reset,
    .on_recv = host_recv,
    .on_free = host_free_slot,
    .stats = host_stats,
    .finalize = host_finalize,
};
