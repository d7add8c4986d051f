/* Covers kernel/trace/trace_log.c, trace_jsonl.c, trace_perfetto.c, trace_vcd.c and
 * trace_fanout.c.
 * Trace log writers and fan-out: JSONL files per port (content and empty files for
 * idle ports), the Perfetto trace parses as JSON with the expected tracks and events,
 * its request-response slices (extra tracks for overlapping ones) and flow events,
 * the VCD has a valid header, scopes and one change per signal per time step, codes
 * declared commands by their position in the platform's list, port
 * selection by glob, and a port recorded by two sinks at once. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "kernel/block.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"
#include "tests/unit/harness.h"

static char tmpdir[] = "/tmp/mgtlm-trace-XXXXXX";

static const BlockType dummy_type = {.name = "dummy", .size = sizeof(Block)};

typedef struct Rig {
    Sim *sim;
    Block a, b;
    Block *blocks[2];
    Platform p;
} Rig;

/* A: gpu0.a.out -- 10ns -- B: gpu0.b.cu[1]; B also has fabric-free port gpu0.b.idle. */
static void rig_init(Rig *r)
{
    memset(r, 0, sizeof *r);
    r->sim = sim_new();
    r->a = (Block){.type = &dummy_type, .name = "gpu0.a", .sim = r->sim, .nports = 1};
    r->b = (Block){.type = &dummy_type, .name = "gpu0.b", .sim = r->sim, .nports = 2};
    r->a.ports = calloc(1, sizeof(Port));
    r->b.ports = calloc(2, sizeof(Port));
    CHECK(port_init(&r->a.ports[0], &r->a, 0, "gpu0.a.out", 4));
    CHECK(port_init(&r->b.ports[0], &r->b, 0, "gpu0.b.cu[1]", 4));
    CHECK(port_init(&r->b.ports[1], &r->b, 1, "gpu0.b.idle", 4));
    CHECK(port_connect(&r->a.ports[0], &r->b.ports[0], 10 * SIM_NS, NULL));
    r->blocks[0] = &r->a;
    r->blocks[1] = &r->b;
    r->p.blocks = r->blocks;
    r->p.nblocks = 2;
}

static void rig_free(Rig *r)
{
    port_destroy(&r->a.ports[0]);
    port_destroy(&r->b.ports[0]);
    port_destroy(&r->b.ports[1]);
    free(r->a.ports);
    free(r->b.ports);
    sim_free(r->sim);
}

static void send_proc(void *subject, void *obj)
{
    CHECK(port_send(subject, obj));
}

/* Two reads at 0 (ids 1, 2) and a write at 5ns (id 3); arrivals at 10, 10, 15ns. */
static void rig_traffic(Rig *r)
{
    Port *out = &r->a.ports[0];
    CHECK(port_send(out, txn_new(r->sim, TXN_READ, 0x40, 4)));
    CHECK(port_send(out, txn_new(r->sim, TXN_READ, 0x80, 4)));
    Txn *w = txn_new(r->sim, TXN_WRITE, 0xc0, 2);
    static const uint8_t d[2] = {0xab, 0xcd};
    txn_set_data(w, d);
    sim_schedule(r->sim, 5 * SIM_NS, SIM_PRIO_DEFAULT, send_proc, out, w);
    sim_run(r->sim, SIM_TIME_MAX);
}

static char *slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        return NULL;
    }
    char *text = calloc(1, 1 << 16);
    size_t n = fread(text, 1, (1 << 16) - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++) {
        n += *s == '\n';
    }
    return n;
}

