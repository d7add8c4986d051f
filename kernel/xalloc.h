/* Host-memory allocation that cannot fail: the one out-of-memory rule of mgtlm. Where a
 * model cannot go on without the memory (a transaction, an event, a growing table),
 * these print "mgtlm: out of host memory" on stderr and abort; they never return NULL.
 * Every returned pointer is new and owned by the caller (free it with free()). */
#ifndef MGTLM_XALLOC_H
#define MGTLM_XALLOC_H

#include <stddef.h>

/* malloc(size), at least one byte. */
void *xmalloc(size_t size);
/* calloc(n, size): n elements of size bytes, zeroed (at least one byte). */
void *xcalloc(size_t n, size_t size);
/* xcalloc on whole cache lines: n elements of size bytes, zeroed, starting on a 64-byte
 * boundary (for elements that other threads write, each on its own line). */
void *xcalloc_lines(size_t n, size_t size);
/* realloc(p, n * size) with the product checked for overflow (at least one byte). */
void *xrealloc_array(void *p, size_t n, size_t size);

/* The one growth rule of dynamic arrays: returns arr reallocated so that it holds at
 * least need elements of elem bytes. The capacity *cap (in elements) doubles, from min
 * when it is 0, until it reaches need; when *cap >= need already, arr is returned
 * unchanged. Elements [0, old *cap) keep their values; new ones are uninitialised. */
void *xgrow(void *arr, size_t *cap, size_t need, size_t elem, size_t min);

#endif
