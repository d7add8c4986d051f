/* Unit tests of the Accel-Sim reader's streaming (hw/core/accelsim_read.h,
 * accelsim_lines.c and its decoders accelsim_gz.c, accelsim_xz.c): a block read in place
 * (ats_reader_view) equals its copy (ats_reader_next); ats_reader_peek gives a block's
 * coordinates once and ats_reader_skip passes over it checking its structure lines only,
 * with the messages the parsing calls give, plain lines in bulk (ats_lines_skip_plain)
 * and a line that is exactly a given text (ats_lines_take, the reader's guess); the
 * reader's own block is cleared between blocks; and a file of several read chunks (lines
 * cut across chunk ends, CRLF ends, addresses of more than 16 digits, plain, .gz and
 * .xz, each also as two gzip members or two xz streams one after the other) gives every
 * address its line wrote, with a NUL byte or an overlong line in a later chunk reported
 * on its own line; a gzip or xz file is not seekable and a seek in one is refused with
 * a message.
 * Expected values are the formulas the test writes its lines from. */
#include <lzma.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "../harness.h"
#include "hw/core/accelsim_lines.h"
#include "hw/core/accelsim_read.h"

static char tmpdir[] = "/tmp/test_accelsim_stream_XXXXXX";

static const char header[] = "-kernel name = s\n"
                             "-grid dim = (2,2,1)\n"
                             "-block dim = (64,1,1)\n"
                             "-shmem = 0\n"
                             "-nregs = 8\n"
                             "-shmem base_addr = 0x1000000\n"
                             "-local mem base_addr = 0x2000000\n"
                             "-accelsim tracer version = 4\n";

/* Block A (0,0,0): warp 1 then warp 0. Block B (1,0,0): warp 0 only, an unknown
 * opcode. Block C (0,1,0): warp 1 only. */
static const char three[] = "#BEGIN_TB\n"
                            "thread block = 0,0,0\n"
                            "warp = 1\n"
                            "insts = 2\n"
                            "0000 00000003 1 R1 LDG.E 1 R2 4 1 0x7000 4\n"
                            "0010 ffffffff 0 EXIT 0 0\n"
                            "warp = 0\n"
                            "insts = 1\n"
                            "0010 ffffffff 0 EXIT 0 0\n"
                            "#END_TB\n"
                            "#BEGIN_TB\n"
                            "thread block = 1,0,0\n"
                            "warp = 0\n"
                            "insts = 2\n"
                            "0000 00000001 1 R1 TEX.B 1 R2 0\n"
                            "0010 ffffffff 0 EXIT 0 0\n"
                            "#END_TB\n"
                            "#BEGIN_TB\n"
                            "thread block = 0,1,0\n"
                            "warp = 1\n"
                            "insts = 1\n"
                            "0010 ffffffff 0 EXIT 0 0\n"
                            "#END_TB\n";

static char *path_of(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_text(const char *path, const char *a, const char *b)
{
    FILE *f = fopen(path, "w");
    fputs(a, f);
    fputs(b, f);
    fclose(f);
}

/* The file `name` of the n bytes at text (NUL bytes included), opened by the line
 * reader; NULL (a failed check) if it cannot be. */
static AtsLines *lines_of(const char *name, const char *text, size_t n)
{
    char *path = path_of(name);
    FILE *f = fopen(path, "w");
    fwrite(text, 1, n, f);
    fclose(f);
    SimError err = {{0}};
    AtsLines *l = ats_lines_open(path, &err);
    CHECK(l != NULL);
    return l;
}

static AtsReader *open_or_report(const char *path)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(path, &k, &err);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
    }
    return r;
}

/* Every block of three read with ats_reader_view equals its ats_reader_next copy; a
 * warp the next block does not list has no instructions in the reader's block. */
