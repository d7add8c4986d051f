/* The spool of a run's scan: the `cta` message (core_cta.h) of every thread block the
 * scan reads, written once to a temporary file, so that the dispatchers give
 * blocks to their SMs without reading the trace's text a second time (docs/cores.md
 * "Before the run").
 *
 * A record is a 4-byte little-endian length and the message; a message begins with
 * the block's x, y and z (u32 each), so the first 16 bytes of a record say whose
 * block it is. Readers pass an offset of their own (pread), so dispatchers in several
 * threads share one spool.
 *
 * Decisions:
 * - The file is made in $TMPDIR (else /tmp) and unlinked at once: nothing is left
 *   behind by a run that ends in any way. Memory stays that of one block; the disk
 *   holds the messages (a GEMM of 2.04 M warp instructions: 30 MB).
 * - A spool that cannot be made or written is not an error: the run reads the text
 *   as it did without one (trace_spool_new NULL, trace_spool_put false). A write
 *   that would pass the process's file size limit (RLIMIT_FSIZE) is not tried, since
 *   it would raise SIGXFSZ, which ends the process. */
#ifndef MGTLM_HW_CORE_TRACE_SPOOL_H
#define MGTLM_HW_CORE_TRACE_SPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/core_cta.h"

#define TRACE_SPOOL_HEAD 16 /* bytes of a record a reader looks at first */

typedef struct TraceSpool TraceSpool;

/* A new empty spool, or NULL when no temporary file can be made. */
TraceSpool *trace_spool_new(void);
void trace_spool_free(TraceSpool *sp);

/* Appends the message of cta; *at is its record's offset. False, with nothing
 * appended, when the message does not fit 4 GiB or the file cannot be written. */
bool trace_spool_put(TraceSpool *sp, const AtsCta *cta, uint64_t *at);
/* The offset the next record will take. */
uint64_t trace_spool_end(const TraceSpool *sp);

/* The record at `at` (below trace_spool_end): its block's x, y, z and its message's
 * length. False when the file cannot be read. */
bool trace_spool_head(const TraceSpool *sp, uint64_t at, uint32_t id[3], uint32_t *len);
/* The len bytes of the message of the record at `at` into out. */
bool trace_spool_body(const TraceSpool *sp, uint64_t at, uint32_t len, uint8_t *out);

#endif
