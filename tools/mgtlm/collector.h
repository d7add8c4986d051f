/* The testbench collector: a trace sink that keeps the records of the observed ports
 * in memory, in event order, for comparison with a golden vector. (Testbench runs are
 * short; full runs use the streaming logs of kernel/trace/trace.h instead.) On a
 * platform of several partitions the ports get deferred sinks (trace_defer.h) and
 * the records are stored at collector_flush, in (time, partition) order. */
#ifndef MGTLM_COLLECTOR_H
#define MGTLM_COLLECTOR_H

#include <jansson.h>

#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"
#include "kernel/trace/trace_defer.h"

typedef struct Collector {
    TraceSink sink;  /* attached to every observed port */
    json_t *records; /* array of records (owned reference) */
    Port **ports;    /* observed ports, borrowed, platform order (owned array) */
    size_t n;
    bool oom;          /* a record could not be stored */
    TraceDefer *defer; /* NULL on one kernel (owned) */
} Collector;

/* Attaches c (zero-initialised by the caller) to every port of p whose name matches
 * one of globs (a JSON array of strings; each must match at least one port). origin
 * names the array for errors: "tb.json: /observe" -> "tb.json: /observe/1: ...". */
bool collector_attach(Collector *c, Platform *p, json_t *globs, const char *origin,
                      SimError *err);
/* Stores what the deferred sinks buffered (a no-op on one kernel); call after every
 * engine_run. */
void collector_flush(Collector *c);
/* Detaches from every port, after a flush (records are kept). */
void collector_detach(Collector *c);
/* Detaches if still attached and frees the records. */
void collector_free(Collector *c);

#endif