static void test_view_equals_next(void)
{
    char *path = path_of("kernel-1.traceg");
    write_text(path, header, three);
    AtsReader *a = open_or_report(path), *b = open_or_report(path);
    if (!a || !b) {
        ats_reader_close(a);
        ats_reader_close(b);
        return;
    }
    SimError err = {{0}};
    int blocks = 0;
    for (;;) {
        AtsCta cta = {0};
        const AtsCta *view = NULL;
        bool got_a = false, got_b = false;
        CHECK(ats_reader_next(a, &cta, &got_a, &err));
        CHECK(ats_reader_view(b, &view, &got_b, &err));
        CHECK(got_a == got_b);
        if (!got_a || !got_b) {
            break;
        }
        CHECK(ats_cta_same(&cta, view));
        if (blocks == 0) {
            CHECK_EQ_U64(view->warps[1].ninst, 2);
            CHECK_EQ_U64(view->warps[1].naddrs, 2);
            CHECK_EQ_U64(view->warps[1].addrs[1], 0x7004);
        } else {
            CHECK_EQ_U64(view->warps[1].ninst, blocks == 1 ? 0 : 1);
            CHECK_EQ_U64(view->warps[1].naddrs, 0);
        }
        ats_cta_free(&cta);
        blocks++;
    }
    CHECK_EQ_U64(blocks, 3);
    CHECK_EQ_U64(ats_reader_unknown(a), 1);
    CHECK_EQ_U64(ats_reader_unknown(b), 1);
    ats_reader_close(a);
    ats_reader_close(b);
}

/* peek, peek again, skip A; peek and view B; peek and skip C; then the end. */
static void test_peek_skip(void)
{
    char *path = path_of("kernel-2.traceg");
    write_text(path, header, three);
    AtsReader *r = open_or_report(path);
    if (!r) {
        return;
    }
    SimError err = {{0}};
    uint32_t xyz[3] = {9, 9, 9};
    bool got = false;
    CHECK(ats_reader_peek(r, xyz, &got, &err) && got);
    CHECK(xyz[0] == 0 && xyz[1] == 0 && xyz[2] == 0);
    xyz[0] = 9;
    CHECK(ats_reader_peek(r, xyz, &got, &err) && got && xyz[0] == 0);
    CHECK(ats_reader_skip(r, &got, &err) && got);
    CHECK(ats_reader_peek(r, xyz, &got, &err) && got);
    CHECK(xyz[0] == 1 && xyz[1] == 0);
    const AtsCta *view = NULL;
    CHECK(ats_reader_view(r, &view, &got, &err) && got);
    if (view) {
        CHECK(view->x == 1 && view->y == 0 && view->z == 0);
        CHECK_EQ_U64(view->warps[0].ninst, 2);
        CHECK_EQ_U64(view->warps[0].inst[0].cls, ATS_INT);
    }
    CHECK_EQ_U64(ats_reader_unknown(r), 1);
    CHECK(ats_reader_peek(r, xyz, &got, &err) && got);
    CHECK(xyz[0] == 0 && xyz[1] == 1);
    CHECK(ats_reader_skip(r, &got, &err) && got);
    CHECK(ats_reader_peek(r, xyz, &got, &err) && !got);
    CHECK(ats_reader_skip(r, &got, &err) && !got);
    CHECK(ats_reader_view(r, &view, &got, &err) && !got);
    CHECK_EQ_U64(ats_reader_unknown(r), 1);
    ats_reader_close(r);
}

/* The message of the first failing call of mode (0 view, 1 skip) on header + body. */
static void first_error(const char *name, const char *body, int mode, char *msg,
                        size_t size)
{
    char *path = path_of(name);
    write_text(path, header, body);
    AtsReader *r = open_or_report(path);
    snprintf(msg, size, "(none)");
    if (!r) {
        return;
    }
    SimError err = {{0}};
    bool got = true, ok = true;
    while (ok && got) {
        const AtsCta *view = NULL;
        ok = mode == 0 ? ats_reader_view(r, &view, &got, &err)
                       : ats_reader_skip(r, &got, &err);
    }
    if (!ok) {
        snprintf(msg, size, "%s", err.msg);
    }
    ats_reader_close(r);
}