static void test_jsonl(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/jsonl/nested", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_JSONL, NULL, 0, &err);
    CHECK(log != NULL);
    rig_traffic(&r);
    CHECK(trace_log_close(log, &err));
    char *out = slurp(dir, "gpu0.a.out.jsonl");
    char *in = slurp(dir, "gpu0.b.cu[1].jsonl");
    char *idle = slurp(dir, "gpu0.b.idle.jsonl");
    CHECK(out && in && idle);
    if (out && in && idle) {
        CHECK_EQ_U64(count_lines(out), 3);
        CHECK_EQ_U64(count_lines(in), 3);
        CHECK_STR(idle, "");
        CHECK(strncmp(out,
                      "{\"t\":0,\"port\":\"gpu0.a.out\",\"ev\":\"send\",\"id\":1,"
                      "\"cmd\":\"read\",\"addr\":\"0x40\",\"len\":4}\n",
                      strlen(out) < 70 ? strlen(out) : 70) == 0);
        CHECK(strstr(in,
                     "{\"t\":15000,\"port\":\"gpu0.b.cu[1]\",\"ev\":\"recv\",\"id\":3,"
                     "\"cmd\":\"write\",\"addr\":\"0xc0\",\"len\":2,"
                     "\"data\":\"0xabcd\"}\n") != NULL);
    }
    free(out);
    free(in);
    free(idle);
    rig_free(&r);
}

static void test_select(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/select", tmpdir);
    const char *globs[] = {"gpu0.b.cu[*]"};
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_JSONL, globs, 1, &err);
    CHECK(log != NULL);
    CHECK(r.a.ports[0].trace == NULL);
    CHECK(r.b.ports[0].trace != NULL);
    CHECK(trace_log_close(log, &err));
    CHECK(r.b.ports[0].trace == NULL);
    char *none = slurp(dir, "gpu0.a.out.jsonl");
    CHECK(none == NULL);
    free(none);
    const char *bad[] = {"gpu0.b.cu[1]", "gpu9.*"};
    CHECK(trace_log_open(&r.p, dir, TRACE_JSONL, bad, 2, &err) == NULL);
    CHECK(strstr(err.msg, "'gpu9.*' matches no port") != NULL);
    char file[300];
    snprintf(file, sizeof file, "%s/plainfile", tmpdir);
    fclose(fopen(file, "w"));
    strcat(file, "/sub");
    CHECK(trace_log_open(&r.p, file, TRACE_JSONL, NULL, 0, &err) == NULL);
    CHECK(strstr(err.msg, "plainfile") != NULL);
    rig_free(&r);
}

static void test_perfetto(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "%s/perfetto", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_PERFETTO, NULL, 0, &err);
    CHECK(log != NULL);
    rig_traffic(&r);
    CHECK(trace_log_close(log, &err));
    snprintf(path, sizeof path, "%s/trace.json", dir);
    json_error_t jerr;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    CHECK(doc != NULL);
    json_t *events = json_object_get(doc, "traceEvents");
    CHECK(json_is_array(events));
    CHECK_STR(json_string_value(json_object_get(doc, "displayTimeUnit")), "ns");
    size_t threads = 0, instants = 0;
    bool saw_recv_15ns = false;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *name = json_string_value(json_object_get(e, "name"));
        CHECK(ph && name && json_is_integer(json_object_get(e, "pid")) &&
              json_is_integer(json_object_get(e, "tid")));
        if (ph && strcmp(ph, "M") == 0 && name && strcmp(name, "thread_name") == 0 &&
            !strstr(
                json_string_value(json_object_get(json_object_get(e, "args"), "name")),
                " #")) {
            threads++; /* the ports' own tracks, not the extra tracks of slices */
        }
        if (ph && strcmp(ph, "i") == 0) {
            instants++;
            json_t *args = json_object_get(e, "args");
            CHECK(json_is_object(args) && json_object_get(args, "port"));
            double ts = json_number_value(json_object_get(e, "ts"));
            if (ts > 0.0149 && ts < 0.0151 &&
                strcmp(json_string_value(json_object_get(args, "ev")), "recv") == 0) {
                saw_recv_15ns = json_integer_value(json_object_get(args, "t")) == 15000;
            }
        }
    }
    CHECK_EQ_U64(threads, 3);
    CHECK_EQ_U64(instants, 6);
    CHECK(saw_recv_15ns);
    json_decref(doc);
    rig_free(&r);
}

