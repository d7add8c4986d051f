/* The sm's memory side: the translation table, the memory pipe and the transactions
 * of its global and local accesses (docs/cores.md "The sm block").
 *
 * - Translation: every page (param `page`) of each space (global, local) is asked for
 *   once with an xlat on ctl; the table keeps every answer for the rest of the run
 *   (no capacity limit, no eviction: a decision). Physical address = the answer's
 *   paddr + the offset in the page; dst = the home of the physical address.
 * - Accesses (LDG, STG, LDL, STL): the warp's lanes are coalesced into 128 B line
 *   requests (sm_coalesce); each line request leaves as one transaction per touched
 *   `line`-byte piece, from the first touched sector of the piece to the end of its
 *   last touched sector; a write carries core_value(vaddr, kernel) in its touched
 *   bytes, and byte enables marking them. With `wavefront` the access is instead one
 *   transaction whose threads are the lanes (a lane crossing a page becomes two
 *   threads), addr = the first thread's, len = the sum of the sizes.
 * - Atomics (ATOMG, RED): one fetch-and-add (hw/lib/amo.h) per active lane, operand
 *   1, of width 4 or 8 (any other width: 4 bytes, counted in atomic_width; the reader
 *   takes 4, 8 and 16 only); translated by the page of the lane's first byte (the
 *   reader takes only naturally aligned atomics, which never cross a page).
 * - Writes are non-posted unless `posted`; every transaction with a response is
 *   tracked until it is answered (finish waits for all), but only loads (LDG, LDL,
 *   ATOMG) hold their warp (sm_sched_load_done at the last answer).
 * - The pipe sends one transaction per cycle in issue order and takes a new
 *   instruction only when nothing is left to send and no earlier transaction is due
 *   in this cycle or later (sm.c explains the tick). */
#include <string.h>

#include "hw/core/core_value.h"
#include "hw/core/sm_priv.h"
#include "kernel/bits.h"
#include "kernel/xalloc.h"

static uint32_t sm_space(AtsClass cls)
{
    return cls == ATS_LDL || cls == ATS_STL ? CORE_SPACE_LOCAL : CORE_SPACE_GLOBAL;
}

static bool sm_atomic(AtsClass cls)
{
    return cls == ATS_ATOMG || cls == ATS_RED;
}

/* Bytes one lane's atomic touches. */
static uint32_t sm_atomic_len(uint32_t width)
{
    return width == 4 || width == 8 ? width : 4;
}

static uint64_t sm_page_key(const Sm *s, uint64_t vaddr, uint32_t space)
{
    return (vaddr >> s->page_shift) << 1 | space;
}

/* The last byte of [a, a + w), clamped to the end of the address space. */
static uint64_t sm_last_byte(uint64_t a, uint32_t w)
{
    return a > UINT64_MAX - (w - 1) ? UINT64_MAX : a + (w - 1);
}

/* True if the page of vaddr is translated; else asks for it (once) and says false. */
static bool sm_page_ready(Sm *s, uint64_t vaddr, uint32_t space)
{
    uint64_t key = sm_page_key(s, vaddr, space), v;
    if (idmap_get(&s->pages, key, &v)) {
        return v != SM_XLAT_PENDING;
    }
    Block *b = &s->base;
    Txn *t = txn_new_declared(b->sim, &core_cmd_xlat, vaddr & ~(s->page - 1),
                              (uint32_t)s->page);
    t->space = space;
    t->src = (int16_t)(b->gpu >= 0 ? b->gpu : 0);
    t->dst = t->src;
    t->unit = (int16_t)(b->index >= 0 ? b->index : 0);
    idmap_insert(&s->pages, key, SM_XLAT_PENDING);
    idmap_insert(&s->xlat_ids, t->id, key);
    (*s->xlats)++;
    (void)egress_push(&s->ctlq, t, 0);
    return false;
}

/* True if every page the instruction touches is translated (asking for the others).
 * An access within one page (the lowest address and the last byte of the highest
 * share it: most accesses) asks for that page once; others walk the lanes, asking for
 * each page in lane order (a GEMM's accesses cost 1,260 instructions each before:
 * docs/performance.md, "Coalescing in runs (stop 38)"). */
