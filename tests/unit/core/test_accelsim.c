/* Unit tests of the Accel-Sim trace reader (hw/core/accelsim_*.c): the opcode table and
 * the generic windows, the fields of parsed instructions and the expansion of the
 * three address modes (values worked out by hand from SPEC.md 6.1), a CTA's warps by
 * number, a gzip file read like the plain one, and that the list finds a .gz file. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../harness.h"
#include "hw/core/accelsim_lines.h"
#include "hw/core/accelsim_list.h"
#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_parse.h"
#include "hw/core/accelsim_read.h"

static char tmpdir[] = "/tmp/test_accelsim_XXXXXX";

static const char header[] = "-kernel name = k\n"
                             "-kernel id = 7\n"
                             "-grid dim = (2,3,1)\n"
                             "-block dim = (64,1,1)\n"
                             "-shmem = 512\n"
                             "-nregs = 24\n"
                             "-shmem base_addr = 0x1000000\n"
                             "-local mem base_addr = 0x2000000\n"
                             "-accelsim tracer version = 4\n"
                             "-enable lineinfo = 1\n";

static const char body[] = "#BEGIN_TB\n"
                           "thread block = 1,2,0\n"
                           "warp = 1\n"
                           "insts = 5\n"
                           "9 0010 0000000f 1 R3 LDG.E.64 2 R4 R255 8 1 0x100 -8\n"
                           "9 0020 80000005 0 STG.E 2 R4 R3 4 2 0x200 16 -32\n"
                           "10 0030 00000006 1 R5 LD.E 1 R4 4 0 0x1000010 0x1000020\n"
                           "10 0040 00000001 1 R6 LD.E 1 R4 4 0 0x2000100\n"
                           "11 0050 ffffffff 0 EXIT 0 0\n"
                           "#END_TB\n";

static char *write_file(const char *name, const char *a, const char *b, bool gz)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (gz) {
        gzFile g = gzopen(path, "wb");
        gzputs(g, a);
        gzputs(g, b);
        gzclose(g);
    } else {
        FILE *f = fopen(path, "w");
        fputs(a, f);
        fputs(b, f);
        fclose(f);
    }
    return path;
}

static void test_op_table(void)
{
    static const struct {
        const char *op;
        AtsOpKind kind;
        AtsClass cls;
    } cases[] = {
        {"IADD3", ATS_OP_FIXED, ATS_INT},
        {"XMAD.PSL.CBCC", ATS_OP_FIXED, ATS_INT},
        {"FFMA", ATS_OP_FIXED, ATS_FP32},
        {"HFMA2.MMA", ATS_OP_FIXED, ATS_FP32},
        {"DFMA", ATS_OP_FIXED, ATS_FP64},
        {"MUFU.RSQ", ATS_OP_FIXED, ATS_SFU},
        {"HMMA.1688", ATS_OP_FIXED, ATS_TENSOR},
        {"BRA", ATS_OP_FIXED, ATS_CONTROL},
        {"S2R", ATS_OP_FIXED, ATS_CONTROL},
        {"YIELD", ATS_OP_FIXED, ATS_CONTROL},
        {"LDG.E.CG", ATS_OP_FIXED, ATS_LDG},
        {"STG.E", ATS_OP_FIXED, ATS_STG},
        {"ATOMG.E.ADD", ATS_OP_FIXED, ATS_ATOMG},
        {"RED.E.ADD", ATS_OP_FIXED, ATS_RED},
        {"LDSM.16.M88", ATS_OP_FIXED, ATS_LDS},
        {"STS", ATS_OP_FIXED, ATS_STS},
        {"ATOMS.ADD", ATS_OP_FIXED, ATS_ATOMS},
        {"LDL", ATS_OP_FIXED, ATS_LDL},
        {"STL.64", ATS_OP_FIXED, ATS_STL},
        {"ULDC.64", ATS_OP_FIXED, ATS_LDC},
        {"BAR.SYNC", ATS_OP_FIXED, ATS_BAR},
        {"MEMBAR.GPU", ATS_OP_FIXED, ATS_MEMBAR},
        {"EXIT", ATS_OP_FIXED, ATS_EXIT},
        {"LD.E", ATS_OP_LOAD, ATS_INT},
        {"ST", ATS_OP_STORE, ATS_INT},
        {"ATOM.ADD", ATS_OP_ATOMIC, ATS_INT},
        {"TEX.B", ATS_OP_UNKNOWN, ATS_INT},
        {"AAAA", ATS_OP_UNKNOWN, ATS_INT},
        {"ZZZZ", ATS_OP_UNKNOWN, ATS_INT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        AtsClass cls = ATS_EXIT;
        CHECK_EQ_U64(ats_op_lookup(cases[i].op, &cls), cases[i].kind);
        CHECK_EQ_U64(cls, cases[i].cls);
    }
}

/* Every entry of the table in hw/core/accelsim_op.c ("    {"NAME", ATS_OP_...") is found
 * by the bisection, with the kind its line names: an entry out of order is not. */
