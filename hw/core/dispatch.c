/* dispatch: one GPU's kernel and CTA dispatcher (docs/cores.md "Kernels and the
 * dispatcher", SPEC.md 6.4): takes the host's launch of a kernel, hands the GPU's
 * CTAs to its SMs as they have room, and answers the host when the GPU's share of the
 * kernel is over.
 *
 * Ports: host (to host.gpu[g]); sm[k] (count `sms`) to gpu<g>.sm[k].ctl. Messages
 * (hw/core/core_msg.h), for the launch of kernel k:
 * 1. launch k (CoreLaunch of the kernel file's header, hint = the host launch's
 *    kernel_hint) goes to every SM; each answers with ctas = the CTAs it holds.
 * 2. Dispatch rounds: a round gives at most one CTA to each SM with a free CTA slot
 *    (answered its launch, fewer CTAs running than its ctas), in SM order, the GPU's
 *    CTAs in index order (cta_map.h, `cta_policy`). Rounds are at least `interval`
 *    apart: one runs when an SM's answer frees a slot (or the launch answers come
 *    in), at the earliest `interval` after the previous round, and after a round
 *    that left a slot free and CTAs to give another follows `interval` later.
 *    An SM answers a cta when the CTA has ended.
 * 3. When the GPU has no CTA left and every CTA is answered, finish k goes to every
 *    SM; when all have answered, the host's launch is answered with insts = the sum
 *    of theirs and ctas = the CTAs the GPU ran.
 * xlat requests of sm[k] go to the host (unit must be k); the host's answers go back
 * to sm[unit].
 *
 * Decisions:
 * - Without a trace (b->plat->trace NULL) there is no kernel: a launch is a
 *   ctl_error.
 * - The kernel's CTAs are read one ahead, from the trace's text or the scan's spool,
 *   with the rules of order, absence and errors of dispatch_read.c.
 * - cta_policy ladm (LADM's scheduler, docs/cores.md "LADM's policies") runs
 *   ladm_plan_kernel's analysis pass over the kernel file at the launch (ladm.h: it
 *   picks the kernel's scheduler; `page` must be the host's page, as batches are cut
 *   on its page boundaries), each dispatcher for itself, so no block shares state.
 *   Each GPU then reads the file twice; memory stays that of one CTA plus the
 *   analysis. A kernel named in the trace folder's ladm_hints file (ladm_hints.h,
 *   read at realize) gets the schedule of its hinted class instead of the
 *   analysis's. If the analysis fails (a malformed CTA), one trace error is counted and
 *   the kernel's CTAs go contiguous, so the run goes on and fails at its end.
 * - An SM that answers a launch with ctas 0 counts in fit_errors and gets no CTA; if
 *   no SM has room, the GPU's remaining CTAs are not run and the kernel finishes.
 * - An unexpected control message counts in ctl_errors and is dropped (an xlat with
 *   the wrong unit is counted and routed by its port).
 * Not modelled: a dispatcher's own latency beyond the wires and `interval`, or the
 * time LADM's analysis would take (LADM does it at compile time). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/core/core_msg.h"
#include "hw/core/dispatch_priv.h"
#include "kernel/xalloc.h"

static const char *const disp_policy_choices[] = {"contiguous", "round_robin", "ladm",
                                                  NULL};

void disp_trace_error(Disp *d, const char *msg)
{
    (*d->trace_errors)++;
    if (!d->reported) {
        sim_report(d->base.sim, "mgtlm: %s: %s", d->base.name, msg);
        d->reported = true;
    }
}

static Txn *disp_msg(Disp *d, const TxnCmdDecl *cmd, uint64_t addr, uint32_t len,
                     uint32_t k)
{
    Txn *t = txn_new_declared(d->base.sim, cmd, addr, len);
    t->src = (int16_t)d->base.gpu;
    t->dst = (int16_t)d->base.gpu;
    t->unit = (int16_t)k;
    return t;
}

static void disp_send_cta(Disp *d, uint32_t k)
{
    Txn *t = disp_msg(d, &core_cmd_cta, d->cta_index, (uint32_t)disp_cta_len(d), k);
    disp_cta_write(d, txn_fill_data(t));
    d->sm[k].busy++;
    d->inflight++;
    (*d->ctas)++;
    (void)egress_push(&d->sm[k].out, t, 0);
}

static bool disp_has_room(const Disp *d)
{
    for (uint32_t k = 0; k < d->sms; k++) {
        if (d->sm[k].launched && d->sm[k].busy < d->sm[k].room) {
            return true;
        }
    }
    return false;
}

/* Schedules a round if one could give a CTA: at the earliest `interval` after the
 * previous one. */
