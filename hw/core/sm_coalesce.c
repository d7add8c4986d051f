/* Coalescing of one warp's global access into line requests (SPEC.md 6.3): a linear
 * search over the requests made so far keeps the order of first appearance; a warp
 * makes at most 96 of them, so no index is needed, and the request of the previous
 * lane is tried first. A lane's bytes and sectors are set as ranges of bits, not byte
 * by byte (a GEMM's global loads and the scan's count of them cost 3,600 instructions
 * a warp before, docs/performance.md). */
#include "hw/core/sm_coalesce.h"

#include <assert.h>

#include "hw/core/accelsim_read.h"

_Static_assert(SM_COALESCE_MAX_WIDTH == ATS_WIDTH_MAX,
               "the sm coalesces every width the trace reader takes");
_Static_assert(SM_COALESCE_MAX_REQS >=
                   32 * ((SM_COALESCE_MAX_WIDTH - 2) / SM_LINE_BYTES + 2),
               "room for the lines of 32 lanes");

/* Bits lo..hi of a word (lo <= hi <= 63). */
static inline uint64_t coalesce_bits(uint32_t lo, uint32_t hi)
{
    return (UINT64_MAX >> (63 - hi)) & (UINT64_MAX << lo);
}

/* Marks bytes [first, last] of one line (offsets within the line) on its request,
 * creating the request if the line is new; *hint is the request found last, tried
 * first (neighbouring lanes mostly share a line). Returns the new request count. */
static inline size_t coalesce_touch(SmLineReq *out, size_t n, size_t *hint, uint64_t line,
                                    uint32_t first, uint32_t last, uint32_t lane)
{
    size_t k = *hint;
    if (k >= n || out[k].line != line) {
        k = 0;
        while (k < n && out[k].line != line) {
            k++;
        }
        if (k == n) {
            out[n] = (SmLineReq){.line = line};
            n++;
        }
        *hint = k;
    }
    SmLineReq *r = &out[k];
    r->lanes |= 1u << lane;
    if (first < 64) {
        r->bytes[0] |= coalesce_bits(first, last < 64 ? last : 63);
    }
    if (last >= 64) {
        r->bytes[1] |= coalesce_bits(first < 64 ? 0 : first - 64, last - 64);
    }
    r->sectors |=
        (uint32_t)coalesce_bits(first / SM_SECTOR_BYTES, last / SM_SECTOR_BYTES);
    return n;
}

size_t sm_coalesce(const uint64_t *addrs, uint32_t mask, uint32_t width, SmLineReq *out)
{
    assert(width >= 1 && width <= SM_COALESCE_MAX_WIDTH);
    size_t n = 0, k = 0, hint = 0;
    for (uint32_t lane = 0; lane < 32; lane++) {
        if (!(mask & (1u << lane))) {
            continue;
        }
        uint64_t a = addrs[k++];
        uint64_t last = a > UINT64_MAX - (width - 1) ? UINT64_MAX : a + (width - 1);
        uint64_t line = a & ~(uint64_t)(SM_LINE_BYTES - 1);
        uint64_t last_line = last & ~(uint64_t)(SM_LINE_BYTES - 1);
        uint32_t first = (uint32_t)(a - line);
        for (;;) {
            uint32_t end =
                line == last_line ? (uint32_t)(last - line) : SM_LINE_BYTES - 1;
            n = coalesce_touch(out, n, &hint, line, first, end, lane);
            if (line == last_line) {
                break;
            }
            line += SM_LINE_BYTES;
            first = 0;
        }
    }
    return n;
}
