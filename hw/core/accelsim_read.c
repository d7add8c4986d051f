/* Streaming reader of an Accel-Sim kernel trace (see accelsim_read.h): the header,
 * then one "#BEGIN_TB ... #END_TB" block per call.
 *
 * Decisions:
 * - Blank lines and lines starting with '#' (other than #BEGIN_TB and #END_TB) are
 *   comments wherever a header line or a new block may come, blank lines also inside
 *   a block.
 * - A block is "thread block = x,y,z" (inside the grid), then warps "warp = w" and
 *   "insts = k" followed by exactly k instruction lines, then #END_TB. A warp number
 *   is below the block's warp count (threads / 32 rounded up) and listed once; a warp
 *   the block does not list has no instructions (AtsCta.nwarps is always the block's
 *   warp count, so consumers index warps by number).
 * - Instruction arrays grow as lines arrive (never sized from "insts = k" alone), so
 *   a wrong count costs an error, not an allocation of its size. */
#include "hw/core/accelsim_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_lines.h"
#include "hw/core/accelsim_parse.h"

struct AtsReader {
    AtsLines *lines;
    AtsKernelInfo info;
    uint64_t unknown;
    bool begin_pending; /* the header ended at a #BEGIN_TB line */
};

static AtsWhere read_where(const AtsReader *r)
{
    return (AtsWhere){ats_lines_path(r->lines), ats_lines_number(r->lines)};
}

/* The next line that is not blank (and not a comment when comments is true), without
 * its leading and trailing blanks; NULL at the end of the file. */
static bool read_line(AtsReader *r, bool comments, char **line, SimError *err)
{
    for (;;) {
        if (!ats_lines_next(r->lines, line, err)) {
            return false;
        }
        char *s = *line;
        if (!s) {
            return true;
        }
        s += strspn(s, " \t");
        size_t len = strlen(s);
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) {
            s[--len] = '\0';
        }
        if (*s == '\0' || (comments && *s == '#' && strcmp(s, "#BEGIN_TB") != 0 &&
                           strcmp(s, "#END_TB") != 0)) {
            continue;
        }
        *line = s;
        return true;
    }
}

/* "<file>:<line>: " and fmt with its one string argument. */
static bool read_fail(const AtsReader *r, SimError *err, const char *fmt, const char *arg)
{
    AtsWhere at = read_where(r);
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    return sim_error_set(err, "%s:%" PRIu64 ": %s", at.file, at.line, msg);
}

static bool read_header(AtsReader *r, SimError *err)
{
    unsigned seen = 0;
    char *line;
    for (;;) {
        if (!read_line(r, true, &line, err)) {
            return false;
        }
        if (!line || strcmp(line, "#BEGIN_TB") == 0) {
            r->begin_pending = line != NULL;
            return ats_header_check(seen, read_where(r), err);
        }
        if (line[0] != '-') {
            return read_fail(r, err, "expected a header line -key = value, not \"%.40s\"",
                             line);
        }
        if (!ats_header_line(line + 1, &r->info, &seen, read_where(r), err)) {
            return false;
        }
    }
}

AtsReader *ats_reader_open(const char *path, AtsKernelInfo *info, SimError *err)
{
    AtsReader *r = calloc(1, sizeof *r);
    if (!r) {
        sim_error_set(err, "%s: cannot open: out of memory", path);
        return NULL;
    }
    r->lines = ats_lines_open(path, err);
    if (!r->lines || !read_header(r, err)) {
        ats_reader_close(r);
        return NULL;
    }
    *info = r->info;
    return r;
}

/* "<key> = <value>" with a whole decimal value; false if line is not that key. */
static bool read_key_u64(const char *line, const char *key, const char **val)
{
    size_t n = strlen(key);
    if (strncmp(line, key, n) != 0 || strncmp(line + n, " = ", 3) != 0) {
        return false;
    }
    *val = line + n + 3;
    return true;
}

/* "thread block = x,y,z" inside the grid. */
static bool read_block_id(AtsReader *r, const char *line, AtsCta *cta, SimError *err)
{
    const char *val;
    uint32_t id[3];
    if (!read_key_u64(line, "thread block", &val)) {
        return read_fail(r, err, "expected thread block = x,y,z, not \"%.40s\"", line);
    }
    const char *s = val;
    for (int i = 0; i < 3; i++) {
        char num[24];
        size_t len = strcspn(s, ",");
        uint64_t v;
        if (len == 0 || len >= sizeof num || (i < 2) != (s[len] == ',')) {
            return read_fail(r, err, "bad thread block \"%s\" (x,y,z)", val);
        }
        memcpy(num, s, len);
        num[len] = '\0';
        if (!ats_parse_u64(num, 10, &v) || v >= r->info.grid[i]) {
            return read_fail(r, err, "thread block \"%s\" outside the grid", val);
        }
        id[i] = (uint32_t)v;
        s += len + (i < 2);
    }
    cta->x = id[0];
    cta->y = id[1];
    cta->z = id[2];
    return true;
}

/* Reads the k instruction lines of warp wb. */
static bool read_warp_insts(AtsReader *r, AtsWarpBuf *wb, uint64_t k, uint64_t w,
                            SimError *err)
{
    for (uint64_t i = 0; i < k; i++) {
        char *line;
        if (!read_line(r, false, &line, err)) {
            return false;
        }
        if (!line) {
            return sim_error_set(err,
                                 "%s:%" PRIu64 ": end of file after %" PRIu64
                                 " of %" PRIu64 " instructions of warp %" PRIu64,
                                 ats_lines_path(r->lines), ats_lines_number(r->lines), i,
                                 k, w);
        }
        if (line[0] == '#' || line[0] == 'w' || line[0] == 't' || line[0] == 'i') {
            AtsWhere at = read_where(r);
            return sim_error_set(err,
                                 "%s:%" PRIu64 ": \"%.20s\" after %" PRIu64 " of %" PRIu64
                                 " instructions of warp %" PRIu64,
                                 at.file, at.line, line, i, k, w);
        }
        bool unknown;
        if (!ats_inst_parse(line, &r->info, wb, &unknown, read_where(r), err)) {
            return false;
        }
        r->unknown += unknown;
    }
    return true;
}

