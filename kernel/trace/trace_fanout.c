/* Several sinks on one port. A port has a single `trace` pointer; the second
 * trace_attach() on a port replaces it with a fan-out sink that calls every attached
 * sink in attach order (deterministic). The fan-out belongs to the port's attachment:
 * it is freed by the trace_detach() that leaves a single sink. */
#include "trace.h"

#include <stdlib.h>

typedef struct TraceFanout {
    TraceSink sink; /* first member: the port points here */
    TraceSink **v;
    size_t n, cap;
} TraceFanout;

static void fanout_record(TraceSink *sink, const Port *port, const char *ev, const Txn *t)
{
    TraceFanout *fo = (TraceFanout *)sink;
    for (size_t i = 0; i < fo->n; i++) {
        fo->v[i]->record(fo->v[i], port, ev, t);
    }
}

static bool fanout_push(TraceFanout *fo, TraceSink *sink, SimError *err)
{
    if (fo->n == fo->cap) {
        size_t cap = fo->cap ? 2 * fo->cap : 4;
        TraceSink **v = realloc(fo->v, cap * sizeof *v);
        if (!v) {
            return sim_error_set(err, "out of memory attaching a trace sink");
        }
        fo->v = v;
        fo->cap = cap;
    }
    fo->v[fo->n++] = sink;
    return true;
}

bool trace_attach(Port *p, TraceSink *sink, SimError *err)
{
    if (!p->trace) {
        p->trace = sink;
        return true;
    }
    if (p->trace->record == fanout_record) {
        return fanout_push((TraceFanout *)p->trace, sink, err);
    }
    TraceFanout *fo = calloc(1, sizeof *fo);
    if (!fo) {
        return sim_error_set(err, "out of memory attaching a trace sink");
    }
    fo->sink.record = fanout_record;
    if (!fanout_push(fo, p->trace, err) || !fanout_push(fo, sink, err)) {
        free(fo->v);
        free(fo);
        return false;
    }
    p->trace = &fo->sink;
    return true;
}

void trace_detach(Port *p, TraceSink *sink)
{
    if (p->trace == sink) {
        p->trace = NULL;
        return;
    }
    if (!p->trace || p->trace->record != fanout_record) {
        return;
    }
    TraceFanout *fo = (TraceFanout *)p->trace;
    size_t j = 0;
    for (size_t i = 0; i < fo->n; i++) {
        if (fo->v[i] != sink) {
            fo->v[j++] = fo->v[i];
        }
    }
    fo->n = j;
    if (fo->n <= 1) {
        p->trace = fo->n ? fo->v[0] : NULL;
        free(fo->v);
        free(fo);
    }
}
