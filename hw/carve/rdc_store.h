/* Sparse storage of a direct-mapped remote data cache (CARVE RDC, SPEC.md 4.1).
 *
 * The cache has `sets` lines of `line` bytes; line number n (= addr / line) maps to
 * set n mod sets (index "modulo"), or with index "hash" to set fill_mix(n) mod sets
 * (the splitmix64 finaliser of hw/lib/fill.h: regions at the same offset of every
 * GPU's power-of-two range then no longer map onto the same sets). The full line
 * number is the tag, so the index function changes conflicts only.
 *
 * Only sets that were ever filled cost host memory: an open-addressing table keyed by
 * set index (hashed with fill_mix, never by pointer) holds, per set, the line number
 * stored there (the tag), the epoch it was inserted in, a valid bit and the line's
 * bytes (kept in one growing pool, one chunk per set). So a platform of 16 GPUs with
 * 2 GiB caches costs host memory in proportion to the lines touched. */
#ifndef MGTLM_HW_CARVE_RDC_STORE_H
#define MGTLM_HW_CARVE_RDC_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RdcStore RdcStore;

/* A set's content as seen by a lookup. `data` is borrowed from the store and valid
 * until the next rdc_store_fill or rdc_store_clear. */
typedef struct RdcLine {
    bool valid;
    uint64_t tag; /* line number held in the set */
    uint32_t epoch;
    uint8_t *data; /* `line` bytes */
} RdcLine;

/* New empty store of `sets` (>= 1) sets of `line` bytes, index "hash" if hash_index
 * else "modulo" (owned by the caller, free with rdc_store_free). NULL if host memory
 * is exhausted. */
RdcStore *rdc_store_new(uint64_t sets, uint32_t line, bool hash_index);
void rdc_store_free(RdcStore *s);
/* Invalidates every set and releases their host memory. */
void rdc_store_clear(RdcStore *s);

/* The set that line number n maps to. */
uint64_t rdc_store_set_of(const RdcStore *s, uint64_t n);
/* Looks up the set of line number n; false if that set was never filled (*out is
 * then zeroed). A true result says nothing about validity or tag: check out. */
bool rdc_store_get(const RdcStore *s, uint64_t n, RdcLine *out);
/* Stores line number n with `epoch` and `line` bytes of data in its set (replacing
 * what was there) and marks it valid. Aborts with a message on host OOM. */
void rdc_store_fill(RdcStore *s, uint64_t n, uint32_t epoch, const uint8_t *data);
/* Clears the valid bit of n's set if it holds n; true if it did. */
bool rdc_store_invalidate(RdcStore *s, uint64_t n);

/* Sets ever filled since the last clear, and valid sets now. */
uint64_t rdc_store_sets_used(const RdcStore *s);
uint64_t rdc_store_valid(const RdcStore *s);
/* Host bytes held by the table and the data pool. */
uint64_t rdc_store_host_bytes(const RdcStore *s);

#endif
