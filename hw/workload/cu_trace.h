/* Trace files of the cu block: JSON Lines, one record per line, read as a stream
 * (one line in memory at a time) both for the up-front validation pass and during
 * the run. Also the wavefront coalescer (SPEC.md 1.1: one request per distinct line,
 * in order of first appearance).
 *
 * Record keys (unknown keys are errors):
 *   "op"      required: read | write | atomic | release | kernel_begin | kernel_end
 *   "t"       absolute time ("10ns"), not earlier than the previous record's time
 *   "gap"     time after the previous record's time ("5ns"); at most one of t/gap;
 *             without either a record has the previous record's time (0 at first)
 *   "addr"    "0x..." hex string or integer; with "size" (1..CU_TRACE_MAX_SIZE)
 *   "size"    bytes; atomics take 4 or 8
 *   "data"    "0x" + two hex digits per byte, ascending address order, exactly size
 *             bytes; writes and atomics only (atomic: the little-endian addend);
 *             optional: generated from the cu's PRNG when absent
 *   "threads" [["0x0c0",4], ...]: a wavefront instead of addr/size (read and write
 *             only); each thread's size 1..line
 *   "posted"  true/false, writes only
 *   "hint"    non-negative integer, kernel_begin only
 * read/write need addr+size or threads; atomic needs addr+size; control ops take no
 * other key than t/gap (and hint). Every byte addressed must lie below addr_limit. */
#ifndef MGTLM_HW_WORKLOAD_CU_TRACE_H
#define MGTLM_HW_WORKLOAD_CU_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel/error.h"
#include "kernel/simtime.h"

#define CU_TRACE_MAX_SIZE 4096

typedef enum CuOp {
    CU_OP_READ,
    CU_OP_WRITE,
    CU_OP_ATOMIC,
    CU_OP_RELEASE,
    CU_OP_KERNEL_BEGIN,
    CU_OP_KERNEL_END,
} CuOp;

typedef struct CuThread {
    uint64_t addr;
    uint32_t size;
} CuThread;

/* One record. Arrays are owned by the reader and valid until the next read. */
typedef struct CuTraceRec {
    SimTime t; /* the record's time */
    CuOp op;
    uint64_t addr;
    uint32_t size;
    const uint8_t *data; /* size bytes, NULL when absent */
    const CuThread *threads;
    size_t nthreads; /* 0 = not a wavefront */
    bool posted;
    uint32_t hint;
} CuTraceRec;

typedef struct CuTrace {
    char *path; /* owned copy */
    FILE *f;
    char *buf; /* getline buffer, owned */
    size_t bufcap;
    unsigned long lineno;
    SimTime t; /* time of the previous record */
    SimTime clock;
    uint64_t addr_limit;
    uint64_t line;
    uint8_t *data; /* owned, CU_TRACE_MAX_SIZE bytes */
    CuThread *threads;
    size_t thread_cap;
} CuTrace;

/* Opens path for reading. clock (ps) resolves "cycles"; addr_limit bounds addresses;
 * line bounds thread sizes. Errors: "<path>: <reason>". */
bool cu_trace_open(CuTrace *tr, const char *path, SimTime clock, uint64_t addr_limit,
                   uint64_t line, SimError *err);
/* Reads the next record: 1 = a record in *rec, 0 = end of file, -1 = error
 * ("<path>:<line>: <message>"). */
int cu_trace_next(CuTrace *tr, CuTraceRec *rec, SimError *err);
/* Closes the file and frees the buffers (safe on a never-opened zeroed reader). */
void cu_trace_close(CuTrace *tr);

/* Validation pass: reads the whole file once. */
bool cu_trace_validate(const char *path, SimTime clock, uint64_t addr_limit,
                       uint64_t line, SimError *err);

/* The lines touched by a wavefront, in order of first appearance, each with a byte
 * mask (be[k*line + i] = 0xff if byte i of line k is accessed, else 0). A thread
 * crossing a line boundary touches both lines. Buffers owned by the struct. */
typedef struct CuLines {
    uint64_t line;
    size_t n, cap;
    uint64_t *addr; /* line-aligned addresses */
    uint8_t *be;    /* n * line bytes */
} CuLines;

/* Coalesces n threads into l (previous content replaced). Aborts on OOM. */
void cu_coalesce(CuLines *l, uint64_t line, const CuThread *threads, size_t n);
void cu_lines_free(CuLines *l);

#endif
