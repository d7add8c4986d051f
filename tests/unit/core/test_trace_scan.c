/* Unit tests of the whole-trace scan (hw/core/trace_scan.c, trace_scan_pass.c,
 * trace_written.c) on the hand-written trace tests/unit/core/data/check (its README
 * lists every instruction): per-kernel counts and what trace_scan_expect says of each
 * byte, worked out by hand from SPEC.md 6.3 (one request per distinct 128 B line per
 * instruction) and trace_scan.h's rules; the process-wide table's use counts, from one
 * and from several threads; a malformed trace refused with its file and line; and
 * that the written-byte index grows with the lines and kernels written, not with the
 * number of stores; the seek points of a kernel of many blocks (every block's, then
 * every 2nd, 4th, ... within TRACE_SEEK_MAX), none for a file out of index order or
 * compressed, and a reader moved to one reads the block it names; the spool of a
 * run's scan: each block's record is the cta message a dispatcher's trusted reading
 * of the text gives, a dispatcher starts at its seek point's record, a compressed
 * file is spooled from its first record, and a scan of the counts, one built without
 * a spool and one whose spool would pass the file size limit have no spool; the
 * spool's budget (half the free space, at most the file size limit), a record past
 * it giving back its kernel's records and stopping the spool for every later kernel,
 * /var/tmp (else /tmp) as the folder when TMPDIR is unset, on a memory file system or
 * names no folder, and the file closed on exec. The spool tests need /var/tmp or /tmp
 * on a disk and say so when neither is. Runs in the source root (the trace's path is
 * relative to it). */
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <zlib.h>

#include "hw/core/accelsim_read.h"
#include "hw/core/core_cta.h"
#include "hw/core/trace_scan.h"
#include "hw/core/trace_written.h"
#include "tests/unit/harness.h"

#define TRACE "tests/unit/core/data/check"

