/* Streaming reader of an Accel-Sim kernel trace (see accelsim_read.h): the header,
 * then one "#BEGIN_TB ... #END_TB" block per call.
 *
 * Decisions:
 * - Blank lines and lines starting with '#' (other than #BEGIN_TB and #END_TB) are
 *   comments wherever a header line or a new block may come, blank lines also inside
 *   a block.
 * - A block is "thread block = x,y,z" (inside the grid), then optionally the cluster
 *   lines of Accel-Sim's post-processor for sm_90 ("cluster id = x,y,z", "cluster
 *   cta = x,y,z", "cluster rank = r", each at most once, in any order; read_cluster),
 *   then warps "warp = w" and "insts = k" followed by exactly k instruction lines, then
 *   #END_TB. A warp number is below the block's warp count (threads / 32 rounded up)
 *   and listed once; a warp the block does not list has no instructions (AtsCta.nwarps
 *   is always the block's warp count, so consumers index warps by number). An
 *   instruction's mask may have only lanes that are threads of the block (the last
 *   warp of a block whose thread count is not a multiple of 32 has fewer): the GPU
 *   never runs the others.
 * - Instruction arrays grow as lines arrive (never sized from "insts = k" alone), so
 *   a wrong count costs an error, not an allocation of its size.
 * - The reader parses every block into its own AtsCta, whose warps keep their arrays
 *   (and capacities) from block to block: ats_reader_view lends it, ats_reader_next
 *   copies it into arrays of the exact size (two allocations per warp, no growth).
 *   Memory is the largest block's, twice with ats_reader_next while the caller holds
 *   its copy.
 * - A block is read in three steps, each done once: "#BEGIN_TB", the "thread block"
 *   line (ats_reader_peek stops here), and the body, parsed or skipped. Skipping reads
 *   the instruction lines as lines only (a line that starts a structure line, '#',
 *   'w', 't' or 'i', is refused there as when parsing); their own errors are not
 *   found (a later parse of the same file finds them).
 * - A reader that keeps the memo of whole lines (not ats_reader_trust) first compares
 *   line i of warp w with the text of the slot that line i of warp w took in the
 *   block before (read_guess): the blocks of a kernel repeat their warps' lines (97 %
 *   of the tracegen GEMM's), and such a line is passed over without the search for
 *   its end, the trimming and the hash (docs/performance.md, "Guessing a line from the
 *   block before"). Any other line goes the usual way, so a guess changes no result. */
#include "hw/core/accelsim_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_lines.h"
#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_parse.h"

/* Where the reader is in the file: before a block's #BEGIN_TB, after it, or after its
 * "thread block" line. */
typedef enum ReadStep { READ_BETWEEN, READ_BEGUN, READ_PEEKED } ReadStep;

/* The memos of opcodes and of line starts (accelsim_parse.h), allocated at a reader's
 * first warp parsed: a reader of the header alone (core_kernels_load opens every
 * launch's file at realize) never clears their 70 KiB; a list of 20,000 launches
 * spent half its run clearing them and the line buffer (docs/performance.md). */
typedef struct ReadMemos {
    AtsOpMemo ops;
    AtsLineMemo starts;
} ReadMemos;

/* The memo slots that the instruction lines of one warp number took in the last block
 * parsed (ATS_TEXT_MEMO_NONE: none), slot[i] for line i; cap lines. */
typedef struct ReadGuess {
    uint32_t *slot;
    size_t cap;
} ReadGuess;

struct AtsReader {
    AtsLines *lines;
    AtsKernelInfo info;
    uint64_t unknown;
    uint64_t clustered; /* blocks with a cluster line (ats_reader_clustered) */
    ReadStep step;
    uint32_t xyz[3];    /* the peeked block's coordinates (READ_PEEKED) */
    AtsCta cta;         /* the reader's own block */
    AtsWarpBuf *bufs;   /* bufs[w]: cta.warps[w] with its capacities */
    ReadGuess *guess;   /* guess[w]: warp w's lines in the last block parsed */
    ReadMemos *memos;   /* from the first warp parsed */
    AtsTextMemo *texts; /* from the first line parsed untrusted; NULL when trusted */
    size_t len;         /* of the line read_line returned last */
    bool trusted;       /* ats_reader_trust */
    bool sent_only;     /* ats_reader_sent_only */
    AtsMark mark;       /* the #BEGIN_TB line of the block last reached */
    bool marked;
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
        size_t len = ats_lines_length(r->lines);
        while (*s == ' ' || *s == '\t') {
            s++;
            len--;
        }
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) {
            s[--len] = '\0';
        }
        if (*s == '\0' || (comments && *s == '#' && strcmp(s, "#BEGIN_TB") != 0 &&
                           strcmp(s, "#END_TB") != 0)) {
            continue;
        }
        *line = s;
        r->len = len;
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

