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
 * - The kernel file is opened at the launch and read in file order, one CTA ahead:
 *   the dispatcher holds at most the CTA it will give next (the running ones are the
 *   SMs'), in the reader (ats_reader_view), interns its instructions when it reads it
 *   (core_cta_plan: the message's size) and encodes it straight into the cta message
 *   when it gives it. Reading stops once the GPU's last CTA is read.
 * - When the run holds the trace's scan (the sms' data check, trace_scan_held), every
 *   line has been read in full without error before the run, so the dispatcher reads
 *   its CTAs trusted (ats_reader_trust): of the instructions that do not leave the SM
 *   only what the SM uses (class, mask, registers), not their addresses (most of the
 *   parse: GEMM's LDS lines carry 32 each); the cta messages are byte for byte the
 *   same. Without the scan (`check` false) every line is read in full here.
 * - Better still, with the scan held the dispatcher reads no text: the scan wrote
 *   every block's message to its spool (trace_spool.h), and the dispatcher passes
 *   over the records from its seek point's (trace_scan_spool), reads the header of
 *   each, skips other GPUs' by their length and copies its own into the cta message.
 *   The same rules of order, absence and errors apply; a record that cannot be read
 *   is a trace error that ends the kernel's file. A kernel the scan did not spool (the
 *   sms' `spool` false, no temporary file, a failed write, or a message past 4 GiB:
 *   trace_scan_spool) is read as text as above; the messages are the same bytes
 *   either way, and ctas_spooled counts the CTAs given from the spool.
 * - cta_policy ladm (LADM's scheduler, docs/cores.md "LADM's policies") runs
 *   ladm_plan_kernel's analysis pass over the kernel file at the launch (ladm.h: it
 *   picks the kernel's scheduler; `page` must be the host's page, as batches are cut
 *   on its page boundaries), each dispatcher for itself, so no block shares state.
 *   Each GPU then reads the file twice; memory stays that of one CTA plus the
 *   analysis. A kernel named in the trace folder's ladm_hints file (ladm_hints.h,
 *   read at realize) gets the schedule of its hinted class instead of the
 *   analysis's. If the analysis fails (a malformed CTA), one trace error is counted and
 *   the kernel's CTAs go contiguous, so the run goes on and fails at its end.
 * - Files list CTAs in index order, and may leave some out: Accel-Sim's
 *   post-processor writes thread blocks by index (x fastest) and skips those that
 *   recorded no instruction (util/tracer_nvbit/tracer_tool/traces-processing/
 *   post-traces-processing.cpp in accel-sim/accel-sim-framework, commit
 *   1453bb891df324c4148d1df5507c65b1d1d34702). So CTAs of other GPUs are skipped,
 *   CTAs of this GPU that the file leaves out count in ctas_absent (not an error,
 *   not run), and a CTA of this GPU whose index is not above the previous one of the
 *   GPU in the file (out of order, or twice), whose encoding passes 4 GiB (the
 *   length of a message), or a read error (the reader refuses a CTA outside the
 *   grid) counts in trace_errors (a model error; the first message
 *   per kernel goes to stderr) and is not run; a read error ends the kernel's file.
 *   Buffering CTAs to reorder them was rejected: a file in reverse order would make
 *   the dispatcher hold the whole grid. With the run's scan (the data check, on by
 *   default) the sm refuses a file out of order at load (sm.c); this count is for
 *   runs without it, which do not see a block out of order after their GPU's last
 *   CTA.
 * - Other GPUs' CTAs are passed over without parsing their instructions
 *   (ats_reader_skip). With the scan held and a plain (not .gz) file in index order,
 *   the reading starts at the scan's seek point before the GPU's first CTA
 *   (trace_scan_seek, at most TRACE_SEEK_MAX points per kernel): with contiguous CTAs
 *   the N GPUs then read the file about once between them, not (N + 1) / 2 times.
 * - An SM that answers a launch with ctas 0 counts in fit_errors and gets no CTA; if
 *   no SM has room, the GPU's remaining CTAs are not run and the kernel finishes.
 * - An unexpected control message counts in ctl_errors and is dropped (an xlat with
 *   the wrong unit is counted and routed by its port).
 * Not modelled: a dispatcher's own latency beyond the wires and `interval`, or the
 * time LADM's analysis would take (LADM does it at compile time). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_read.h"
#include "hw/core/core_kernels.h"
#include "hw/core/core_msg.h"
#include "hw/core/cta_map.h"
#include "hw/core/ladm.h"
#include "hw/core/ladm_hints.h"
#include "hw/core/trace_scan.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"
#include "kernel/xalloc.h"