static void test_counts(void)
{
    SimError err;
    const TraceScan *s = trace_scan_get(TRACE, false, &err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    CHECK_EQ_U64(trace_scan_kernels(s), 4);
    CHECK_EQ_U64(trace_scan_allocs(s), 2);
    uint64_t base, bytes;
    trace_scan_alloc(s, 1, &base, &bytes);
    CHECK_EQ_U64(base, 0x7f4d00000000);
    CHECK_EQ_U64(bytes, 8192);
    /* Kernel 0: 3 STG + 1 RED, each of one lane or of two lanes in one line: 4 line
     * requests; 37 thread instructions = 1 + 2 + 1 + 1 + 32 (EXIT). */
    const TraceKernel *k = trace_scan_kernel(s, 0);
    CHECK_STR(k->path, TRACE "/kernel-1.traceg");
    CHECK_STR(k->name, "kernel-1.traceg");
    CHECK_STR(k->info.name, "first");
    CHECK_EQ_U64(k->ctas, 1);
    CHECK_EQ_U64(k->warps, 1);
    CHECK_EQ_U64(k->warp_insts, 5);
    CHECK_EQ_U64(k->thread_insts, 37);
    CHECK_EQ_U64(k->global_insts, 4);
    CHECK_EQ_U64(k->local_insts, 0);
    CHECK_EQ_U64(k->line_reqs, 4);
    CHECK_EQ_U64(k->by_class[ATS_STG], 3);
    CHECK_EQ_U64(k->by_class[ATS_RED], 1);
    /* one block: one seek point, and room for no more (the table grows with the
     * blocks) */
    CHECK_EQ_U64(k->nseeks, 1);
    CHECK_EQ_U64(k->seek_cap, 1);
    /* Kernel 2: STG (1 line), ATOMG (1), STL (1, local), an 8 B STG at 0x1057c that
     * crosses into line 0x10580 (2): 5 requests, 1 of them local. */
    k = trace_scan_kernel(s, 2);
    CHECK_EQ_U64(k->global_insts, 3);
    CHECK_EQ_U64(k->local_insts, 1);
    CHECK_EQ_U64(k->line_reqs, 5);
    CHECK_EQ_U64(k->local_line_reqs, 1);
    /* Kernel 3: two CTAs; a 4 B LDG (1 line) and a 256 B one from 0x10640, bytes
     * 0x10640..0x1073f on lines 0x10600, 0x10680, 0x10700 (3). */
    k = trace_scan_kernel(s, 3);
    CHECK_EQ_U64(k->ctas, 2);
    CHECK_EQ_U64(k->warps, 2);
    CHECK_EQ_U64(k->warp_insts, 4);
    CHECK_EQ_U64(k->thread_insts, 66);
    CHECK_EQ_U64(k->global_insts, 2);
    CHECK_EQ_U64(k->line_reqs, 4);
    CHECK_EQ_U64(k->info.grid[0], 2);
    trace_scan_put(s);
}

static void test_index_size_and_counts_only(void)
{
    /* Lines stored to or touched by an atomic: 0x10000, 0x10100, 0x10200 (RED),
     * 0x10300, 0x10400 (ATOMG), 0x10500, 0x10580, 0x7f4d00000000 (STL): 8. Masks, one
     * per line and storing kernel: kernel 0 on 0x10000 and 0x10100, kernel 1 on 0x10000
     * and 0x10300, kernel 2 on 0x10100, 0x10500, 0x10580 and 0x7f4d00000000: 8. */
    SimError err;
    const TraceScan *s = trace_scan_get(TRACE, false, &err);
    CHECK(s != NULL);
    if (!s) {
        return;
    }
    size_t lines, masks;
    trace_scan_index_size(s, &lines, &masks);
    CHECK_EQ_U64(lines, 8);
    CHECK_EQ_U64(masks, 8);
    /* The counts-only scan is private and has the same counts. */
    TraceScan *c = trace_scan_counts(TRACE, &err);
    CHECK(c != NULL && c != s);
    if (c) {
        CHECK_EQ_U64(trace_scan_kernels(c), 4);
        for (size_t k = 0; k < 4; k++) {
            const TraceKernel *a = trace_scan_kernel(s, k), *b = trace_scan_kernel(c, k);
            CHECK(a->ctas == b->ctas && a->warp_insts == b->warp_insts &&
                  a->thread_insts == b->thread_insts && a->line_reqs == b->line_reqs &&
                  a->local_line_reqs == b->local_line_reqs &&
                  a->global_insts == b->global_insts);
        }
        trace_scan_free(c);
    }
    trace_scan_put(s);
}

static void check_expect(const TraceScan *s, uint32_t k, uint64_t a, bool checked,
                         bool written, uint32_t older, bool now, int line)
{
    TraceExpect e = trace_scan_expect(s, k, a);
    if (e.checked != checked || e.written != written || (written && e.older != older) ||
        e.now != now) {
        fprintf(stderr,
                "line %d: byte 0x%llx in kernel %u: checked %d written %d older %u "
                "now %d\n",
                line, (unsigned long long)a, k, e.checked, e.written, e.older, e.now);
        CHECK(false);
    }
}

#define EXPECT(k, a, checked, written, older, now)                                       \
    check_expect(s, k, a, checked, written, older, now, __LINE__)

static void test_expect(void)
{
    SimError err;
    const TraceScan *s = trace_scan_get(TRACE, false, &err);
    CHECK(s != NULL);
    if (!s) {
        return;
    }
    /* 0x10000..3 stored in kernel 0 only. */
    EXPECT(0, 0x10001, true, false, 0, true);
    EXPECT(1, 0x10001, true, true, 0, false);
    EXPECT(3, 0x10003, true, true, 0, false);
    EXPECT(1, 0x10004, true, false, 0, false); /* the next byte: never stored */
    /* 0x10010..0x10017 in kernel 0 (lanes 0 and 1, stride 4), 0x10010..3 in 1 too. */
    EXPECT(1, 0x10011, true, true, 0, true);
    EXPECT(1, 0x10015, true, true, 0, false);
    EXPECT(2, 0x10011, true, true, 1, false);
    /* 0x10100..3 in kernels 0 and 2: the last one before the reader counts. */
    EXPECT(1, 0x10101, true, true, 0, false);
    EXPECT(2, 0x10101, true, true, 0, true);
    EXPECT(3, 0x10101, true, true, 2, false);
    /* 0x10300..3 in kernel 1 only. */
    EXPECT(0, 0x10302, true, false, 0, false);
    EXPECT(1, 0x10302, true, false, 0, true);
    /* RED at 0x10200 in kernel 0, ATOMG at 0x10400 in kernel 2: never checked, in
     * any kernel, before the atomic too; their neighbours are. */
    EXPECT(0, 0x10200, false, false, 0, false);
    EXPECT(3, 0x10203, false, false, 0, false);
    EXPECT(0, 0x10401, false, false, 0, false);
    EXPECT(0, 0x10204, true, false, 0, false);
    /* The 8 B store of kernel 2 across lines 0x10500 and 0x10580; STL in the local
     * window at 0x7f4d00000010. */
    EXPECT(3, 0x1057c, true, true, 2, false);
    EXPECT(3, 0x10583, true, true, 2, false);
    EXPECT(3, 0x10584, true, false, 0, false);
    EXPECT(3, 0x7f4d00000013, true, true, 2, false);
    /* Loads write nothing. */
    EXPECT(3, 0x10640, true, false, 0, false);
    /* The line form gives the byte form's answers. */
    TraceExpect line[8];
    CHECK(trace_scan_expect_line(s, 1, 0x10010, 8, line));
    CHECK(line[0].now && line[3].now && !line[4].now && line[7].written);
    trace_scan_put(s);
}

static void test_shared_by_folder(void)
{
    SimError err;
    const TraceScan *a = trace_scan_get(TRACE, false, &err);
    const TraceScan *b = trace_scan_get(TRACE, false, &err);
    const TraceScan *c = trace_scan_get("tests/accelsim/traces/v3-list", false, &err);
    CHECK(a != NULL && a == b);
    CHECK(c != NULL && c != a);
    trace_scan_put(a);
    /* b still holds the scan: it is intact. */
    CHECK_EQ_U64(trace_scan_kernel(b, 3)->ctas, 2);
    trace_scan_put(b);
    trace_scan_put(c);
    const TraceScan *d = trace_scan_get(TRACE, false, &err);
    CHECK(d != NULL && trace_scan_kernel(d, 3)->ctas == 2);
    trace_scan_put(d);
}

#define THREADS 4

static void *get_in_thread(void *arg)
{
    SimError err;
    *(const TraceScan **)arg = trace_scan_get(TRACE, false, &err);
    return NULL;
}

static void test_threads(void)
{
    /* Realized in threads (issue 12), every block gets the one scan. */
    pthread_t t[THREADS];
    const TraceScan *got[THREADS];
    for (int i = 0; i < THREADS; i++) {
        pthread_create(&t[i], NULL, get_in_thread, &got[i]);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
    }
    for (int i = 0; i < THREADS; i++) {
        CHECK(got[i] != NULL && got[i] == got[0]);
    }
    for (int i = 0; i < THREADS; i++) {
        trace_scan_put(got[i]);
    }
}

/* The header of a kernel of one block of one warp (7 lines). */
#define ONE_BLOCK_HEADER                                                                 \
    "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"               \
    "-shmem base_addr = 0x1000\n-local mem base_addr = 0x2000\n"                         \
    "-accelsim tracer version = 4\n"

static void test_malformed(void)
{
    char dir[] = "/tmp/test_trace_scan_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64], want[128];
    harness_write(dir, "kernelslist.g", "kernel-1.traceg\n");
    harness_write(dir, "kernel-1.traceg",
                  ONE_BLOCK_HEADER
                  "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                  "insts = 1\n0000 00000001 0 STG.E 2 R2 R3 4 0 zz\n#END_TB\n");
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    SimError err;
    CHECK(trace_scan_get(dir, false, &err) == NULL);
    snprintf(want, sizeof want, "%s:12: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    /* Not kept: the next get reads the folder again and says the same. */
    SimError again;
    CHECK(trace_scan_get(dir, false, &again) == NULL);
    CHECK_STR(again.msg, err.msg);
    unlink(path);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    unlink(path);
    rmdir(dir);
}

static void test_index_growth(void)
{
    /* 10000 stores to the same two lines in one kernel: two lines, two masks; the
     * same line stored in 3 kernels: 3 masks. */
    TraceWritten *w = trace_written_new();
    const uint64_t lo[2] = {0xf, 0}, hi[2] = {0, 1ull << 63};
    for (int i = 0; i < 10000; i++) {
        trace_written_store(w, 0x1000, 0, (i & 1) ? lo : hi);
        trace_written_store(w, 0x1080, 0, lo);
    }
    CHECK_EQ_U64(trace_written_lines(w), 2);
    CHECK_EQ_U64(trace_written_masks(w), 2);
    trace_written_store(w, 0x1000, 1, lo);
    trace_written_store(w, 0x1000, 4, hi);
    CHECK_EQ_U64(trace_written_masks(w), 4);
    /* Byte 127 of 0x1000: kernel 0 (merged mask) and 4; a read in 3 sees 0. */
    TraceExpect e;
    CHECK(trace_written_expect(w, 3, 0x107f, 1, &e));
    CHECK(e.checked && e.written && e.older == 0 && !e.now);
    CHECK(trace_written_expect(w, 4, 0x107f, 1, &e));
    CHECK(e.written && e.older == 0 && e.now);
    CHECK(trace_written_expect(w, 5, 0x1003, 1, &e));
    CHECK(e.written && e.older == 1 && !e.now);
    /* A line no kernel writes: false, and the record is left as it was. */
    e = (TraceExpect){.older = 77};
    CHECK(!trace_written_expect(w, 3, 0x2000, 1, &e));
    CHECK(e.older == 77 && !e.checked);
    /* 5000 lines: the table grows past its first size and keeps every line. */
    for (uint64_t l = 0; l < 5000; l++) {
        trace_written_store(w, 0x100000 + l * 128, 2, lo);
    }
    CHECK_EQ_U64(trace_written_lines(w), 5002);
    CHECK(trace_written_expect(w, 3, 0x100000 + 4999 * 128 + 2, 1, &e));
    CHECK(e.written && e.older == 2);
    trace_written_free(w);
}

/* A one-kernel trace folder of n one-warp blocks in dir; block i (index order when
 * swap is false; blocks 1 and 2 change places when true) has 1 + i % 3 blank lines
 * before its #BEGIN_TB, so blocks start at irregular offsets. gz: the kernel file is
 * gzip-compressed (kernelslist.g names it as kernel-1.traceg). */
static void seek_trace(const char *dir, unsigned n, bool swap, bool gz)
{
    char path[96];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    fputs("kernel-1.traceg\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    gzFile z = gzopen(path, gz ? "wb" : "wbT");
    gzprintf(z,
             "-grid dim = (%u,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
             "-nregs = 8\n-shmem base_addr = 0x1000\n-local mem base_addr = 0x2000\n"
             "-accelsim tracer version = 4\n",
             n);
    for (unsigned i = 0; i < n; i++) {
        unsigned b = swap && (i == 1 || i == 2) ? 3 - i : i;
        for (unsigned k = 0; k <= i % 3; k++) {
            gzputs(z, "\n");
        }
        gzprintf(z,
                 "#BEGIN_TB\nthread block = %u,0,0\nwarp = 0\ninsts = 1\n"
                 "0040 ffffffff 0 EXIT 0 0\n#END_TB\n",
                 b);
    }
    gzclose(z);
}

static void seek_clean(const char *dir)
{
    char path[96];
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    unlink(path);
    rmdir(dir);
}

static void test_seek(void)
{
    char dir[] = "/tmp/test_trace_seek_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    /* 6000 blocks (about 0.4 MB: the reader's buffer is refilled on the way): 256
     * points, then every 2nd (from block 256), 4th (512), ..., 32nd (4096), the table
     * halved each time: blocks 0, 32, ..., 5984 stay. */
    seek_trace(dir, 6000, false, false);
    SimError err;
    TraceScan *s = trace_scan_counts(dir, &err);
    CHECK(s != NULL);
    if (!s) {
        return;
    }
    const TraceKernel *k = trace_scan_kernel(s, 0);
    CHECK(k->in_order);
    CHECK_EQ_U64(k->seek_every, 32);
    CHECK_EQ_U64(k->nseeks, 188);
    CHECK_EQ_U64(k->seek_cap, 256);
    uint64_t ctas[] = {0, 1, 33, 255, 4095, 4096, 5990, 5999, 100000};
    for (size_t i = 0; i < sizeof ctas / sizeof ctas[0]; i++) {
        AtsMark at;
        CHECK(trace_scan_seek(s, 0, ctas[i], &at));
        AtsKernelInfo info;
        AtsReader *r = ats_reader_open(k->path, &info, &err);
        CHECK(r != NULL);
        uint32_t xyz[3];
        bool got = false;
        CHECK(ats_reader_seek(r, &at, &err));
        CHECK(ats_reader_peek(r, xyz, &got, &err) && got);
        uint64_t want = (ctas[i] > 5999 ? 5999 : ctas[i]) / 32 * 32;
        CHECK_EQ_U64(xyz[0], want);
        /* the block's own place: 7 header lines, then per block j before it its
         * 1 + j % 3 blank lines and 6 lines */
        uint64_t line = 7;
        for (uint64_t j = 0; j < want; j++) {
            line += 1 + j % 3 + 6;
        }
        line += 1 + want % 3 + 1;
        AtsMark m;
        CHECK(ats_reader_mark(r, &m));
        CHECK_EQ_U64(m.line, line);
        CHECK_EQ_U64(m.offset, at.offset);
        /* the rest of the file reads on from there */
        uint64_t blocks = 0;
        const AtsCta *c;
        while (ats_reader_view(r, &c, &got, &err) && got) {
            CHECK_EQ_U64(c->x, want + blocks);
            blocks++;
        }
        CHECK_EQ_U64(blocks, 6000 - want);
        ats_reader_close(r);
    }
    trace_scan_free(s);
    /* out of index order (blocks 0, 2, 1, 3, ...), or compressed: no seek. The first
     * block out of order is the third, thread block 1 after index 2, whose #BEGIN_TB
     * is line 26 (7 header lines; block i follows i % 3 + 1 blank lines and takes 6),
     * plain or compressed alike. */
    for (int gz = 0; gz < 2; gz++) {
        for (int swap = 0; swap < 2; swap++) {
            seek_trace(dir, 40, swap, gz);
            s = trace_scan_counts(dir, &err);
            CHECK(s != NULL);
            if (!s) {
                continue;
            }
            AtsMark at;
            const TraceKernel *tk = trace_scan_kernel(s, 0);
            CHECK(tk->in_order == !swap);
            CHECK_EQ_U64(tk->nseeks, gz ? 0 : 40);
            CHECK(trace_scan_seek(s, 0, 30, &at) == (!gz && !swap));
            if (swap) {
                CHECK_EQ_U64(tk->disorder.line, 26);
                CHECK_EQ_U64(tk->disorder.x, 1);
                CHECK_EQ_U64(tk->disorder.index, 1);
                CHECK_EQ_U64(tk->disorder.prev, 2);
            }
            trace_scan_free(s);
        }
    }
    seek_clean(dir);
}

/* The first of /var/tmp and /tmp that is writable and on a disk (where a spool goes
 * when TMPDIR names no such folder), or NULL. */
static const char *disk_tmp(void)
{
    static const char *const dirs[] = {"/var/tmp", "/tmp"};
    for (size_t i = 0; i < 2; i++) {
        struct statfs fs;
        if (access(dirs[i], W_OK) == 0 && statfs(dirs[i], &fs) == 0 &&
            fs.f_type != TMPFS_MAGIC && fs.f_type != RAMFS_MAGIC) {
            return dirs[i];
        }
    }
    return NULL;
}

/* Reads kernel k's records from `at` to the end; checks each against the message of
 * the block a trusted reading of the text gives there (from block `from` of the file)
 * and returns how many there were. */
static uint64_t spool_walk(const TraceScan *s, size_t k, uint64_t cta, uint64_t from)
{
    uint64_t at, end;
    const TraceSpool *sp = trace_scan_spool(s, k, cta, &at, &end);
    CHECK(sp != NULL);
    if (!sp) {
        return 0;
    }
    SimError err;
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(trace_scan_kernel(s, k)->path, &info, &err);
    CHECK(r != NULL);
    if (!r) {
        return 0;
    }
    ats_reader_trust(r);
    uint64_t n = 0, bad = 0;
    const AtsCta *c;
    bool got;
    for (uint64_t i = 0; i < from; i++) {
        CHECK(ats_reader_skip(r, &got, &err) && got);
    }
    while (at < end && ats_reader_view(r, &c, &got, &err) && got) {
        uint32_t id[3], len = 0;
        if (!trace_spool_head(sp, at, id, &len)) {
            CHECK(false);
            break;
        }
        size_t want_len;
        uint8_t *want = core_cta_message(c, &want_len);
        uint8_t *body = malloc(len ? len : 1);
        CHECK(trace_spool_body(sp, at, len, body));
        bad += id[0] != c->x || id[1] != c->y || id[2] != c->z || len != want_len ||
               memcmp(body, want, want_len) != 0;
        free(body);
        free(want);
        at += 4 + (uint64_t)len;
        n++;
    }
    CHECK(at == end);
    CHECK(ats_reader_view(r, &c, &got, &err) && !got);
    CHECK_EQ_U64(bad, 0);
    ats_reader_close(r);
    return n;
}

static void test_spool(void)
{
    if (!disk_tmp()) {
        fprintf(stderr, "test_spool: neither /var/tmp nor /tmp is on a disk\n");
        return;
    }
    SimError err;
    const TraceScan *s = trace_scan_get(TRACE, true, &err);
    CHECK(s != NULL);
    if (!s) {
        return;
    }
    for (size_t k = 0; k < trace_scan_kernels(s); k++) {
        CHECK_EQ_U64(spool_walk(s, k, 0, 0), trace_scan_kernel(s, k)->ctas);
    }
    trace_scan_put(s);
    TraceScan *counts = trace_scan_counts(TRACE, &err);
    CHECK(counts != NULL);
    uint64_t at, end;
    CHECK(counts && !trace_scan_spool(counts, 0, 0, &at, &end));
    trace_scan_free(counts);
    /* 6000 blocks: block 4100's seek point is block 4096's (every 32nd, test_seek) */
    char dir[] = "/tmp/test_trace_spool_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    seek_trace(dir, 6000, false, false);
    s = trace_scan_get(dir, true, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_U64(spool_walk(s, 0, 4100, 4096), 6000 - 4096);
        CHECK_EQ_U64(spool_walk(s, 0, 0, 0), 6000);
        trace_scan_put(s);
    }
    /* compressed: no seek points, every dispatcher starts at the first record */
    seek_trace(dir, 40, false, true);
    s = trace_scan_get(dir, true, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_U64(spool_walk(s, 0, 30, 0), 40);
        trace_scan_put(s);
    }
    /* a spool that would pass the file size limit (1 KiB, less than the 40 records
     * of the compressed kernel) is dropped, the scan is whole, and no write raised
     * SIGXFSZ (which would end this test) */
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    struct rlimit small = {1024, old.rlim_max};
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    s = trace_scan_get(dir, true, &err);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
    CHECK(s != NULL);
    if (s) {
        CHECK(!trace_scan_spool(s, 0, 0, &at, &end));
        CHECK_EQ_U64(trace_scan_kernel(s, 0)->ctas, 40);
        trace_scan_put(s);
    }
    /* a scan built without a spool (the sm's `spool` false) */
    s = trace_scan_get(dir, false, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(!trace_scan_spool(s, 0, 0, &at, &end));
        trace_scan_put(s);
    }
    seek_clean(dir);
}

/* The size of this process's one open spool file, its path into path and whether it
 * is closed on exec into *cloexec (UINT64_MAX when there is not exactly one). */
static uint64_t spool_file(char *path, size_t cap, bool *cloexec)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        return UINT64_MAX;
    }
    uint64_t size = UINT64_MAX;
    unsigned found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char link[300], target[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        struct stat st;
        if (n > 0 && (target[n] = '\0', strstr(target, "/mgtlm-spool-")) &&
            stat(link, &st) == 0) {
            snprintf(path, cap, "%s", target);
            size = (uint64_t)st.st_size;
            *cloexec = fcntl(atoi(e->d_name), F_GETFD) & FD_CLOEXEC;
            found++;
        }
    }
    closedir(d);
    return found == 1 ? size : UINT64_MAX;
}

/* Launches kernel-1 (40 blocks, seek_trace), kernel-1 again and kernel-2 (1 block). */
static void spool_kernels(const char *dir)
{
    seek_trace(dir, 40, false, false);
    harness_write(dir, "kernelslist.g",
                  "kernel-1.traceg\nkernel-1.traceg\nkernel-2.traceg\n");
    harness_write(dir, "kernel-2.traceg",
                  ONE_BLOCK_HEADER "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                                   "insts = 1\n0040 ffffffff 0 EXIT 0 0\n#END_TB\n");
}

static void test_spool_budget(void)
{
    CHECK_EQ_U64(trace_spool_budget(11, 4096, UINT64_MAX), 22528);
    CHECK_EQ_U64(trace_spool_budget(11, 4096, 1000), 1000);
    CHECK_EQ_U64(trace_spool_budget(UINT64_MAX / 2, 4096, UINT64_MAX), UINT64_MAX / 2);
    CHECK_EQ_U64(trace_spool_budget(0, 4096, UINT64_MAX), 0);
    if (!disk_tmp()) {
        fprintf(stderr, "test_spool_budget: neither /var/tmp nor /tmp is on a disk\n");
        return;
    }
    char dir[] = "/tmp/test_trace_budget_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    spool_kernels(dir);
    SimError err;
    const TraceScan *s = trace_scan_get(dir, true, &err);
    CHECK(s != NULL);
    if (!s) {
        seek_clean(dir);
        return;
    }
    /* TMPDIR unset: the spool is in /var/tmp (else /tmp), closed on exec */
    const char *tmp = disk_tmp();
    char path[4096] = "", want[64];
    snprintf(want, sizeof want, "%s/mgtlm-spool-", tmp ? tmp : "");
    bool cloexec = false;
    uint64_t size = spool_file(path, sizeof path, &cloexec);
    CHECK_EQ_U64(size, trace_scan_kernel(s, 2)->spool_end);
    CHECK(cloexec);
    CHECK(strncmp(path, want, strlen(want)) == 0);
    const TraceKernel *k1 = trace_scan_kernel(s, 1);
    uint64_t start = k1->spool_start, half = (k1->spool_end - start) / 2;
    uint64_t last =
        trace_scan_kernel(s, 2)->spool_end - trace_scan_kernel(s, 2)->spool_start;
    CHECK(last > 0 && last < half); /* kernel-2 alone would fit where kernel 1 fails */
    trace_scan_put(s);
    /* a file size limit half way into the second kernel: the first keeps its records,
     * the second gives its own back, the third is not spooled though it would fit */
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    struct rlimit lim = {(rlim_t)(start + half), old.rlim_max};
    CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
    s = trace_scan_get(dir, true, &err);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
    CHECK(s != NULL);
    if (s) {
        uint64_t at, end;
        CHECK(trace_scan_spool(s, 0, 0, &at, &end) != NULL && end == start);
        CHECK_EQ_U64(spool_walk(s, 0, 0, 0), 40);
        CHECK(!trace_scan_spool(s, 1, 0, &at, &end));
        CHECK(!trace_scan_spool(s, 2, 0, &at, &end));
        CHECK_EQ_U64(trace_scan_kernel(s, 1)->ctas, 40);
        CHECK_EQ_U64(spool_file(path, sizeof path, &cloexec), start);
        trace_scan_put(s);
    }
    /* a TMPDIR on a memory file system, or naming no folder, is passed over */
    struct statfs fs;
    const char *tmpdirs[] = {"/dev/shm", "/nonexistent-mgtlm-folder"};
    for (size_t i = 0; i < 2; i++) {
        if (i == 0 && (statfs("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC)) {
            fprintf(stderr, "test_spool_budget: /dev/shm is not a tmpfs; not tried\n");
            continue;
        }
        setenv("TMPDIR", tmpdirs[i], 1);
        s = trace_scan_get(dir, true, &err);
        unsetenv("TMPDIR");
        CHECK(s != NULL);
        if (s) {
            uint64_t at, end;
            CHECK(trace_scan_spool(s, 0, 0, &at, &end) != NULL);
            CHECK(spool_file(path, sizeof path, &cloexec) != UINT64_MAX);
            CHECK(strncmp(path, want, strlen(want)) == 0);
            trace_scan_put(s);
        }
    }
    snprintf(path, sizeof path, "%s/kernel-2.traceg", dir);
    unlink(path);
    seek_clean(dir);
}

int main(void)
{
    unsetenv("TMPDIR"); /* the spool tests name the temporary folder themselves */
    RUN(test_counts);
    RUN(test_expect);
    RUN(test_index_size_and_counts_only);
    RUN(test_shared_by_folder);
    RUN(test_threads);
    RUN(test_malformed);
    RUN(test_index_growth);
    RUN(test_seek);
    RUN(test_spool);
    RUN(test_spool_budget);
    return harness_report();
}
