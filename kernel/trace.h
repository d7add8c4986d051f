/* Transaction recording: the record schema shared by logs and golden vectors, and
 * the sinks that write it. Logs stream to disk; nothing holds a run in memory.
 *
 * Record (one JSON object): {"t":ps,"port":"gpu0.mem.in","ev":"send"|"recv",
 * "id":N,"cmd":"read",...} with "addr" and masks as lower-case hex strings, "data"
 * as a hex string of the bytes in ascending address order; optional fields appear
 * only when set. See docs/log-format.md. */
#ifndef MGTLM_TRACE_H
#define MGTLM_TRACE_H

#include <stdbool.h>

#include <jansson.h>

#include "platform.h"
#include "port.h"

/* The record of one event (new reference). */
json_t *trace_record_json(SimTime t, const char *port, const char *ev, const Txn *txn);

typedef enum TraceFormat { TRACE_JSONL, TRACE_PERFETTO, TRACE_VCD } TraceFormat;

typedef struct TraceLog TraceLog;

/* Opens log output in dir for every port of p whose full name matches one of the
 * globs (NULL or empty = all ports) and attaches it to those ports. Fails if dir
 * cannot be created/written or a glob matches no port. */
TraceLog *trace_log_open(Platform *p, const char *dir, TraceFormat fmt,
                         const char *const *globs, size_t nglobs, SimError *err);
/* Flushes, closes and detaches. */
bool trace_log_close(TraceLog *log, SimError *err);

/* Glob matching ('*' any run, '?' one char, "[" literal unless followed by a class). */
bool trace_glob_match(const char *pattern, const char *name);

#endif