static void test_op_every_entry(void)
{
    FILE *f = fopen("hw/core/accelsim_op.c", "r");
    CHECK(f != NULL);
    if (!f) {
        return;
    }
    char line[256];
    int entries = 0;
    while (fgets(line, sizeof line, f)) {
        char name[32], kind[32];
        if (sscanf(line, " {\"%31[A-Z0-9_]\", %31[A-Z_],", name, kind) != 2) {
            continue;
        }
        AtsClass cls;
        AtsOpKind got = ats_op_lookup(name, &cls);
        AtsOpKind want = strcmp(kind, "ATS_OP_LOAD") == 0     ? ATS_OP_LOAD
                         : strcmp(kind, "ATS_OP_STORE") == 0  ? ATS_OP_STORE
                         : strcmp(kind, "ATS_OP_ATOMIC") == 0 ? ATS_OP_ATOMIC
                                                              : ATS_OP_FIXED;
        if (got != want) {
            fprintf(stderr, "entry %s: kind %d, want %d\n", name, (int)got, (int)want);
        }
        CHECK(got == want);
        entries++;
    }
    fclose(f);
    CHECK(entries > 100);
}

/* The hand-written number parsers: whole tokens, 64-bit limits, no blank or sign
 * where strtoull would take one. */
static void test_numbers(void)
{
    uint64_t u = 0;
    int64_t i = 0;
    CHECK(ats_parse_u64("18446744073709551615", 10, &u) && u == UINT64_MAX);
    CHECK(!ats_parse_u64("18446744073709551616", 10, &u));
    CHECK(ats_parse_u64("0xFFFFFFFFFFFFFFFF", 16, &u) && u == UINT64_MAX);
    CHECK(!ats_parse_u64("0x10000000000000000", 16, &u));
    CHECK(ats_parse_u64("7fd165500080", 16, &u) && u == 0x7fd165500080);
    CHECK(!ats_parse_u64("0x", 16, &u));
    CHECK(!ats_parse_u64("", 10, &u));
    CHECK(!ats_parse_u64(" 5", 10, &u));
    CHECK(!ats_parse_u64("-5", 10, &u));
    CHECK(!ats_parse_u64("1a", 10, &u));
    CHECK(!ats_parse_u64("0x10", 10, &u));
    CHECK(ats_parse_i64("-9223372036854775808", &i) && i == INT64_MIN);
    CHECK(!ats_parse_i64("-9223372036854775809", &i));
    CHECK(ats_parse_i64("9223372036854775807", &i) && i == INT64_MAX);
    CHECK(!ats_parse_i64("9223372036854775808", &i));
    CHECK(ats_parse_i64("+128", &i) && i == 128);
    CHECK(ats_parse_i64("-4", &i) && i == -4);
    CHECK(!ats_parse_i64("--4", &i));
    CHECK(!ats_parse_i64("-", &i));
}

static void test_op_windows(void)
{
    AtsKernelInfo k = {.shmem_base = 0x1000, .local_base = 0x3000};
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, true, 0x1000), ATS_LDS);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, true, 0x2fff), ATS_LDS);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_STORE, &k, true, 0x3000), ATS_STL);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, true, 0x3000 + 8191), ATS_LDL);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, true, 0x3000 + 8192), ATS_LDG);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_STORE, &k, true, 0xfff), ATS_STG);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_ATOMIC, &k, true, 0x3000), ATS_ATOMG);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_ATOMIC, &k, true, 0x1000), ATS_ATOMS);
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, false, 0x1000), ATS_LDG);
    k.local_base = 0;
    CHECK_EQ_U64(ats_op_resolve(ATS_OP_LOAD, &k, true, 0x9999999), ATS_LDS);
}

