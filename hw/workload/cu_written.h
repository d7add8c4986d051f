/* The record of the bytes a cu wrote, for its verify phase: a set of lines, each with
 * a bitmap of written bytes. Lookup is an IdMap keyed by line number (no dependence
 * on pointer values); host memory grows with the lines written. After the writes,
 * cu_written_sort orders the lines by address and cu_written_next walks every
 * maximal run of written bytes inside a line, in ascending address order. */
#ifndef MGTLM_HW_WORKLOAD_CU_WRITTEN_H
#define MGTLM_HW_WORKLOAD_CU_WRITTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/idmap.h"

typedef struct CuWritten {
    uint64_t line;   /* bytes per line (1..4096) */
    size_t mbytes;   /* bitmap bytes per line */
    IdMap index;     /* line number -> entry */
    uint64_t *lines; /* line number per entry, owned */
    uint8_t *maps;   /* mbytes per entry, owned */
    size_t n, cap;
    size_t cur;   /* walk: entry ... */
    uint64_t pos; /* ... and byte offset in its line */
} CuWritten;

/* An empty record for lines of `line` bytes. No allocation until the first add. */
void cu_written_init(CuWritten *w, uint64_t line);
/* Frees everything; the record is empty (same line size) afterwards. */
void cu_written_clear(CuWritten *w);
/* Marks [addr, addr + len) written; with be non-NULL only bytes with be[i] != 0.
 * Aborts with a message if host memory is exhausted. */
void cu_written_add(CuWritten *w, uint64_t addr, const uint8_t *be, uint32_t len);
static inline bool cu_written_empty(const CuWritten *w)
{
    return w->n == 0;
}
/* Sorts the lines by address and starts the walk. */
void cu_written_sort(CuWritten *w);
/* Next run of written bytes: *addr, *len. False when the walk is over. */
bool cu_written_next(CuWritten *w, uint64_t *addr, uint32_t *len);

#endif
