/* Transaction recording: the record schema shared by logs and golden vectors, and
 * the sinks that write it. Logs stream to disk; nothing holds a run in memory.
 *
 * Record (one JSON object): {"t":ps,"port":"gpu0.mem.in","ev":"send"|"recv",
 * "id":N,"cmd":"read",...} with "addr" and masks as lower-case hex strings, "data"
 * as a hex string of the bytes in ascending address order; optional fields appear
 * only when set. See docs/log-format.md.
 *
 * Sinks: a port records into one TraceSink (port->trace). Sinks attached with
 * trace_attach() may share a port: the second attach installs a fan-out that calls
 * every attached sink in attach order. Built-in sinks keep their per-port state by
 * embedding TraceSink as the first member of a per-port struct (one sink per port),
 * so they do not use port->trace_ctx. */
#ifndef MGTLM_TRACE_H
#define MGTLM_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "kernel/platform/platform.h"
#include "kernel/port.h"

/* The record of one event (new reference). */
json_t *trace_record_json(SimTime t, const char *port, const char *ev, const Txn *txn);
/* Writes the same record as compact JSON (keys in schema order, no newline) to f.
 * Returns false if a write to f failed. */
bool trace_record_write(FILE *f, SimTime t, const char *port, const char *ev,
                        const Txn *txn);
/* Writes s as a JSON string literal (quoted and escaped) to f. */
void trace_json_string(FILE *f, const char *s);

/* Hex strings of the schema. trace_hex_digit: value of one digit, -1 if none.
 * trace_hex_u64: "0x" + 1..16 significant digits (any case) -> value; false if not
 * hex or above 64 bits. trace_hex_bytes: "0x" + two digits per byte -> *out (new
 * heap array of *len bytes, owned by the caller; allocated even when *len is 0). */
int trace_hex_digit(char c);
bool trace_hex_u64(const char *s, uint64_t *out);
bool trace_hex_bytes(const char *s, uint8_t **out, size_t *len);

/* Adds sink to the sinks recording port p (borrowed; it must outlive the attachment).
 * Fails only when memory for a fan-out cannot be allocated. */
bool trace_attach(Port *p, TraceSink *sink, SimError *err);
/* Removes sink from p (a no-op if it is not attached); frees the fan-out when one
 * sink is left. Every attached sink must be detached before its port is freed. */
void trace_detach(Port *p, TraceSink *sink);

typedef enum TraceFormat {
    TRACE_JSONL,
    TRACE_PERFETTO,
    TRACE_VCD,
    TRACE_BINARY,
    TRACE_PERFETTO_GZ,
    TRACE_FORMAT_COUNT
} TraceFormat;

/* "jsonl", "perfetto", "vcd", "binary", "perfetto-gz". */
const char *trace_format_name(TraceFormat fmt);
bool trace_format_parse(const char *name, TraceFormat *out);

/* Converts the binary log at path (--log-format binary) into format fmt (jsonl,
 * perfetto, perfetto-gz or vcd) in dir, created with its parents: the files that format
 * writes directly, byte for byte. Fails on a file that is not a binary log or is damaged
 * ("PATH: byte N: message") and on output errors. */
bool trace_convert(const char *path, const char *dir, TraceFormat fmt, SimError *err);

typedef struct TraceLog TraceLog;

/* Opens log output in dir for every port of p whose full name matches one of the
 * globs (NULL or empty = all ports) and attaches it to those ports. Fails if dir
 * cannot be created/written or a glob matches no port. The log is owned by the
 * caller; close it with trace_log_close before freeing the platform. dir NULL, on a
 * platform built on an engine only: the ports record into the deferred buffers and
 * nothing is written (an MPI rank other than 0, which sends its records to rank 0). */
TraceLog *trace_log_open(Platform *p, const char *dir, TraceFormat fmt,
                         const char *const *globs, size_t nglobs, SimError *err);
/* On a platform of several partitions: writes what the ports recorded since the last
 * flush (call after every engine_run, while no partition runs; NULL: nothing).
 * Otherwise a no-op: records are written as they happen. */
void trace_log_flush(TraceLog *log);
/* The deferred buffers of a log on an engine (borrowed; NULL without an engine or
 * for a NULL log). */
struct TraceDefer *trace_log_defer(TraceLog *log);
/* Flushes, closes and detaches; frees log. Fails if any write failed during the run
 * (the message names the file). */
bool trace_log_close(TraceLog *log, SimError *err);

#endif
