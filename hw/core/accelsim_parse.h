/* Line parsers shared by the kernel trace reader (accelsim_read.c): the header's
 * "-key = value" lines (accelsim_header.c), instruction lines (accelsim_inst.c) and
 * the number syntax they share. Internal to hw/core. */
#ifndef MGTLM_HW_CORE_ACCELSIM_PARSE_H
#define MGTLM_HW_CORE_ACCELSIM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

/* Where a line came from, for messages "<file>:<line>: ...". */
typedef struct AtsWhere {
    const char *file;
    uint64_t line;
} AtsWhere;

/* A warp being filled: its instructions and address pool with their capacities. */
typedef struct AtsWarpBuf {
    AtsWarp *warp;
    size_t inst_cap, addr_cap;
} AtsWarpBuf;

/* The header keys that must be present, as bits of AtsHeaderSeen. */
enum {
    ATS_HDR_GRID = 1 << 0,
    ATS_HDR_BLOCK = 1 << 1,
    ATS_HDR_SHMEM = 1 << 2,
    ATS_HDR_NREGS = 1 << 3,
    ATS_HDR_SHMEM_BASE = 1 << 4,
    ATS_HDR_LOCAL_BASE = 1 << 5,
    ATS_HDR_VERSION = 1 << 6,
    ATS_HDR_REQUIRED = (1 << 7) - 1,
};

/* Whole-token numbers: decimal, or hexadecimal with an optional "0x". */
bool ats_parse_u64(const char *s, int base, uint64_t *v);
bool ats_parse_i64(const char *s, int64_t *v);

/* Applies one "-key = value" header line (line without its '-') to k and records the
 * key in *seen. Keys the reader does not use are skipped. */
bool ats_header_line(const char *line, AtsKernelInfo *k, unsigned *seen, AtsWhere at,
                     SimError *err);
/* At the end of the header: every required key present (else the first missing one
 * is named). */
bool ats_header_check(unsigned seen, AtsWhere at, SimError *err);

/* Parses the instruction line (modified in place) of kernel k and appends it to wb;
 * *unknown is set when its mnemonic is not in the opcode table. */
bool ats_inst_parse(char *line, const AtsKernelInfo *k, AtsWarpBuf *wb, bool *unknown,
                    AtsWhere at, SimError *err);

#endif
