/* The tally `mgtlm trace-info` prints for one kernel of an Accel-Sim trace: CTAs,
 * warps, warp and thread instructions, instructions per class, and the 128 B line
 * requests its global accesses make under SPEC.md 6.3. */
#ifndef MGTLM_TRACE_TALLY_H
#define MGTLM_TRACE_TALLY_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

/* The line of SPEC.md 6.3's coalescing, in bytes. */
#define TRACE_TALLY_LINE 128

typedef struct TraceTally {
    AtsKernelInfo info;
    uint64_t ctas, warps;
    uint64_t warp_insts, thread_insts;
    uint64_t by_class[ATS_CLASS_COUNT];
    uint64_t line_requests; /* of ATS_LDG, ATS_STG, ATS_ATOMG and ATS_RED */
    uint64_t unknown;       /* instructions of a mnemonic outside the opcode table */
} TraceTally;

/* Reads the kernel file at path through the streaming reader and fills t. False with
 * "<file>:<line>: <message>" in err. */
bool trace_tally_kernel(const char *path, TraceTally *t, SimError *err);

/* The 128 B lines the active lanes' byte ranges [a, a + width) of one access touch
 * (a range crossing a line boundary touches both). */
uint64_t trace_tally_lines(const uint64_t *addrs, unsigned lanes, uint32_t width);

#endif