/* What the dispatcher knows of one SM during a kernel. */
typedef struct DispSm {
    bool launched; /* answered the launch */
    bool finished; /* answered the finish */
    uint32_t room; /* CTAs it holds (its launch answer) */
    uint32_t busy; /* CTAs it runs now */
    Port *port;    /* borrowed */
    Egress out;    /* to the SM */
} DispSm;

typedef struct Disp {
    Block base;
    uint64_t sms;
    int cta_policy;
    SimTime interval;
    uint64_t page;
    CoreKernels ks;
    LadmAlloc *allocs; /* ks's allocations for ladm_plan_kernel (owned) */
    LadmClass *hints;  /* ladm: per launch, its ladm_hints class (owned) */
    DispSm *sm;        /* owned, sms entries */
    Port *host;
    Egress to_host;
    SimEvent round_ev;
    bool had_round;
    SimTime last_round;
    /* the running kernel */
    bool running, finishing;
    uint32_t kernel;
    Txn *launch; /* the host's launch request (owned reference) */
    AtsReader *rd;
    AtsKernelInfo info;
    CtaMap map;
    uint64_t want, got;      /* the GPU's CTAs; the rank after the last one taken */
    bool ready, eof;         /* next holds the next CTA; nothing more to read */
    const AtsCta *next;      /* the reader's view of it (borrowed while ready) */
    CoreCtaPlan *plan;       /* its message, interned (core_cta_plan) */
    const TraceScan *scan;   /* held while the kernel is read from its spool */
    const TraceSpool *sp;    /* that spool (NULL: the kernel is read as text) */
    uint64_t sp_at, sp_end;  /* the next record; the end of the kernel's records */
    uint32_t sp_len;         /* the message length of the record at sp_at */
    uint8_t *msg;            /* the next CTA's message read from the spool (owned), */
    size_t msg_len, msg_cap; /* of msg_len bytes */
    uint64_t cta_index;
    bool reported; /* a trace error of this kernel went to stderr */
    uint32_t launched, finished;
    uint64_t inflight, ran, insts;
    uint64_t *ctas, *kernels, *xlats, *absent, *fit_errors, *ctl_errors, *trace_errors;
    uint64_t *spooled;
} Disp;

static const char *const disp_policy_choices[] = {"contiguous", "round_robin", "ladm",
                                                  NULL};

static void disp_trace_error(Disp *d, const char *msg)
{
    (*d->trace_errors)++;
    if (!d->reported) {
        sim_report(d->base.sim, "mgtlm: %s: %s", d->base.name, msg);
        d->reported = true;
    }
}

static void disp_close(Disp *d)
{
    d->ready = false;
    ats_reader_close(d->rd);
    d->rd = NULL;
    trace_scan_put(d->scan);
    d->scan = NULL;
    d->sp = NULL;
    d->eof = true;
}

/* Reads the kernel from the scan's spool (trace_scan_spool) when the scan of dir holds
 * the kernel's messages: from the record of the seek point before the GPU's first
 * CTA, the text's reader closed. True if so. */
static bool disp_spool_open(Disp *d, const char *dir)
{
    SimError err;
    if (!d->rd || d->want == 0 || !(d->scan = trace_scan_get(dir, false, &err))) {
        return false;
    }
    uint64_t first = cta_map_nth(&d->map, (uint32_t)d->base.gpu, 0);
    d->sp = trace_scan_spool(d->scan, d->kernel, first, &d->sp_at, &d->sp_end);
    if (!d->sp) {
        trace_scan_put(d->scan);
        d->scan = NULL;
        return false;
    }
    ats_reader_close(d->rd); /* the header is read; the text is not needed */
    d->rd = NULL;
    return true;
}

/* The next block's x, y, z (got false at the end of the kernel): from the spool's
 * record, or the reader's next #BEGIN_TB. */
static bool disp_next_id(Disp *d, uint32_t id[3], bool *got, SimError *err)
{
    if (!d->sp) {
        return ats_reader_peek(d->rd, id, got, err);
    }
    *got = d->sp_at < d->sp_end;
    if (*got && !trace_spool_head(d->sp, d->sp_at, id, &d->sp_len)) {
        return sim_error_set(err, "%s: cannot read the trace's spool",
                             d->ks.kernels[d->kernel].path);
    }
    return true;
}

/* Passes over the next block (another GPU's, or out of order). */
static bool disp_skip(Disp *d, SimError *err)
{
    if (d->sp) {
        d->sp_at += 4 + (uint64_t)d->sp_len;
        return true;
    }
    bool got;
    return ats_reader_skip(d->rd, &got, err);
}

