/* Crossbar arbitration shared by the switch and xbar blocks.
 *
 * Every port of the block is both an input (its receive buffer is the input FIFO)
 * and an output. A block-specific route function names the output port of the
 * transaction at the head of an input. Rules (per evaluation, at the current time):
 * - Only the head of each input is considered (FIFO, head-of-line blocking).
 * - A head the route function marks ARB_ABSORB is handed to the absorb callback at
 *   once (the block consumes it: counts it, or counts it as an error).
 * - Each output grants at most one input per clock cycle, round-robin: the search
 *   starts at the input after the one granted last on that output.
 * - Each input sends at most one transaction per clock cycle.
 * - A granted transaction is sent with the block's latency added to the wire latency
 *   (port_send_after); a send refused for a full buffer blocks that output until the
 *   peer frees a slot (on_free), and the head stays where it is.
 * Arrivals do not arbitrate immediately: they notify an event at the current time
 * with SIM_PRIO_DEFAULT, so every transaction arriving at one instant competes in the
 * same arbitration round (arrival order within an instant does not matter). */
#ifndef MGTLM_HW_LIB_ARB_H
#define MGTLM_HW_LIB_ARB_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/block.h"
#include "kernel/event.h"

#define ARB_ABSORB (-1)
#define ARB_UNKNOWN (-2) /* head cache: not computed yet */
#define ARB_EMPTY (-3)   /* head cache: no transaction waiting */

/* Output port index for the head t of input `in`, or ARB_ABSORB. */
typedef int (*ArbRouteFn)(Block *b, uint32_t in, const Txn *t);
/* Consumes t (ownership passes to the callee). */
typedef void (*ArbAbsorbFn)(Block *b, uint32_t in, Txn *t);

typedef struct Arb {
    Block *b; /* borrowed */
    ArbRouteFn route;
    ArbAbsorbFn absorb;
    SimTime latency;   /* added to every forwarded transaction */
    SimTime cycle;     /* one grant per output and per input per cycle */
    uint32_t n;        /* ports */
    uint32_t *rr;      /* per output: first input to consider */
    SimTime *out_next; /* per output: earliest time of its next grant */
    SimTime *in_next;  /* per input: earliest time of its next send */
    bool *blocked;     /* per output: refused, waiting for on_free */
    int *head;         /* per input: route of its head, or ARB_EMPTY / ARB_UNKNOWN */
    uint32_t words;    /* 64-bit words of each bitmap below */
    uint64_t *busy;    /* inputs whose head is not known to be ARB_EMPTY */
    uint64_t *elig;    /* inputs with a routed head free to send now (scratch) */
    uint64_t *want;    /* outputs some head in elig goes to (scratch) */
    uint64_t **sent;   /* per output: counter of forwarded transactions (ARB_STAT) */
    bool changed;      /* a head appeared or an output unblocked since the last round */
    SimTime wake;      /* the last round's wake (SIM_TIME_MAX: none) */
    SimEvent ev;
} Arb;

/* The stat table row of the block holding an Arb at member m of its state T: one
 * counter per port, "<port>_out" (e.g. "port[3]_out", "local_out"). */
#define ARB_STAT(T, m)                                                                   \
    STAT(T, m.sent, "_out", STAT_COUNTER, "", "transactions forwarded out of this port")

/* Sets a up for all ports of b (call from realize; the counters of ARB_STAT are
 * registered by then). Fails on OOM. */
bool arb_init(Arb *a, Block *b, SimTime latency, ArbRouteFn route, ArbAbsorbFn absorb,
              SimError *err);
/* Clears the timing state (call from reset). */
void arb_reset(Arb *a);
/* Notes an arrival at p and requests an arbitration round at the current time
 * (call from on_recv), unless the arrival is behind p's head and nothing changed since
 * the last round, whose wake then stays pending as it is (arb.c). */
void arb_on_recv(Arb *a, Port *p);
/* Unblocks the output p and requests a round (call from on_free). */
void arb_on_free(Arb *a, Port *p);
void arb_destroy(Arb *a);

#endif