/* Reads path and checks the header and the one CTA of header + body. */
static void check_kernel(const char *path)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(path, &k, &err);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    CHECK_STR(k.name, "k");
    CHECK_EQ_U64(k.id, 7);
    CHECK_EQ_U64(k.grid[1], 3);
    CHECK_EQ_U64(k.block[0], 64);
    CHECK_EQ_U64(k.shmem, 512);
    CHECK_EQ_U64(k.nregs, 24);
    CHECK_EQ_U64(k.shmem_base, 0x1000000);
    CHECK_EQ_U64(k.tracer_version, 4);
    CHECK_EQ_U64(k.lineinfo, 1);
    AtsCta cta;
    bool got = false;
    CHECK(ats_reader_next(r, &cta, &got, &err) && got);
    if (got) {
        CHECK_EQ_U64(cta.x, 1);
        CHECK_EQ_U64(cta.y, 2);
        CHECK_EQ_U64(cta.nwarps, 2); /* 64 threads */
        CHECK_EQ_U64(cta.warps[0].ninst, 0);
        const AtsWarp *w = &cta.warps[1];
        CHECK_EQ_U64(w->ninst, 5);
        CHECK_EQ_U64(w->naddrs, 4 + 3 + 2 + 1);
        const AtsInst *ld = &w->inst[0];
        CHECK_EQ_U64(ld->line, 9);
        CHECK_EQ_U64(ld->pc, 0x10);
        CHECK_EQ_U64(ld->mask, 0xf);
        CHECK_EQ_U64(ld->ndst, 1);
        CHECK_EQ_U64(ld->dst[0], 3);
        CHECK_EQ_U64(ld->nsrc, 2);
        CHECK_EQ_U64(ld->src[1], ATS_ZERO_REG);
        CHECK_EQ_U64(ld->cls, ATS_LDG);
        CHECK_EQ_U64(ld->width, 8);
        CHECK_EQ_U64(ld->addr_off, 0);
        /* mode 1, base 0x100, stride -8 */
        CHECK_EQ_U64(w->addrs[0], 0x100);
        CHECK_EQ_U64(w->addrs[3], 0xe8);
        /* mode 2, lanes 0, 2, 31: 0x200, +16, -32 */
        CHECK_EQ_U64(w->inst[1].cls, ATS_STG);
        CHECK_EQ_U64(w->inst[1].addr_off, 4);
        CHECK_EQ_U64(w->addrs[4], 0x200);
        CHECK_EQ_U64(w->addrs[5], 0x210);
        CHECK_EQ_U64(w->addrs[6], 0x1f0);
        /* mode 0 in the shared window, then in the local window */
        CHECK_EQ_U64(w->inst[2].cls, ATS_LDS);
        CHECK_EQ_U64(w->addrs[8], 0x1000020);
        CHECK_EQ_U64(w->inst[3].cls, ATS_LDL);
        CHECK_EQ_U64(w->inst[4].cls, ATS_EXIT);
        CHECK_EQ_U64(w->inst[4].width, 0);
        CHECK_EQ_U64(w->inst[4].line, 11);
        ats_cta_free(&cta);
    }
    CHECK(ats_reader_next(r, &cta, &got, &err) && !got);
    CHECK_EQ_U64(ats_reader_unknown(r), 0);
    ats_reader_close(r);
}

static void test_read_plain(void)
{
    check_kernel(write_file("kernel-1.traceg", header, body, false));
}

static void test_read_gz(void)
{
    check_kernel(write_file("kernel-2.traceg.gz", header, body, true));
}

static void test_list_gz(void)
{
    write_file("kernelslist.g.gz", "MemcpyHtoD,0x00007f00,400\n\n",
               "MemcpyDtoH,0x7f00,400\nkernel-2.traceg\n", true);
    AtsList list;
    SimError err = {{0}};
    CHECK(ats_list_load(tmpdir, &list, &err));
    CHECK_EQ_U64(list.ncmds, 2);
    if (list.ncmds == 2) {
        CHECK_EQ_U64(list.cmds[0].kind, ATS_CMD_MEMCPY);
        CHECK_EQ_U64(list.cmds[0].addr, 0x7f00);
        CHECK_EQ_U64(list.cmds[0].bytes, 400);
        CHECK_EQ_U64(list.cmds[1].kind, ATS_CMD_KERNEL);
        CHECK_STR(list.cmds[1].name, "kernel-2.traceg");
        char want[300];
        snprintf(want, sizeof want, "%s/kernel-2.traceg.gz", tmpdir);
        CHECK_STR(list.cmds[1].path, want);
    }
    ats_list_free(&list);
}

/* A kernel file's body: one block, warp 0 with the n instruction lines `lines` (the
 * first is line 15 of the file). */
#define ONE_WARP(n, lines)                                                               \
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " #n "\n" lines

/* Reads the first block of the kernel file name (header, then text) into *cta: false
 * if the reader refused it (nothing to free then). */
static bool read_block(const char *name, const char *text, AtsCta *cta)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(write_file(name, header, text, false), &k, &err);
    bool got = false;
    CHECK(r && ats_reader_next(r, cta, &got, &err) && got);
    ats_reader_close(r);
    return got;
}

/* Reading the kernel file name (header, then text) fails with "<file>:<line>: msg". */
static void check_error_at(const char *name, const char *text, int line, const char *msg)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    const char *path = write_file(name, header, text, false);
    AtsReader *r = ats_reader_open(path, &k, &err);
    AtsCta cta;
    bool got = true;
    CHECK(r && !ats_reader_next(r, &cta, &got, &err) && !got);
    char want[300];
    snprintf(want, sizeof want, "%s:%d: %s", path, line, msg);
    CHECK_STR(err.msg, want);
    ats_reader_close(r);
}

/* The same with the first instruction line (15) named. */
static void check_line_error(const char *name, const char *text, const char *msg)
{
    check_error_at(name, text, 15, msg);
}

static void test_bad_line(void)
{
    check_line_error("kernel-3.traceg",
                     ONE_WARP(1, "9 0010 0000000f 1 R3 LDG.E 1 R4 4 1 0x100\n"),
                     "missing stride");
}