static bool sm_pages_ready(Sm *s, const CoreWarp *w, const AtsInst *in)
{
    uint32_t space = sm_space(in->cls);
    bool atomic = sm_atomic(in->cls);
    const uint64_t *addrs = w->addrs + in->addr_off;
    uint32_t lanes = (uint32_t)bits_popcount32(in->mask);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t k = 0; k < lanes; k++) {
        lo = addrs[k] < lo ? addrs[k] : lo;
        hi = addrs[k] > hi ? addrs[k] : hi;
    }
    uint64_t top = atomic ? hi : sm_last_byte(hi, in->width);
    if (lanes > 0 && lo >> s->page_shift == top >> s->page_shift) {
        return sm_page_ready(s, lo, space);
    }
    uint64_t last_page = UINT64_MAX;
    bool ready = true;
    for (uint32_t k = 0; k < lanes; k++) {
        uint64_t ends[2] = {addrs[k],
                            atomic ? addrs[k] : sm_last_byte(addrs[k], in->width)};
        for (int e = 0; e < 2; e++) {
            uint64_t page = ends[e] >> s->page_shift;
            if (page != last_page) {
                last_page = page;
                ready = sm_page_ready(s, ends[e], space) && ready;
            }
        }
    }
    return ready;
}

bool sm_mem_open(void *ctx)
{
    Sm *s = ctx;
    return !s->pipe_taken && egress_len(&s->memq) == 0 && s->pipe_next <= s->last_cycle;
}

bool sm_mem_accept(void *ctx, uint32_t slot, const AtsInst *in)
{
    Sm *s = ctx;
    if (!sm_mem_open(s)) {
        return false;
    }
    /* Waiting for its pages: only an xlat answer (or a new CTA) can change that, so
     * the scheduler holds the warp until then (sm_sched_release_all). */
    if (in->cls != ATS_MEMBAR && !sm_pages_ready(s, sm_sched_warp(s->sched, slot), in)) {
        sm_sched_hold(s->sched, slot);
        return false;
    }
    s->pipe_taken = true;
    return true;
}

/* The physical address of vaddr (its page is translated). */
static uint64_t sm_paddr(const Sm *s, uint64_t vaddr, uint32_t space)
{
    uint64_t v = 0;
    (void)idmap_get(&s->pages, sm_page_key(s, vaddr, space), &v);
    return v + (vaddr & (s->page - 1));
}

static uint32_t sm_rec_new(Sm *s)
{
    if (s->nfree_recs > 0) {
        return s->rec_free[--s->nfree_recs];
    }
    if (s->nrecs == s->recs_cap) {
        s->recs_cap = s->recs_cap ? 2 * s->recs_cap : 64;
        s->recs = xrealloc_array(s->recs, s->recs_cap, sizeof *s->recs);
        s->rec_free = xrealloc_array(s->rec_free, s->recs_cap, sizeof *s->rec_free);
    }
    return s->nrecs++;
}

/* A transaction of the access, addressed by the physical address of vaddr. */
static Txn *sm_txn(Sm *s, TxnCmd cmd, uint64_t vaddr, uint32_t len, uint32_t space)
{
    Block *b = &s->base;
    uint64_t paddr = sm_paddr(s, vaddr, space);
    Txn *t = txn_new(b->sim, cmd, paddr, len);
    t->src = (int16_t)(b->gpu >= 0 ? b->gpu : 0);
    t->dst = (int16_t)block_home(b, paddr);
    t->unit = (int16_t)(b->index >= 0 ? b->index : 0);
    t->posted = cmd == TXN_WRITE && s->posted;
    return t;
}

/* Queues t in the pipe's next free cycle, tracked under record ri if answered. */
static void sm_send(Sm *s, Txn *t, uint32_t ri, uint64_t cycle)
{
    if (txn_needs_response(t)) {
        idmap_insert(&s->reqs, t->id, ri);
        s->recs[ri].left++;
    }
    (*(t->cmd == TXN_READ ? s->reads : t->cmd == TXN_WRITE ? s->writes : s->atomics))++;
    bool flushed = t->posted || (t->cmd == TXN_WRITE && s->flush == SM_FLUSH_WRITES);
    if (flushed && t->dst >= 0 && t->dst < 64) {
        s->posted_gpus |= 1ull << t->dst;
        s->posted_last[t->dst] = t->addr;
    }
    sm_check_sent(s, t);
    uint64_t due = s->pipe_next > cycle ? s->pipe_next : cycle;
    s->pipe_next = due + 1;
    egress_add(&s->memq, t, (SimTime)due * s->base.plat->clock);
}

