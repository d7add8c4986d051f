/* Unit tests of the reader's guess (hw/core/accelsim_read.c): line i of warp w is first
 * compared with the memo slot that line i of warp w took in the block before
 * (ats_lines_take, tested in test_accelsim_stream.c). A line passed over so gives what
 * its parse gives, and a line it must not take (a longer line that starts with the
 * text, blanks before or after, CRLF) goes the usual way. Expected values: the same
 * blocks read each from a file of its own (a reader with no block before, so no guess),
 * and line numbers counted in the text the test writes. */
#include <stdlib.h>
#include <unistd.h>

#include "../harness.h"
#include "hw/core/accelsim_read.h"

static char tmpdir[] = "/tmp/test_accelsim_guess_XXXXXX";

static const char header[] = "-kernel name = g\n"
                             "-grid dim = (2,2,1)\n"
                             "-block dim = (64,1,1)\n"
                             "-shmem = 0\n"
                             "-nregs = 8\n"
                             "-shmem base_addr = 0x1000000\n"
                             "-local mem base_addr = 0x2000000\n"
                             "-accelsim tracer version = 4\n";

#define BLOCKS 4
#define BAD_PC "00x0 ffffffff 0 NOP 0 0"

/* Every warp runs these four lines (a global load, a shared load, an unknown opcode,
 * exit); blocks 2 and 3 change some of them. */
#define LDG "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x7000 4"
#define LDS "0010 ffffffff 1 R3 LDS 1 R2 4 1 0x100 4"
#define TEX "0020 00000001 1 R1 TEX.B 1 R2 0"
#define EXIT "0030 ffffffff 0 EXIT 0 0"
#define WARP(w, a, b, c, d) "warp = " #w "\ninsts = 4\n" a "\n" b "\n" c "\n" d "\n"
#define BLOCK(xy, w0, w1) "#BEGIN_TB\nthread block = " xy ",0\n" w0 w1 "#END_TB\n"

static const char blocks[BLOCKS][600] = {
    BLOCK("0,0", WARP(0, LDG, LDS, TEX, EXIT), WARP(1, LDG, LDS, TEX, EXIT)),
    /* the same lines: every one a guess */
    BLOCK("1,0", WARP(0, LDG, LDS, TEX, EXIT), WARP(1, LDG, LDS, TEX, EXIT)),
    /* a longer line (stride 40), a blank after, CRLF, blanks before */
    BLOCK("0,1", WARP(0, LDG "0", LDS " ", TEX "\r", EXIT),
          WARP(1, "  " LDG, LDS, TEX, EXIT)),
    /* guesses, then a bad line whose number the message must give */
    BLOCK("1,1", WARP(0, LDG, LDS, TEX, EXIT), WARP(1, LDG, LDS, BAD_PC, EXIT)),
};

static char *path_of(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void write_text(const char *path, const char *a, size_t alen, const char *b,
                       size_t blen)
{
    FILE *f = fopen(path, "w");
    fwrite(a, 1, alen, f);
    fwrite(b, 1, blen, f);
    fclose(f);
}

static AtsReader *open_reader(const char *path, bool sent_only)
{
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(path, &k, &err);
    CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
    } else if (sent_only) {
        ats_reader_sent_only(r);
    }
    return r;
}

/* Block b read from a file of its own (the expected block; *unknown its unknown
 * opcodes), compared with got. */
static void check_alone(int b, bool sent_only, const AtsCta *got, uint64_t *unknown)
{
    char *path = path_of("alone.traceg");
    write_text(path, header, strlen(header), blocks[b], strlen(blocks[b]));
    AtsReader *r = open_reader(path, sent_only);
    if (!r) {
        return;
    }
    SimError err = {{0}};
    const AtsCta *want = NULL;
    bool got_it = false;
    CHECK(ats_reader_view(r, &want, &got_it, &err) && got_it);
    CHECK(want && ats_cta_same(got, want));
    *unknown = ats_reader_unknown(r);
    ats_reader_close(r);
}

/* The number of the line of text that starts with line (0 if none). */
static uint64_t line_number(const char *text, const char *line)
{
    const char *at = strstr(text, line);
    uint64_t n = 1;
    for (const char *p = text; at && p < at; p++) {
        n += *p == '\n';
    }
    return at ? n : 0;
}

/* The four blocks in one file: each as read alone, and the bad line named by its
 * number, with all addresses kept and with those that do not leave the sm dropped. */
static void test_blocks(void)
{
    static char all[sizeof header + sizeof blocks];
    size_t n = (size_t)snprintf(all, sizeof all, "%s", header);
    for (int b = 0; b < BLOCKS; b++) {
        n += (size_t)snprintf(all + n, sizeof all - n, "%s", blocks[b]);
    }
    char want[SIM_ERROR_MAX];
    snprintf(want, sizeof want, "%s:%" PRIu64 ": bad PC \"00x0\" (hexadecimal)",
             path_of("all.traceg"), line_number(all, BAD_PC));
    for (int sent_only = 0; sent_only < 2; sent_only++) {
        write_text(path_of("all.traceg"), all, n, "", 0);
        AtsReader *r = open_reader(path_of("all.traceg"), sent_only);
        if (!r) {
            return;
        }
        SimError err = {{0}};
        uint64_t unknown = 0;
        for (int b = 0; b < BLOCKS - 1; b++) {
            const AtsCta *view = NULL;
            bool got = false;
            CHECK(ats_reader_view(r, &view, &got, &err) && got);
            uint64_t alone = 0;
            if (view) {
                check_alone(b, sent_only, view, &alone);
            }
            unknown += alone;
            CHECK_EQ_U64(ats_reader_unknown(r), unknown);
        }
        const AtsCta *view = NULL;
        bool got = false;
        CHECK(!ats_reader_view(r, &view, &got, &err));
        CHECK_STR(err.msg, want);
        ats_reader_close(r);
    }
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_blocks);
    static const char *const names[] = {"alone.traceg", "all.traceg"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        unlink(path_of(names[i]));
    }
    rmdir(tmpdir);
    return harness_report();
}