/* Grid dims within CUDA's launch limits: x to 2^31 - 1, y and z to 65535, so the
 * largest grid has (2^31 - 1) * 65535^2 < 2^63 CTAs; one more in any dimension, or a
 * grid whose product wraps 64 bits (2^30 * 2^30 * 16), is refused with its line. */
static void test_grid_limits(void)
{
    const char *ok[] = {"(2147483647,65535,65535)", "(1,1,1)"};
    const char *bad[] = {"(2147483648,1,1)", "(1,65536,1)", "(1,1,65536)",
                         "(1073741824,1073741824,16)", "(1,0,1)"};
    char line[80];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0] + sizeof bad / sizeof bad[0]; i++) {
        bool good = i < sizeof ok / sizeof ok[0];
        const char *dim = good ? ok[i] : bad[i - sizeof ok / sizeof ok[0]];
        snprintf(line, sizeof line, "grid dim = %s", dim);
        AtsKernelInfo k = {0};
        unsigned seen = 0;
        SimError err = {0};
        CHECK(ats_header_line(line, &k, &seen, (AtsWhere){"k.traceg", 3}, &err) == good);
        if (good) {
            CHECK((uint64_t)k.grid[0] * k.grid[1] * k.grid[2] < (uint64_t)1 << 63);
        } else {
            char want[200];
            snprintf(want, sizeof want,
                     "k.traceg:3: bad value \"%s\" for -grid dim (x 1 to 2147483647, "
                     "y and z 1 to 65535: CUDA's limits)",
                     dim);
            CHECK_STR(err.msg, want);
        }
    }
}

/* Mode 2 deltas at the ends of the address space: the last address reached exactly,
 * INT64_MIN back to 0, and one byte past the end refused (the reader adds deltas
 * without a wider type, accelsim_inst.c). */
static void test_delta_edges(void)
{
    AtsCta cta;
    if (read_block("kernel-4.traceg",
                   ONE_WARP(2,
                            "9 0010 00000003 1 R3 LDG.E 1 R4 4 2 0xfffffffffffffff0 15\n"
                            "9 0020 00000003 1 R3 LDG.E 1 R4 4 2 0x8000000000000000 "
                            "-9223372036854775808\n#END_TB\n"),
                   &cta)) {
        CHECK_EQ_U64(cta.warps[0].addrs[1], UINT64_MAX);
        CHECK_EQ_U64(cta.warps[0].addrs[3], 0);
        ats_cta_free(&cta);
    }
    check_line_error(
        "kernel-5.traceg",
        ONE_WARP(1, "9 0010 00000003 1 R3 LDG.E 1 R4 4 2 0xfffffffffffffff0 16\n"),
        "address of lane 1 outside 64 bits");
}

/* Mode 2 deltas of every form on one line: the common one (one space, up to three
 * digits), which accelsim_inst.c reads as a run, first, then the others (a fourth
 * digit, a '+', two spaces, a tab), which hand the rest of the line to the
 * field-by-field reader. A run ended by a tab, and one that uses every lane before the
 * trailing immediate. A delta of the common form with garbage after it, and one that
 * would go below 0 on the sparse lanes 0, 8, 31: the errors name lanes 2 and 31. */
static void test_delta_forms(void)
{
    AtsCta cta;
    if (read_block("kernel-8.traceg",
                   ONE_WARP(1, "9 0010 000000ff 1 R3 LDG.E 1 R4 4 2 0x1000 4 -4 1000 +8  "
                               "12\t-999 7 5\n#END_TB\n"),
                   &cta)) {
        /* 0x1000, +4, -4, +1000 (0x3e8), +8, +12, -999 (0x3e7), +7; 5 is the
         * immediate */
        uint64_t want[] = {0x1000, 0x1004, 0x1000, 0x13e8,
                           0x13f0, 0x13fc, 0x1015, 0x101c};
        CHECK_EQ_U64(cta.warps[0].naddrs, 8);
        for (int i = 0; i < 8 && (size_t)i < cta.warps[0].naddrs; i++) {
            CHECK_EQ_U64(cta.warps[0].addrs[i], want[i]);
        }
        ats_cta_free(&cta);
    }
    if (read_block("kernel-10.traceg",
                   ONE_WARP(2, "9 0010 0000000f 1 R3 LDG.E 1 R4 4 2 0x1000 4\t8 -4\n"
                               "9 0020 0000000f 1 R3 LDG.E 1 R4 4 2 0x1000 4 8 -4 9\n"
                               "#END_TB\n"),
                   &cta)) {
        /* both 0x1000, 0x1004, 0x100c, 0x1008; 9 is the second's immediate */
        uint64_t want[] = {0x1000, 0x1004, 0x100c, 0x1008};
        CHECK_EQ_U64(cta.warps[0].naddrs, 8);
        for (int i = 0; i < 8 && (size_t)i < cta.warps[0].naddrs; i++) {
            CHECK_EQ_U64(cta.warps[0].addrs[i], want[i % 4]);
        }
        ats_cta_free(&cta);
    }
    check_line_error("kernel-11.traceg",
                     ONE_WARP(1, "9 0010 00000007 1 R3 LDG.E 1 R4 4 2 0x1000 4 5x\n"),
                     "bad delta of lane 2 \"5x\" (decimal)");
    check_line_error("kernel-9.traceg",
                     ONE_WARP(1, "9 0010 80000101 1 R3 LDG.E 1 R4 4 2 0x1 -1 -1\n"),
                     "address of lane 31 outside 64 bits");
}