/* Skipping checks the structure lines with the parsing calls' messages, and not the
 * instruction lines. */
static void test_skip_checks(void)
{
    static const char *const broken[] = {
        /* "#END_TB" after 2 of 3 instructions */
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
        "0000 ffffffff 0 NOP 0 0\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n",
        /* a warp outside the block */
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\ninsts = 0\n#END_TB\n",
        /* end of file inside a block */
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n",
        /* a block outside the grid */
        "#BEGIN_TB\nthread block = 0,2,0\n#END_TB\n",
        /* a warp listed twice, blank lines between instructions */
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n\n"
        "0000 ffffffff 0 NOP 0 0\nwarp = 0\ninsts = 0\n#END_TB\n",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        char viewed[SIM_ERROR_MAX], skipped[SIM_ERROR_MAX];
        first_error("kernel-3.traceg", broken[i], 0, viewed, sizeof viewed);
        first_error("kernel-3.traceg", broken[i], 1, skipped, sizeof skipped);
        CHECK(strcmp(viewed, "(none)") != 0);
        CHECK_STR(skipped, viewed);
    }
    /* a bad PC: refused when parsed, passed over when skipped */
    static const char bad_pc[] = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                 "00x0 ffffffff 0 NOP 0 0\n#END_TB\n";
    char viewed[SIM_ERROR_MAX], skipped[SIM_ERROR_MAX], want[SIM_ERROR_MAX];
    first_error("kernel-4.traceg", bad_pc, 0, viewed, sizeof viewed);
    first_error("kernel-4.traceg", bad_pc, 1, skipped, sizeof skipped);
    snprintf(want, sizeof want, "%s:13: bad PC \"00x0\" (hexadecimal)",
             path_of("kernel-4.traceg"));
    CHECK_STR(viewed, want);
    CHECK_STR(skipped, "(none)");
}

/* ats_lines_skip_plain passes over plain lines in bulk and stops before a blank line,
 * a line that starts with a blank or a structure line, which ats_lines_next then
 * returns; line numbers count the lines passed. */
static void test_skip_plain(void)
{
    static const char text[] = "0000 a\n0010 b\n\n  0020 c\nwarp = 0\n0030 d\n";
    AtsLines *l = lines_of("lines.txt", text, sizeof text - 1);
    if (!l) {
        return;
    }
    SimError err = {{0}};
    char *line = NULL;
    CHECK(ats_lines_next(l, &line, &err) && line); /* fills the buffer */
    CHECK_STR(line, "0000 a");
    CHECK_EQ_U64(ats_lines_skip_plain(l, 10), 1);
    CHECK_EQ_U64(ats_lines_number(l), 2);
    CHECK(ats_lines_next(l, &line, &err) && line && line[0] == '\0');
    CHECK_EQ_U64(ats_lines_skip_plain(l, 10), 0);
    CHECK(ats_lines_next(l, &line, &err) && line);
    CHECK_STR(line, "  0020 c");
    CHECK_EQ_U64(ats_lines_skip_plain(l, 10), 0);
    CHECK(ats_lines_next(l, &line, &err) && line);
    CHECK_STR(line, "warp = 0");
    CHECK_EQ_U64(ats_lines_skip_plain(l, 0), 0);
    CHECK_EQ_U64(ats_lines_skip_plain(l, 10), 1);
    CHECK_EQ_U64(ats_lines_number(l), 6);
    CHECK(ats_lines_next(l, &line, &err) && !line);
    ats_lines_close(l);
}

/* ats_lines_take passes over a line that is exactly the text and its '\n', counted as
 * ats_lines_next counts it, and nothing else. */
