/* Covers kernel/trace/trace_binary.c and kernel/trace/trace_convert.c.
 * The binary log: a run logged in binary and converted to JSONL, Perfetto and VCD
 * gives the same files, byte for byte, as those formats written directly, with every
 * optional part of a record present somewhere (data, byte enables, extension fields,
 * wavefront threads, parents, posted, src/dst/unit, responses with an error status,
 * declared commands in the platform's list and one outside it); records take few
 * bytes; damaged files are refused with the byte offset of the record at fault,
 * before any output is written. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/block.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"
#include "tests/unit/harness.h"

static char tmpdir[] = "/tmp/mgtlm-binlog-XXXXXX";

static const BlockType dummy_type = {.name = "dummy", .size = sizeof(Block)};
static const TxnCmdDecl listed = {.name = "listed", .doc = "a"};
static const TxnCmdDecl unlisted = {.name = "unlisted", .doc = "b"};
static const TxnCmdDecl *const cmds[] = {&listed, NULL};
static const PlatformInfo info = {.gpus = 2, .clock = 1000, .cmds = cmds};

typedef struct Rig {
    Sim *sim;
    Block a, b;
    Block *blocks[2];
    Platform p;
} Rig;

/* gpu0.a.out -- 10ns -- gpu1.b.in[0]; gpu1.b.idle is never used. */
static void rig_init(Rig *r)
{
    memset(r, 0, sizeof *r);
    r->sim = sim_new();
    r->a = (Block){.type = &dummy_type, .name = "gpu0.a", .sim = r->sim, .nports = 1};
    r->b = (Block){.type = &dummy_type, .name = "gpu1.b", .sim = r->sim, .nports = 2};
    r->a.plat = r->b.plat = &info;
    r->a.ports = calloc(1, sizeof(Port));
    r->b.ports = calloc(2, sizeof(Port));
    CHECK(port_init(&r->a.ports[0], &r->a, 0, "gpu0.a.out", 4096));
    CHECK(port_init(&r->b.ports[0], &r->b, 0, "gpu1.b.in[0]", 4096));
    CHECK(port_init(&r->b.ports[1], &r->b, 1, "gpu1.b.idle", 4096));
    CHECK(port_connect(&r->a.ports[0], &r->b.ports[0], 10 * SIM_NS, NULL));
    r->blocks[0] = &r->a;
    r->blocks[1] = &r->b;
    r->p.blocks = r->blocks;
    r->p.nblocks = 2;
}

static void rig_free(Rig *r)
{
    for (size_t k = 0; k < 2; k++) {
        port_destroy(&r->b.ports[k]);
    }
    port_destroy(&r->a.ports[0]);
    free(r->a.ports);
    free(r->b.ports);
    sim_free(r->sim);
}

static void send_proc(void *subject, void *obj)
{
    CHECK(port_send(subject, obj));
}

static void send_at(Rig *r, SimTime t, Txn *txn)
{
    sim_schedule(r->sim, t, SIM_PRIO_DEFAULT, send_proc, &r->a.ports[0], txn);
}

/* Traffic with every optional part of a record, over two time steps and more. */
static void rig_traffic(Rig *r)
{
    Txn *rd = txn_new(r->sim, TXN_READ, 0x100000040, 4);
    rd->src = 0;
    rd->dst = 1;
    rd->unit = 3;
    send_at(r, 0, rd);
    Txn *wr = txn_new(r->sim, TXN_WRITE, 0x40, 9);
    static const uint8_t d[9] = {0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 0xff};
    txn_set_data(wr, d);
    uint8_t *be = txn_alloc_be(wr);
    be[0] = be[3] = be[8] = 0xff;
    wr->posted = true;
    wr->fp_run = 0x46520003;
    wr->sharers = 0x8000000000000001ull;
    send_at(r, 0, wr);
    Txn *wave = txn_new_declared(r->sim, &listed, 0x1000, 128);
    static const TxnThread th[3] = {{0x1000, 4}, {0x1040, 8}, {0x0ff0, 4}};
    txn_set_threads(wave, th, 3);
    wave->mask = 0xffff;
    send_at(r, 3 * SIM_NS, wave);
    Txn *co = txn_new(r->sim, TXN_READ, 0x2000, 64);
    static const uint64_t parents[3] = {7, 2, 900000000000ull};
    txn_set_parents(co, parents, 3);
    send_at(r, 3 * SIM_NS, co);
    Txn *resp = txn_new_response(r->sim, rd);
    resp->status = TXN_STATUS_ADDRESS_ERROR;
    resp->codec_packet = 0xc0dec;
    send_at(r, 40 * SIM_NS, resp);
    Txn *odd = txn_new_declared(r->sim, &unlisted, 0, 0);
    send_at(r, 41 * SIM_NS, odd);
    Txn *odd_resp = txn_new_response(r->sim, odd);
    send_at(r, 42 * SIM_NS, odd_resp);
    send_at(r, 1000 * SIM_US, txn_new(r->sim, TXN_KERNEL_END, 0, 0));
    sim_run(r->sim, SIM_TIME_MAX);
}