static void disp_kick(Disp *d)
{
    if (!d->running || d->finishing || (d->eof && !d->ready) || !disp_has_room(d)) {
        return;
    }
    SimTime at = sim_now(d->base.sim);
    if (d->had_round && d->last_round + d->interval > at) {
        at = d->last_round + d->interval;
    }
    sim_event_notify_at(&d->round_ev, at);
}

/* Sends finish once the GPU has no CTA left and every one is answered. */
static void disp_check_finish(Disp *d)
{
    if (!d->running || d->finishing || d->launched < d->sms || d->inflight > 0) {
        return;
    }
    bool room = false;
    for (uint32_t k = 0; k < d->sms; k++) {
        room = room || d->sm[k].room > 0;
    }
    if (room && disp_peek(d)) {
        return;
    }
    disp_close(d);
    d->finishing = true;
    for (uint32_t k = 0; k < d->sms; k++) {
        (void)egress_push(&d->sm[k].out, disp_msg(d, &core_cmd_finish, d->kernel, 0, k),
                          0);
    }
}

static void disp_round(void *subject, void *obj)
{
    (void)obj;
    Disp *d = subject;
    d->had_round = true;
    d->last_round = sim_now(d->base.sim);
    for (uint32_t k = 0; k < d->sms && d->running && !d->finishing; k++) {
        DispSm *s = &d->sm[k];
        if (s->launched && s->busy < s->room) {
            if (!disp_peek(d)) {
                break;
            }
            disp_send_cta(d, k);
        }
    }
    disp_kick(d);
    disp_check_finish(d);
}

/* The kernel's map under cta_policy; a failed LADM analysis is a trace error and
 * leaves the map contiguous. */
static bool disp_map(Disp *d, SimError *err)
{
    uint32_t n = d->base.plat->gpus;
    if (d->cta_policy == CTA_LADM && d->rd) {
        if (ladm_plan_kernel(d->ks.kernels[d->kernel].path, n, d->page, d->allocs,
                             d->ks.nallocs, d->hints[d->kernel], &d->map, NULL, NULL,
                             err)) {
            return true;
        }
        char msg[SIM_ERROR_MAX + 40];
        snprintf(msg, sizeof msg, "%s (LADM's analysis; CTAs contiguous)", err->msg);
        disp_trace_error(d, msg);
        return cta_map_init(&d->map, CTA_CONTIGUOUS, d->info.grid, n, err);
    }
    return cta_map_init(&d->map, (CtaPolicy)d->cta_policy, d->info.grid, n, err);
}

static void disp_start(Disp *d, Txn *t)
{
    uint32_t k = (uint32_t)t->addr;
    const CoreKernel *kn = &d->ks.kernels[k];
    SimError err;
    d->running = true;
    d->finishing = false;
    d->kernel = k;
    d->launch = t;
    d->got = d->want = 0;
    d->ready = false;
    d->eof = false;
    d->reported = false;
    d->launched = d->finished = 0;
    d->inflight = d->ran = d->insts = 0;
    (*d->kernels)++;
    d->rd = ats_reader_open(kn->path, &d->info, &err);
    const char *dir = d->base.plat->trace;
    bool scanned = d->rd && dir && trace_scan_held(dir);
    if (scanned) {
        ats_reader_trust(d->rd);
    }
    if (!d->rd) {
        disp_trace_error(d, err.msg);
        d->eof = true;
        d->info = kn->info;
    }
    if (disp_map(d, &err)) {
        d->want = cta_map_count(&d->map, (uint32_t)d->base.gpu);
        if (scanned) {
            disp_read_from_scan(d, dir);
        }
    } else {
        disp_trace_error(d, err.msg);
        disp_close(d);
    }
    CoreLaunch l = {.kernel = k,
                    .nregs = d->info.nregs,
                    .shmem = d->info.shmem,
                    .hint = t->kernel_hint,
                    .shmem_base = d->info.shmem_base,
                    .local_base = d->info.local_base};
    for (int i = 0; i < 3; i++) {
        l.grid[i] = d->info.grid[i];
        l.block[i] = d->info.block[i];
    }
    for (uint32_t s = 0; s < d->sms; s++) {
        DispSm *sm = &d->sm[s];
        sm->launched = sm->finished = false;
        sm->room = sm->busy = 0;
        Txn *m = disp_msg(d, &core_cmd_launch, k, CORE_LAUNCH_BYTES, s);
        core_launch_encode(&l, txn_set_data(m, NULL));
        (void)egress_push(&d->sm[s].out, m, 0);
    }
}

