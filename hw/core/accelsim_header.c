/* The header of an Accel-Sim kernel trace: "-key = value" lines (SPEC.md 6.1).
 *
 * Decisions:
 * - Required: grid dim, block dim, shmem, nregs, shmem base_addr, local mem base_addr
 *   and accelsim tracer version (SPEC.md 6.1); kernel name, kernel id, binary version
 *   and enable lineinfo are read when present (lineinfo 0 when absent, as in tracer
 *   version 3 files, which predate the key). Other keys (nvbit version, cuda stream id,
 *   later tracers' additions) are skipped, so a newer tracer's header still reads.
 * - Tracer versions 3, 4 and 5 are read; their instruction lines have the same form
 *   (the lineinfo column depends on "-enable lineinfo", not on the version). Version 5
 *   is Accel-Sim's tracer for NVBit 1.7, whose change from 4 left the format as it was.
 *   Versions 1 and 2 put the block and warp on every line and are refused, as are
 *   versions after 5 (version 6 lines may end in a second immediate and register values).
 * - Numbers are parsed by hand (ats_scan_u64 and ats_scan_i64 in accelsim_parse.h, which
 *   ats_parse_u64 and ats_parse_i64 wrap for whole tokens) rather than with strtoull:
 *   no blank or sign that strtoull would skip or take, and fast on the reader's hot
 *   path (a table for the hexadecimal digits, a compare with constants for overflow).
 * - A block has 1 to 1024 threads (CUDA's limit) and every grid dimension is at least
 *   1; a kernel name longer than 255 bytes is refused rather than truncated.
 * - A grid is at most (2^31 - 1, 65535, 65535), CUDA's launch limits (a launch past
 *   them fails, so no tracer writes one): its CTA count is then below 2^63, so it
 *   never wraps in 64 bits, fits a signed 64-bit JSON integer, and every CTA index of
 *   it is one the CTA maps can place (a grid of 2^30 x 2^30 x 16 wrapped to 0 CTAs,
 *   and LADM's placement then divided by zero).
 * - nregs is 0 to 255 (ATS_NREGS_MAX: a SASS thread has at most 255 registers, R255
 *   being RZ), so no header gives the occupancy a register count no GPU has.
 * - A key the reader uses may appear once: a second one is refused rather than
 *   silently overriding the first (the tracer writes each once). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_parse.h"

const uint8_t ats_hex_digit[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
    ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

bool ats_parse_u64(const char *s, int base, uint64_t *v)
{
    const char *end = ats_scan_u64(s, base == 16, v);
    return end && *end == '\0';
}

bool ats_parse_i64(const char *s, int64_t *v)
{
    const char *end = ats_scan_i64(s, v);
    return end && *end == '\0';
}

/* "(x,y,z)", each a decimal number of 1 to max[i]. */
static bool header_dim(const char *s, const uint32_t max[3], uint32_t d[3])
{
    if (*s++ != '(') {
        return false;
    }
    for (int i = 0; i < 3; i++) {
        if (!(*s >= '0' && *s <= '9')) {
            return false;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno != 0 || v < 1 || v > max[i] || *end != (i < 2 ? ',' : ')')) {
            return false;
        }
        d[i] = (uint32_t)v;
        s = end + 1;
    }
    return *s == '\0';
}

static bool header_u32(const char *s, uint32_t *v)
{
    uint64_t x;
    if (!ats_parse_u64(s, 10, &x) || x > UINT32_MAX) {
        return false;
    }
    *v = (uint32_t)x;
    return true;
}

/* The bit of the key line[0, klen) in the seen set, 0 for a key the reader skips. */
static unsigned header_key_bit(const char *line, size_t klen)
{
    static const struct {
        const char *name;
        unsigned bit;
    } keys[] = {
        {"kernel name", ATS_HDR_NAME},
        {"kernel id", ATS_HDR_ID},
        {"grid dim", ATS_HDR_GRID},
        {"block dim", ATS_HDR_BLOCK},
        {"shmem", ATS_HDR_SHMEM},
        {"nregs", ATS_HDR_NREGS},
        {"shmem base_addr", ATS_HDR_SHMEM_BASE},
        {"local mem base_addr", ATS_HDR_LOCAL_BASE},
        {"binary version", ATS_HDR_BINARY},
        {"accelsim tracer version", ATS_HDR_VERSION},
        {"enable lineinfo", ATS_HDR_LINEINFO},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strlen(keys[i].name) == klen && memcmp(line, keys[i].name, klen) == 0) {
            return keys[i].bit;
        }
    }
    return 0;
}