static void test_take(void)
{
    static const char text[] = "0000 a\n0000 ab\n0010 b\r\n0010 c\r \n0020 d";
    AtsLines *l = lines_of("lines.txt", text, sizeof text - 1);
    if (!l) {
        return;
    }
    SimError err = {{0}};
    char *line = NULL;
    CHECK(ats_lines_next(l, &line, &err) && line); /* fills the buffer */
    CHECK(!ats_lines_take(l, "0000 a", 6));        /* a longer line */
    CHECK(!ats_lines_take(l, "", 0));
    CHECK_EQ_U64(ats_lines_number(l), 1);
    CHECK(ats_lines_take(l, "0000 ab", 7));
    CHECK_EQ_U64(ats_lines_number(l), 2);
    CHECK_EQ_U64(ats_lines_offset(l), 7);
    CHECK_EQ_U64(ats_lines_length(l), 7);
    CHECK(!ats_lines_take(l, "0010 b", 6));   /* CRLF */
    CHECK(!ats_lines_take(l, "0010 b\r", 7)); /* next would return it without '\r' */
    CHECK(ats_lines_next(l, &line, &err) && line);
    CHECK_STR(line, "0010 b");
    CHECK(!ats_lines_take(l, "0010 c", 6));
    CHECK(ats_lines_take(l, "0010 c\r ", 8)); /* as next returns it */
    CHECK_EQ_U64(ats_lines_number(l), 4);
    CHECK(!ats_lines_take(l, "0020 d", 6)); /* no '\n' */
    CHECK(ats_lines_next(l, &line, &err) && line);
    CHECK_STR(line, "0020 d");
    CHECK(ats_lines_next(l, &line, &err) && !line);
    ats_lines_close(l);

    static const char nul[] = "0000 a\n00\0 b\n";
    l = lines_of("lines.txt", nul, sizeof nul - 1);
    if (!l) {
        return;
    }
    CHECK(ats_lines_next(l, &line, &err) && line);
    CHECK(!ats_lines_take(l, "00\0 b", 5));
    CHECK(!ats_lines_next(l, &line, &err));
    CHECK(strstr(err.msg, ":2: NUL byte in the line") != NULL);
    ats_lines_close(l);
}

#define LONG_BLOCKS 3
#define LONG_INSTS 900 /* per block: 3 blocks of about 0.45 MB, several read chunks */

/* The address of lane l of instruction i of block b in the long file. */
static uint64_t long_addr(unsigned b, unsigned i, unsigned l)
{
    return 0x7f1234000000ull + ((uint64_t)b << 24) + (uint64_t)i * 0x1000 + 4 * l;
}

/* Writes the long file (gzip-compressed when gz) and returns the number of the line
 * that holds byte offset bad_at of the file (0 when bad is NULL: no bad line). That
 * line's first address is bad (70000 'f's for an overlong line), or with bad "" the
 * line holds a NUL at byte bad_at (its length kept). */
