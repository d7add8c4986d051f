/* Internal interface between the trace log (trace_log.c), the binary log converter
 * (trace_convert.c) and the output formats (trace_jsonl.c, trace_perfetto.c,
 * trace_vcd.c, trace_binary.c). A writer is opened for a fixed, ordered list of port
 * names and hands out one sink per port; it streams every record to disk as it
 * arrives and holds only per-port state. The sinks and the converter both go
 * through `record`, so a log converted from the binary format is byte-identical to
 * the one written directly. */
#ifndef MGTLM_TRACE_WRITER_H
#define MGTLM_TRACE_WRITER_H

#include "trace.h"

/* What a writer is opened for (all borrowed; they must outlive the writer). */
typedef struct TraceLayout {
    const char *const *names; /* full port names, in log order */
    size_t n;
    /* The platform's declared commands (PlatformInfo.cmds, NULL-terminated, NULL =
     * none): the VCD and binary formats code a declared command by its position. */
    const TxnCmdDecl *const *cmds;
} TraceLayout;

typedef struct TraceWriter TraceWriter;

struct TraceWriter {
    /* The sink for port i of the layout (owned by the writer). */
    TraceSink *(*sink)(TraceWriter *w, size_t i);
    /* Records event ev ("send" or "recv") of txn at port i at simulated time t.
     * Times never decrease from one call to the next. */
    void (*record)(TraceWriter *w, size_t i, SimTime t, const char *ev, const Txn *txn);
    /* Finishes the output, closes files and frees w. False if any write failed. */
    bool (*close)(TraceWriter *w, SimError *err);
};

/* Each opens its output in dir (which exists). Returns a new writer (owned by the
 * caller, freed by its close) or NULL with an error naming the file. */
TraceWriter *trace_jsonl_open(const char *dir, const TraceLayout *lay, SimError *err);
TraceWriter *trace_perfetto_open(const char *dir, const TraceLayout *lay, SimError *err);
/* The Perfetto trace gzip-compressed, DIR/trace.json.gz. */
TraceWriter *trace_perfetto_gz_open(const char *dir, const TraceLayout *lay,
                                    SimError *err);
TraceWriter *trace_vcd_open(const char *dir, const TraceLayout *lay, SimError *err);
TraceWriter *trace_binary_open(const char *dir, const TraceLayout *lay, SimError *err);

/* The writer of format fmt (one of the above). */
TraceWriter *trace_writer_open(TraceFormat fmt, const char *dir, const TraceLayout *lay,
                               SimError *err);

/* A new stdio stream writing gzip-compressed bytes to path (created or truncated);
 * fclose finishes the file. NULL with errno set on failure. */
FILE *trace_gz_open(const char *path);

/* mkdir -p dir; fails naming the part that cannot be created or is not a folder. */
bool trace_make_dir(const char *dir, SimError *err);

/* "dir/name" in a new heap string (owned by the caller), NULL on OOM. */
char *trace_path(const char *dir, const char *name);

#endif
