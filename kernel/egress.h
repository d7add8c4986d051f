/* Egress queues: the one way a block queues output (gem5's QueuedRequestPort /
 * PacketQueue). A block hands the queue a transaction and the time it may leave;
 * the queue sends in order when that time has come and the port accepts, tries
 * again when the block calls egress_pump from its on_free, and never drops
 * anything.
 *
 * Order: items leave in the order they were added, across every port the queue
 * feeds (most queues feed one port; egress_add_to names another one per item). A
 * later item never overtakes an earlier one, even if its time is earlier: a head
 * refused by its port, or not yet due, holds everything behind it.
 *
 * Ownership: egress_add / egress_add_to / egress_push take the caller's reference
 * of t; a successful send moves it to the receiving port. egress_clear and
 * egress_destroy release what is still queued.
 *
 * Waking: by default the queue owns an event (SIM_PRIO_DEFAULT) and pumps itself
 * at the time of a head that is not yet due. With EgressOpts.external_wake it
 * schedules nothing: the owner pumps from its own process and wakes that process
 * at egress_next() (blocks whose single event also serves their input).
 *
 * Unbound ports: with EgressOpts.unbound set, a transaction added for a port that
 * has no peer is released and counted there (callers report it as a model error);
 * without it, such a transaction reaches port_send, which aborts.
 *
 * Occupancy: queues are unbounded; blocks bound them by not taking new input while
 * egress_len is at their limit. */
#ifndef MGTLM_EGRESS_H
#define MGTLM_EGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "port.h"

typedef struct Block Block;

/* Called after a pump sent something (the owner may take blocked input now). It is
 * never called from egress_add or egress_push, so it never re-enters the code that
 * queued the transaction. */
typedef void (*EgressDrainedFn)(Block *b);

typedef struct EgressOpts {
    EgressDrainedFn drained; /* NULL: none */
    uint64_t *unbound;       /* borrowed counter; NULL: unbound ports abort */
    SimTime extra;           /* added to the wire latency of every send */
    bool external_wake;      /* the owner wakes the queue (see egress_next) */
} EgressOpts;

typedef struct EgressItem {
    Txn *t;       /* owned reference */
    Port *port;   /* borrowed */
    SimTime when; /* earliest departure */
} EgressItem;

typedef struct Egress {
    Block *owner; /* borrowed */
    Port *port;   /* default output, borrowed */
    EgressOpts opt;
    EgressItem *item; /* ring of cap items, owned */
    size_t cap, head, n;
    SimEvent ev; /* the queue's own wake (unless external_wake) */
} Egress;

/* Sets q up to feed port (owned by owner); opt NULL means all defaults. Call from
 * realize. Allocates nothing until the first add. */
void egress_init(Egress *q, Block *owner, Port *port, const EgressOpts *opt);
/* Appends t for q's port, to leave at `when` (absolute; a time in the past, e.g. 0,
 * means as soon as possible). Sends nothing: the owner pumps. */
void egress_add(Egress *q, Txn *t, SimTime when);
/* Appends t for port (another output of the owner), to leave at `when`. */
void egress_add_to(Egress *q, Port *port, Txn *t, SimTime when);
/* Appends t for q's port to leave at now + delay, then sends what is due. Returns
 * true if it sent anything: drained is not called from here, so a caller that must
 * react like drained does it itself. */
bool egress_push(Egress *q, Txn *t, SimTime delay);
/* egress_pump of a queue that holds items (egress.c). */
bool egress_pump_items(Egress *q);
/* Sends every due head as far as the ports accept, then (unless external_wake)
 * schedules the queue's wake at a head not yet due, and calls drained if it sent
 * anything. Returns false if a port refused a due head (it waits for on_free).
 * Inline for the empty queue: the sm pumps its queue twice a cycle, mostly empty on a
 * compute-bound trace (1.2 % of a gpu4 GEMM run went to calls that found nothing). */
static inline bool egress_pump(Egress *q)
{
    return q->n == 0 || egress_pump_items(q);
}
/* Items queued. */
size_t egress_len(const Egress *q);
/* Departure time of the head, SIM_TIME_MAX if empty. */
SimTime egress_next(const Egress *q);
/* True if q's port has a peer. */
bool egress_bound(const Egress *q);
/* Releases every queued transaction; q stays usable. */
void egress_clear(Egress *q);
/* Releases queued transactions and the ring (call from finalize). */
void egress_destroy(Egress *q);

#endif
