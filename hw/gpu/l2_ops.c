/* Cache operations of the l2 block (see l2.c for the model and its decisions):
 * local-data accesses from `up`, remote-data accesses from `rq`, line fills,
 * write-backs, evictions and invalidates. */
#include <stdlib.h>
#include <string.h>

#include "hw/gpu/l2_priv.h"
#include "kernel/xalloc.h"

bool l2_is_local(const L2 *c, uint64_t addr)
{
    return addr >= c->lo && addr < c->hi;
}

uint64_t l2_line_of(const L2 *c, uint64_t addr)
{
    return addr & ~(c->line - 1);
}

uint64_t l2_end(const Txn *t)
{
    return t->addr + (t->len ? t->len : 1);
}

static bool l2_fits(const L2 *c, const Txn *t)
{
    return t->len > 0 && (t->addr & (c->line - 1)) + t->len <= c->line;
}

/* The fill in flight for line (poisoned ones only if `any`), or NULL. */
static L2Fill *l2_fill_of(L2 *c, uint64_t line, bool any)
{
    for (size_t i = 0; i < c->nfills; i++) {
        if (c->fills[i].line == line && (any || !c->fills[i].poisoned)) {
            return &c->fills[i];
        }
    }
    return NULL;
}

/* True if a fill is in flight for any line overlapping t. */
static bool l2_fill_overlaps(L2 *c, const Txn *t)
{
    for (uint64_t a = l2_line_of(c, t->addr); a < l2_end(t); a += c->line) {
        if (l2_fill_of(c, a, true)) {
            return true;
        }
    }
    return false;
}

static void l2_add_waiter(L2Fill *f, Txn *t)
{
    f->w = xgrow(f->w, &f->capw, f->nw + 1, sizeof *f->w, 8);
    f->w[f->nw++] = t;
}

/* Takes the head of p, or nothing for a request that is already owned (p NULL). */
static void l2_take(Port *p)
{
    if (p) {
        port_take(p);
    }
}

/* Sends a read of the whole line, recorded as a fill waited on by t. */
static void l2_start_fill(L2 *c, uint64_t line, bool remote, Txn *t)
{
    Txn *r = txn_new(c->base.sim, TXN_READ, line, (uint32_t)c->line);
    r->src = (int16_t)c->own;
    r->dst = (int16_t)block_home(&c->base, line);
    r->unit = t->unit;
    c->fills = xgrow(c->fills, &c->capfills, c->nfills + 1, sizeof *c->fills, 8);
    L2Fill *f = &c->fills[c->nfills++];
    *f = (L2Fill){.id = r->id, .line = line, .remote = remote};
    l2_add_waiter(f, t);
    egress_push(remote ? &c->qnet : &c->qmem, r, c->latency);
}

/* Insertion policy (LADM, SPEC.md 5): remote lines iff remote caching is on; local
 * lines always under `twice`, under `once` only if a requester is this GPU. */
static bool l2_insert_allowed(const L2 *c, bool local, bool local_requester)
{
    if (!local) {
        return c->remote;
    }
    int mode = c->insert;
    if (mode == L2_INSERT_AUTO) {
        mode = c->once_now ? L2_INSERT_ONCE : L2_INSERT_TWICE;
    }
    return mode == L2_INSERT_TWICE || local_requester;
}

/* Writes the dirty bytes of way i back to memory (posted, byte-enabled). A fill of
 * the line in flight keeps a copy of them (its data was read before they arrive). */
