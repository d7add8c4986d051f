/* Outboxes: what one partition sends to another during a window of the partitioned
 * engine (engine.h), held until the window ends.
 *
 * A message is a transaction arriving at a port (t non-NULL; the outbox owns one
 * reference) or a credit given back to a port (t NULL). Messages keep send order.
 * An outbox has two buffers: the sender writes buf[cur] during window k (cur = k % 2)
 * while the receiver may still read the buffer of window k - 1 (engine.c), so the
 * sender releases a buffer only a window after it was filled. */
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

typedef struct Outbox {
    OutboxBuf buf[2];
    unsigned cur;     /* the buffer being written */
    SimTime earliest; /* smallest `at` written into buf[cur], SIM_TIME_MAX if none */
} Outbox;

/* Appends a message to buf[cur] (takes the reference of t, which may be NULL). */
void outbox_put(Outbox *o, SimTime at, Port *dst, Txn *t);
/* Makes buf[k % 2] the one written from now on; it must have been released. */
void outbox_begin(Outbox *o, unsigned k);
/* Drops the messages of buf[which] (releasing their transactions). */
void outbox_release(Outbox *o, unsigned which);
/* Releases both buffers and their storage. */
void outbox_destroy(Outbox *o);

#endif