/* "warp = w" (line) then "insts = k" and the instructions, into cta. */
static bool read_warp(AtsReader *r, const char *line, AtsCta *cta, uint32_t *listed,
                      SimError *err)
{
    const char *val;
    uint64_t w, k;
    if (!read_key_u64(line, "warp", &val)) {
        return read_fail(r, err, "expected warp = <n> or #END_TB, not \"%.40s\"", line);
    }
    if (!ats_parse_u64(val, 10, &w)) {
        return read_fail(r, err, "bad warp number \"%s\"", val);
    }
    if (w >= cta->nwarps) {
        AtsWhere at = read_where(r);
        return sim_error_set(err,
                             "%s:%" PRIu64 ": warp %" PRIu64 " outside the block's %zu "
                             "warps",
                             at.file, at.line, w, cta->nwarps);
    }
    if (*listed >> w & 1u) {
        return read_fail(r, err, "%s listed twice in the block", line);
    }
    *listed |= 1u << w;
    AtsWarp *warp = &cta->warps[w];
    char *next;
    if (!read_line(r, false, &next, err)) {
        return false;
    }
    if (!next || !read_key_u64(next, "insts", &val)) {
        AtsWhere at = read_where(r);
        return sim_error_set(err,
                             "%s:%" PRIu64 ": expected insts = <n> after warp = %" PRIu64,
                             at.file, at.line, w);
    }
    if (!ats_parse_u64(val, 10, &k)) {
        return read_fail(r, err, "bad instruction count \"%s\"", val);
    }
    AtsWarpBuf wb = {.warp = warp};
    return read_warp_insts(r, &wb, k, w, err);
}

/* The warps of the block whose id line was read, up to #END_TB, into cta. */
static bool read_block(AtsReader *r, AtsCta *cta, SimError *err)
{
    const AtsKernelInfo *k = &r->info;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    cta->nwarps = (size_t)((threads + ATS_LANES - 1) / ATS_LANES);
    cta->warps = calloc(cta->nwarps, sizeof *cta->warps);
    if (!cta->warps) {
        return read_fail(r, err, "%s", "out of memory");
    }
    uint32_t listed = 0; /* bit w: warp w was listed (at most 1024 / 32 warps) */
    char *line;
    for (;;) {
        if (!read_line(r, false, &line, err)) {
            return false;
        }
        if (!line) {
            return read_fail(r, err, "end of file before %s", "#END_TB");
        }
        if (strcmp(line, "#END_TB") == 0) {
            return true;
        }
        if (!read_warp(r, line, cta, &listed, err)) {
            return false;
        }
    }
}

bool ats_reader_next_id(AtsReader *r, uint32_t id[3], bool *got, SimError *err)
{
    char *line;
    *got = false;
    if (!r->begin_pending) {
        if (!read_line(r, true, &line, err)) {
            return false;
        }
        if (!line) {
            return true;
        }
        if (strcmp(line, "#BEGIN_TB") != 0) {
            return read_fail(r, err, "expected #BEGIN_TB, not \"%.40s\"", line);
        }
    }
    r->begin_pending = false;
    if (!read_line(r, false, &line, err)) {
        return false;
    }
    if (!line) {
        return read_fail(r, err, "end of file after %s", "#BEGIN_TB");
    }
    AtsCta c = {0};
    if (!read_block_id(r, line, &c, err)) {
        return false;
    }
    id[0] = c.x;
    id[1] = c.y;
    id[2] = c.z;
    *got = true;
    return true;
}

bool ats_reader_body(AtsReader *r, const uint32_t id[3], AtsCta *cta, SimError *err)
{
    AtsCta c = {.x = id[0], .y = id[1], .z = id[2]};
    if (!read_block(r, &c, err)) {
        ats_cta_free(&c);
        return false;
    }
    *cta = c;
    return true;
}

bool ats_reader_skip(AtsReader *r, SimError *err)
{
    for (;;) {
        char *line;
        if (!ats_lines_next(r->lines, &line, err)) {
            return false;
        }
        if (!line) {
            return read_fail(r, err, "end of file before %s", "#END_TB");
        }
        if (line[0] == '#' || line[0] == ' ' || line[0] == '\t') {
            line += strspn(line, " \t");
            if (strncmp(line, "#END_TB", 7) == 0 &&
                line[7 + strspn(line + 7, " \t")] == '\0') {
                return true;
            }
        }
    }
}

bool ats_reader_next(AtsReader *r, AtsCta *cta, bool *got, SimError *err)
{
    uint32_t id[3];
    if (!ats_reader_next_id(r, id, got, err)) {
        return false;
    }
    if (*got && !ats_reader_body(r, id, cta, err)) {
        *got = false;
        return false;
    }
    return true;
}

uint64_t ats_reader_unknown(const AtsReader *r)
{
    return r->unknown;
}

void ats_reader_close(AtsReader *r)
{
    if (r) {
        ats_lines_close(r->lines);
        free(r);
    }
}

void ats_cta_free(AtsCta *cta)
{
    for (size_t w = 0; w < cta->nwarps; w++) {
        free(cta->warps[w].inst);
        free(cta->warps[w].addrs);
    }
    free(cta->warps);
    *cta = (AtsCta){0};
}