static unsigned write_long(const char *path, bool gz, uint64_t bad_at, const char *bad)
{
    static char line[80000];
    gzFile g = gz ? gzopen(path, "wb1") : NULL;
    FILE *f = gz ? NULL : fopen(path, "w");
    unsigned n = 0, bad_line = 0;
    uint64_t at = 0;
    const char *hdr = "-grid dim = (3,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                      "-nregs = 8\n-shmem base_addr = 0x1000000\n"
                      "-local mem base_addr = 0x2000000\n"
                      "-accelsim tracer version = 4\n";
    for (const char *p = hdr; *p; p++) {
        n += *p == '\n';
    }
    at += strlen(hdr);
    gz ? (void)gzputs(g, hdr) : (void)fputs(hdr, f);
    for (unsigned b = 0; b < LONG_BLOCKS; b++) {
        int len = snprintf(line, sizeof line,
                           "#BEGIN_TB\nthread block = %u,0,0\n"
                           "warp = 0\ninsts = %d\n",
                           b, LONG_INSTS);
        gz ? (void)gzwrite(g, line, (unsigned)len)
           : (void)fwrite(line, 1, (size_t)len, f);
        n += 4;
        at += (uint64_t)len;
        for (unsigned i = 0; i < LONG_INSTS; i++) {
            n++;
            for (int pass = 0; pass < 2; pass++) {
                /* pass 1 only for the bad line, with its bad first address */
                bool this_bad = pass == 1;
                len = snprintf(line, sizeof line, "%04x ffffffff 1 R1 LDG.E 1 R2 4 0",
                               i * 16);
                for (unsigned l = 0; l < ATS_LANES; l++) {
                    /* lanes alternate 0x-prefixed lower case, 18 digits with leading
                     * zeros, and upper case without prefix */
                    static const char *const forms[] = {" 0x%llx", " 0x%018llx", " %llX"};
                    if (this_bad && l == 0 && bad[0] != '\0') {
                        len +=
                            snprintf(line + len, sizeof line - (size_t)len, " 0x%s", bad);
                        continue;
                    }
                    len += snprintf(line + len, sizeof line - (size_t)len,
                                    forms[(i + l) % 3],
                                    (unsigned long long)long_addr(b, i, l));
                }
                len += snprintf(line + len, sizeof line - (size_t)len, "%s",
                                i % 5 == 0 ? "\r\n" : "\n");
                if (this_bad && bad[0] == '\0') {
                    line[bad_at - at] = '\0';
                }
                if (this_bad || !bad || bad_at < at || bad_at >= at + (uint64_t)len) {
                    break;
                }
                bad_line = n;
            }
            gz ? (void)gzwrite(g, line, (unsigned)len)
               : (void)fwrite(line, 1, (size_t)len, f);
            at += (uint64_t)len;
        }
        gz ? (void)gzputs(g, "#END_TB\n") : (void)fputs("#END_TB\n", f);
        n++;
        at += 8;
    }
    gz ? (void)gzclose(g) : (void)fclose(f);
    return bad_line;
}

static void check_long(const char *path)
{
    AtsReader *r = open_or_report(path);
    if (!r) {
        return;
    }
    SimError err = {{0}};
    const AtsCta *v = NULL;
    bool got = false;
    unsigned blocks = 0;
    uint64_t wrong = 0;
    while (ats_reader_view(r, &v, &got, &err) && got) {
        CHECK_EQ_U64(v->x, blocks);
        const AtsWarp *w = &v->warps[0];
        CHECK_EQ_U64(w->ninst, LONG_INSTS);
        CHECK_EQ_U64(w->naddrs, (uint64_t)LONG_INSTS * ATS_LANES);
        for (unsigned i = 0; i < w->ninst && i < LONG_INSTS; i++) {
            wrong += w->inst[i].pc != i * 16 || w->inst[i].cls != ATS_LDG ||
                     w->inst[i].addr_off != i * ATS_LANES;
            for (unsigned l = 0; l < ATS_LANES; l++) {
                wrong += w->addrs[i * ATS_LANES + l] != long_addr(blocks, i, l);
            }
        }
        blocks++;
    }
    if (err.msg[0]) {
        fprintf(stderr, "%s\n", err.msg);
    }
    CHECK(err.msg[0] == '\0');
    CHECK_EQ_U64(blocks, LONG_BLOCKS);
    CHECK_EQ_U64(wrong, 0);
    ats_reader_close(r);
}

