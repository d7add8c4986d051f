/* Sparse functional byte store: a 64-bit address space whose untouched bytes hold the
 * fill pattern (fill.h). Pages of SPARSE_PAGE_BYTES are allocated on the first write
 * that touches them, so host memory grows with the bytes written, not with the size
 * of the modelled memory. Lookup is the u64 map of kernel/idmap.h keyed by page
 * number (no dependence on pointer values). Used by the memory block (its content)
 * and the cu block (its shadow of the bytes it wrote). */
#ifndef MGTLM_HW_LIB_SPARSE_H
#define MGTLM_HW_LIB_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "hw/lib/fill.h"

#define SPARSE_PAGE_BYTES 256

typedef struct SparseStore SparseStore;

/* New empty store whose untouched bytes read as `fill`. Owned by the caller (free
 * with sparse_free). NULL if memory is exhausted. */
SparseStore *sparse_new(FillKind fill);
void sparse_free(SparseStore *s);
/* Forgets every write: the whole space reads as the fill pattern again. */
void sparse_clear(SparseStore *s);

/* Copies [addr, addr + len) into out. addr + len must not wrap around 2^64. */
void sparse_read(const SparseStore *s, uint64_t addr, uint8_t *out, size_t len);
/* Writes data to [addr, addr + len); when be is non-NULL only bytes with be[i] != 0
 * are written. data NULL writes zeros. Aborts with a message if host memory is
 * exhausted (like txn_new). */
void sparse_write(SparseStore *s, uint64_t addr, const uint8_t *data, const uint8_t *be,
                  size_t len);

/* Pages allocated so far (host memory used is about this times the page size). */
size_t sparse_pages(const SparseStore *s);

#endif
