/* TxnFifo: a ring of transaction pointers that doubles when full (see txn_fifo.h).
 * Its capacity is a power of two (16, then doubled), so positions wrap with a mask:
 * ports push and pop through it on every transaction. */
#include "txn_fifo.h"

#include <stdlib.h>

#include "xalloc.h"

static void txn_fifo_grow(TxnFifo *f)
{
    size_t cap = f->cap ? f->cap * 2 : 16;
    Txn **slot = xmalloc(cap * sizeof *slot);
    for (size_t i = 0; i < f->count; i++) {
        slot[i] = f->slot[(f->head + i) & (f->cap - 1)];
    }
    free(f->slot);
    f->slot = slot;
    f->cap = cap;
    f->head = 0;
}

void txn_fifo_push(TxnFifo *f, Txn *t)
{
    if (f->count == f->cap) {
        txn_fifo_grow(f);
    }
    f->slot[(f->head + f->count) & (f->cap - 1)] = t;
    f->count++;
}

Txn *txn_fifo_peek(const TxnFifo *f)
{
    return f->count ? f->slot[f->head] : NULL;
}

Txn *txn_fifo_pop(TxnFifo *f)
{
    if (f->count == 0) {
        return NULL;
    }
    Txn *t = f->slot[f->head];
    f->head = (f->head + 1) & (f->cap - 1);
    f->count--;
    return t;
}

void txn_fifo_free(TxnFifo *f)
{
    while (f->count > 0) {
        txn_unref(txn_fifo_pop(f));
    }
    free(f->slot);
    *f = (TxnFifo){0};
}
