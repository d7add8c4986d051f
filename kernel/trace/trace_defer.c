/* Deferred recording for a platform on the partitioned engine (engine.h): the
 * partitions' threads never touch a writer. Each port's sink appends the record (time,
 * port, event and a copy of the transaction made in the partition's own pool) to the
 * buffer of the port's partition; trace_defer_flush, called with no partition
 * running, merges the buffers by (time, partition), each buffer in its own order,
 * and passes the records to the consumer (a writer, the testbench collector).
 * Decisions:
 * - The merge order depends on the partition map only: a partition's records come in
 *   its event order, which no thread count changes, and equal times go by partition
 *   index. Flushing after every engine_run (a slice of the run command, or a window)
 *   gives the same bytes as flushing at every window end, since every record of a
 *   flushed slice is earlier than any later one.
 * - Every format goes through it, JSON Lines too: its writer shares an open-file
 *   budget (and its eviction) among the ports. */
#include "trace_defer.h"

#include <stdlib.h>

#include "kernel/block.h"
#include "kernel/xalloc.h"

typedef struct DeferRec {
    SimTime t;
    size_t i; /* the port's index in the writer's layout */
    const char *ev;
    Txn *copy; /* owned reference */
} DeferRec;

typedef struct DeferBuf {
    DeferRec *r; /* owned */
    size_t n, cap, next;
} DeferBuf;

typedef struct DeferPort {
    TraceSink sink; /* first member: the port's sink */
    DeferBuf *buf;  /* the buffer of the port's partition (borrowed) */
    size_t i;
} DeferPort;

struct TraceDefer {
    TraceDeferFn fn;
    void *ctx;      /* borrowed */
    DeferBuf *bufs; /* one per partition, owned */
    uint32_t nbufs;
    DeferPort *ports; /* owned */
};

static void defer_record(TraceSink *sink, const Port *port, const char *ev, const Txn *t)
{
    DeferPort *dp = (DeferPort *)sink;
    DeferBuf *b = dp->buf;
    Sim *sim = port->owner->sim;
    b->r = xgrow(b->r, &b->cap, b->n + 1, sizeof *b->r, 256);
    b->r[b->n++] = (DeferRec){sim_now(sim), dp->i, ev, txn_copy(sim, t)};
}

TraceDefer *trace_defer_new(TraceDeferFn fn, void *ctx, const Engine *e,
                            Port *const *ports, size_t n)
{
    TraceDefer *d = xcalloc(1, sizeof *d);
    d->fn = fn;
    d->ctx = ctx;
    d->nbufs = engine_parts(e);
    d->bufs = xcalloc(d->nbufs, sizeof *d->bufs);
    d->ports = xcalloc(n ? n : 1, sizeof *d->ports);
    for (size_t i = 0; i < n; i++) {
        d->ports[i].sink.record = defer_record;
        d->ports[i].buf = &d->bufs[engine_part_of(e, ports[i]->owner->sim)];
        d->ports[i].i = i;
    }
    return d;
}

TraceSink *trace_defer_sink(TraceDefer *d, size_t i)
{
    return &d->ports[i].sink;
}

void trace_defer_drain(TraceDefer *d, uint32_t p, TraceDeferFn fn, void *ctx)
{
    DeferBuf *b = &d->bufs[p];
    for (size_t k = b->next; k < b->n; k++) {
        if (fn) {
            fn(ctx, b->r[k].i, b->r[k].t, b->r[k].ev, b->r[k].copy);
        }
        txn_unref(b->r[k].copy);
    }
    b->n = b->next = 0;
}

void trace_defer_add(TraceDefer *d, uint32_t p, size_t i, SimTime t, const char *ev,
                     Txn *copy)
{
    DeferBuf *b = &d->bufs[p];
    b->r = xgrow(b->r, &b->cap, b->n + 1, sizeof *b->r, 256);
    b->r[b->n++] = (DeferRec){t, i, ev, copy};
}

void trace_defer_flush(TraceDefer *d)
{
    for (;;) {
        DeferBuf *first = NULL;
        for (uint32_t p = 0; p < d->nbufs; p++) {
            DeferBuf *b = &d->bufs[p];
            if (b->next < b->n && (!first || b->r[b->next].t < first->r[first->next].t)) {
                first = b;
            }
        }
        if (!first) {
            break;
        }
        DeferRec *r = &first->r[first->next++];
        d->fn(d->ctx, r->i, r->t, r->ev, r->copy);
        txn_unref(r->copy);
    }
    for (uint32_t p = 0; p < d->nbufs; p++) {
        d->bufs[p].n = d->bufs[p].next = 0;
    }
}

void trace_defer_free(TraceDefer *d)
{
    if (!d) {
        return;
    }
    trace_defer_flush(d);
    for (uint32_t p = 0; p < d->nbufs; p++) {
        free(d->bufs[p].r);
    }
    free(d->bufs);
    free(d->ports);
    free(d);
}