/* Appends to `out` the xz stream (preset 0) of bytes [from, to) of file src. */
static void xz_append(const char *src, long from, long to, FILE *out)
{
    FILE *in = fopen(src, "rb");
    lzma_stream s = LZMA_STREAM_INIT;
    CHECK(in != NULL && lzma_easy_encoder(&s, 0, LZMA_CHECK_CRC64) == LZMA_OK);
    static uint8_t ibuf[65536], obuf[65536];
    fseek(in, from, SEEK_SET);
    long left = to - from;
    lzma_ret r = LZMA_OK;
    while (r == LZMA_OK) {
        if (s.avail_in == 0 && left > 0) {
            size_t n =
                fread(ibuf, 1, left < (long)sizeof ibuf ? (size_t)left : sizeof ibuf, in);
            left -= (long)n;
            s.next_in = ibuf;
            s.avail_in = n;
        }
        s.next_out = obuf;
        s.avail_out = sizeof obuf;
        r = lzma_code(&s, left > 0 || s.avail_in > 0 ? LZMA_RUN : LZMA_FINISH);
        fwrite(obuf, 1, sizeof obuf - s.avail_out, out);
    }
    CHECK(r == LZMA_STREAM_END);
    lzma_end(&s);
    fclose(in);
}

/* dst: the xz-compressed src, in one stream, or in two split at a third of it. */
static void xz_file(const char *src, const char *dst, bool two)
{
    FILE *in = fopen(src, "rb");
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fclose(in);
    FILE *out = fopen(dst, "wb");
    xz_append(src, 0, two ? size / 3 : size, out);
    if (two) {
        xz_append(src, size / 3, size, out);
    }
    fclose(out);
}

/* dst: src gzip-compressed in two members split at a third of it, as `cat a.gz b.gz`
 * makes (gzopen's "a" mode starts a new member). */
static void gz_two_members(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    CHECK(in != NULL);
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    static char buf[65536];
    long done = 0;
    for (int part = 0; part < 2; part++) {
        gzFile g = gzopen(dst, part ? "ab1" : "wb1");
        long stop = part ? size : size / 3;
        while (done < stop) {
            long want = stop - done < (long)sizeof buf ? stop - done : (long)sizeof buf;
            size_t n = fread(buf, 1, (size_t)want, in);
            CHECK(n == (size_t)want && gzwrite(g, buf, (unsigned)n) == (int)n);
            done += want;
        }
        CHECK(gzclose(g) == Z_OK);
    }
    fclose(in);
}

/* Opens path, reads its first line and checks that a seek in it is refused naming
 * kind ("an xz", "a gzip"). */
static void check_no_seek(const char *path, const char *kind)
{
    SimError err = {{0}};
    AtsLines *l = ats_lines_open(path, &err);
    char *line = NULL;
    CHECK(l != NULL && ats_lines_next(l, &line, &err) && line != NULL);
    if (l) {
        CHECK_STR(line, "-grid dim = (3,1,1)");
        CHECK(!ats_lines_seekable(l));
        CHECK(!ats_lines_seek(l, 0, 1, &err));
        char want[320];
        snprintf(want, sizeof want, "%s:1: cannot seek: %s file is read in order", path,
                 kind);
        CHECK_STR(err.msg, want);
        ats_lines_close(l);
    }
}

static void test_long_file(void)
{
    write_long(path_of("kernel-5.traceg"), false, 0, NULL);
    check_long(path_of("kernel-5.traceg"));
    write_long(path_of("kernel-6.traceg.gz"), true, 0, NULL);
    check_long(path_of("kernel-6.traceg.gz"));
    char plain[256];
    snprintf(plain, sizeof plain, "%s", path_of("kernel-5.traceg"));
    xz_file(plain, path_of("kernel-8.traceg.xz"), false);
    check_long(path_of("kernel-8.traceg.xz"));
    xz_file(plain, path_of("kernel-9.traceg.xz"), true);
    check_long(path_of("kernel-9.traceg.xz"));
    gz_two_members(plain, path_of("kernel-10.traceg.gz"));
    check_long(path_of("kernel-10.traceg.gz"));

    check_no_seek(path_of("kernel-8.traceg.xz"), "an xz");
    check_no_seek(path_of("kernel-6.traceg.gz"), "a gzip");
}