static void disp_from_host(Disp *d, Txn *t)
{
    if (txn_is(t, &core_cmd_launch) && !d->running && t->addr < d->ks.nkernels) {
        disp_start(d, t);
        return;
    }
    if (t->cmd == TXN_RESP && t->req_cmd == TXN_DECLARED &&
        t->declared == &core_cmd_xlat && t->unit >= 0 && (uint64_t)t->unit < d->sms) {
        (void)egress_push(&d->sm[t->unit].out, t, 0);
        return;
    }
    (*d->ctl_errors)++;
    txn_unref(t);
}

/* An answer of sm[k] to a launch, cta or finish; false if it was not expected. */
static bool disp_answer(Disp *d, uint32_t k, const Txn *t)
{
    DispSm *s = &d->sm[k];
    if (!d->running || t->status != TXN_STATUS_OK) {
        return false;
    }
    if (t->declared == &core_cmd_launch && !s->launched && t->addr == d->kernel) {
        s->launched = true;
        s->room = t->ctas;
        d->launched++;
        *d->fit_errors += t->ctas == 0;
    } else if (t->declared == &core_cmd_cta && s->busy > 0) {
        s->busy--;
        d->inflight--;
        d->ran++;
    } else if (t->declared == &core_cmd_finish && d->finishing && !s->finished &&
               t->addr == d->kernel) {
        s->finished = true;
        d->finished++;
        d->insts += t->insts;
        if (d->finished == d->sms) {
            Txn *r = txn_new_response(d->base.sim, d->launch);
            r->insts = d->insts;
            r->ctas = d->ran > UINT32_MAX ? UINT32_MAX : (uint32_t)d->ran;
            txn_unref(d->launch);
            d->launch = NULL;
            d->running = false;
            (void)egress_push(&d->to_host, r, 0);
        }
        return true;
    } else {
        return false;
    }
    disp_kick(d);
    disp_check_finish(d);
    return true;
}

static void disp_from_sm(Disp *d, uint32_t k, Txn *t)
{
    if (txn_is(t, &core_cmd_xlat)) {
        if (t->unit != (int16_t)k) {
            (*d->ctl_errors)++;
            t->unit = (int16_t)k;
        }
        (*d->xlats)++;
        (void)egress_push(&d->to_host, t, 0);
        return;
    }
    if (!(t->cmd == TXN_RESP && t->req_cmd == TXN_DECLARED && disp_answer(d, k, t))) {
        (*d->ctl_errors)++;
    }
    txn_unref(t);
}

static void disp_recv(Block *b, Port *p)
{
    Disp *d = (Disp *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (p == d->host) {
            disp_from_host(d, t);
        } else {
            disp_from_sm(d, (uint32_t)(p - d->sm[0].port), t);
        }
    }
}

static void disp_free_slot(Block *b, Port *p)
{
    Disp *d = (Disp *)b;
    egress_pump(p == d->host ? &d->to_host : &d->sm[p - d->sm[0].port].out);
}

static void disp_finalize(Block *b)
{
    Disp *d = (Disp *)b;
    if (d->sm) {
        for (uint32_t k = 0; k < d->sms; k++) {
            egress_destroy(&d->sm[k].out);
        }
        egress_destroy(&d->to_host);
    }
    disp_close(d);
    if (d->launch) {
        txn_unref(d->launch);
    }
    free(d->sm);
    free(d->allocs);
    free(d->hints);
    free(d->msg);
    if (d->plan) {
        core_cta_plan_free(d->plan);
        free(d->plan);
    }
    core_kernels_free(&d->ks);
    d->sm = NULL;
    d->plan = NULL;
    d->allocs = NULL;
    d->hints = NULL;
    d->msg = NULL;
    d->launch = NULL;
}