/* Sends obj from port subject (a scheduled process). */
static void send_from(Rig *r, Port *p, SimTime t, Txn *txn)
{
    sim_schedule(r->sim, t, SIM_PRIO_DEFAULT, send_proc, p, txn);
}

/* The events of phase ph at the track named track, as "name@ts" ("name@ts+dur" for
 * complete events, "name#id@ts" for flow events) in file order. */
static void perfetto_events(json_t *events, const char *ph, const char *track, char *out,
                            size_t size)
{
    json_int_t tid = -1;
    size_t i;
    json_t *e;
    json_array_foreach(events, i, e) {
        const char *n =
            json_string_value(json_object_get(json_object_get(e, "args"), "name"));
        if (strcmp(json_string_value(json_object_get(e, "name")), "thread_name") == 0 &&
            n && strcmp(n, track) == 0) {
            tid = json_integer_value(json_object_get(e, "tid"));
        }
    }
    out[0] = '\0';
    json_array_foreach(events, i, e) {
        if (json_integer_value(json_object_get(e, "tid")) == tid &&
            strcmp(json_string_value(json_object_get(e, "ph")), ph) == 0) {
            size_t len = strlen(out);
            json_t *dur = json_object_get(e, "dur");
            json_t *id = json_object_get(e, "id");
            len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "",
                                    json_string_value(json_object_get(e, "name")));
            if (id) {
                len += (size_t)snprintf(out + len, size - len, "#%" JSON_INTEGER_FORMAT,
                                        json_integer_value(id));
            }
            snprintf(out + len, size - len, dur ? "@%.6f+%.6f" : "@%.6f",
                     json_number_value(json_object_get(e, "ts")), json_number_value(dur));
        }
    }
}

/* Two overlapping reads from gpu0.a.out answered by gpu0.b.cu[1]: a slice per
 * request and port, from the request's record to the response's, overlapping ones on
 * a second track of the port; flow events start the transaction's chain at the
 * requester and step at the responder. */
static void test_perfetto_slices(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/slices", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_PERFETTO, NULL, 0, &err);
    CHECK(log != NULL);
    Port *a = &r.a.ports[0], *b = &r.b.ports[0];
    Txn *rd1 = txn_new(r.sim, TXN_READ, 0x40, 4);
    Txn *rd2 = txn_new(r.sim, TXN_READ, 0x80, 4);
    Txn *resp1 = txn_new_response(r.sim, rd1);
    Txn *resp2 = txn_new_response(r.sim, rd2);
    send_from(&r, a, 0, rd1);
    send_from(&r, a, 0, rd2);
    send_from(&r, b, 20 * SIM_NS, resp1);
    send_from(&r, b, 25 * SIM_NS, resp2);
    sim_run(r.sim, SIM_TIME_MAX);
    CHECK(trace_log_close(log, &err));
    char path[300], got[512];
    snprintf(path, sizeof path, "%s/trace.json", dir);
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    CHECK(doc != NULL);
    json_t *ev = json_object_get(doc, "traceEvents");
    perfetto_events(ev, "X", "gpu0.a.out", got, sizeof got);
    CHECK_STR(got, "read 1@0.000000+0.030000");
    perfetto_events(ev, "X", "gpu0.a.out #2", got, sizeof got);
    CHECK_STR(got, "read 2@0.000000+0.035000");
    perfetto_events(ev, "X", "gpu0.b.cu[1]", got, sizeof got);
    CHECK_STR(got, "read 1@0.010000+0.010000");
    perfetto_events(ev, "X", "gpu0.b.cu[1] #2", got, sizeof got);
    CHECK_STR(got, "read 2@0.010000+0.015000");
    perfetto_events(ev, "s", "gpu0.a.out", got, sizeof got);
    CHECK_STR(got, "txn#1@0.000000");
    perfetto_events(ev, "s", "gpu0.a.out #2", got, sizeof got);
    CHECK_STR(got, "txn#2@0.000000");
    perfetto_events(ev, "t", "gpu0.b.cu[1]", got, sizeof got);
    CHECK_STR(got, "txn#1@0.010000");
    perfetto_events(ev, "t", "gpu0.b.cu[1] #2", got, sizeof got);
    CHECK_STR(got, "txn#2@0.010000");
    json_decref(doc);
    rig_free(&r);
}

