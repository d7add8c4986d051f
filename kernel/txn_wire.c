/* Transactions as bytes (see txn_wire.h). Layout of one transaction:
 * id u64, cmd u8, req_cmd u8, status u8, posted u8, src, dst, unit i16, addr u64,
 * len u32, born u64, declared-name length u16 and its bytes, a u32 mask of the
 * extension fields that are not 0 (bit i: txn_fields[i]) and one u64 per bit set, in
 * txn_fields order, flags u8 (1 data, 2 byte enables), len data bytes, len
 * byte-enable bytes, nparents u32 and the ids (u64), nthreads u32 and the threads
 * (addr u64, size u32).
 *
 * Decisions: the extension fields travel as a mask and the non-zero ones, since most
 * transactions set none or two of them (16 u64 every time were 128 of a plain read's
 * 177 bytes; now 53), and the decoder copies data and byte enables straight from
 * the input into the new transaction. */
#include "txn_wire.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum { TXN_WIRE_DATA = 1, TXN_WIRE_BE = 2 };

void txn_wire_bytes(TxnWireBuf *w, const void *src, size_t n)
{
    w->b = xgrow(w->b, &w->cap, w->n + n, 1, 4096);
    if (n) {
        memcpy(w->b + w->n, src, n);
    }
    w->n += n;
}

void txn_wire_u32(TxnWireBuf *w, uint32_t v)
{
    txn_wire_bytes(w, &v, sizeof v);
}

void txn_wire_u64(TxnWireBuf *w, uint64_t v)
{
    txn_wire_bytes(w, &v, sizeof v);
}

_Static_assert(TXN_FIELD_COUNT <= 32, "the extension-field mask is 32 bits");

void txn_wire_put(TxnWireBuf *w, const Txn *t)
{
    uint8_t small[4] = {(uint8_t)t->cmd, (uint8_t)t->req_cmd, (uint8_t)t->status,
                        t->posted};
    int16_t gpu[3] = {t->src, t->dst, t->unit};
    uint16_t nlen = t->declared ? (uint16_t)strlen(t->declared->name) : 0;
    uint64_t v[TXN_FIELD_COUNT];
    uint32_t mask = 0, set = 0;
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        uint64_t x = txn_field_get(t, &txn_fields[i]);
        if (x) {
            mask |= (uint32_t)1 << i;
            v[set++] = x;
        }
    }
    uint8_t flags = (t->data ? TXN_WIRE_DATA : 0) | (t->be ? TXN_WIRE_BE : 0);
    txn_wire_u64(w, t->id);
    txn_wire_bytes(w, small, sizeof small);
    txn_wire_bytes(w, gpu, sizeof gpu);
    txn_wire_u64(w, t->addr);
    txn_wire_u32(w, t->len);
    txn_wire_u64(w, t->born);
    txn_wire_bytes(w, &nlen, sizeof nlen);
    txn_wire_bytes(w, t->declared ? t->declared->name : "", nlen);
    txn_wire_u32(w, mask);
    txn_wire_bytes(w, v, 8 * (size_t)set);
    txn_wire_bytes(w, &flags, 1);
    if (t->data) {
        txn_wire_bytes(w, t->data, t->len);
    }
    if (t->be) {
        txn_wire_bytes(w, t->be, t->len);
    }
    txn_wire_u32(w, t->nparents);
    txn_wire_bytes(w, t->parents, 8 * (size_t)t->nparents);
    txn_wire_u32(w, t->nthreads);
    for (uint32_t i = 0; i < t->nthreads; i++) {
        txn_wire_u64(w, t->threads[i].addr);
        txn_wire_u32(w, t->threads[i].size);
    }
}

void txn_wire_free(TxnWireBuf *w)
{
    free(w->b);
    *w = (TxnWireBuf){0};
}

bool txn_wire_read(TxnWireIn *in, void *dst, size_t n)
{
    if (in->len - in->pos < n) {
        return false;
    }
    if (n) {
        memcpy(dst, in->b + in->pos, n);
    }
    in->pos += n;
    return true;
}

/* Points *at at the next n bytes of the input and skips them; false if fewer are
 * left. */
static bool txn_wire_span(TxnWireIn *in, size_t n, const uint8_t **at)
{
    if (in->len - in->pos < n) {
        return false;
    }
    *at = in->b + in->pos;
    in->pos += n;
    return true;
}

/* The declared command named by the n bytes at name, or NULL. */
static const TxnCmdDecl *txn_wire_decl(const TxnCmdDecl *const *decls, const char *name,
                                       size_t n)
{
    for (size_t i = 0; decls && decls[i]; i++) {
        if (strlen(decls[i]->name) == n && memcmp(decls[i]->name, name, n) == 0) {
            return decls[i];
        }
    }
    return NULL;
}

