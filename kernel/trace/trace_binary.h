/* The binary log format (docs/log-format.md, "--log-format binary"), shared by its
 * writer (trace_binary.c) and its reader (trace_convert.c): the file name, the
 * header magic and version, the tag bits of a record and the varint coding.
 * Integers are LEB128 varints (7 bits per byte, low group first, high bit = more);
 * signed deltas are zigzag-coded first (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...). */
#ifndef MGTLM_TRACE_BINARY_H
#define MGTLM_TRACE_BINARY_H

#include <stdint.h>

#define TRACE_BINARY_FILE "trace.mgtlm"
#define TRACE_BINARY_MAGIC "MGTLMLOG" /* 8 bytes, no terminator in the file */
#define TRACE_BINARY_VERSION 1u

/* Bits of the tag byte that opens an event record. */
enum {
    TRACE_BIN_SEND = 0x01,    /* a send (else an arrival) */
    TRACE_BIN_POSTED = 0x02,  /* Txn.posted */
    TRACE_BIN_DATA = 0x04,    /* len data bytes follow */
    TRACE_BIN_BE = 0x08,      /* a byte-enable bitmap follows */
    TRACE_BIN_FIELDS = 0x10,  /* extension fields follow */
    TRACE_BIN_THREADS = 0x20, /* wavefront threads follow */
    TRACE_BIN_PARENTS = 0x40, /* parent ids follow */
};
/* A tag byte of exactly this value opens a command definition instead. */
#define TRACE_BIN_DEFINE 0x80u
/* Command codes: the TxnCmd values below TXN_DECLARED, then TXN_DECLARED + k for the
 * k-th entry of the command table (the header's list, then definitions). */

/* The most bytes one varint takes. */
#define TRACE_BIN_VARINT_MAX 10

static inline uint64_t trace_bin_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t trace_bin_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Writes v at p; returns the byte after it. */
static inline uint8_t *trace_bin_put(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

#endif