/* perfetto-gz: DIR/trace.json.gz inflates (zlib) to the bytes of the plain trace of
 * the same traffic, and carries no time stamp (two runs give the same file). */
static void test_perfetto_gz(void)
{
    char plain[256], gz[256], path[300];
    snprintf(plain, sizeof plain, "%s/gz-plain", tmpdir);
    snprintf(gz, sizeof gz, "%s/gz", tmpdir);
    static const TraceFormat fmts[2] = {TRACE_PERFETTO, TRACE_PERFETTO_GZ};
    const char *dirs[2] = {plain, gz};
    for (int k = 0; k < 2; k++) {
        Rig r;
        rig_init(&r);
        SimError err;
        TraceLog *log = trace_log_open(&r.p, dirs[k], fmts[k], NULL, 0, &err);
        CHECK(log != NULL);
        rig_traffic(&r);
        CHECK(trace_log_close(log, &err));
        rig_free(&r);
    }
    char *want = slurp(plain, "trace.json");
    snprintf(path, sizeof path, "%s/trace.json.gz", gz);
    gzFile f = gzopen(path, "rb");
    CHECK(want != NULL && f != NULL);
    char *got = calloc(1, 1 << 16);
    int n = f ? gzread(f, got, (1 << 16) - 1) : -1;
    CHECK(n > 0 && want && strcmp(got, want) == 0);
    if (f) {
        gzclose(f);
    }
    FILE *raw = fopen(path, "rb");
    unsigned char head[10] = {0};
    CHECK(raw && fread(head, 1, 10, raw) == 10);
    if (raw) {
        fclose(raw);
    }
    CHECK(head[0] == 0x1f && head[1] == 0x8b);                           /* gzip magic */
    CHECK(head[4] == 0 && head[5] == 0 && head[6] == 0 && head[7] == 0); /* no mtime */
    free(got);
    free(want);
}

static void test_vcd(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/vcd", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_VCD, NULL, 0, &err);
    CHECK(log != NULL);
    rig_traffic(&r);
    CHECK(trace_log_close(log, &err));
    char *v = slurp(dir, "trace.vcd");
    CHECK(v != NULL);
    if (!v) {
        rig_free(&r);
        return;
    }
    CHECK(strstr(v, "$timescale 1ps $end") != NULL);
    CHECK(strstr(v, "$scope module gpu0 $end\n$scope module a $end\n"
                    "$scope module out $end\n") != NULL);
    CHECK(strstr(v, "$scope module cu_1 $end\n$var wire 64 % id $end\n") != NULL);
    CHECK(strstr(v, "$enddefinitions $end\n#0\n$dumpvars\n") != NULL);
    /* port 1 (cu[1]) count = '!' + 7 = '(': both reads arrive at 10ns, one change */
    const char *t10 = strstr(v, "#10000\n");
    const char *t15 = strstr(v, "#15000\n");
    CHECK(t10 && t15 && t10 < t15);
    CHECK(strstr(v, "b10 (\n") != NULL);
    CHECK(strstr(v, "b1 (\n") == NULL);
    CHECK(strstr(v, "b11 (\n") != NULL);
    /* send signal of port 0 ('!' + 2 = '#') is 1, of port 1 ('!' + 6 = '\'') is 0 */
    CHECK(strstr(v, "1#\n") != NULL);
    CHECK(strstr(v, "#5000\n") != NULL);
    /* the time steps are strictly increasing */
    unsigned long long last = 0;
    bool first = true, increasing = true;
    for (const char *s = v; (s = strstr(s, "\n#")) != NULL; s++) {
        unsigned long long t = strtoull(s + 2, NULL, 10);
        increasing = increasing && (first || t > last);
        first = false;
        last = t;
    }
    CHECK(increasing);
    free(v);
    rig_free(&r);
}