/* Runs of one-digit deltas (read 8 at a time with SSE2): 31 deltas, all one digit but
 * a three-digit one at lane 1 + p, for every p, so that the long delta falls on every
 * pair of a 16-byte window and on the last lane; each address is the previous plus
 * the delta, summed here. Then a run cut short by the mask before a one-digit
 * immediate, and a run that would pass 2^64 - 1, which names its lane. */
static void test_digit_runs(void)
{
    for (int p = 0; p < 31; p++) {
        char line[400];
        int len = snprintf(line, sizeof line, "9 0010 ffffffff 1 R3 LDS 1 R4 4 2 0x100");
        uint64_t want[32] = {0x100};
        for (int lane = 1; lane < 32; lane++) {
            int delta = lane - 1 == p ? 100 + lane : lane % 10;
            want[lane] = want[lane - 1] + (uint64_t)delta;
            len += snprintf(line + len, sizeof line - (size_t)len, " %d", delta);
        }
        char text[600];
        snprintf(text, sizeof text, "%s%s\n#END_TB\n", ONE_WARP(1, ""), line);
        AtsCta cta;
        if (read_block("kernel-12.traceg", text, &cta)) {
            CHECK_EQ_U64(cta.warps[0].naddrs, 32);
            for (int i = 0; i < 32 && (size_t)i < cta.warps[0].naddrs; i++) {
                CHECK_EQ_U64(cta.warps[0].addrs[i], want[i]);
            }
            ats_cta_free(&cta);
        }
    }
    AtsCta cta;
    if (read_block("kernel-12.traceg",
                   ONE_WARP(1, "9 0010 0000001f 1 R3 LDS 1 R4 4 2 0x1000 1 2 3 4 7\n"
                               "#END_TB\n"),
                   &cta)) {
        /* 7 is the immediate: the five addresses are the four deltas' (taking 7 as a
         * fifth would only write past them: the next case shows it) */
        uint64_t want[] = {0x1000, 0x1001, 0x1003, 0x1006, 0x100a};
        CHECK_EQ_U64(cta.warps[0].naddrs, 5);
        for (int i = 0; i < 5 && (size_t)i < cta.warps[0].naddrs; i++) {
            CHECK_EQ_U64(cta.warps[0].addrs[i], want[i]);
        }
        ats_cta_free(&cta);
    }
    /* two tokens after the deltas: an error at the first, not two more deltas */
    check_line_error(
        "kernel-12.traceg",
        ONE_WARP(1, "9 0010 0000001f 1 R3 LDS 1 R4 4 2 0x1000 1 2 3 4 7 8\n"),
        "unexpected \"7\" after the memory operands");
    /* 0x...c0 + 7 * 9 = 2^64 - 1; the eighth 9 leaves the range */
    check_line_error("kernel-12.traceg",
                     ONE_WARP(1, "9 0010 000001ff 1 R3 LDG.E 1 R4 4 2 0xffffffffffffffc0"
                                 " 9 9 9 9 9 9 9 9\n"),
                     "address of lane 8 outside 64 bits");
}

/* The reader's memo of line starts (AtsLineMemo): a start that continues into a longer
 * register is not the memo's (R4, then R45), a start met again takes the memo's fields
 * but its own line number, width and addresses, a generic load is resolved by each
 * line's own address (shared, then global), and an error after a start from the memo
 * names the line's opcode. */