/* Records the line just read (a block's #BEGIN_TB) as the block's mark. */
static void read_mark(AtsReader *r, bool begun)
{
    r->marked = begun;
    r->mark = (AtsMark){ats_lines_offset(r->lines), ats_lines_number(r->lines)};
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
            r->step = line ? READ_BEGUN : READ_BETWEEN;
            read_mark(r, line != NULL);
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

/* The reader's own block: the header's warp count, each warp with no array yet. */
static bool read_own_block(AtsReader *r, SimError *err)
{
    const AtsKernelInfo *k = &r->info;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    size_t nwarps = (size_t)((threads + ATS_LANES - 1) / ATS_LANES);
    r->cta.warps = calloc(nwarps, sizeof *r->cta.warps);
    r->bufs = calloc(nwarps, sizeof *r->bufs);
    r->guess = calloc(nwarps, sizeof *r->guess);
    if (!r->cta.warps || !r->bufs || !r->guess) {
        return read_fail(r, err, "%s", "out of memory");
    }
    r->cta.nwarps = nwarps;
    for (size_t w = 0; w < nwarps; w++) {
        r->bufs[w].warp = &r->cta.warps[w];
    }
    return true;
}

AtsReader *ats_reader_open(const char *path, AtsKernelInfo *info, SimError *err)
{
    AtsReader *r = calloc(1, sizeof *r);
    if (!r) {
        sim_error_set(err, "%s: cannot open: out of memory", path);
        return NULL;
    }
    r->lines = ats_lines_open(path, err);
    if (!r->lines || !read_header(r, err) || !read_own_block(r, err)) {
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

/* "x,y,z", three whole decimal numbers, into v; false if val is not that. */
static bool read_xyz(const char *val, uint64_t v[3])
{
    const char *s = val;
    for (int i = 0; i < 3; i++) {
        char num[24];
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof num || (i < 2) != (s[len] == ',')) {
            return false;
        }
        memcpy(num, s, len);
        num[len] = '\0';
        if (!ats_parse_u64(num, 10, &v[i])) {
            return false;
        }
        s += len + (i < 2);
    }
    return true;
}

/* "thread block = x,y,z" inside the grid, into r->xyz. */
static bool read_block_id(AtsReader *r, const char *line, SimError *err)
{
    const char *val;
    if (!read_key_u64(line, "thread block", &val)) {
        return read_fail(r, err, "expected thread block = x,y,z, not \"%.40s\"", line);
    }
    uint64_t xyz[3];
    if (!read_xyz(val, xyz)) {
        return read_fail(r, err, "bad thread block \"%s\" (x,y,z)", val);
    }
    for (int i = 0; i < 3; i++) {
        if (xyz[i] >= r->info.grid[i]) {
            char msg[128];
            snprintf(msg, sizeof msg,
                     "thread block \"%.40s\" outside the grid %" PRIu32 ",%" PRIu32
                     ",%" PRIu32,
                     val, r->info.grid[0], r->info.grid[1], r->info.grid[2]);
            return read_fail(r, err, "%s", msg);
        }
        r->xyz[i] = (uint32_t)xyz[i];
    }
    return true;
}

/* One of the lines Accel-Sim's post-processor writes after "thread block" for
 * thread block clusters (sm_90): "cluster id = x,y,z", "cluster cta = x,y,z" and
 * "cluster rank = r", each at most once (bit k of *seen: key k was read). Checked for
 * form, not modelled (docs/traces.md). */
static bool read_cluster(AtsReader *r, const char *line, unsigned *seen, SimError *err)
{
    static const char *const keys[] = {"cluster id", "cluster cta", "cluster rank"};
    for (unsigned k = 0; k < 3; k++) {
        const char *val;
        if (!read_key_u64(line, keys[k], &val)) {
            continue;
        }
        if (*seen >> k & 1u) {
            return read_fail(r, err, "%s listed twice in the block", keys[k]);
        }
        *seen |= 1u << k;
        uint64_t v[3];
        if (k < 2 ? read_xyz(val, v) : ats_parse_u64(val, 10, v)) {
            return true;
        }
        char msg[128];
        snprintf(msg, sizeof msg, "bad %s \"%.40s\" (%s)", keys[k], val,
                 k < 2 ? "x,y,z" : "a number");
        return read_fail(r, err, "%s", msg);
    }
    return read_fail(r, err, "expected warp = <n> or #END_TB, not \"%.40s\"", line);
}

/* Brings the reader to the next block's body (READ_PEEKED); *got false at the end. */
static bool read_to_body(AtsReader *r, bool *got, SimError *err)
{
    char *line;
    *got = false;
    if (r->step == READ_BETWEEN) {
        if (!read_line(r, true, &line, err)) {
            return false;
        }
        if (!line) {
            return true;
        }
        if (strcmp(line, "#BEGIN_TB") != 0) {
            return read_fail(r, err, "expected #BEGIN_TB, not \"%.40s\"", line);
        }
        r->step = READ_BEGUN;
        read_mark(r, true);
    }
    if (r->step == READ_BEGUN) {
        if (!read_line(r, false, &line, err)) {
            return false;
        }
        if (!line) {
            return read_fail(r, err, "end of file after %s", "#BEGIN_TB");
        }
        if (!read_block_id(r, line, err)) {
            return false;
        }
        r->step = READ_PEEKED;
    }
    *got = true;
    return true;
}

/* The lanes of warp w that are threads of the block (the last warp may be short). */
static uint32_t read_warp_lanes(const AtsReader *r, uint64_t w)
{
    const AtsKernelInfo *k = &r->info;
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    uint64_t left = threads - w * ATS_LANES; /* w < the block's warps: left >= 1 */
    return left >= ATS_LANES ? UINT32_MAX : (uint32_t)((1ull << left) - 1);
}

/* Whether the instruction just appended to wb has active lanes only among lanes; false
 * with a message naming the first lane past the block's threads. */
static bool read_lanes_ok(AtsReader *r, const AtsWarpBuf *wb, uint32_t lanes, uint64_t w,
                          SimError *err)
{
    uint32_t extra = wb->warp->inst[wb->warp->ninst - 1].mask & ~lanes;
    if (extra == 0) {
        return true;
    }
    AtsWhere at = read_where(r);
    return sim_error_set(err,
                         "%s:%" PRIu64 ": lane %d of warp %" PRIu64
                         " is active, but the block has no thread %" PRIu64,
                         at.file, at.line, __builtin_ctz(extra), w,
                         w * ATS_LANES + (uint64_t)__builtin_ctz(extra));
}

/* The last instruction of w gives up its addresses unless it is a global or local
 * access (ats_reader_sent_only). */
static void read_drop_addrs(AtsWarp *w)
{
    AtsInst *in = &w->inst[w->ninst - 1];
    if (in->width > 0 && !ats_class_leaves_sm(in->cls)) {
        w->naddrs = in->addr_off;
        in->width = 0;
        in->addr_off = 0;
    }
}

/* Line i of warp w when it is the text of the memo slot that line i of warp w took in
 * the last block parsed: passed over without a search for its end or a hash, its
 * instruction appended to wb, *unknown set. False, with nothing read, otherwise. */
static bool read_guess(AtsReader *r, AtsWarpBuf *wb, uint64_t w, uint64_t i,
                       bool *unknown)
{
    const ReadGuess *g = &r->guess[w];
    const char *text;
    size_t len;
    if (i >= g->cap || !(text = ats_text_memo_text(r->texts, g->slot[i], wb, &len)) ||
        !ats_lines_take(r->lines, text, len)) {
        return false;
    }
    ats_text_memo_take(r->texts, g->slot[i], wb, unknown);
    r->len = len;
    return true;
}

/* Notes the slot the memo chose for line i of warp w (nothing when out of memory:
 * the guess only saves time). */
static void read_guess_keep(AtsReader *r, uint64_t w, uint64_t i)
{
    ReadGuess *g = &r->guess[w];
    if (i >= g->cap) {
        size_t cap = g->cap ? g->cap : 64;
        while (cap <= i) {
            cap *= 2;
        }
        uint32_t *slot = realloc(g->slot, cap * sizeof *slot);
        if (!slot) {
            return;
        }
        for (size_t k = g->cap; k < cap; k++) {
            slot[k] = ATS_TEXT_MEMO_NONE;
        }
        g->slot = slot;
        g->cap = cap;
    }
    g->slot[i] = ats_text_memo_last(r->texts);
}

/* Reads line i of the k instruction lines of warp w as a line, and when parse is true
 * its instruction into wb (from the memo or parsed), *unknown set. */
static bool read_inst(AtsReader *r, AtsWarpBuf *wb, bool parse, uint64_t i, uint64_t k,
                      uint64_t w, bool *unknown, SimError *err)
{
    char *line;
    if (!read_line(r, false, &line, err)) {
        return false;
    }
    if (!line) {
        return sim_error_set(err,
                             "%s:%" PRIu64 ": end of file after %" PRIu64 " of %" PRIu64
                             " instructions of warp %" PRIu64,
                             ats_lines_path(r->lines), ats_lines_number(r->lines), i, k,
                             w);
    }
    if (line[0] == '#' || line[0] == 'w' || line[0] == 't' || line[0] == 'i') {
        AtsWhere at = read_where(r);
        return sim_error_set(err,
                             "%s:%" PRIu64 ": \"%.20s\" after %" PRIu64 " of %" PRIu64
                             " instructions of warp %" PRIu64,
                             at.file, at.line, line, i, k, w);
    }
    if (!parse) {
        return true;
    }
    AtsTextSlot *pending = NULL;
    if (!r->trusted && !r->texts) {
        r->texts = ats_text_memo_new(); /* at the first line parsed in full */
    }
    bool recalled =
        r->texts && ats_text_memo_recall(r->texts, line, r->len, wb, unknown, &pending);
    if (r->texts) {
        read_guess_keep(r, w, i);
    }
    if (recalled) {
        return true;
    }
    if (!ats_inst_parse(line, &r->info, &r->memos->ops, &r->memos->starts, wb, r->trusted,
                        unknown, read_where(r), err)) {
        return false;
    }
    if (r->sent_only) {
        read_drop_addrs(wb->warp);
    }
    if (pending) {
        ats_text_memo_keep(pending, wb, *unknown);
    }
    return true;
}

/* Reads the k instruction lines of warp w, into wb when parse is true. */
static bool read_warp_insts(AtsReader *r, AtsWarpBuf *wb, bool parse, uint64_t k,
                            uint64_t w, SimError *err)
{
    uint32_t lanes = read_warp_lanes(r, w);
    if (parse && !r->memos && !(r->memos = calloc(1, sizeof *r->memos))) {
        return read_fail(r, err, "%s", "out of memory");
    }
    for (uint64_t i = 0; i < k; i++) {
        /* a skip passes over plain lines in bulk; each other line goes below */
        if (!parse && (i += ats_lines_skip_plain(r->lines, k - i)) == k) {
            break;
        }
        bool unknown = false;
        if (!(parse && r->texts && read_guess(r, wb, w, i, &unknown)) &&
            !read_inst(r, wb, parse, i, k, w, &unknown, err)) {
            return false;
        }
        if (parse && !read_lanes_ok(r, wb, lanes, w, err)) {
            return false;
        }
        r->unknown += unknown;
    }
    return true;
}

/* "warp = w" (line) then "insts = k" and the instructions, parsed when parse is true. */
static bool read_warp(AtsReader *r, const char *line, bool parse, uint32_t *listed,
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
    if (w >= r->cta.nwarps) {
        AtsWhere at = read_where(r);
        return sim_error_set(err,
                             "%s:%" PRIu64 ": warp %" PRIu64 " outside the block's %zu "
                             "warps",
                             at.file, at.line, w, r->cta.nwarps);
    }
    if (*listed >> w & 1u) {
        return read_fail(r, err, "%s listed twice in the block", line);
    }
    *listed |= 1u << w;
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
    return read_warp_insts(r, &r->bufs[w], parse, k, w, err);
}

/* The body of the peeked block up to #END_TB, into the reader's block when parse. */
static bool read_body(AtsReader *r, bool parse, SimError *err)
{
    if (parse) {
        r->cta.x = r->xyz[0];
        r->cta.y = r->xyz[1];
        r->cta.z = r->xyz[2];
        for (size_t w = 0; w < r->cta.nwarps; w++) {
            r->cta.warps[w].ninst = 0;
            r->cta.warps[w].naddrs = 0;
        }
    }
    uint32_t listed = 0;   /* bit w: warp w was listed (at most 1024 / 32 warps) */
    unsigned clusters = 0; /* read_cluster's keys read */
    char *line;
    for (;;) {
        if (!read_line(r, false, &line, err)) {
            return false;
        }
        if (!line) {
            return read_fail(r, err, "end of file before %s", "#END_TB");
        }
        if (strcmp(line, "#END_TB") == 0) {
            r->step = READ_BETWEEN;
            r->clustered += clusters != 0;
            return true;
        }
        if (listed == 0 && strncmp(line, "cluster ", 8) == 0) {
            if (!read_cluster(r, line, &clusters, err)) {
                return false;
            }
            continue;
        }
        if (!read_warp(r, line, parse, &listed, err)) {
            return false;
        }
    }
}

bool ats_reader_view(AtsReader *r, const AtsCta **view, bool *got, SimError *err)
{
    if (!read_to_body(r, got, err)) {
        return false;
    }
    if (!*got) {
        return true;
    }
    *got = false;
    if (!read_body(r, true, err)) {
        return false;
    }
    *view = &r->cta;
    *got = true;
    return true;
}

bool ats_reader_peek(AtsReader *r, uint32_t xyz[3], bool *got, SimError *err)
{
    if (!read_to_body(r, got, err)) {
        return false;
    }
    if (*got) {
        memcpy(xyz, r->xyz, sizeof r->xyz);
    }
    return true;
}

bool ats_reader_skip(AtsReader *r, bool *got, SimError *err)
{
    if (!read_to_body(r, got, err)) {
        return false;
    }
    if (*got && !read_body(r, false, err)) {
        *got = false;
        return false;
    }
    return true;
}

/* A new copy of n items of size bytes at src (NULL when n is 0 or out of memory). */
static void *read_copy(const void *src, size_t n, size_t size)
{
    void *p = n ? malloc(n * size) : NULL;
    if (p) {
        memcpy(p, src, n * size);
    }
    return p;
}

bool ats_reader_next(AtsReader *r, AtsCta *cta, bool *got, SimError *err)
{
    const AtsCta *v;
    if (!ats_reader_view(r, &v, got, err)) {
        return false;
    }
    if (!*got) {
        return true;
    }
    AtsCta c = {.x = v->x, .y = v->y, .z = v->z};
    c.warps = calloc(v->nwarps, sizeof *c.warps);
    bool ok = c.warps != NULL;
    if (ok) {
        c.nwarps = v->nwarps;
    }
    for (size_t w = 0; ok && w < c.nwarps; w++) {
        const AtsWarp *from = &v->warps[w];
        AtsWarp *to = &c.warps[w];
        to->ninst = from->ninst;
        to->naddrs = from->naddrs;
        to->inst = read_copy(from->inst, from->ninst, sizeof *from->inst);
        to->addrs = read_copy(from->addrs, from->naddrs, sizeof *from->addrs);
        ok = (to->inst || !from->ninst) && (to->addrs || !from->naddrs);
    }
    if (!ok) {
        ats_cta_free(&c);
        *got = false;
        return read_fail(r, err, "%s", "out of memory");
    }
    *cta = c;
    return true;
}

bool ats_reader_mark(AtsReader *r, AtsMark *m)
{
    if (!r->marked || !ats_lines_seekable(r->lines)) {
        return false;
    }
    *m = r->mark;
    return true;
}

uint64_t ats_reader_block_line(const AtsReader *r)
{
    return r->mark.line;
}

bool ats_reader_seek(AtsReader *r, const AtsMark *m, SimError *err)
{
    if (!ats_lines_seek(r->lines, m->offset, m->line, err)) {
        return false;
    }
    r->step = READ_BETWEEN;
    r->marked = false;
    return true;
}

void ats_reader_sent_only(AtsReader *r)
{
    r->sent_only = true;
}

void ats_reader_trust(AtsReader *r)
{
    r->trusted = true;
    ats_text_memo_free(r->texts);
    r->texts = NULL;
}

uint64_t ats_reader_unknown(const AtsReader *r)
{
    return r->unknown;
}

uint64_t ats_reader_clustered(const AtsReader *r)
{
    return r->clustered;
}

void ats_reader_close(AtsReader *r)
{
    if (r) {
        ats_lines_close(r->lines);
        ats_text_memo_free(r->texts);
        free(r->memos);
        if (r->guess) {
            for (size_t w = 0; w < r->cta.nwarps; w++) {
                free(r->guess[w].slot);
            }
        }
        free(r->guess);
        ats_cta_free(&r->cta);
        free(r->bufs);
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

bool ats_cta_same(const AtsCta *a, const AtsCta *b)
{
    if (a->x != b->x || a->y != b->y || a->z != b->z || a->nwarps != b->nwarps) {
        return false;
    }
    for (size_t w = 0; w < a->nwarps; w++) {
        const AtsWarp *p = &a->warps[w], *q = &b->warps[w];
        if (p->ninst != q->ninst || p->naddrs != q->naddrs ||
            (p->ninst && memcmp(p->inst, q->inst, p->ninst * sizeof *p->inst) != 0) ||
            (p->naddrs &&
             memcmp(p->addrs, q->addrs, p->naddrs * sizeof *p->addrs) != 0)) {
            return false;
        }
    }
    return true;
}
