/* TxnQueue: a ring buffer of transaction pointers that doubles when full. */
#include "hw/rdma/txq.h"

#include <stdio.h>
#include <stdlib.h>

void txq_destroy(TxnQueue *q)
{
    while (q->count > 0) {
        txn_unref(txq_pop(q));
    }
    free(q->slot);
    *q = (TxnQueue){0};
}

static void txq_grow(TxnQueue *q)
{
    uint32_t cap = q->cap ? q->cap * 2 : 16;
    Txn **slot = malloc(sizeof *slot * cap);
    if (slot == NULL) {
        fprintf(stderr, "mgtlm: out of memory (transaction queue)\n");
        abort();
    }
    for (uint32_t i = 0; i < q->count; i++) {
        slot[i] = q->slot[(q->head + i) % q->cap];
    }
    free(q->slot);
    q->slot = slot;
    q->cap = cap;
    q->head = 0;
}

void txq_push(TxnQueue *q, Txn *t)
{
    if (q->count == q->cap) {
        txq_grow(q);
    }
    q->slot[(q->head + q->count) % q->cap] = t;
    q->count++;
}

Txn *txq_peek(const TxnQueue *q)
{
    return q->count ? q->slot[q->head] : NULL;
}

Txn *txq_pop(TxnQueue *q)
{
    if (q->count == 0) {
        return NULL;
    }
    Txn *t = q->slot[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return t;
}