static void test_line_memo(void)
{
    AtsCta cta;
    if (read_block(
            "kernel-13.traceg",
            ONE_WARP(6, "9 0010 0000000f 1 R3 LDG.E 1 R4 4 0 0x100 0x104 0x108 0x10c\n"
                        "12 0010 0000000f 1 R3 LDG.E 1 R45 8 1 0x300 8\n"
                        "13 0010 0000000f 1 R3 LDG.E 1 R45 4 2 0x400 4 4 4\n"
                        "14 0020 00000003 1 R5 LD.E 1 R4 4 0 0x1000010 0x1000020\n"
                        "14 0020 00000003 1 R5 LD.E 1 R4 4 0 0x500 0x504\n"
                        "15 0030 ffffffff 0 EXIT 0 0\n#END_TB\n"),
            &cta)) {
        const AtsWarp *w = &cta.warps[0];
        CHECK_EQ_U64(w->ninst, 6);
        static const uint8_t src[] = {4, 45, 45, 4, 4};
        static const uint32_t line[] = {9, 12, 13, 14, 14};
        static const uint32_t width[] = {4, 8, 4, 4, 4};
        static const AtsClass cls[] = {ATS_LDG, ATS_LDG, ATS_LDG, ATS_LDS, ATS_LDG};
        static const uint64_t addr[] = {0x100,     0x104,     0x108, 0x10c, 0x300, 0x308,
                                        0x310,     0x318,     0x400, 0x404, 0x408, 0x40c,
                                        0x1000010, 0x1000020, 0x500, 0x504};
        for (size_t i = 0; i < 5 && i < w->ninst; i++) {
            CHECK_EQ_U64(w->inst[i].pc, i < 3 ? 0x10 : 0x20);
            CHECK_EQ_U64(w->inst[i].nsrc, 1);
            CHECK_EQ_U64(w->inst[i].src[0], src[i]);
            CHECK_EQ_U64(w->inst[i].line, line[i]);
            CHECK_EQ_U64(w->inst[i].width, width[i]);
            CHECK_EQ_U64(w->inst[i].cls, cls[i]);
        }
        CHECK_EQ_U64(w->naddrs, 16);
        for (size_t i = 0; i < 16 && i < w->naddrs; i++) {
            CHECK_EQ_U64(w->addrs[i], addr[i]);
        }
        ats_cta_free(&cta);
    }
    check_error_at(
        "kernel-13.traceg",
        ONE_WARP(2, "9 0010 0000000f 1 R3 LDG.E 1 R4 4 0 0x100 0x104 0x108 0x10c\n"
                    "10 0010 0000000f 1 R3 LDG.E 1 R4 0\n#END_TB\n"),
        16, "LDG.E without addresses (mem_width 0)");
}

/* One shared-memory load line of four lanes (mode 2): base, then three deltas. */
static int memo_line(char *buf, size_t size, unsigned base, int last_delta)
{
    return snprintf(buf, size, "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x%x 4 4 %d", base,
                    last_delta);
}

/* What one line of memo_line parses to, appended to wb as the reader does. */
static bool memo_parse(char *line, AtsWarpBuf *wb)
{
    static const AtsKernelInfo k = {.lineinfo = true, .shmem_base = 0x1000000};
    static AtsOpMemo ops;
    static AtsLineMemo starts;
    SimError err = {{0}};
    bool unknown = false;
    return ats_inst_parse(line, &k, &ops, &starts, wb, false, &unknown,
                          (AtsWhere){"t", 1}, &err);
}

/* The memo of whole lines alone (AtsTextMemo): a line kept after its parse is recalled
 * with its addresses moved to the end of the warp's pool; a line that differs in its
 * last byte or in the middle is not; a line longer than the memo's text, or one that
 * would not fit the warp's arrays as they are, is not recalled and not kept. */
