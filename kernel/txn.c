/* Transactions: pooled, reference-counted generic payloads (see txn.h for ownership). */
#include "txn.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define TXN_SLAB 256

/* free_list, slabs and live belong to the pool's owner (the thread running its
 * partition). Another thread that releases one of its transactions pushes it onto
 * remote (a lock-free stack: any thread pushes, the owner takes the whole stack when
 * free_list runs dry) and counts it in remote_n; live - remote_n is what is alive.
 * remote sits on its own cache line, so the pushes do not slow the owner's list. */
struct TxnPool {
    Txn *free_list;
    Txn **slabs;
    size_t nslabs, slab_cap;
    size_t live; /* taken from the pool minus returned by the owner */
    _Alignas(64) _Atomic(Txn *) remote;
    atomic_size_t remote_n;
};

/* The pool the calling thread owns while it runs a partition (txn_pool_claim); NULL:
 * one thread runs everything and returns every transaction to its pool directly. */
static _Thread_local TxnPool *txn_owned;

static const char *const txn_cmd_names[TXN_CMD_COUNT] = {
    [TXN_READ] = "read",
    [TXN_WRITE] = "write",
    [TXN_ATOMIC] = "atomic",
    [TXN_INVALIDATE] = "invalidate",
    [TXN_RELEASE] = "release",
    [TXN_KERNEL_BEGIN] = "kernel_begin",
    [TXN_KERNEL_END] = "kernel_end",
    [TXN_RESP] = "resp",
    [TXN_DECLARED] = "declared",
};

static const char *const txn_status_names[TXN_STATUS_COUNT] = {
    [TXN_STATUS_INCOMPLETE] = "incomplete",
    [TXN_STATUS_OK] = "ok",
    [TXN_STATUS_ADDRESS_ERROR] = "address_error",
    [TXN_STATUS_COMMAND_ERROR] = "command_error",
    [TXN_STATUS_GENERIC_ERROR] = "generic_error",
};

#define TXN_FIELD(name, type, kind, response, doc)                                       \
    _Static_assert(sizeof(type) == 4 || sizeof(type) == 8, #name ": 32 or 64 bits");
#include "txn_fields.def"
#undef TXN_FIELD

const TxnField txn_fields[TXN_FIELD_COUNT] = {
#define TXN_FIELD(name_, type, kind_, response_, doc_)                                   \
    {.name = #name_,                                                                     \
     .offset = offsetof(Txn, name_),                                                     \
     .size = sizeof(type),                                                               \
     .max = (type)-1,                                                                    \
     .kind = TXN_FIELD_##kind_,                                                          \
     .response = response_,                                                              \
     .doc = doc_},
#include "txn_fields.def"
#undef TXN_FIELD
};

const TxnField *txn_field_find(const char *name)
{
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        if (strcmp(txn_fields[i].name, name) == 0) {
            return &txn_fields[i];
        }
    }
    return NULL;
}