static bool disp_realize(Block *b, SimError *err)
{
    Disp *d = (Disp *)b;
    if (b->gpu < 0 || (uint32_t)b->gpu >= b->plat->gpus) {
        return sim_error_set(err, "%s: a dispatcher belongs to a GPU (gpu<g>.disp)",
                             b->name);
    }
    if ((d->page & (d->page - 1)) != 0) {
        return sim_error_set(err, "%s: page %llu is not a power of two", b->name,
                             (unsigned long long)d->page);
    }
    if (b->plat->trace && !core_kernels_load(b->plat->trace, &d->ks, err)) {
        return false;
    }
    d->hints = xcalloc(d->ks.nkernels ? d->ks.nkernels : 1, sizeof *d->hints);
    if (b->plat->trace && d->cta_policy == CTA_LADM &&
        !ladm_hints_load(b->plat->trace, &d->ks, b->plat->gpus, d->hints, err)) {
        free(d->hints);
        d->hints = NULL;
        core_kernels_free(&d->ks);
        return false;
    }
    d->allocs = xcalloc(d->ks.nallocs ? d->ks.nallocs : 1, sizeof *d->allocs);
    for (size_t i = 0; i < d->ks.nallocs; i++) {
        d->allocs[i] = (LadmAlloc){d->ks.allocs[i].base, d->ks.allocs[i].bytes};
    }
    d->host = block_port(b, "host", -1);
    d->plan = xmalloc(sizeof *d->plan);
    core_cta_plan_init(d->plan);
    d->sm = xcalloc(d->sms, sizeof *d->sm);
    for (uint32_t k = 0; k < d->sms; k++) {
        d->sm[k].port = block_port(b, "sm", (int)k);
        egress_init(&d->sm[k].out, b, d->sm[k].port, NULL);
    }
    egress_init(&d->to_host, b, d->host, NULL);
    sim_event_init(&d->round_ev, b->sim, SIM_PRIO_DEFAULT, disp_round, d, NULL);
    return true;
}

static const ParamDef disp_params[] = {
    {.key = "sms",
     .offset = offsetof(Disp, sms),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 4096,
     .doc = "SMs of the GPU (ports sm[*])"},
    {.key = "cta_policy",
     .offset = offsetof(Disp, cta_policy),
     .type = PT_ENUM,
     .def = "contiguous",
     .choices = disp_policy_choices,
     .doc = "CTAs to GPUs: contiguous (CTA i on GPU floor(i N / T)), round_robin "
            "(i mod N), ladm (LADM's scheduler per kernel, from its trace)"},
    {.key = "page",
     .offset = offsetof(Disp, page),
     .type = PT_SIZE,
     .def = "4KiB",
     .min = PLACEMENT_PAGE_MIN,
     .max = PLACEMENT_PAGE_MAX,
     .doc = "ladm: page size of the analysis, as the host's page (a power of two)"},
    {.key = "interval",
     .offset = offsetof(Disp, interval),
     .type = PT_TIME,
     .def = "1cycles",
     .doc = "least time between two dispatch rounds (each gives an SM at most one CTA)"},
};

static const PortDef disp_ports[] = {
    {.name = "host",
     .required = true,
     .doc = "to host.gpu[g]: launches in and their answers out; xlat out and answers in"},
    {.name = "sm",
     .count_param = "sms",
     .required = true,
     .doc = "to gpu<g>.sm[k].ctl: launch, cta, finish and xlat answers out; their "
            "answers and xlat requests in"},
};

static const StatDef disp_stat_defs[] = {
    STAT(Disp, ctas, "ctas", STAT_COUNTER, "", "CTAs given to the SMs"),
    STAT(Disp, kernels, "kernels", STAT_COUNTER, "", "kernel launches taken"),
    STAT(Disp, xlats, "xlats", STAT_COUNTER, "", "xlat requests passed to the host"),
    STAT(Disp, spooled, "ctas_spooled", STAT_COUNTER, "",
         "CTAs given from the scan's spool of messages, not read from the trace's text"
         " (the host decides: its temporary folder, free space and limits)",
         .host = true),
    STAT(Disp, absent, "ctas_absent", STAT_COUNTER, "",
         "CTAs of the GPU that its kernel files do not list (not run)"),
    STAT(Disp, fit_errors, "fit_errors", STAT_COUNTER, "",
         "launches an SM answered with ctas 0 (a CTA does not fit an empty SM)",
         .is_error = true),
    STAT(Disp, ctl_errors, "ctl_errors", STAT_COUNTER, "",
         "unexpected control messages (dropped)", .is_error = true),
    STAT(Disp, trace_errors, "trace_errors", STAT_COUNTER, "",
         "CTAs not run: out of index order or outside the grid; unreadable files; "
         "failed LADM analyses",
         .is_error = true),
};

const BlockType dispatch_type = {
    .name = "dispatch",
    .doc = "a GPU's CTA dispatcher: kernel launches from the host, CTAs to SMs by room",
    .size = sizeof(Disp),
    .params = disp_params,
    .nparams = sizeof disp_params / sizeof disp_params[0],
    .ports = disp_ports,
    .nports = sizeof disp_ports / sizeof disp_ports[0],
    .stat_defs = disp_stat_defs,
    .nstat_defs = sizeof disp_stat_defs / sizeof disp_stat_defs[0],
    .realize = disp_realize,
    .on_recv = disp_recv,
    .on_free = disp_free_slot,
    .finalize = disp_finalize,
};
