/* Storage of the RDMA cache (DualOpt RDMA$, SPEC.md 1.5): a set-associative array of
 * lines with per-byte valid and dirty masks and LRU replacement. Pure data structure,
 * no timing. Set of a line = (line address / line bytes) mod sets; sets need not be a
 * power of two (1.5 MiB / (16 x 64 B) = 1536). Lines whose valid mask is zero are
 * free. dirty is always a subset of valid. */
#ifndef MGTLM_HW_DUALOPT_RCACHE_STORE_H
#define MGTLM_HW_DUALOPT_RCACHE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/error.h"

#define RC_MAX_LINE 64

typedef struct RcLine {
    uint64_t addr;  /* line base address */
    uint64_t valid; /* bit i: byte i holds data (0 = the way is free) */
    uint64_t dirty; /* bit i: byte i was written here and not written back */
    uint64_t stamp; /* LRU: value of the use counter at the last use */
} RcLine;

typedef struct RcStore {
    uint32_t sets, ways, line;
    RcLine *lines; /* sets x ways, owned */
    uint8_t *data; /* sets x ways x line bytes, owned */
    uint64_t uses; /* LRU use counter */
} RcStore;

/* Sets s up for `size` bytes of `ways`-way sets of `line`-byte lines. line must be a
 * power of two <= 64 and size a multiple of ways x line. False with a message
 * (no location) otherwise, or if memory is exhausted. */
bool rc_store_init(RcStore *s, uint64_t size, uint32_t ways, uint32_t line,
                   SimError *err);
void rc_store_destroy(RcStore *s);

static inline uint64_t rc_line_addr(const RcStore *s, uint64_t addr)
{
    return addr & ~(uint64_t)(s->line - 1);
}

/* Mask of the bytes [addr, addr + len) within their line (the range must not cross
 * a line boundary). */
uint64_t rc_byte_mask(const RcStore *s, uint64_t addr, uint32_t len);
/* The line holding line address la (borrowed), NULL if not cached. */
RcLine *rc_lookup(RcStore *s, uint64_t la);
/* The way line address la would take: the lowest free way of its set, else the
 * least recently used one (borrowed; the caller writes back and clears it). */
RcLine *rc_victim(RcStore *s, uint64_t la);
/* Marks ln used now (most recently used). */
void rc_touch(RcStore *s, RcLine *ln);
/* The line's data bytes (borrowed, s->line bytes). */
uint8_t *rc_data(const RcStore *s, const RcLine *ln);
/* Line i in set-major, way-minor order (i < sets x ways). */
static inline RcLine *rc_line_at(const RcStore *s, uint64_t i)
{
    return &s->lines[i];
}

#endif