/* Starts reading the kernel file (the run holds the scan of the trace folder dir) at
 * the scan's seek point before the GPU's first CTA (trace_scan_seek): the blocks
 * before it are all of lower index, so none is the GPU's, and they are not read at
 * all. */
static void disp_seek(Disp *d, const char *dir)
{
    if (!d->rd || d->want == 0) {
        return;
    }
    SimError err;
    const TraceScan *s = trace_scan_get(dir, false, &err);
    if (!s) {
        return;
    }
    AtsMark at;
    uint64_t first = cta_map_nth(&d->map, (uint32_t)d->base.gpu, 0);
    if (trace_scan_seek(s, d->kernel, first, &at) && !ats_reader_seek(d->rd, &at, &err)) {
        disp_trace_error(d, err.msg);
        disp_close(d);
    }
    trace_scan_put(s);
}

/* Reads the message of the record at sp_at (the GPU's next CTA) into msg. */
static bool disp_spool_take(Disp *d, SimError *err)
{
    d->msg = xgrow(d->msg, &d->msg_cap, d->sp_len, 1, 4096);
    if (!trace_spool_body(d->sp, d->sp_at, d->sp_len, d->msg)) {
        return sim_error_set(err, "%s: cannot read the trace's spool",
                             d->ks.kernels[d->kernel].path);
    }
    d->msg_len = d->sp_len;
    d->sp_at += 4 + (uint64_t)d->sp_len;
    return true;
}

/* Reads ahead until the next CTA of the GPU is held or there is none left; true if
 * one is held. got is the rank (cta_map_rank) after the last CTA taken. */
static bool disp_peek(Disp *d)
{
    uint32_t g = (uint32_t)d->base.gpu;
    const char *path = d->ks.kernels[d->kernel].path;
    while (!d->ready && !d->eof) {
        if (d->got == d->want) {
            disp_close(d);
            break;
        }
        uint32_t id[3];
        bool got;
        SimError err;
        if (!disp_next_id(d, id, &got, &err)) {
            disp_trace_error(d, err.msg);
            disp_close(d);
            break;
        }
        if (!got) {
            *d->absent += d->want - d->got;
            disp_close(d);
            break;
        }
        uint64_t i = cta_map_index(&d->map, id[0], id[1], id[2]);
        uint64_t rank = cta_map_rank(&d->map, i);
        bool ours = cta_map_gpu(&d->map, i) == g;
        if (!ours || rank < d->got) {
            if (ours) {
                char msg[200];
                snprintf(msg, sizeof msg,
                         "%s: thread block %u,%u,%u (index %llu) after index %llu: not "
                         "in index order",
                         path, id[0], id[1], id[2], (unsigned long long)i,
                         (unsigned long long)cta_map_nth(&d->map, g, d->got - 1));
                disp_trace_error(d, msg);
            }
            if (!disp_skip(d, &err)) {
                disp_trace_error(d, err.msg);
                disp_close(d);
            }
            continue;
        }
        if (d->sp) {
            if (!disp_spool_take(d, &err)) {
                disp_trace_error(d, err.msg);
                disp_close(d);
                break;
            }
            *d->absent += rank - d->got;
            d->got = rank + 1;
            d->cta_index = i;
            d->ready = true;
            continue;
        }
        const AtsCta *c;
        if (!ats_reader_view(d->rd, &c, &got, &err)) {
            disp_trace_error(d, err.msg);
            disp_close(d);
            break;
        }
        *d->absent += rank - d->got;
        d->got = rank + 1;
        size_t n = core_cta_plan(d->plan, c);
        if (n > UINT32_MAX) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: thread block %u,%u,%u does not fit a message",
                     path, id[0], id[1], id[2]);
            disp_trace_error(d, msg);
            continue;
        }
        d->next = c;
        d->cta_index = i;
        d->ready = true;
    }
    return d->ready;
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
    size_t len = d->sp ? d->msg_len : d->plan->bytes;
    Txn *t = disp_msg(d, &core_cmd_cta, d->cta_index, (uint32_t)len, k);
    if (d->sp) {
        memcpy(txn_fill_data(t), d->msg, len);
        (*d->spooled)++;
    } else {
        core_cta_encode(d->plan, d->next, txn_fill_data(t));
    }
    d->ready = false;
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
        if (scanned && !disp_spool_open(d, dir)) {
            disp_seek(d, dir);
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
         "CTAs given from the scan's spool of messages, not read from the trace's text"),
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
