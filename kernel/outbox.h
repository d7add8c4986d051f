/* Outboxes: what one partition sends to another during a window of the partitioned
 * engine (engine.h), held until the window ends.
 *
 * A message is a transaction arriving at a port (t non-NULL; the outbox owns one
 * reference) or a credit given back to a port (t NULL). Messages keep send order.
 * An outbox has two buffers: the sender writes buf[cur] during window k (cur = k % 2)
 * while the receiver may still read the buffer of window k - 1 (engine.c), so the
 * sender releases a buffer only a window after it was filled. The window parity and
 * the earliest arrival sent in the window belong to the sending partition
 * (OutboxSide), shared by all its outboxes, so starting a window costs O(1). */
#ifndef MGTLM_OUTBOX_H
#define MGTLM_OUTBOX_H

#include <stddef.h>

#include "simtime.h"
#include "txn.h"

typedef struct Port Port;

typedef struct OutboxMsg {
    SimTime at; /* arrival time at dst */
    Port *dst;  /* borrowed: the receiving port, or the port a credit goes back to */
    Txn *t;     /* one owned reference; NULL for a credit */
} OutboxMsg;

typedef struct OutboxBuf {
    OutboxMsg *m; /* owned */
    size_t n, cap;
} OutboxBuf;

/* The sending partition's side of its outboxes. */
typedef struct OutboxSide {
    unsigned cur;     /* the buffer being written: the window's parity */
    SimTime earliest; /* smallest `at` written in this window, SIM_TIME_MAX if none */
} OutboxSide;

typedef struct Outbox {
    OutboxBuf buf[2];
    OutboxSide *side; /* borrowed: the sender's */
} Outbox;

/* An empty outbox of the partition whose side is side (borrowed). */
void outbox_init(Outbox *o, OutboxSide *side);
/* Appends a message to buf[side->cur] (takes the reference of t, which may be
 * NULL). */
void outbox_put(Outbox *o, SimTime at, Port *dst, Txn *t);
/* Starts window k for every outbox of side s: buffers k % 2 are written from now on
 * (they must have been released) and nothing was sent yet. */
void outbox_side_begin(OutboxSide *s, unsigned k);
/* Drops the messages of buf[which], releasing the transactions of those not
 * delivered: engine_deliver empties a buffer it delivered; engine_flush and the MPI
 * engine leave their delivered messages, whose transaction is NULL. */
void outbox_release(Outbox *o, unsigned which);
/* Releases both buffers and their storage. */
void outbox_destroy(Outbox *o);

#endif