static void l2_writeback(L2 *c, size_t i)
{
    L2Line *l = &c->a.l[i];
    if (!l2m_any(l->dmask)) {
        return;
    }
    for (size_t k = 0; k < c->nfills; k++) {
        L2Fill *f = &c->fills[k];
        if (f->line != l->addr) {
            continue;
        }
        for (uint32_t b = 0; b < c->line; b++) {
            if (l2m_bit(l->dmask, b)) {
                f->keep[b] = l2a_data(&c->a, i)[b];
                l2m_set(f->kmask, b, 1);
            }
        }
    }
    Txn *w = txn_new(c->base.sim, TXN_WRITE, l->addr, (uint32_t)c->line);
    w->src = w->dst = (int16_t)c->own;
    w->posted = true;
    txn_set_data(w, l2a_data(&c->a, i));
    uint8_t *be = txn_alloc_be(w);
    for (uint32_t k = 0; k < c->line; k++) {
        be[k] = l2m_bit(l->dmask, k) ? 0xff : 0;
    }
    memset(l->dmask, 0, sizeof l->dmask);
    (*c->writebacks)++;
    egress_push(&c->qmem, w, 0);
}

static void l2_drop(L2 *c, size_t i)
{
    l2_writeback(c, i);
    l2a_drop(&c->a, i);
}

/* A way for line, evicting (and writing back) its victim. */
static size_t l2_alloc(L2 *c, uint64_t line)
{
    size_t i = l2a_victim(&c->a, line);
    L2Line *l = &c->a.l[i];
    if (l->valid) {
        (*c->evictions)++;
        if (!l2_is_local(c, l->addr)) {
            (*c->remote_evictions)++;
        }
        l2_drop(c, i);
    }
    l2a_fill(&c->a, i, line);
    return i;
}

/* Answers t (consumed) through q after delay; reads carry len bytes from bytes. */
static void l2_respond(L2 *c, Egress *q, Txn *t, const uint8_t *bytes, SimTime delay)
{
    if (txn_needs_response(t)) {
        Txn *r = txn_new_response(c->base.sim, t);
        if (t->cmd == TXN_READ) {
            txn_set_data(r, bytes);
        }
        egress_push(q, r, delay);
    }
    txn_unref(t);
}

/* Writes the enabled bytes of t into way i (dirty for local lines). */
static void l2_write_line(L2 *c, size_t i, const Txn *t, bool dirty)
{
    L2Line *l = &c->a.l[i];
    uint32_t off = (uint32_t)(t->addr - l->addr);
    uint8_t *d = l2a_data(&c->a, i) + off;
    for (uint32_t k = 0; k < t->len; k++) {
        if (!t->be || t->be[k]) {
            d[k] = t->data ? t->data[k] : 0;
            l2m_set(l->vmask, off + k, 1);
            if (dirty) {
                l2m_set(l->dmask, off + k, 1);
            }
        }
    }
    l2a_touch(&c->a, i);
}

/* Drops every line overlapping t and sends t on through q (uncached path). */
static void l2_bypass(L2 *c, Txn *t, Egress *q)
{
    for (uint64_t a = l2_line_of(c, t->addr); a < l2_end(t); a += c->line) {
        long i = l2a_find(&c->a, a);
        if (i >= 0) {
            l2_drop(c, (size_t)i);
        }
    }
    (*c->bypasses)++;
    egress_push(q, t, c->latency);
}

static void l2_count(L2 *c, const Txn *t, bool local)
{
    if (t->cmd == TXN_READ) {
        (*(local ? c->reads : c->remote_reads))++;
    } else if (t->cmd == TXN_WRITE) {
        (*(local ? c->writes : c->remote_writes))++;
    } else {
        (*c->atomics)++;
    }
}

/* A read (local or remote line) that missed: joins a fill in flight or starts one.
 * False if a new fill cannot be sent now. */
static bool l2_read_miss(L2 *c, Port *p, Txn *t, bool remote)
{
    uint64_t line = l2_line_of(c, t->addr);
    L2Fill *f = l2_fill_of(c, line, false);
    Egress *q = remote ? &c->qnet : &c->qmem;
    if (!f && egress_len(q) >= c->base.buffer) {
        return false;
    }
    l2_take(p);
    l2_count(c, t, !remote);
    if (f) {
        (*c->merged)++;
        l2_add_waiter(f, t);
    } else {
        (*(remote ? c->remote_misses : c->misses))++;
        l2_start_fill(c, line, remote, t);
    }
    return true;
}

