/* Ports (TLM-AT / Akita style). A block owns named ports; a connection joins two
 * ports and carries transactions both ways with one latency. Each port has a bounded
 * receive buffer; its capacity counts transactions in flight towards it, so a send is
 * accepted only if a slot is free on arrival (credit-based flow control).
 *
 * Sending: port_can_send(p) asks whether p's peer has a free slot; port_send(p, t)
 * sends t out of p (arrival at the peer after latency + extra delay). A refused send
 * returns false, keeps the caller's reference and marks the sender as waiting: when a
 * slot frees at the peer, the sender's block gets on_free(block, p) (scheduled at the
 * current time with SIM_PRIO_NOTIFY, never called re-entrantly). A port_can_send()
 * that answers false registers the sender the same way.
 * Receiving: on arrival the owner's on_recv(block, port) is called; the owner looks
 * at port_peek() and removes with port_take() (it may leave transactions queued).
 * Nothing is dropped: a transaction is accepted, refused, or the run fails loudly.
 *
 * Answer-class transactions (responses and invalidates, txn_always_accepted) are
 * never refused: a requester reserves room for the answer of every request it has
 * outstanding (PCIe's "infinite completion credits"), and an L2 always takes an
 * invalidate. They occupy slots like any transaction (requests see fewer credits)
 * and the buffer (a growable TxnFifo) holds more than cap for them (unless the port
 * has bounded_answers: the testbench sink). Decision: with one FIFO per port for every
 * class, a refused response could wait for a request that waits for that response's
 * slot (a protocol deadlock that small buffers or many outstanding requests reach);
 * since every request is eventually consumed by a block that needs only answer
 * credits to go on, requests always drain and so do the answers queued behind them.
 *
 * Forwarding: port_forward(in, out) moves what arrived at in out of `out`, in order,
 * as far as out's peer accepts (see below).
 *
 * Recording: if p->trace is non-NULL, every send on p ("send") and every arrival at
 * p ("recv") is passed to the trace sink; when recording is off this costs a branch.
 *
 * Cut wires (the ends in different partitions of the engine, engine.h) behave like a
 * real link in both directions: a send goes into the sender partition's outbox and
 * arrives at latency + extra; the sender owns its credits for the peer (cut_used,
 * counted on send) and a slot comes back by a credit message that arrives `latency`
 * after the receiver takes the transaction. A credit counts from its time on, for
 * every send of that time whatever the order of its events (the tie-break rule for
 * credits, docs/kernel.md): the sender keeps the credits delivered to it and applies
 * those due when it is short of a slot, and if it was refused, its on_free runs at
 * its next credit's time (at SIM_PRIO_NOTIFY). A credit nobody waits for runs no
 * event. The arriving transaction is a copy made in the receiver's pool (txn_copy),
 * so each pool is touched by one partition only.
 * Uncut wires keep instant credits. */
#ifndef MGTLM_PORT_H
#define MGTLM_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "event.h"
#include "outbox.h"
#include "sim.h"
#include "txn.h"
#include "txn_fifo.h"

typedef struct Block Block;
typedef struct Port Port;
typedef struct TraceSink TraceSink;

struct TraceSink {
    /* Called for each recorded event: ev is "send" or "recv"; t is borrowed. */
    void (*record)(TraceSink *sink, const Port *port, const char *ev, const Txn *t);
};

struct Port {
    Block *owner;         /* borrowed */
    char *name;           /* full name, e.g. "gpu0.mem.in"; owned by the port */
    uint32_t index;       /* position in owner->ports */
    Port *peer;           /* NULL while unbound */
    SimTime latency;      /* connection latency (both directions) */
    TxnFifo buf;          /* the receive buffer (owns its transactions) */
    uint32_t cap;         /* credits: slots for transactions that can be refused */
    bool bounded_answers; /* refuse answers too when full (PortDef.bounded_answers) */
    uint32_t inflight;    /* transactions on their way here (slots reserved) */
    bool peer_waiting;    /* the peer was refused: notify it when a slot frees */
    Outbox *cut;          /* NULL: uncut wire; else sends and credits go here */
    uint32_t cut_used;    /* cut wire: peer slots this side filled, their credits not
                             applied yet (delivered ones may be due) */
    bool cut_waiting;     /* cut wire: refused, on_free at the next credit's time */
    SimTime *credit_at;   /* cut wire: times of the credits delivered and not applied,
                             a ring in time order */
    uint32_t credit_head, credit_n, credit_cap; /* first, count and size of the ring */
    SimEvent credit_ev; /* cut wire: wakes a refused sender (set up on first use) */
    TraceSink *trace;   /* NULL = not recorded */
    void *trace_ctx;    /* the sink's per-port data */
    uint64_t n_sent;
    uint64_t n_recv;
};

/* Initialises a port with a receive buffer of cap slots (cap >= 1). The name is
 * copied. Returns false on allocation failure. */
bool port_init(Port *p, Block *owner, uint32_t index, const char *name, uint32_t cap);
/* Releases the buffer (and the references of transactions still queued) and the
 * cut wire's credits; call it before the port's kernel (Sim) is freed, which holds the
 * wake event it cancels. */
void port_destroy(Port *p);
/* Joins a and b with the given latency. Fails if either is already bound. */
bool port_connect(Port *a, Port *b, SimTime latency, SimError *err);

/* Makes the wire of a and b (connected) a cut wire: a's sends and credits go into
 * ab (borrowed, a's partition to b's), b's into ba. */
void port_cut(Port *a, Outbox *ab, Port *b, Outbox *ba);
/* Schedules message m of a cut wire in the receiving partition's kernel sim: an
 * arrival or a credit. An arrival moves m's reference into sim (m->t becomes NULL):
 * a send over a cut wire puts only a transaction nobody else holds in the outbox
 * (the sender's own copy when it keeps a reference), so the receiver may take it
 * from another thread; it goes back to the sender's pool when released
 * (txn_pool_claim). */
void port_cut_deliver(Sim *sim, OutboxMsg *m);

/* True if a send of a transaction that can be refused (a request) on p would be
 * accepted now. A false answer registers p's block for on_free exactly like a
 * refused send, so "check, then wait for on_free" works. */
bool port_can_send(Port *p);
/* Sends t out of p, arriving at the peer after p->latency + extra. */
bool port_send(Port *p, Txn *t);
bool port_send_after(Port *p, Txn *t, SimTime extra);

/* First transaction in p's receive buffer (borrowed), NULL if empty. */
Txn *port_peek(const Port *p);
/* Removes and returns the first transaction (ownership to the caller). */
Txn *port_take(Port *p);
uint32_t port_count(const Port *p);

/* The pass-through loop: sends the head of in's buffer out of `out` and takes it,
 * until in is empty or out refuses (out's block then gets on_free like any refused
 * sender; the refused head stays in `in`, still owned there). Returns how many
 * transactions moved (ownership moved with them). No re-entry guard is needed or
 * kept: port_send and port_take never call a block back synchronously (arrivals and
 * on_free are scheduled events), so a forward can be started from on_recv or on_free
 * of either port at any time. */
uint32_t port_forward(Port *in, Port *out);

#endif
