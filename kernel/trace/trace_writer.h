/* Internal interface between the trace log (trace_log.c) and its output formats
 * (trace_jsonl.c, trace_perfetto.c, trace_vcd.c). A writer is opened for a fixed,
 * ordered list of ports and hands out one sink per port; it streams every record to
 * disk as it arrives and holds only per-port state. */
#ifndef MGTLM_TRACE_WRITER_H
#define MGTLM_TRACE_WRITER_H

#include "trace.h"

typedef struct TraceWriter TraceWriter;

struct TraceWriter {
    /* The sink for ports[i] of the open call (owned by the writer). */
    TraceSink *(*sink)(TraceWriter *w, size_t i);
    /* Finishes the output, closes files and frees w. False if any write failed. */
    bool (*close)(TraceWriter *w, SimError *err);
};

/* Each opens its output in dir (which exists); ports are borrowed and must outlive
 * the writer. Returns a new writer (owned by the caller, freed by its close) or NULL
 * with an error naming the file. */
TraceWriter *trace_jsonl_open(const char *dir, Port *const *ports, size_t n,
                              SimError *err);
TraceWriter *trace_perfetto_open(const char *dir, Port *const *ports, size_t n,
                                 SimError *err);
TraceWriter *trace_vcd_open(const char *dir, Port *const *ports, size_t n, SimError *err);

/* "dir/name" in a new heap string (owned by the caller), NULL on OOM. */
char *trace_path(const char *dir, const char *name);

#endif