static void log_run(TraceFormat fmt, const char *dir)
{
    Rig r;
    rig_init(&r);
    SimError err;
    TraceLog *log = trace_log_open(&r.p, dir, fmt, NULL, 0, &err);
    CHECK(log != NULL);
    rig_traffic(&r);
    CHECK(trace_log_close(log, &err));
    rig_free(&r);
}

/* The bytes of dir/name (new heap buffer), *len its size; NULL if unreadable. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    char *text = calloc(1, 1 << 16);
    *len = fread(text, 1, (1 << 16) - 1, f);
    fclose(f);
    return text;
}

static void same_file(const char *dir_a, const char *dir_b, const char *name)
{
    size_t la = 0, lb = 0;
    char *a = slurp(dir_a, name, &la);
    char *b = slurp(dir_b, name, &lb);
    CHECK(a != NULL && b != NULL);
    CHECK_EQ_U64(la, lb);
    CHECK(a && b && la == lb && memcmp(a, b, la) == 0);
    free(a);
    free(b);
}

static void test_convert_identical(void)
{
    char bin[256], direct[256], conv[256], path[300];
    snprintf(bin, sizeof bin, "%s/bin", tmpdir);
    log_run(TRACE_BINARY, bin);
    snprintf(path, sizeof path, "%s/trace.mgtlm", bin);
    static const TraceFormat fmts[] = {TRACE_JSONL, TRACE_PERFETTO, TRACE_VCD,
                                       TRACE_PERFETTO_GZ};
    static const char *const files[][3] = {
        {"gpu0.a.out.jsonl", "gpu1.b.in[0].jsonl", "gpu1.b.idle.jsonl"},
        {"trace.json", NULL, NULL},
        {"trace.vcd", NULL, NULL},
        {"trace.json.gz", NULL, NULL}};
    for (size_t k = 0; k < 4; k++) {
        snprintf(direct, sizeof direct, "%s/direct-%s", tmpdir,
                 trace_format_name(fmts[k]));
        snprintf(conv, sizeof conv, "%s/conv-%s", tmpdir, trace_format_name(fmts[k]));
        log_run(fmts[k], direct);
        SimError err;
        CHECK(trace_convert(path, conv, fmts[k], &err));
        for (size_t f = 0; f < 3 && files[k][f]; f++) {
            same_file(direct, conv, files[k][f]);
        }
    }
    /* the parts that must be in the JSONL for the comparison to mean something */
    size_t len = 0;
    char *in = slurp(conv, "../conv-jsonl/gpu1.b.in[0].jsonl", &len);
    CHECK(in != NULL);
    if (in) {
        static const char *const parts[] = {
            "\"data\":\"0xdeadbeef00010203ff\",\"be\":\"0x109\"",
            "\"posted\":true",
            "\"fp_run\":1179779075,\"sharers\":\"0x8000000000000001\"",
            "\"threads\":[[\"0x1000\",4],[\"0x1040\",8],[\"0xff0\",4]]",
            "\"parent\":[7,2,900000000000]",
            "\"cmd\":\"resp\",\"req\":\"read\",\"status\":\"address_error\"",
            "\"codec_packet\":789996",
            "\"cmd\":\"listed\"",
            "\"cmd\":\"resp\",\"req\":\"unlisted\"",
            "\"src\":0,\"dst\":1,\"unit\":3",
            "\"t\":1000010000,"};
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            if (!strstr(in, parts[p])) {
                fprintf(stderr, "missing %s\n", parts[p]);
                CHECK(false);
            }
        }
    }
    free(in);
}

