/* The written-byte index of a trace scan (trace_scan.h, docs/cores.md "Data check"):
 * per 128 B line, the bytes each kernel stores to it (one 128-bit mask per line and
 * writing kernel) and the bytes any atomic or reduction of the run touches.
 *
 * Decisions:
 * - The lines in the id map of kernel/idmap.h, each heading a list of per-kernel masks
 *   in launch order, kept in one pool. Memory is proportional to the lines written
 *   and, per line, to the kernels that write it, whatever the length of the trace.
 * - Host memory that runs out aborts the run (kernel/xalloc.h, the one rule).
 * - Kernels are added in launch order (the scan reads them in that order), so a line's
 *   list is sorted by kernel and a kernel's writes to a line merge into its last mask. */
#ifndef MGTLM_HW_CORE_TRACE_WRITTEN_H
#define MGTLM_HW_CORE_TRACE_WRITTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/trace_scan.h"

#define TRACE_WRITTEN_LINE 128

typedef struct TraceWritten TraceWritten;

/* An empty index (new; trace_written_free). */
TraceWritten *trace_written_new(void);
void trace_written_free(TraceWritten *w);

/* Records that kernel k (not below any kernel added before) writes the bytes of line
 * (the address of the line's first byte) whose bits are set in mask (bit b of
 * mask[b / 64]: byte b of the line). */
void trace_written_store(TraceWritten *w, uint64_t line, uint32_t k,
                         const uint64_t mask[2]);
/* Records that an atomic or reduction touches the bytes of line set in mask. */
void trace_written_atomic(TraceWritten *w, uint64_t line, const uint64_t mask[2]);

/* What a read in kernel k of each of the n bytes from vaddr (all inside one line) may
 * return, into out[0..n), and true; false, with out untouched, when no kernel stores
 * to or atomically touches the line: every byte then reads as (TraceExpect){.checked =
 * true}, the memory's initial content. */
bool trace_written_expect(const TraceWritten *w, uint32_t k, uint64_t vaddr, uint32_t n,
                          TraceExpect *out);

/* Lines in the index, and (line, kernel) masks: what its memory grows with. */
size_t trace_written_lines(const TraceWritten *w);
size_t trace_written_masks(const TraceWritten *w);

#endif