bool l2_local_access(L2 *c, Port *p, Txn *t)
{
    if (!l2_fits(c, t) || t->cmd == TXN_ATOMIC || !l2_is_local(c, t->addr)) {
        if (l2_fill_overlaps(c, t) || egress_len(&c->qmem) >= c->base.buffer) {
            return false;
        }
        l2_take(p);
        l2_count(c, t, true);
        l2_bypass(c, t, &c->qmem);
        return true;
    }
    uint64_t line = l2_line_of(c, t->addr);
    uint32_t off = (uint32_t)(t->addr - line);
    long i = l2a_find(&c->a, line);
    if (t->cmd == TXN_READ) {
        if (i < 0 || !l2m_all(c->a.l[i].vmask, off, t->len)) {
            return l2_read_miss(c, p, t, false);
        }
        l2_take(p);
        l2_count(c, t, true);
        (*c->hits)++;
        l2a_touch(&c->a, (size_t)i);
        l2_respond(c, &c->qup, t, l2a_data(&c->a, (size_t)i) + off, c->latency);
        return true;
    }
    if (l2_fill_of(c, line, true)) {
        return false;
    }
    if (i < 0 && !l2_insert_allowed(c, true, t->src == c->own)) {
        if (egress_len(&c->qmem) >= c->base.buffer) {
            return false;
        }
        l2_take(p);
        l2_count(c, t, true);
        (*c->once_skips)++;
        egress_push(&c->qmem, t, c->latency);
        return true;
    }
    l2_take(p);
    l2_count(c, t, true);
    if (i < 0) {
        (*c->misses)++;
        i = (long)l2_alloc(c, line);
    } else {
        (*c->hits)++;
    }
    l2_write_line(c, (size_t)i, t, true);
    l2_respond(c, &c->qup, t, NULL, c->latency);
    return true;
}

bool l2_remote_conflict(L2 *c, const Txn *t)
{
    if (!c->remote) {
        return false;
    }
    if (!l2_fits(c, t) || t->cmd == TXN_ATOMIC) {
        return l2_fill_overlaps(c, t);
    }
    return t->cmd != TXN_READ && l2_fill_of(c, l2_line_of(c, t->addr), true) != NULL;
}

bool l2_remote_access(L2 *c, Port *p, Txn *t)
{
    if (!c->remote) {
        if (egress_len(&c->qnet) >= c->base.buffer) {
            return false;
        }
        l2_take(p);
        (*c->passed)++;
        egress_push(&c->qnet, t, 0);
        return true;
    }
    if (!l2_fits(c, t) || t->cmd == TXN_ATOMIC) {
        if (l2_fill_overlaps(c, t) || egress_len(&c->qnet) >= c->base.buffer) {
            return false;
        }
        l2_take(p);
        l2_count(c, t, false);
        l2_fence_posted(c, t);
        if (t->cmd == TXN_READ && l2_fence_due(c, t)) {
            l2_fence_clear(c, t);
        }
        l2_bypass(c, t, &c->qnet);
        return true;
    }
    uint64_t line = l2_line_of(c, t->addr);
    long i = l2a_find(&c->a, line);
    if (t->cmd == TXN_READ && l2_fence_due(c, t)) {
        if (egress_len(&c->qnet) >= c->base.buffer) {
            return false;
        }
        l2_take(p);
        l2_count(c, t, false);
        l2_fence_clear(c, t);
        (*c->fenced_reads)++;
        egress_push(&c->qnet, t, c->latency);
        return true;
    }
    if (t->cmd == TXN_READ) {
        if (i < 0) {
            return l2_read_miss(c, p, t, true);
        }
        l2_take(p);
        l2_count(c, t, false);
        (*c->remote_hits)++;
        l2a_touch(&c->a, (size_t)i);
        l2_respond(c, &c->qrq, t, l2a_data(&c->a, (size_t)i) + (t->addr - line),
                   c->latency);
        return true;
    }
    if (l2_fill_of(c, line, true) || egress_len(&c->qnet) >= c->base.buffer) {
        return false;
    }
    l2_take(p);
    l2_count(c, t, false);
    l2_fence_posted(c, t);
    if (i >= 0) {
        (*c->remote_updates)++;
        l2_write_line(c, (size_t)i, t, false);
    }
    egress_push(&c->qnet, t, c->latency);
    return true;
}