static void test_vcd_declared(void)
{
    static const TxnCmdDecl first = {.name = "first", .doc = "a"};
    static const TxnCmdDecl second = {.name = "second", .doc = "b"};
    static const TxnCmdDecl unlisted = {.name = "unlisted", .doc = "c"};
    static const TxnCmdDecl *const cmds[] = {&first, &second, NULL};
    const PlatformInfo info = {.gpus = 1, .clock = 1000, .cmds = cmds};
    Rig r;
    rig_init(&r);
    r.a.plat = r.b.plat = &info;
    SimError err;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/vcd-declared", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_VCD, NULL, 0, &err);
    CHECK(log != NULL);
    Port *out = &r.a.ports[0];
    CHECK(port_send(out, txn_new_declared(r.sim, &second, 0x40, 0)));
    sim_schedule(r.sim, 5 * SIM_NS, SIM_PRIO_DEFAULT, send_proc, out,
                 txn_new_declared(r.sim, &unlisted, 0x80, 0));
    sim_run(r.sim, SIM_TIME_MAX);
    CHECK(trace_log_close(log, &err));
    char *v = slurp(dir, "trace.vcd");
    CHECK(v != NULL);
    /* port 0's cmd signal is '"': 8 + 1 for `second`, 15 for a command not listed */
    CHECK(v && strstr(v, "b1001 \"\n") != NULL);
    CHECK(v && strstr(v, "b1111 \"\n") != NULL);
    free(v);
    rig_free(&r);
}

typedef struct Counter {
    TraceSink sink;
    int n;
} Counter;

static void count_record(TraceSink *sink, const Port *port, const char *ev, const Txn *t)
{
    (void)port;
    (void)ev;
    (void)t;
    ((Counter *)sink)->n++;
}

static void test_fanout(void)
{
    Rig r;
    rig_init(&r);
    SimError err;
    Counter c1 = {.sink.record = count_record}, c2 = {.sink.record = count_record};
    Port *out = &r.a.ports[0];
    CHECK(trace_attach(out, &c1.sink, &err));
    CHECK(out->trace == &c1.sink);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/fanout", tmpdir);
    TraceLog *log = trace_log_open(&r.p, dir, TRACE_JSONL, NULL, 0, &err);
    CHECK(log != NULL);
    CHECK(trace_attach(out, &c2.sink, &err));
    rig_traffic(&r);
    CHECK_EQ_U64(c1.n, 3);
    CHECK_EQ_U64(c2.n, 3);
    CHECK(trace_log_close(log, &err));
    char *text = slurp(dir, "gpu0.a.out.jsonl");
    CHECK(text && count_lines(text) == 3);
    free(text);
    trace_detach(out, &c1.sink);
    CHECK(out->trace == &c2.sink);
    trace_detach(out, &c1.sink);
    CHECK(out->trace == &c2.sink);
    trace_detach(out, &c2.sink);
    CHECK(out->trace == NULL);
    rig_free(&r);
}

static void test_formats(void)
{
    TraceFormat f;
    CHECK(trace_format_parse("jsonl", &f) && f == TRACE_JSONL);
    CHECK(trace_format_parse("perfetto", &f) && f == TRACE_PERFETTO);
    CHECK(trace_format_parse("vcd", &f) && f == TRACE_VCD);
    CHECK(trace_format_parse("binary", &f) && f == TRACE_BINARY);
    CHECK(trace_format_parse("perfetto-gz", &f) && f == TRACE_PERFETTO_GZ);
    CHECK(!trace_format_parse("csv", &f));
    CHECK_STR(trace_format_name(TRACE_VCD), "vcd");
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        return 1;
    }
    RUN(test_jsonl);
    RUN(test_select);
    RUN(test_perfetto);
    RUN(test_perfetto_slices);
    RUN(test_perfetto_gz);
    RUN(test_vcd);
    RUN(test_vcd_declared);
    RUN(test_fanout);
    RUN(test_formats);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return harness_report();
}
