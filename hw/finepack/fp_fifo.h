/* A FIFO of transactions (the internal queues of the FinePack blocks). The FIFO owns
 * one reference of every transaction in it: push moves the caller's reference in,
 * pop moves it out. Storage grows as needed; the blocks bound occupancy themselves. */
#ifndef MGTLM_HW_FINEPACK_FP_FIFO_H
#define MGTLM_HW_FINEPACK_FP_FIFO_H

#include <stddef.h>

#include "kernel/txn.h"

typedef struct FpFifo {
    Txn **v;
    size_t cap, head, count;
} FpFifo;

/* Appends t (reference moves in). Aborts on OOM, like txn_new. */
void fp_fifo_push(FpFifo *f, Txn *t);
/* First transaction (borrowed) or NULL. */
Txn *fp_fifo_peek(const FpFifo *f);
/* Removes the first transaction (reference moves to the caller); NULL if empty. */
Txn *fp_fifo_pop(FpFifo *f);
/* Drops every queued reference and frees the storage. */
void fp_fifo_free(FpFifo *f);

#endif
