/* Coalescing of one warp's global access into line requests (SPEC.md 6.3).
 *
 * Each active lane reads or writes the byte range [a, a + width). The ranges are
 * grouped by 128 B line in order of first appearance (lanes in lane order, and a
 * range that crosses a line boundary touches its lower line first); one request per
 * line carries the 32 B sectors it touches, the bytes it touches (DualOpt's
 * fine-grained path) and the lanes that touch it.
 *
 * Decisions:
 * - width is 1..SM_COALESCE_MAX_WIDTH bytes, every width the trace reader takes
 *   (ATS_WIDTH_MAX), so one lane touches at most three lines, lowest first, and a warp
 *   makes at most SM_COALESCE_MAX_REQS requests; the caller's array has that room.
 * - A range that would run past 2^64 - 1 ends there (the address space does not wrap
 *   around to line 0). */
#ifndef MGTLM_HW_CORE_SM_COALESCE_H
#define MGTLM_HW_CORE_SM_COALESCE_H

#include <stddef.h>
#include <stdint.h>

#define SM_LINE_BYTES 128
#define SM_SECTOR_BYTES 32
#define SM_COALESCE_MAX_WIDTH 256
#define SM_COALESCE_MAX_REQS (32 * 3)

typedef struct SmLineReq {
    uint64_t line;     /* address of the line's first byte */
    uint32_t sectors;  /* bit k: sector k (bytes 32k..32k+31) touched */
    uint32_t lanes;    /* bit i: lane i touches the line */
    uint64_t bytes[2]; /* bit b of bytes[b / 64]: byte b of the line touched */
} SmLineReq;

/* Coalesces the access of the lanes in `mask`, whose addresses `addrs` lists one per
 * active lane in lane order (popcount(mask) entries, as AtsWarp.addrs holds them),
 * each touching `width` bytes (1..SM_COALESCE_MAX_WIDTH). Writes the requests to
 * out[0..n) (room for SM_COALESCE_MAX_REQS) and returns n; 0 for an empty mask. */
size_t sm_coalesce(const uint64_t *addrs, uint32_t mask, uint32_t width, SmLineReq *out);

#endif
