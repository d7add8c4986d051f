/* Deferred recording for platforms on the partitioned engine (trace_defer.c): one
 * sink per logged port that buffers records per partition, and a flush that writes
 * them to a writer in an order that no thread count changes. */
#ifndef MGTLM_TRACE_DEFER_H
#define MGTLM_TRACE_DEFER_H

#include "kernel/engine.h"
#include "trace_writer.h"

typedef struct TraceDefer TraceDefer;

/* Buffers for the n ports (borrowed, in the writer's layout order) of a platform on
 * engine e, writing to w (borrowed) at each flush. Owned by the caller. */
TraceDefer *trace_defer_new(TraceWriter *w, const Engine *e, Port *const *ports,
                            size_t n);
/* The sink to attach to port i (owned by d). */
TraceSink *trace_defer_sink(TraceDefer *d, size_t i);
/* Writes every buffered record; call only while no partition runs. */
void trace_defer_flush(TraceDefer *d);
/* Flushes and frees d. */
void trace_defer_free(TraceDefer *d);

#endif