/* The pieces of line request r: one transaction per touched `line`-byte piece. */
static void sm_send_pieces(Sm *s, const SmLineReq *r, bool write, uint32_t space,
                           uint32_t ri, uint64_t cycle)
{
    uint32_t per = (uint32_t)(s->line / SM_SECTOR_BYTES);
    uint32_t pieces = SM_LINE_BYTES / (uint32_t)s->line;
    for (uint32_t p = 0; p < pieces; p++) {
        uint32_t sec = (r->sectors >> (p * per)) & ((1u << per) - 1);
        if (sec == 0) {
            continue;
        }
        uint32_t first = p * per + (uint32_t)__builtin_ctz(sec);
        uint32_t last = p * per + 31 - (uint32_t)__builtin_clz(sec);
        uint64_t vaddr = r->line + first * SM_SECTOR_BYTES;
        uint32_t len = (last - first + 1) * SM_SECTOR_BYTES;
        Txn *t = sm_txn(s, write ? TXN_WRITE : TXN_READ, vaddr, len, space);
        if (write) {
            uint8_t *d = txn_set_data(t, NULL);
            uint8_t *be = txn_alloc_be(t);
            for (uint32_t i = 0; i < len; i++) {
                uint32_t off = first * SM_SECTOR_BYTES + i;
                if (r->bytes[off / 64] >> (off % 64) & 1) {
                    be[i] = 0xff;
                    d[i] = core_value(vaddr + i, s->launch.kernel);
                }
            }
        }
        sm_send(s, t, ri, cycle);
    }
}

/* The access as one transaction with the lanes as threads (wavefront mode). */
static void sm_send_wavefront(Sm *s, const uint64_t *addrs, const AtsInst *in, bool write,
                              uint32_t ri, uint64_t cycle)
{
    uint32_t space = sm_space(in->cls);
    uint32_t lanes = (uint32_t)bits_popcount32(in->mask);
    TxnThread th[2 * ATS_LANES];
    uint64_t va[2 * ATS_LANES];
    uint32_t n = 0, sum = 0;
    for (uint32_t k = 0; k < lanes; k++) {
        uint64_t a = addrs[k];
        uint64_t left = sm_last_byte(a, in->width) - a + 1;
        while (left > 0) {
            uint64_t room = s->page - (a & (s->page - 1));
            uint32_t take = (uint32_t)(left < room ? left : room);
            va[n] = a;
            th[n++] = (TxnThread){.addr = sm_paddr(s, a, space), .size = take};
            sum += take;
            left -= take;
            a += take;
        }
    }
    if (n == 0) {
        return;
    }
    Txn *t = sm_txn(s, write ? TXN_WRITE : TXN_READ, va[0], sum, space);
    txn_set_threads(t, th, n);
    if (write) {
        uint8_t *d = txn_set_data(t, NULL);
        uint32_t off = 0;
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t k = 0; k < th[i].size; k++) {
                d[off++] = core_value(va[i] + k, s->launch.kernel);
            }
        }
    }
    sm_send(s, t, ri, cycle);
}

static void sm_send_atomics(Sm *s, const uint64_t *addrs, const AtsInst *in, uint32_t ri,
                            uint64_t cycle)
{
    uint32_t lanes = (uint32_t)bits_popcount32(in->mask);
    uint32_t len = sm_atomic_len(in->width);
    if (len != in->width) {
        (*s->atomic_width)++;
    }
    for (uint32_t k = 0; k < lanes; k++) {
        Txn *t = sm_txn(s, TXN_ATOMIC, addrs[k], len, CORE_SPACE_GLOBAL);
        txn_set_data(t, NULL)[0] = 1;
        sm_send(s, t, ri, cycle);
    }
}

/* The last answer of record ri arrived in `cycle` (or it had none). */
static void sm_rec_done(Sm *s, uint32_t ri, uint64_t cycle)
{
    const SmMemRec *r = &s->recs[ri];
    if (r->load) {
        sm_sched_load_done(s->sched, r->slot, r->inst, cycle);
        sm_wake(s, cycle + 1);
    }
    s->rec_free[s->nfree_recs++] = ri;
}