/* The variable part (declared name, extension fields, arrays) into tmp, whose arrays
 * of parents and threads are malloc'd here (freed by the caller whatever the result);
 * *data and *be point at the data and byte-enable bytes in the input (NULL if none). */
static bool txn_wire_get_rest(TxnWireIn *in, Txn *tmp, const TxnCmdDecl *const *decls,
                              const uint8_t **data, const uint8_t **be, SimError *err)
{
    uint16_t nlen;
    if (!txn_wire_read(in, &nlen, sizeof nlen) || in->len - in->pos < nlen) {
        return sim_error_set(err, "transaction encoding truncated");
    }
    if (nlen) {
        const char *name = (const char *)in->b + in->pos;
        if (!(tmp->declared = txn_wire_decl(decls, name, nlen))) {
            return sim_error_set(err, "transaction of unknown command '%.*s'", (int)nlen,
                                 name);
        }
        in->pos += nlen;
    }
    uint32_t mask;
    if (!txn_wire_read(in, &mask, sizeof mask)) {
        return sim_error_set(err, "transaction encoding truncated");
    }
    if (TXN_FIELD_COUNT < 32 && mask >> TXN_FIELD_COUNT) {
        return sim_error_set(err, "transaction encoding has unknown extension fields");
    }
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        uint64_t v = 0;
        if ((mask >> i & 1) && !txn_wire_read(in, &v, sizeof v)) {
            return sim_error_set(err, "transaction encoding truncated");
        }
        txn_field_set(tmp, &txn_fields[i], v);
    }
    uint8_t flags;
    bool ok = txn_wire_read(in, &flags, 1) &&
              (!(flags & TXN_WIRE_DATA) || txn_wire_span(in, tmp->len, data)) &&
              (!(flags & TXN_WIRE_BE) || txn_wire_span(in, tmp->len, be));
    ok = ok && txn_wire_read(in, &tmp->nparents, sizeof tmp->nparents) &&
         (in->len - in->pos) / sizeof *tmp->parents >= tmp->nparents;
    if (ok && tmp->nparents) {
        tmp->parents = xcalloc(tmp->nparents, sizeof *tmp->parents);
        ok = txn_wire_read(in, tmp->parents, tmp->nparents * sizeof *tmp->parents);
    }
    ok = ok && txn_wire_read(in, &tmp->nthreads, sizeof tmp->nthreads) &&
         (in->len - in->pos) / 12 >= tmp->nthreads;
    if (ok && tmp->nthreads) {
        tmp->threads = xcalloc(tmp->nthreads, sizeof *tmp->threads);
    }
    for (uint32_t i = 0; ok && i < tmp->nthreads; i++) {
        ok = txn_wire_read(in, &tmp->threads[i].addr, sizeof tmp->threads[i].addr) &&
             txn_wire_read(in, &tmp->threads[i].size, sizeof tmp->threads[i].size);
    }
    return ok || sim_error_set(err, "transaction encoding truncated");
}

Txn *txn_wire_get(TxnWireIn *in, Sim *sim, const TxnCmdDecl *const *decls, SimError *err)
{
    Txn tmp = {0};
    uint8_t small[4];
    int16_t gpu[3];
    if (!txn_wire_read(in, &tmp.id, sizeof tmp.id) ||
        !txn_wire_read(in, small, sizeof small) || !txn_wire_read(in, gpu, sizeof gpu) ||
        !txn_wire_read(in, &tmp.addr, sizeof tmp.addr) ||
        !txn_wire_read(in, &tmp.len, sizeof tmp.len) ||
        !txn_wire_read(in, &tmp.born, sizeof tmp.born)) {
        sim_error_set(err, "transaction encoding truncated");
        return NULL;
    }
    if (small[0] >= TXN_CMD_COUNT || small[1] >= TXN_CMD_COUNT ||
        small[2] >= TXN_STATUS_COUNT) {
        sim_error_set(err, "transaction encoding has a bad command or status");
        return NULL;
    }
    tmp.cmd = (TxnCmd)small[0];
    tmp.req_cmd = (TxnCmd)small[1];
    tmp.status = (TxnStatus)small[2];
    tmp.posted = small[3] != 0;
    tmp.src = gpu[0];
    tmp.dst = gpu[1];
    tmp.unit = gpu[2];
    const uint8_t *data = NULL, *be = NULL;
    Txn *t = NULL;
    if (txn_wire_get_rest(in, &tmp, decls, &data, &be, err)) {
        t = txn_copy(sim, &tmp);
        if (data) {
            txn_set_data(t, data);
        }
        if (be) {
            memcpy(txn_alloc_be(t), be, t->len);
        }
    }
    free(tmp.parents);
    free(tmp.threads);
    return t;
}