/* The first error reading path to its end. */
/* The message of the first failing view (skip false) or skip of the file at path. */
static void long_error(const char *path, bool skip, char *msg, size_t size)
{
    AtsReader *r = open_or_report(path);
    snprintf(msg, size, "(none)");
    if (!r) {
        return;
    }
    SimError err = {{0}};
    const AtsCta *v = NULL;
    bool got = true, ok = true;
    while (ok && got) {
        ok = skip ? ats_reader_skip(r, &got, &err) : ats_reader_view(r, &v, &got, &err);
    }
    if (!ok) {
        snprintf(msg, size, "%s", err.msg);
    }
    ats_reader_close(r);
}

/* A NUL byte in the last byte of the first read chunk (in a line that the chunk's end
 * cuts, so the NUL is found in one chunk and its line ends in the next), and an
 * overlong line far past the first chunk, are reported on their line. */
static void test_long_file_errors(void)
{
    static char lots[70001];
    memset(lots, 'f', sizeof lots - 1);
    char msg[SIM_ERROR_MAX], want[SIM_ERROR_MAX];
    char *path = path_of("kernel-7.traceg");
    unsigned bad = write_long(path, false, ATS_LINES_CHUNK - 1, "");
    CHECK(bad > 0);
    snprintf(want, sizeof want, "%s:%u: NUL byte in the line", path, bad);
    for (int skip = 0; skip < 2; skip++) {
        long_error(path, skip, msg, sizeof msg);
        CHECK_STR(msg, want);
    }
    bad = write_long(path, false, 900000, lots);
    CHECK(bad > 0);
    snprintf(want, sizeof want, "%s:%u: line longer than %d bytes", path, bad,
             ATS_LINE_MAX);
    for (int skip = 0; skip < 2; skip++) {
        long_error(path, skip, msg, sizeof msg);
        CHECK_STR(msg, want);
    }
}

/* ats_cta_same tells blocks apart by coordinates, instructions and addresses. */
static void test_cta_same(void)
{
    AtsInst in[2] = {{.pc = 0x10, .mask = 3, .cls = ATS_LDG, .width = 4},
                     {.pc = 0x20, .mask = 1, .cls = ATS_EXIT}};
    uint64_t addrs[2] = {0x100, 0x104};
    AtsWarp wa = {.inst = in, .ninst = 2, .addrs = addrs, .naddrs = 2};
    AtsInst in2[2];
    uint64_t addrs2[2];
    memcpy(in2, in, sizeof in);
    memcpy(addrs2, addrs, sizeof addrs);
    AtsWarp wb = {.inst = in2, .ninst = 2, .addrs = addrs2, .naddrs = 2};
    AtsCta a = {.x = 1, .warps = &wa, .nwarps = 1},
           b = {.x = 1, .warps = &wb, .nwarps = 1};
    CHECK(ats_cta_same(&a, &b));
    addrs2[1] = 0x108;
    CHECK(!ats_cta_same(&a, &b));
    addrs2[1] = 0x104;
    in2[1].mask = 3;
    CHECK(!ats_cta_same(&a, &b));
    in2[1].mask = 1;
    b.y = 1;
    CHECK(!ats_cta_same(&a, &b));
    b.y = 0;
    wb.ninst = 1;
    CHECK(!ats_cta_same(&a, &b));
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_cta_same);
    RUN(test_view_equals_next);
    RUN(test_peek_skip);
    RUN(test_skip_checks);
    RUN(test_skip_plain);
    RUN(test_take);
    RUN(test_long_file);
    RUN(test_long_file_errors);
    static const char *const names[] = {
        "kernel-1.traceg",    "kernel-2.traceg",     "kernel-3.traceg",
        "kernel-4.traceg",    "kernel-5.traceg",     "kernel-6.traceg.gz",
        "kernel-7.traceg",    "lines.txt",           "kernel-8.traceg.xz",
        "kernel-9.traceg.xz", "kernel-10.traceg.gz",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        unlink(path_of(names[i]));
    }
    rmdir(tmpdir);
    return harness_report();
}