void sm_mem_issue(Sm *s, const SmIssue *is, uint64_t cycle)
{
    const AtsInst *in = is->in;
    if (in->cls == ATS_MEMBAR) {
        sm_mem_control(s, TXN_RELEASE, 0);
        return;
    }
    const CoreWarp *w = &s->ctas[is->cta].cta.warps[is->warp];
    const uint64_t *addrs = w->addrs + in->addr_off;
    uint32_t ri = sm_rec_new(s);
    s->recs[ri] = (SmMemRec){.slot = is->slot,
                             .inst = is->inst,
                             .issued = sim_now(s->base.sim),
                             .load = is->kind == SM_ISSUE_LOAD};
    if (sm_atomic(in->cls)) {
        sm_send_atomics(s, addrs, in, ri, cycle);
    } else {
        bool write = in->cls == ATS_STG || in->cls == ATS_STL;
        size_t n = sm_coalesce(addrs, in->mask, in->width, s->lines);
        *s->line_reqs += n;
        if (s->wavefront) {
            sm_send_wavefront(s, addrs, in, write, ri, cycle);
        } else {
            for (size_t i = 0; i < n; i++) {
                sm_send_pieces(s, &s->lines[i], write, sm_space(in->cls), ri, cycle);
            }
        }
    }
    if (s->recs[ri].left == 0) {
        sm_rec_done(s, ri, cycle);
    }
}

void sm_mem_flush_read(Sm *s, uint64_t paddr)
{
    uint32_t ri = sm_rec_new(s);
    s->recs[ri] = (SmMemRec){.issued = sim_now(s->base.sim)};
    Block *b = &s->base;
    Txn *t = txn_new(b->sim, TXN_READ, paddr, 1);
    t->src = (int16_t)(b->gpu >= 0 ? b->gpu : 0);
    t->dst = (int16_t)block_home(b, paddr);
    t->unit = (int16_t)(b->index >= 0 ? b->index : 0);
    t->uncached = 1;
    sm_send(s, t, ri, sm_cycle_of(s, sim_now(b->sim)));
    (*s->flush_reads)++;
    sm_wake(s, 0);
}

void sm_mem_control(Sm *s, TxnCmd cmd, uint32_t hint)
{
    Block *b = &s->base;
    Txn *t = txn_new(b->sim, cmd, 0, 0);
    t->src = (int16_t)(b->gpu >= 0 ? b->gpu : 0);
    t->dst = t->src;
    t->unit = (int16_t)(b->index >= 0 ? b->index : 0);
    t->kernel_hint = hint;
    egress_add(&s->memq, t, sim_now(b->sim));
    sm_mem_pump(s);
}

void sm_mem_pump(Sm *s)
{
    s->mem_blocked = !egress_pump(&s->memq);
}

void sm_mem_recv(Sm *s)
{
    SimTime now = sim_now(s->base.sim);
    Txn *t;
    while ((t = port_take(s->mem)) != NULL) {
        uint64_t ri;
        if (t->cmd != TXN_RESP || !idmap_remove(&s->reqs, t->id, &ri)) {
            (*s->resp_unmatched)++;
            txn_unref(t);
            continue;
        }
        if (t->status != TXN_STATUS_OK) {
            (*s->status_errors)++;
        }
        sm_check_resp(s, t);
        SmMemRec *r = &s->recs[ri];
        if (t->req_cmd == TXN_READ) {
            stat_hist_add(s->read_latency, now - r->issued);
        }
        if (--r->left == 0) {
            sm_rec_done(s, (uint32_t)ri, sm_cycle_of(s, now));
        }
        txn_unref(t);
    }
    sm_ctl_progress(s);
}

bool sm_mem_translated(Sm *s, uint64_t id, uint64_t paddr)
{
    uint64_t key;
    if (!idmap_remove(&s->xlat_ids, id, &key)) {
        return false;
    }
    (void)idmap_remove(&s->pages, key, NULL);
    idmap_insert(&s->pages, key, paddr);
    sm_check_translated(s, key, paddr);
    sm_sched_release_all(s->sched);
    return true;
}

void sm_mem_clear(Sm *s)
{
    egress_clear(&s->memq);
    egress_clear(&s->ctlq);
    idmap_destroy(&s->pages);
    idmap_destroy(&s->xlat_ids);
    idmap_destroy(&s->reqs);
    s->nrecs = 0;
    s->nfree_recs = 0;
    s->pipe_next = 0;
    s->mem_blocked = false;
}
