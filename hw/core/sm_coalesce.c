/* Coalescing of one warp's global access into line requests (SPEC.md 6.3).
 *
 * Decisions (speed: docs/performance.md, "Coalescing in runs (stop 38)"):
 * - Lanes are taken as runs: the piece of a lane on the same line as the piece before
 *   it is added to a request kept in registers (`run`), and only a piece on another
 *   line moves the run into the output. Neighbouring lanes mostly share a line, so a
 *   coalesced access touches the output once per line, not once per lane (a GEMM's
 *   global load cost 2,300 instructions before).
 * - The output keeps the order of first appearance: a line first appears as a run,
 *   and no other line can appear before that run moves to the output.
 * - Requests are found by line through a small open-addressing index (COALESCE_SLOTS
 *   slots, at least twice SM_COALESCE_MAX_REQS, so a probe is short), not by a
 *   linear search: a gather whose 32 lanes hit 32 lines (SpMV's x[col[j]]) searched
 *   about 500 requests a warp.
 * - A lane's bytes are set as ranges of bits, and the sectors are worked out once from
 *   the bytes at the end: a sector is touched exactly when one of its bytes is.
 * - The run keeps its bytes as one range of offsets while each piece starts at the
 *   byte after the one before it ended (lanes in address order, each `width` bytes
 *   after the last: the usual access), and turns the range into bits only when a
 *   piece does not, or when the run moves out: such a lane costs two compares and a
 *   store instead of four masks (a GEMM's global access, 16 lanes on each of two
 *   lines, cost 1,700 instructions before, stop 40). */
#include "hw/core/sm_coalesce.h"

#include <assert.h>

#include "hw/core/accelsim_read.h"

_Static_assert(SM_COALESCE_MAX_WIDTH == ATS_WIDTH_MAX,
               "the sm coalesces every width the trace reader takes");
_Static_assert(SM_COALESCE_MAX_REQS >=
                   32 * ((SM_COALESCE_MAX_WIDTH - 2) / SM_LINE_BYTES + 2),
               "room for the lines of 32 lanes");

#define COALESCE_SLOT_BITS 8
#define COALESCE_SLOTS (1u << COALESCE_SLOT_BITS)
_Static_assert(COALESCE_SLOTS >= 2 * SM_COALESCE_MAX_REQS, "an index at most half full");
_Static_assert(SM_COALESCE_MAX_REQS <= UINT8_MAX, "request numbers fit a slot");

/* A line is never UINT64_MAX (a multiple of SM_LINE_BYTES), so no run has it. */
#define COALESCE_NO_LINE UINT64_MAX

typedef struct Coalescer {
    SmLineReq *out;
    size_t n;
    uint8_t slot[COALESCE_SLOTS]; /* 1 + the request whose line probes here; 0 free */
} Coalescer;

/* The run: the request of the line the pieces before went to, with the bytes of its
 * last pieces as the range of offsets [first, last] not yet in `req.bytes`. */
typedef struct CoalesceRun {
    SmLineReq req;
    uint32_t first, last;
} CoalesceRun;

/* The request of line in c->out, appended (and indexed) when the line is new. */
static SmLineReq *coalesce_find(Coalescer *c, uint64_t line)
{
    uint32_t i = (uint32_t)((line / SM_LINE_BYTES * 0x9e3779b97f4a7c15ull) >>
                            (64 - COALESCE_SLOT_BITS));
    for (;; i = (i + 1) & (COALESCE_SLOTS - 1)) {
        uint8_t k = c->slot[i];
        if (k == 0) {
            c->slot[i] = (uint8_t)(c->n + 1);
            c->out[c->n] = (SmLineReq){.line = line};
            return &c->out[c->n++];
        }
        if (c->out[k - 1].line == line) {
            return &c->out[k - 1];
        }
    }
}

/* Sets the bits of the run's range (offsets first <= last < SM_LINE_BYTES). */
static void coalesce_range(CoalesceRun *run)
{
    uint32_t first = run->first, last = run->last;
    uint64_t from0 = first < 64 ? UINT64_MAX << first : 0;
    uint64_t to0 = last < 64 ? UINT64_MAX >> (63 - last) : UINT64_MAX;
    uint64_t from1 = first < 64 ? UINT64_MAX : UINT64_MAX << (first - 64);
    uint64_t to1 = last < 64 ? 0 : UINT64_MAX >> (127 - last);
    run->req.bytes[0] |= from0 & to0;
    run->req.bytes[1] |= from1 & to1;
}

/* Moves the run (if any) into its request. */
static void coalesce_flush(Coalescer *c, CoalesceRun *run)
{
    if (run->req.line != COALESCE_NO_LINE) {
        coalesce_range(run);
        SmLineReq *r = coalesce_find(c, run->req.line);
        r->lanes |= run->req.lanes;
        r->bytes[0] |= run->req.bytes[0];
        r->bytes[1] |= run->req.bytes[1];
    }
}

/* Adds bytes [first, last] (offsets, first <= last < SM_LINE_BYTES) of line to the
 * run, moving the run to the output first when it holds another line. */
static inline void coalesce_piece(Coalescer *c, CoalesceRun *run, uint64_t line,
                                  uint32_t first, uint32_t last, uint32_t lane)
{
    if (run->req.line == line) {
        run->req.lanes |= 1u << lane;
        if (first == run->last + 1) {
            run->last = last;
            return;
        }
        coalesce_range(run);
    } else {
        coalesce_flush(c, run);
        run->req = (SmLineReq){.line = line, .lanes = 1u << lane};
    }
    run->first = first;
    run->last = last;
}

static uint32_t coalesce_sectors(const SmLineReq *r)
{
    _Static_assert(SM_LINE_BYTES == 128 && SM_SECTOR_BYTES == 32, "4 sectors, 2 words");
    return (uint32_t)((r->bytes[0] & UINT32_MAX) != 0) |
           (uint32_t)((r->bytes[0] >> 32) != 0) << 1 |
           (uint32_t)((r->bytes[1] & UINT32_MAX) != 0) << 2 |
           (uint32_t)((r->bytes[1] >> 32) != 0) << 3;
}

size_t sm_coalesce(const uint64_t *addrs, uint32_t mask, uint32_t width, SmLineReq *out)
{
    assert(width >= 1 && width <= SM_COALESCE_MAX_WIDTH);
    Coalescer c = {.out = out}; /* every slot free */
    CoalesceRun run = {.req.line = COALESCE_NO_LINE};
    size_t k = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        uint64_t a = addrs[k++];
        uint64_t last = a > UINT64_MAX - (width - 1) ? UINT64_MAX : a + (width - 1);
        uint64_t line = a & ~(uint64_t)(SM_LINE_BYTES - 1);
        uint64_t last_line = last & ~(uint64_t)(SM_LINE_BYTES - 1);
        uint32_t first = (uint32_t)(a - line);
        while (line != last_line) {
            coalesce_piece(&c, &run, line, first, SM_LINE_BYTES - 1, lane);
            line += SM_LINE_BYTES;
            first = 0;
        }
        coalesce_piece(&c, &run, line, first, (uint32_t)(last - line), lane);
    }
    coalesce_flush(&c, &run);
    for (size_t i = 0; i < c.n; i++) {
        out[i].sectors = coalesce_sectors(&out[i]);
    }
    return c.n;
}