static void test_text_memo(void)
{
    AtsTextMemo *m = ats_text_memo_new();
    AtsWarp warp = {0};
    AtsWarpBuf wb = {.warp = &warp};
    char line[ATS_TEXT_MEMO_BYTES + 64 + ATS_LINE_PAD];
    memset(line, 0, sizeof line);
    bool unknown = true;
    AtsTextSlot *pending = NULL;
    int len = memo_line(line, sizeof line, 0x1000100, 4);
    CHECK(!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    CHECK(pending != NULL);
    CHECK(memo_parse(line, &wb)); /* cuts the line: the memo copied it before */
    if (pending) {
        ats_text_memo_keep(pending, &wb, false);
    }
    memo_line(line, sizeof line, 0x1000100, 4);
    CHECK(ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    CHECK(!unknown);
    CHECK_EQ_U64(warp.ninst, 2);
    CHECK_EQ_U64(warp.naddrs, 8);
    if (warp.ninst == 2 && warp.naddrs == 8) {
        CHECK_EQ_U64(warp.inst[1].addr_off, 4);
        CHECK_EQ_U64(warp.inst[1].width, 4);
        CHECK_EQ_U64(warp.inst[1].cls, ATS_LDS);
        CHECK_EQ_U64(warp.inst[1].line, 9);
        CHECK_EQ_U64(warp.addrs[7], 0x100010c);
    }
    memo_line(line, sizeof line, 0x1000100, 5);
    CHECK(!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    memo_line(line, sizeof line, 0x1000200, 4);
    CHECK(!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    /* 32 instructions: the array is full; the next line must go to the parser */
    while (warp.ninst < wb.inst_cap) {
        len = memo_line(line, sizeof line, 0x1000200, 4);
        if (!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending)) {
            CHECK(memo_parse(line, &wb));
            if (pending) {
                ats_text_memo_keep(pending, &wb, false);
            }
        }
    }
    CHECK_EQ_U64(warp.ninst, 32);
    len = memo_line(line, sizeof line, 0x1000200, 4);
    CHECK(!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    memset(line, 0, sizeof line);
    len =
        snprintf(line, sizeof line, "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 4 4");
    memset(line + len, ' ', ATS_TEXT_MEMO_BYTES - (size_t)len + 1);
    len = ATS_TEXT_MEMO_BYTES + 1;
    CHECK(!ats_text_memo_recall(m, line, (size_t)len, &wb, &unknown, &pending));
    CHECK(pending == NULL);
    ats_text_memo_free(m);
    free(warp.inst);
    free(warp.addrs);
}

/* The same through the reader, against addresses worked out from the lines: each warp
 * starts with a load of no active lane (while it has no address pool), two warps
 * repeat a line of the other and lines that differ from it in the last byte, the
 * base address or the mask; 40 copies of a line cross the warp's first capacities (32
 * instructions, 64 addresses); an unknown opcode is counted on each of its lines; a
 * line longer than the memo's text, twice, reads the same both times. */
static void test_text_memo_reader(void)
{
    char text[32768];
    uint64_t want[2][256];
    size_t nwant[2] = {0, 0}, ninst[2] = {0, 0};
    int len = snprintf(text, sizeof text, "#BEGIN_TB\nthread block = 0,0,0\n");
    for (int w = 0; w < 2; w++) {
        char lines[16384];
        /* a load with no active lane, before the warp has an address pool */
        int n = snprintf(lines, sizeof lines, "9 0040 00000000 1 R9 LDG.E 1 R4 4 0\n");
        ninst[w]++;
        for (int i = 0; i < 48; i++) {
            unsigned base = 0x1000000 + (w == 1 && i % 3 == 0 ? 0x100u : 0u);
            int last = i % 4 == 1 ? 5 : 4;
            uint32_t mask = i == 47 ? 0x7u : 0xfu;
            if (i == 20 || i == 21) {
                n += snprintf(lines + n, sizeof lines - (size_t)n,
                              "9 0020 ffffffff 1 R7 FROB 0 0\n");
                ninst[w]++;
                continue;
            }
            if (i == 30 || i == 31) {
                n += snprintf(lines + n, sizeof lines - (size_t)n,
                              "9 0030 ffffffff 1 R8 LDG.E 1 R4 4 0");
                for (int lane = 0; lane < 32; lane++) {
                    n += snprintf(lines + n, sizeof lines - (size_t)n,
                                  " 0x7f00000000%02x", 4 * lane);
                    want[w][nwant[w]++] = 0x7f0000000000ull + 4u * (unsigned)lane;
                }
                n += snprintf(lines + n, sizeof lines - (size_t)n, "\n");
                ninst[w]++;
                continue;
            }
            n += snprintf(lines + n, sizeof lines - (size_t)n,
                          "9 0010 %08x 1 R3 LDS 1 R4 4 2 0x%x 4 4%s\n", mask, base,
                          mask == 0xf ? (last == 5 ? " 5" : " 4") : "");
            uint64_t a = base;
            int lanes = mask == 0xf ? 4 : 3;
            for (int lane = 0; lane < lanes; lane++) {
                want[w][nwant[w]++] = a;
                a += lane == 2 ? (uint64_t)last : 4;
            }
            ninst[w]++;
        }
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "warp = %d\ninsts = %zu\n%s", w, ninst[w], lines);
    }
    snprintf(text + len, sizeof text - (size_t)len, "#END_TB\n");
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r =
        ats_reader_open(write_file("kernel-14.traceg", header, text, false), &k, &err);
    const AtsCta *c = NULL;
    bool got = false;
    CHECK(r && ats_reader_view(r, &c, &got, &err) && got);
    if (got) {
        CHECK_EQ_U64(ats_reader_unknown(r), 4);
        for (int w = 0; w < 2; w++) {
            const AtsWarp *wp = &c->warps[w];
            CHECK_EQ_U64(wp->ninst, ninst[w]);
            CHECK_EQ_U64(wp->naddrs, nwant[w]);
            for (size_t i = 0; i < nwant[w] && i < wp->naddrs; i++) {
                CHECK_EQ_U64(wp->addrs[i], want[w][i]);
            }
            size_t off = 0;
            for (size_t i = 0; i < wp->ninst; i++) {
                if (wp->inst[i].width > 0) {
                    CHECK_EQ_U64(wp->inst[i].addr_off, off);
                    off += (size_t)__builtin_popcount(wp->inst[i].mask);
                }
            }
        }
    }
    ats_reader_close(r);
}

/* A trusted reader (ats_reader_trust) keeps an LDS without width or addresses and
 * does not read past its source registers (the junk there passes), while a global
 * load keeps its own; an untrusted reader keeps the LDS's 4 addresses. */
static void test_trusted(void)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    const char *path = write_file("kernel-6.traceg", header,
                                  "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                                  "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 4 4\n"
                                  "9 0020 00000003 1 R5 LDG.E 1 R3 4 2 0x200 4\n"
                                  "9 0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
                                  false);
    for (int trusted = 0; trusted < 2; trusted++) {
        AtsReader *r = ats_reader_open(path, &k, &err);
        if (trusted && r) {
            ats_reader_trust(r);
        }
        const AtsCta *c = NULL;
        bool got = false;
        CHECK(r && ats_reader_view(r, &c, &got, &err) && got);
        if (got) {
            const AtsWarp *w = &c->warps[0];
            CHECK_EQ_U64(w->ninst, 3);
            CHECK_EQ_U64(w->inst[0].cls, ATS_LDS);
            CHECK_EQ_U64(w->inst[0].nsrc, 1);
            CHECK_EQ_U64(w->inst[0].width, trusted ? 0 : 4);
            CHECK_EQ_U64(w->naddrs, trusted ? 2 : 6);
            CHECK_EQ_U64(w->inst[1].addr_off, trusted ? 0 : 4);
            CHECK_EQ_U64(w->addrs[w->inst[1].addr_off + 1], 0x204);
            CHECK_EQ_U64(w->inst[2].cls, ATS_EXIT);
        }
        ats_reader_close(r);
    }
    path = write_file("kernel-7.traceg", header,
                      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 x\n#END_TB\n",
                      false);
    AtsReader *r = ats_reader_open(path, &k, &err);
    ats_reader_trust(r);
    const AtsCta *c = NULL;
    bool got = false;
    CHECK(r && ats_reader_view(r, &c, &got, &err) && got);
    ats_reader_close(r);
}

/* A reader of global and local addresses only (ats_reader_sent_only) reads an LDS in
 * full but keeps it without width or addresses, also when the line comes again (the
 * second LDS is the memo's); the LDG keeps its 2 addresses, at offset 0. A plain
 * reader keeps all 10. A bad address of an LDS is still an error. */
static void test_sent_only(void)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    const char *path = write_file("kernel-15.traceg", header,
                                  "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
                                  "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 4 4\n"
                                  "9 0020 00000003 1 R5 LDG.E 1 R3 4 2 0x200 4\n"
                                  "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 4 4\n"
                                  "9 0030 ffffffff 0 EXIT 0 0\n#END_TB\n",
                                  false);
    for (int sent = 0; sent < 2; sent++) {
        AtsReader *r = ats_reader_open(path, &k, &err);
        if (sent && r) {
            ats_reader_sent_only(r);
        }
        const AtsCta *c = NULL;
        bool got = false;
        CHECK(r && ats_reader_view(r, &c, &got, &err) && got);
        if (got) {
            const AtsWarp *w = &c->warps[0];
            CHECK_EQ_U64(w->ninst, 4);
            CHECK_EQ_U64(w->inst[0].cls, ATS_LDS);
            CHECK_EQ_U64(w->inst[2].cls, ATS_LDS);
            CHECK_EQ_U64(w->inst[0].width, sent ? 0 : 4);
            CHECK_EQ_U64(w->inst[2].width, sent ? 0 : 4);
            CHECK_EQ_U64(w->inst[2].addr_off, sent ? 0 : 6);
            CHECK_EQ_U64(w->naddrs, sent ? 2 : 10);
            CHECK_EQ_U64(w->inst[1].width, 4);
            CHECK_EQ_U64(w->inst[1].addr_off, sent ? 0 : 4);
            CHECK_EQ_U64(w->addrs[w->inst[1].addr_off + 1], 0x204);
        }
        ats_reader_close(r);
    }
    path = write_file("kernel-16.traceg", header,
                      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "9 0010 0000000f 1 R3 LDS 1 R4 4 2 0x1000000 4 x\n#END_TB\n",
                      false);
    AtsReader *r = ats_reader_open(path, &k, &err);
    ats_reader_sent_only(r);
    const AtsCta *c = NULL;
    bool got = false;
    CHECK(r && !ats_reader_view(r, &c, &got, &err));
    ats_reader_close(r);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_op_table);
    RUN(test_op_every_entry);
    RUN(test_numbers);
    RUN(test_op_windows);
    RUN(test_read_plain);
    RUN(test_read_gz);
    RUN(test_list_gz);
    RUN(test_bad_line);
    RUN(test_grid_limits);
    RUN(test_delta_edges);
    RUN(test_delta_forms);
    RUN(test_digit_runs);
    RUN(test_trusted);
    RUN(test_sent_only);
    RUN(test_line_memo);
    RUN(test_text_memo);
    RUN(test_text_memo_reader);
    static const char *const names[] = {
        "kernel-1.traceg",  "kernel-2.traceg.gz", "kernelslist.g.gz", "kernel-3.traceg",
        "kernel-4.traceg",  "kernel-5.traceg",    "kernel-6.traceg",  "kernel-7.traceg",
        "kernel-8.traceg",  "kernel-9.traceg",    "kernel-10.traceg", "kernel-11.traceg",
        "kernel-12.traceg", "kernel-13.traceg",   "kernel-14.traceg", "kernel-15.traceg",
        "kernel-16.traceg"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return harness_report();
}
