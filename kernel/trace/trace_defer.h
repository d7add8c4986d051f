/* Deferred recording for platforms on the partitioned engine (trace_defer.c): one
 * sink per recorded port that buffers records per partition, and a flush that hands
 * them to a consumer (a log writer, the testbench collector) in an order that no
 * thread count changes. */
#ifndef MGTLM_TRACE_DEFER_H
#define MGTLM_TRACE_DEFER_H

#include "kernel/engine.h"
#include "trace.h"

typedef struct TraceDefer TraceDefer;

/* Receives one record at a flush: event ev of txn (borrowed) at port i (of the list
 * given to trace_defer_new) at simulated time t. */
typedef void (*TraceDeferFn)(void *ctx, size_t i, SimTime t, const char *ev,
                             const Txn *txn);

/* Buffers for the n ports (borrowed) of a platform on engine e, handed to fn(ctx, ...)
 * at each flush. Owned by the caller. */
TraceDefer *trace_defer_new(TraceDeferFn fn, void *ctx, const Engine *e,
                            Port *const *ports, size_t n);
/* The sink to attach to port i (owned by d). */
TraceSink *trace_defer_sink(TraceDefer *d, size_t i);
/* Hands the records buffered for partition p, in order, to fn(ctx, ...) (NULL: drops
 * them) and empties that buffer; call only while no partition runs. How MPI ranks
 * send their partitions' records to rank 0 (kernel/mpi/engine_mpi.h). */
void trace_defer_drain(TraceDefer *d, uint32_t p, TraceDeferFn fn, void *ctx);
/* Appends a record to partition p's buffer: event ev (static or outliving the next
 * flush) of copy (its reference is taken) at port i at time t. How rank 0 receives
 * the records of the other ranks' partitions. */
void trace_defer_add(TraceDefer *d, uint32_t p, size_t i, SimTime t, const char *ev,
                     Txn *copy);
/* Writes every buffered record; call only while no partition runs. */
void trace_defer_flush(TraceDefer *d);
/* Flushes and frees d. */
void trace_defer_free(TraceDefer *d);

#endif
