/* The sm's control side (hw/core/core_msg.h): launch, cta and finish from the
 * dispatcher, and the answers to its xlat requests, on the ctl port.
 *
 * - launch: decodes the CoreLaunch, queues kernel_begin (kernel_hint = its hint) on
 *   mem and answers at once with ctas = the CTAs the sm holds (sm_occupancy).
 * - cta: decodes the CTA, keeps it (owned until it ends) and hands it to the
 *   scheduler under the index of its record; answered when the scheduler reports it
 *   ended (its warps ended, its loads answered). The answer is made at once and the
 *   request, with its encoded CTA, dropped, so a resident CTA is held once.
 * - finish: answered once no CTA is resident and every request on mem is answered;
 *   release then kernel_end are queued on mem first; insts = the warp instructions
 *   issued since the launch. Posted writes (param `posted`) have no answer, so a
 *   kernel could end while they are still on their way (held in FinePack's queue, on
 *   a link) and the next kernel read what they overwrite: behind kernel_end (which
 *   flushes FinePack's queue) the sm sends one flush read of a byte per GPU it posted
 *   to in the kernel, at the last address it posted there, and answers finish when
 *   they return. A read does not pass a posted write on its path (PCIe's ordering
 *   rule, kept by every block on the write path: each is in order), so its answer
 *   means the writes before it have landed. With `flush` = writes every write counts,
 *   for a path whose write-back cache answers writes before they reach their home
 *   (DualOpt's RDMA$ writes its dirty lines back at kernel_end and holds later
 *   requests until they are acknowledged, so the flush read returns after them).
 *   A flush read is marked `uncached` (sm_mem.c): no cache before the home answers
 *   it, or it could return before the writes it follows (an L1 or CARVE's RDC
 *   holding the line).
 * - Anything malformed or out of place (a launch inside a kernel, a cta or finish
 *   outside one, a CTA beyond max_ctas or the free warp slots, a memory instruction
 *   of width 0 or above SM_COALESCE_MAX_WIDTH, 256 bytes) is answered with status
 *   generic_error and counted in ctl_errors; so is any other arrival on ctl (not
 *   answered: no response exists for it). */
#include <string.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/sm_occupancy.h"
#include "hw/core/sm_priv.h"

static void sm_answer(Sm *s, const Txn *req, TxnStatus status, uint32_t ctas,
                      uint64_t insts)
{
    Txn *r = txn_new_response(s->base.sim, req);
    r->status = status;
    r->ctas = ctas;
    r->insts = insts;
    (void)egress_push(&s->ctlq, r, 0);
}

/* Counts a bad control request and answers it with an error; drops t. */
static void sm_refuse(Sm *s, Txn *t)
{
    (*s->ctl_errors)++;
    sm_answer(s, t, TXN_STATUS_GENERIC_ERROR, 0, 0);
    txn_unref(t);
}

static void sm_ctl_launch(Sm *s, Txn *t)
{
    CoreLaunch l;
    if (s->in_kernel || !core_launch_decode(t->data, t->len, &l, NULL)) {
        sm_refuse(s, t);
        return;
    }
    s->in_kernel = true;
    s->launch = l;
    s->kernel_insts = 0;
    AtsKernelInfo k = {.shmem = l.shmem, .nregs = l.nregs};
    memcpy(k.grid, l.grid, sizeof k.grid);
    memcpy(k.block, l.block, sizeof k.block);
    SmResources r = sm_resources(s);
    sm_mem_control(s, TXN_KERNEL_BEGIN, l.hint);
    sm_answer(s, t, TXN_STATUS_OK, sm_occupancy(&r, &k, NULL), 0);
    txn_unref(t);
}

/* Every memory instruction has a width sm_coalesce takes. */
static bool sm_cta_ok(const CoreCta *c)
{
    for (size_t k = 0; k < c->ntable; k++) {
        const AtsInst *in = &c->table[k];
        if (ats_class_leaves_sm(in->cls) &&
            (in->width == 0 || in->width > SM_COALESCE_MAX_WIDTH)) {
            return false;
        }
    }
    return true;
}

