/* A growable FIFO of transactions, for blocks that stage what they cannot send yet.
 * It owns one reference of every transaction in it: txn_fifo_push moves the caller's
 * reference in, txn_fifo_pop moves it out, txn_fifo_free drops what is left. An empty
 * FIFO needs no allocation: `TxnFifo f = {0};`. Blocks bound occupancy themselves
 * (read `count`). */
#ifndef MGTLM_TXN_FIFO_H
#define MGTLM_TXN_FIFO_H

#include <stddef.h>

#include "txn.h"

typedef struct TxnFifo {
    Txn **slot; /* ring of cap entries, owned */
    size_t cap;
    size_t head;
    size_t count;
} TxnFifo;

/* Appends t (reference moves in). Aborts with a message if memory is exhausted. */
void txn_fifo_push(TxnFifo *f, Txn *t);
/* First transaction (borrowed), NULL if empty. */
Txn *txn_fifo_peek(const TxnFifo *f);
/* Removes the first transaction (reference moves to the caller); NULL if empty. */
Txn *txn_fifo_pop(TxnFifo *f);
/* Drops every queued reference and frees the storage; f is empty afterwards. */
void txn_fifo_free(TxnFifo *f);

#endif