bool l2_fill_done(L2 *c, Txn *resp)
{
    size_t k = 0;
    while (k < c->nfills && c->fills[k].id != resp->id) {
        k++;
    }
    if (k == c->nfills) {
        return false;
    }
    L2Fill f = c->fills[k];
    c->fills[k] = c->fills[--c->nfills];
    bool ok = resp->status == TXN_STATUS_OK && resp->data && resp->len == c->line;
    for (uint32_t b = 0; ok && b < c->line; b++) {
        if (l2m_bit(f.kmask, b)) {
            resp->data[b] = f.keep[b];
        }
    }
    long i = -1;
    if (ok && !f.poisoned) {
        i = l2a_find(&c->a, f.line);
        bool local_req = false;
        for (size_t w = 0; w < f.nw; w++) {
            local_req = local_req || f.w[w]->src == c->own;
        }
        if (i < 0 && l2_insert_allowed(c, !f.remote, local_req)) {
            i = (long)l2_alloc(c, f.line);
        } else if (i < 0) {
            (*c->once_skips)++;
        }
        if (i >= 0) {
            L2Line *l = &c->a.l[i];
            uint8_t *d = l2a_data(&c->a, (size_t)i);
            for (uint32_t b = 0; b < c->line; b++) {
                if (!l2m_bit(l->dmask, b)) {
                    d[b] = resp->data[b];
                }
            }
            l2m_set(l->vmask, 0, (uint32_t)c->line);
            l2a_touch(&c->a, (size_t)i);
        }
    }
    (*c->fills_done)++;
    Egress *q = f.remote ? &c->qrq : &c->qup;
    for (size_t w = 0; w < f.nw; w++) {
        Txn *t = f.w[w];
        if (!ok) {
            Txn *r = txn_new_response(c->base.sim, t);
            r->status =
                resp->status == TXN_STATUS_OK ? TXN_STATUS_GENERIC_ERROR : resp->status;
            egress_push(q, r, 0);
            txn_unref(t);
            continue;
        }
        const uint8_t *src = i >= 0 ? l2a_data(&c->a, (size_t)i) : resp->data;
        l2_respond(c, q, t, src + (t->addr - f.line), 0);
    }
    free(f.w);
    txn_unref(resp);
    return true;
}

void l2_invalidate(L2 *c, Txn *t, Egress *back)
{
    (*c->inv_received)++;
    if (t->inv_ack) {
        Txn *a = txn_new_declared(c->base.sim, &dir_cmd_inv_ack, t->addr, 0);
        a->src = (int16_t)c->own;
        a->dst = t->src;
        a->unit = t->unit;
        a->inv_ack = t->id;
        egress_push(back, a, 0);
        (*c->inv_acks)++;
    }
    bool hit = false;
    for (uint64_t a = l2_line_of(c, t->addr); a < l2_end(t); a += c->line) {
        long i = l2a_find(&c->a, a);
        if (i >= 0) {
            l2_drop(c, (size_t)i);
            hit = true;
        }
        L2Fill *f = l2_fill_of(c, a, false);
        if (f) {
            f->poisoned = true;
            (*c->inv_pending)++;
        }
    }
    if (hit) {
        (*c->inv_hits)++;
    }
    txn_unref(t);
}

void l2_fills_free(L2 *c)
{
    for (size_t k = 0; k < c->nfills; k++) {
        for (size_t w = 0; w < c->fills[k].nw; w++) {
            txn_unref(c->fills[k].w[w]);
        }
        free(c->fills[k].w);
    }
    free(c->fills);
    c->fills = NULL;
    c->nfills = c->capfills = 0;
}
