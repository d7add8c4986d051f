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
 * - The file is made in the first of $TMPDIR (when set), /var/tmp and /tmp where one
 *   can be made on a disk, closed on exec and unlinked at once: nothing is left behind
 *   by a run that ends in any way. A folder on a memory file system (tmpfs, ramfs) is
 *   passed over, since there the messages would take host memory that grows with the
 *   trace: /tmp is one on Debian 13, and so is the $TMPDIR pam_tmpdir sets there.
 *   /var/tmp, the folder for large temporary files, stays on disk.
 * - Memory stays that of one block; the disk holds the messages (a GEMM of 2.04 M
 *   warp instructions: 30 MB).
 * - The spool takes at most half the space its file system had free when it was made
 *   (trace_spool_budget), and stays below the process's file size limit
 *   (RLIMIT_FSIZE; a write past it would raise SIGXFSZ, which ends the process), so
 *   one run's trace never fills the disk other programs write to. The budget is the
 *   process's: runs side by side (a sweep's, MPI ranks on one machine) each take
 *   theirs from what was free when they began; a write that then finds the disk full
 *   stops the spool like any other (below).
 * - A spool that cannot be made is not an error: the run reads the text as it did
 *   without one (trace_spool_new NULL). Nor is a record that cannot be written (past
 *   the budget, a message over 4 GiB, a failed write): trace_spool_put fails, and the
 *   scan then gives the kernel's records back (trace_spool_stop) and spools no
 *   later kernel; those kernels' blocks come from the text. */
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

/* The bytes a spool may hold on a file system with `avail` blocks of `block` bytes
 * free, under a file size limit of `limit` bytes: half the free space, at most the
 * limit. */
uint64_t trace_spool_budget(uint64_t avail, uint64_t block, uint64_t limit);

/* Appends the message of cta; *at is its record's offset. False, with nothing
 * appended, when the spool is stopped, the record would pass the spool's budget, the
 * message does not fit 4 GiB or the file cannot be written. */
bool trace_spool_put(TraceSpool *sp, const AtsCta *cta, uint64_t *at);
/* Drops the records from offset `from` (a record's offset, or the end) on, giving
 * their disk space back, and takes no more records: every later put fails. */
void trace_spool_stop(TraceSpool *sp, uint64_t from);
/* True until trace_spool_stop. */
bool trace_spool_taking(const TraceSpool *sp);
/* The offset the next record will take. */
uint64_t trace_spool_end(const TraceSpool *sp);

/* The record at `at` (below trace_spool_end): its block's x, y, z and its message's
 * length. False when the file cannot be read. */
bool trace_spool_head(const TraceSpool *sp, uint64_t at, uint32_t id[3], uint32_t *len);
/* The len bytes of the message of the record at `at` into out. */
bool trace_spool_body(const TraceSpool *sp, uint64_t at, uint32_t len, uint8_t *out);

#endif