uint64_t txn_field_get(const Txn *t, const TxnField *f)
{
    const char *p = (const char *)t + f->offset;
    if (f->size == sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

void txn_field_set(Txn *t, const TxnField *f, uint64_t v)
{
    char *p = (char *)t + f->offset;
    if (f->size == sizeof(uint64_t)) {
        memcpy(p, &v, sizeof v);
        return;
    }
    uint32_t w = (uint32_t)v;
    memcpy(p, &w, sizeof w);
}

TxnPool *txn_pool_new(void)
{
    size_t size = (sizeof(TxnPool) + 63) / 64 * 64;
    TxnPool *pool = aligned_alloc(64, size);
    if (pool) {
        memset(pool, 0, size);
        atomic_init(&pool->remote, NULL);
        atomic_init(&pool->remote_n, 0);
    }
    return pool;
}

void txn_pool_claim(TxnPool *pool)
{
    txn_owned = pool;
}

static void txn_drop_buffers(Txn *t)
{
    if (t->data && t->data != t->inline_data) {
        free(t->data);
    }
    if (t->be && t->be != t->inline_be) {
        free(t->be);
    }
    free(t->parents);
    free(t->threads);
    t->threads = NULL;
    t->nthreads = 0;
    t->data = NULL;
    t->be = NULL;
    t->parents = NULL;
    t->nparents = 0;
}

void txn_pool_free(TxnPool *pool)
{
    if (!pool) {
        return;
    }
    for (size_t s = 0; s < pool->nslabs; s++) {
        for (size_t i = 0; i < TXN_SLAB; i++) {
            if (pool->slabs[s][i].refs > 0) {
                txn_drop_buffers(&pool->slabs[s][i]);
            }
        }
        free(pool->slabs[s]);
    }
    free(pool->slabs);
    free(pool);
}

size_t txn_pool_live(const TxnPool *pool)
{
    return pool->live - atomic_load_explicit(&pool->remote_n, memory_order_relaxed);
}

static Txn *txn_pool_get(TxnPool *pool)
{
    if (!pool->free_list) {
        pool->free_list =
            atomic_exchange_explicit(&pool->remote, NULL, memory_order_acquire);
    }
    if (!pool->free_list) {
        pool->slabs = xgrow(pool->slabs, &pool->slab_cap, pool->nslabs + 1,
                            sizeof *pool->slabs, 16);
        Txn *slab = xcalloc_lines(TXN_SLAB, sizeof *slab);
        pool->slabs[pool->nslabs++] = slab;
        for (size_t i = 0; i < TXN_SLAB; i++) {
            slab[i].next_free = pool->free_list;
            pool->free_list = &slab[i];
        }
    }
    Txn *t = pool->free_list;
    pool->free_list = t->next_free;
    pool->live++;
    return t;
}

static Txn *txn_blank(Sim *sim, TxnCmd cmd, uint64_t addr, uint32_t len)
{
    TxnPool *pool = sim_txn_pool(sim);
    Txn *t = txn_pool_get(pool);
    t->cmd = cmd;
    t->req_cmd = cmd;
    t->declared = NULL;
    t->status = TXN_STATUS_INCOMPLETE;
    t->addr = addr;
    t->len = len;
    t->data = NULL;
    t->be = NULL;
    t->src = -1;
    t->dst = -1;
    t->unit = -1;
    t->posted = false;
#define TXN_FIELD(name, type, kind, response, doc) t->name = 0;
#include "txn_fields.def"
#undef TXN_FIELD
    t->nparents = 0;
    t->parents = NULL;
    t->nthreads = 0;
    t->threads = NULL;
    t->born = sim_now(sim);
    t->refs = 1;
    t->pool = pool;
    t->next_free = NULL;
    return t;
}

Txn *txn_new(Sim *sim, TxnCmd cmd, uint64_t addr, uint32_t len)
{
    Txn *t = txn_blank(sim, cmd, addr, len);
    t->id = sim_next_txn_id(sim);
    return t;
}

Txn *txn_new_response(Sim *sim, const Txn *req)
{
    Txn *t = txn_blank(sim, TXN_RESP, req->addr, req->len);
    t->id = req->id;
    t->req_cmd = req->cmd;
    t->declared = req->declared;
    t->status = TXN_STATUS_OK;
    t->src = req->src;
    t->dst = req->src;
    t->unit = req->unit;
#define TXN_FIELD(name, type, kind, response, doc) t->name = response ? req->name : 0;
#include "txn_fields.def"
#undef TXN_FIELD
    return t;
}

Txn *txn_new_declared(Sim *sim, const TxnCmdDecl *decl, uint64_t addr, uint32_t len)
{
    Txn *t = txn_new(sim, TXN_DECLARED, addr, len);
    t->declared = decl;
    return t;
}

Txn *txn_copy(Sim *sim, const Txn *t)
{
    Txn *c = txn_blank(sim, t->cmd, t->addr, t->len);
    TxnPool *pool = c->pool;
    *c = *t;
    c->refs = 1;
    c->pool = pool;
    c->next_free = NULL;
    c->data = NULL;
    c->be = NULL;
    c->parents = NULL;
    c->nparents = 0;
    c->threads = NULL;
    c->nthreads = 0;
    if (t->data) {
        txn_set_data(c, t->data);
    }
    if (t->be) {
        memcpy(txn_alloc_be(c), t->be, t->len);
    }
    txn_set_parents(c, t->parents, t->nparents);
    txn_set_threads(c, t->threads, t->nthreads);
    return c;
}

Txn *txn_ref(Txn *t)
{
    t->refs++;
    return t;
}

void txn_unref(Txn *t)
{
    if (t->refs == 0) {
        fprintf(stderr, "mgtlm: internal error: transaction %llu released twice\n",
                (unsigned long long)t->id);
        abort();
    }
    if (--t->refs > 0) {
        return;
    }
    txn_drop_buffers(t);
    TxnPool *pool = t->pool;
    if (txn_owned && pool != txn_owned) {
        atomic_fetch_add_explicit(&pool->remote_n, 1, memory_order_relaxed);
        Txn *top = atomic_load_explicit(&pool->remote, memory_order_relaxed);
        do {
            t->next_free = top;
        } while (!atomic_compare_exchange_weak_explicit(
            &pool->remote, &top, t, memory_order_release, memory_order_relaxed));
        return;
    }
    t->next_free = pool->free_list;
    pool->free_list = t;
    pool->live--;
}

static uint8_t *txn_buffer(uint8_t *inline_buf, uint32_t len)
{
    if (len <= TXN_INLINE_BYTES) {
        return inline_buf;
    }
    return xmalloc(len);
}

uint8_t *txn_fill_data(Txn *t)
{
    if (!t->data) {
        t->data = txn_buffer(t->inline_data, t->len);
    }
    return t->data;
}

uint8_t *txn_set_data(Txn *t, const uint8_t *src)
{
    txn_fill_data(t);
    if (src) {
        memcpy(t->data, src, t->len);
    } else {
        memset(t->data, 0, t->len);
    }
    return t->data;
}

uint8_t *txn_alloc_be(Txn *t)
{
    if (!t->be) {
        t->be = txn_buffer(t->inline_be, t->len);
    }
    memset(t->be, 0, t->len);
    return t->be;
}

void txn_set_parents(Txn *t, const uint64_t *ids, uint32_t n)
{
    free(t->parents);
    t->parents = NULL;
    t->nparents = 0;
    if (n == 0) {
        return;
    }
    t->parents = xmalloc(n * sizeof *ids);
    memcpy(t->parents, ids, n * sizeof *ids);
    t->nparents = n;
}

void txn_set_threads(Txn *t, const TxnThread *threads, uint32_t n)
{
    free(t->threads);
    t->threads = NULL;
    t->nthreads = 0;
    if (n == 0) {
        return;
    }
    t->threads = xmalloc(n * sizeof *threads);
    memcpy(t->threads, threads, n * sizeof *threads);
    t->nthreads = n;
}

void txn_set_len(Txn *t, uint32_t len)
{
    uint64_t *parents = t->parents;
    uint32_t nparents = t->nparents;
    TxnThread *threads = t->threads;
    uint32_t nthreads = t->nthreads;
    t->parents = NULL;
    t->threads = NULL;
    txn_drop_buffers(t);
    t->parents = parents;
    t->nparents = nparents;
    t->threads = threads;
    t->nthreads = nthreads;
    t->len = len;
}

bool txn_needs_response(const Txn *t)
{
    switch (t->cmd) {
    case TXN_READ:
    case TXN_ATOMIC:
        return true;
    case TXN_WRITE:
        return !t->posted;
    default:
        return false;
    }
}

const char *txn_cmd_name(TxnCmd cmd)
{
    return cmd < TXN_CMD_COUNT ? txn_cmd_names[cmd] : "?";
}

const char *txn_cmd_label(const Txn *t)
{
    return t->cmd == TXN_DECLARED && t->declared ? t->declared->name
                                                 : txn_cmd_name(t->cmd);
}

const char *txn_req_label(const Txn *t)
{
    return t->req_cmd == TXN_DECLARED && t->declared ? t->declared->name
                                                     : txn_cmd_name(t->req_cmd);
}

bool txn_cmd_parse(const char *name, const TxnCmdDecl *const *decls, TxnCmd *cmd,
                   const TxnCmdDecl **decl)
{
    for (int i = 0; i < TXN_CMD_COUNT; i++) {
        if (i != TXN_DECLARED && strcmp(name, txn_cmd_names[i]) == 0) {
            *cmd = (TxnCmd)i;
            *decl = NULL;
            return true;
        }
    }
    for (size_t i = 0; decls && decls[i]; i++) {
        if (strcmp(name, decls[i]->name) == 0) {
            *cmd = TXN_DECLARED;
            *decl = decls[i];
            return true;
        }
    }
    return false;
}

const char *txn_status_name(TxnStatus s)
{
    return s < TXN_STATUS_COUNT ? txn_status_names[s] : "?";
}

bool txn_status_parse(const char *name, TxnStatus *out)
{
    for (int i = 0; i < TXN_STATUS_COUNT; i++) {
        if (strcmp(name, txn_status_names[i]) == 0) {
            *out = (TxnStatus)i;
            return true;
        }
    }
    return false;
}
