/* Output queues for the cache-side blocks (L2, coherence directories): a FIFO of
 * transactions per output port, each with the time it may leave.
 *
 * A queue sends its head when the head's time has come and the peer accepts it;
 * a refused send waits for the block's on_free (call outq_pump from there). Order is
 * kept: a later transaction never overtakes an earlier one on the same port. Queues
 * are unbounded; blocks bound them by not taking new requests while outq_len is at
 * their limit (responses are always taken, so request/response cycles cannot
 * deadlock). A transaction pushed to an unbound port is released and counted in the
 * queue's `unbound` counter (callers report it as a model error). */
#ifndef MGTLM_HW_LIB_OUTQ_H
#define MGTLM_HW_LIB_OUTQ_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/block.h"
#include "kernel/event.h"

/* Called after a queue sent something (the owner may take blocked inputs now). */
typedef void (*OutqDrainedFn)(Block *b);

typedef struct OutQ {
    Block *b; /* borrowed */
    Port *p;  /* borrowed */
    Txn **t;  /* ring of owned references */
    SimTime *ready;
    size_t cap, head, n;
    OutqDrainedFn drained;
    uint64_t *unbound; /* borrowed counter */
    SimEvent ev;
} OutQ;

/* Sets q up for port p of block b (call from realize). */
void outq_init(OutQ *q, Block *b, Port *p, OutqDrainedFn drained, uint64_t *unbound);
/* Appends t (ownership moves to the queue) to leave at now + delay, then pumps. */
void outq_push(OutQ *q, Txn *t, SimTime delay);
/* Sends every head whose time has come, as far as the peer accepts. */
void outq_pump(OutQ *q);
size_t outq_len(const OutQ *q);
/* True if the port has a peer. */
bool outq_bound(const OutQ *q);
/* Releases queued transactions and the ring (call from finalize). */
void outq_destroy(OutQ *q);

#endif