/* Writes bytes to dir/name; returns the path in buf. */
static const char *put_file(const char *name, const void *bytes, size_t len, char *buf,
                            size_t size)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
    FILE *f = fopen(buf, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(bytes, 1, len, f);
        fclose(f);
    }
    return buf;
}

static void expect_refused(const char *name, const void *bytes, size_t len,
                           const char *message)
{
    char path[300], out[300], want[400];
    put_file(name, bytes, len, path, sizeof path);
    snprintf(out, sizeof out, "%s/refused", tmpdir);
    snprintf(want, sizeof want, "%s: %s", path, message);
    SimError err;
    CHECK(!trace_convert(path, out, TRACE_JSONL, &err));
    CHECK_STR(err.msg, want);
    struct stat st;
    CHECK(stat(out, &st) != 0); /* a damaged log writes nothing */
}

static void test_damaged(void)
{
    char bin[256];
    snprintf(bin, sizeof bin, "%s/bin", tmpdir);
    size_t len = 0;
    char *good = slurp(bin, "trace.mgtlm", &len);
    CHECK(good != NULL && len > 40);
    if (!good) {
        return;
    }
    /* header: magic, version 1, 3 ports "gpu0.a.out" (10) "gpu1.b.in[0]" (12)
     * "gpu1.b.idle" (11), 1 command "listed" (6): the first record is at byte 54 */
    CHECK(memcmp(good, "MGTLMLOG\x01\x03\x0agpu0.a.out", 21) == 0);
    CHECK(memcmp(good + 46, "\x01\x06listed", 8) == 0);
    expect_refused("magic", "MGTLMLOX\x01\x00\x00", 11, "not an mgtlm binary log");
    expect_refused("version", "MGTLMLOG\x02\x00\x00", 11,
                   "binary log version 2 (this mgtlm reads version 1)");
    expect_refused("cut-header", good, 30, "byte 21: truncated record");
    /* the first record: a read sent at gpu0.a.out, cut after its tag and port */
    expect_refused("cut-record", good, 56, "byte 54: truncated record");
    char *bad = malloc(len);
    memcpy(bad, good, len);
    bad[54] = (char)0x81;
    expect_refused("tag", bad, len, "byte 54: bad record tag");
    bad[54] = good[54];
    bad[55] = 3;
    expect_refused("port", bad, len, "byte 54: port index 3 out of range (at most 2)");
    free(bad);
    free(good);
}

/* A record is small: the binary file holds the traffic in far fewer bytes than the
 * JSONL of the same run. */
static void test_compact(void)
{
    Rig r;
    rig_init(&r);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/compact", tmpdir);
    SimError err;
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_BINARY, NULL, 0, &err);
    CHECK(log != NULL);
    for (uint64_t i = 0; i < 1000; i++) {
        Txn *t = txn_new(r.sim, TXN_READ, 0x100000000 + 64 * i, 64);
        t->src = 0;
        t->dst = 1;
        t->unit = (int16_t)(i % 4);
        send_at(&r, i * SIM_NS, t);
    }
    sim_run(r.sim, SIM_TIME_MAX);
    CHECK(trace_log_close(log, &err));
    struct stat st;
    char path[300];
    snprintf(path, sizeof path, "%s/trace.mgtlm", dir);
    CHECK(stat(path, &st) == 0);
    /* 2000 records (send and arrival of each read), header 54 bytes: tag, port,
     * time delta (2 bytes for 1 ns), cmd, id delta, address delta (2 bytes), len,
     * src, dst, unit = 12 bytes a record after the first of each port */
    CHECK((size_t)st.st_size <= 54 + 2000 * 12 + 20);
    rig_free(&r);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        return 1;
    }
    RUN(test_convert_identical);
    RUN(test_damaged);
    RUN(test_compact);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return harness_report();
}