static void sm_ctl_cta(Sm *s, Txn *t)
{
    uint32_t i = 0;
    while (i < s->max_ctas && s->ctas[i].used) {
        i++;
    }
    if (!s->in_kernel || i == s->max_ctas) {
        sm_refuse(s, t);
        return;
    }
    SmCtaRec *c = &s->ctas[i];
    if (!core_cta_decode(t->data, t->len, &c->cta, NULL)) {
        sm_refuse(s, t);
        return;
    }
    if (!sm_cta_ok(&c->cta) || !sm_sched_add_cta(s->sched, i, &c->cta)) {
        core_cta_free(&c->cta);
        sm_refuse(s, t);
        return;
    }
    c->used = true;
    c->resp = txn_new_response(s->base.sim, t);
    c->resp->status = TXN_STATUS_OK;
    txn_unref(t);
    if (s->resident++ == 0) {
        s->busy_since = sim_now(s->base.sim);
    }
    sm_sched_release_all(s->sched);
    sm_ctl_progress(s);
    sm_wake(s, 0);
}

static void sm_ctl_finish(Sm *s, Txn *t)
{
    if (!s->in_kernel || s->finish_req) {
        sm_refuse(s, t);
        return;
    }
    s->finish_req = t;
    sm_ctl_progress(s);
}

void sm_ctl_progress(Sm *s)
{
    SimTime now = sim_now(s->base.sim);
    uint32_t tag;
    while (sm_sched_take_done(s->sched, &tag)) {
        SmCtaRec *c = &s->ctas[tag];
        (void)egress_push(&s->ctlq, c->resp, 0);
        core_cta_free(&c->cta);
        *c = (SmCtaRec){0};
        (*s->ctas_done)++;
        if (--s->resident == 0) {
            *s->busy_ps += now - s->busy_since;
        }
    }
    if (s->finish_req && s->resident == 0 && idmap_count(&s->reqs) == 0) {
        if (!s->flushed) {
            s->flushed = true;
            sm_mem_control(s, TXN_RELEASE, 0);
            sm_mem_control(s, TXN_KERNEL_END, 0);
            for (uint32_t g = 0; g < 64; g++) {
                if (s->posted_gpus >> g & 1) {
                    sm_mem_flush_read(s, s->posted_last[g]);
                }
            }
            s->posted_gpus = 0;
            if (idmap_count(&s->reqs) > 0) {
                return;
            }
        }
        s->flushed = false;
        sm_answer(s, s->finish_req, TXN_STATUS_OK, 0, s->kernel_insts);
        txn_unref(s->finish_req);
        s->finish_req = NULL;
        s->in_kernel = false;
        (*s->kernels)++;
    }
}

static bool sm_is_xlat_answer(const Txn *t)
{
    return t->cmd == TXN_RESP && t->req_cmd == TXN_DECLARED &&
           t->declared == &core_cmd_xlat;
}

void sm_ctl_recv(Sm *s)
{
    Txn *t;
    while ((t = port_take(s->ctl)) != NULL) {
        if (txn_is(t, &core_cmd_launch)) {
            sm_ctl_launch(s, t);
        } else if (txn_is(t, &core_cmd_cta)) {
            sm_ctl_cta(s, t);
        } else if (txn_is(t, &core_cmd_finish)) {
            sm_ctl_finish(s, t);
        } else if (sm_is_xlat_answer(t)) {
            if (t->status != TXN_STATUS_OK) {
                (*s->status_errors)++;
            }
            if (sm_mem_translated(s, t->id, t->paddr)) {
                sm_wake(s, 0);
            } else {
                (*s->resp_unmatched)++;
            }
            txn_unref(t);
        } else {
            (*s->ctl_errors)++;
            txn_unref(t);
        }
    }
}

void sm_ctl_clear(Sm *s)
{
    for (uint64_t i = 0; i < s->max_ctas; i++) {
        SmCtaRec *c = &s->ctas[i];
        if (c->used) {
            txn_unref(c->resp);
            core_cta_free(&c->cta);
            *c = (SmCtaRec){0};
        }
    }
    if (s->finish_req) {
        txn_unref(s->finish_req);
        s->finish_req = NULL;
    }
    s->posted_gpus = 0;
    s->flushed = false;
    s->resident = 0;
    s->in_kernel = false;
}