bool ats_header_line(const char *line, AtsKernelInfo *k, unsigned *seen, AtsWhere at,
                     SimError *err)
{
    static const uint32_t grid_max[3] = {INT32_MAX, 65535, 65535};
    static const uint32_t block_max[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
    const char *eq = strstr(line, " = ");
    if (!eq) {
        return sim_error_set(err, "%s:%" PRIu64 ": expected -key = value", at.file,
                             at.line);
    }
    size_t klen = (size_t)(eq - line);
    const char *val = eq + 3;
    unsigned bit = header_key_bit(line, klen);
    if (*seen & bit) {
        return sim_error_set(err, "%s:%" PRIu64 ": -%.*s given twice in the header",
                             at.file, at.line, (int)klen, line);
    }
    *seen |= bit;
    bool ok = true;
    switch (bit) {
    case ATS_HDR_NAME:
        if (strlen(val) >= sizeof k->name) {
            return sim_error_set(err, "%s:%" PRIu64 ": kernel name longer than %zu bytes",
                                 at.file, at.line, sizeof k->name - 1);
        }
        strcpy(k->name, val);
        break;
    case ATS_HDR_ID:
        ok = header_u32(val, &k->id);
        break;
    case ATS_HDR_GRID:
        ok = header_dim(val, grid_max, k->grid);
        if (!ok) {
            return sim_error_set(err,
                                 "%s:%" PRIu64 ": bad value \"%s\" for -grid dim (x 1 to "
                                 "2147483647, y and z 1 to 65535: CUDA's limits)",
                                 at.file, at.line, val);
        }
        break;
    case ATS_HDR_BLOCK:
        ok = header_dim(val, block_max, k->block) &&
             (uint64_t)k->block[0] * k->block[1] * k->block[2] <= 1024;
        break;
    case ATS_HDR_SHMEM:
        ok = header_u32(val, &k->shmem);
        break;
    case ATS_HDR_NREGS:
        ok = header_u32(val, &k->nregs) && k->nregs <= ATS_NREGS_MAX;
        break;
    case ATS_HDR_SHMEM_BASE:
        ok = ats_parse_u64(val, 16, &k->shmem_base);
        break;
    case ATS_HDR_LOCAL_BASE:
        ok = ats_parse_u64(val, 16, &k->local_base);
        break;
    case ATS_HDR_BINARY:
        ok = header_u32(val, &k->binary_version);
        break;
    case ATS_HDR_VERSION:
        ok = header_u32(val, &k->tracer_version);
        if (ok && (k->tracer_version < 3 || k->tracer_version > 5)) {
            return sim_error_set(err,
                                 "%s:%" PRIu64
                                 ": unsupported tracer version %s (3, 4 and "
                                 "5 are read)",
                                 at.file, at.line, val);
        }
        break;
    case ATS_HDR_LINEINFO:
        ok = strcmp(val, "0") == 0 || strcmp(val, "1") == 0;
        k->lineinfo = val[0] == '1';
        break;
    default:
        break;
    }
    if (!ok) {
        return sim_error_set(err, "%s:%" PRIu64 ": bad value \"%s\" for -%.*s", at.file,
                             at.line, val, (int)klen, line);
    }
    return true;
}

bool ats_header_check(unsigned seen, AtsWhere at, SimError *err)
{
    static const char *const names[] = {
        "grid dim",
        "block dim",
        "shmem",
        "nregs",
        "shmem base_addr",
        "local mem base_addr",
        "accelsim tracer version",
    };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(seen & (1u << i))) {
            return sim_error_set(err, "%s:%" PRIu64 ": the header has no -%s", at.file,
                                 at.line, names[i]);
        }
    }
    return true;
}
