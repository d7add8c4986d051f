/* A growable FIFO of transactions, for blocks that stage what they cannot send yet
 * (rdma_cache, codec). It holds one reference per queued transaction: txq_push moves
 * the caller's reference in, txq_pop moves it out, txq_destroy drops what is left. */
#ifndef MGTLM_HW_RDMA_TXQ_H
#define MGTLM_HW_RDMA_TXQ_H

#include <stdint.h>

#include "kernel/txn.h"

typedef struct TxnQueue {
    Txn **slot; /* ring of cap entries, owned */
    uint32_t cap;
    uint32_t head;
    uint32_t count;
} TxnQueue;

/* An empty queue needs no allocation: `TxnQueue q = {0};`. */
void txq_destroy(TxnQueue *q);
/* Appends t (reference moves in). Aborts with a message if memory is exhausted. */
void txq_push(TxnQueue *q, Txn *t);
/* First queued transaction (borrowed), NULL if empty. */
Txn *txq_peek(const TxnQueue *q);
/* Removes the first transaction; its reference moves to the caller. NULL if empty. */
Txn *txq_pop(TxnQueue *q);

#endif
