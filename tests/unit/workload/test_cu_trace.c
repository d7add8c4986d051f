/* Unit tests of the cu trace reader and the wavefront coalescer
 * (hw/workload/cu_trace.c). Traces are written to temporary files. */
#include <stdlib.h>
#include <unistd.h>

#include "hw/workload/cu_trace.h"
#include "tests/unit/harness.h"

#define LIMIT (4ULL << 32) /* 4 GPUs x 4 GiB */

static char tmp_path[64];

static const char *write_trace(const char *text)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/mgtlm_cu_trace_XXXXXX");
    int fd = mkstemp(tmp_path);
    if (fd < 0) {
        return NULL;
    }
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return tmp_path;
}

/* Validates text; returns the error message ("" when valid) with the path cut. */
static const char *check_error(const char *text)
{
    static SimError err;
    const char *path = write_trace(text);
    bool ok = cu_trace_validate(path, 1000, LIMIT, 64, &err);
    unlink(path);
    if (ok) {
        return "";
    }
    size_t len = strlen(path);
    return strncmp(err.msg, path, len) == 0 ? err.msg + len : err.msg;
}

static void test_records(void)
{
    const char *path = write_trace(
        "{\"t\":\"10ns\",\"op\":\"read\",\"addr\":\"0x100\",\"size\":4}\n"
        "\n"
        "{\"gap\":\"5ns\",\"op\":\"write\",\"addr\":256,\"size\":2,\"data\":\"0xbeEF\","
        "\"posted\":true}\n"
        "{\"op\":\"atomic\",\"addr\":\"0x40\",\"size\":8}\n"
        "{\"t\":\"3cycles\",\"op\":\"kernel_begin\",\"hint\":7}\n");
    CuTrace tr;
    CuTraceRec r;
    SimError err;
    CHECK(cu_trace_open(&tr, path, 1000, LIMIT, 64, &err));
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 1);
    CHECK_EQ_U64(r.t, 10000);
    CHECK_EQ_U64(r.op, CU_OP_READ);
    CHECK_EQ_U64(r.addr, 0x100);
    CHECK_EQ_U64(r.size, 4);
    CHECK(r.data == NULL);
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 1);
    CHECK_EQ_U64(r.t, 15000);
    CHECK_EQ_U64(r.op, CU_OP_WRITE);
    CHECK(r.posted);
    CHECK(r.data && r.data[0] == 0xbe && r.data[1] == 0xef);
    CHECK_EQ_U64(tr.lineno, 3);
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 1);
    CHECK_EQ_U64(r.t, 15000);
    CHECK_EQ_U64(r.op, CU_OP_ATOMIC);
    CHECK_EQ_U64(r.size, 8);
    /* "3cycles" = 3000 ps (1 GHz) is earlier than 15 ns; line 5 (line 2 is blank). */
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), (uint64_t)-1);
    CHECK(strstr(err.msg, ":5: t 3000 ps is earlier than the previous record's time "
                          "15000 ps") != NULL);
    cu_trace_close(&tr);
    unlink(path);
}

static void test_wavefront_record(void)
{
    const char *path =
        write_trace("{\"t\":\"3cycles\",\"op\":\"kernel_begin\",\"hint\":7}\n"
                    "{\"op\":\"read\",\"threads\":[[\"0x0c0\",4],[\"0x200\",4]]}\n");
    CuTrace tr;
    CuTraceRec r;
    SimError err;
    CHECK(cu_trace_open(&tr, path, 1000, LIMIT, 64, &err));
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 1);
    CHECK_EQ_U64(r.op, CU_OP_KERNEL_BEGIN);
    CHECK_EQ_U64(r.t, 3000);
    CHECK_EQ_U64(r.hint, 7);
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 1);
    CHECK_EQ_U64(r.t, 3000);
    CHECK_EQ_U64(r.nthreads, 2);
    CHECK_EQ_U64(r.threads[1].addr, 0x200);
    CHECK_EQ_U64(r.threads[1].size, 4);
    CHECK_EQ_U64(cu_trace_next(&tr, &r, &err), 0);
    cu_trace_close(&tr);
    unlink(path);
}

static void test_errors(void)
{
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0x0\",\"size\":4}\n"), "");
    CHECK_STR(
        check_error("{\"op\":\"read\",\"addr\":\"0x0\",\"size\":4}\n{\"op\":\"jump\"}\n"),
        ":2: unknown op \"jump\" (read, write, atomic, release, kernel_begin or "
        "kernel_end)");
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0x0\",\"size\":4,\"x\":1}\n"),
              ":1: unknown key \"x\"");
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0x0\"}\n"),
              ":1: op read needs addr and size (or threads)");
    CHECK_STR(check_error("{\"t\":\"10ns\",\"op\":\"release\"}\n"
                          "{\"t\":\"5ns\",\"op\":\"release\"}\n"),
              ":2: t 5000 ps is earlier than the previous record's time 10000 ps");
    CHECK_STR(check_error("{\"t\":10,\"op\":\"release\"}\n"),
              ":1: t must be a time string like \"10ns\"");
    CHECK_STR(
        check_error("{\"op\":\"write\",\"addr\":\"0x0\",\"size\":2,\"data\":\"0x1\"}\n"),
        ":1: data has 1 hex digits, expected 4 (size 2)");
    CHECK_STR(check_error("{\"op\":\"atomic\",\"addr\":\"0x0\",\"size\":2}\n"),
              ":1: an atomic has size 4 or 8, not 2");
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0x3fffffffe\",\"size\":4}\n"),
              ":1: bytes 0x3fffffffe..+4 are outside the platform's memory "
              "(0x0..0x400000000)");
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0xg\",\"size\":4}\n"),
              ":1: addr must be a \"0x...\" hex string or a non-negative integer");
    CHECK_STR(check_error("{\"op\":\"release\",\"addr\":\"0x0\"}\n"),
              ":1: key \"addr\" is not allowed with op release");
    CHECK_STR(check_error("{\"op\":\"read\",\"threads\":[[\"0x0\",65]]}\n"),
              ":1: threads[0] size must be an integer from 1 to 64");
    CHECK_STR(check_error("{\"op\":\"read\",\"addr\":\"0x0\",\"size\":4\n"),
              ":1: invalid JSON: '}' expected near end of file");
    CHECK_STR(check_error("[1]\n"), ":1: a record must be a JSON object");
}

static void test_missing_file(void)
{
    SimError err;
    CHECK(!cu_trace_validate("/nonexistent/trace.jsonl", 1000, LIMIT, 64, &err));
    CHECK_STR(err.msg, "/nonexistent/trace.jsonl: cannot open trace: No such file or "
                       "directory");
}

static void test_coalesce_b1(void)
{
    /* SPEC.md 1.1 example B1: (0x0C0,4) (0x200,4) (0x100,4) (0x104,4) ->
     * lines 0x0C0, 0x200, 0x100 in that order; 0x100 has bytes 0-7. */
    static const CuThread th[] = {{0x0c0, 4}, {0x200, 4}, {0x100, 4}, {0x104, 4}};
    CuLines l = {0};
    cu_coalesce(&l, 64, th, 4);
    CHECK_EQ_U64(l.n, 3);
    CHECK_EQ_U64(l.addr[0], 0x0c0);
    CHECK_EQ_U64(l.addr[1], 0x200);
    CHECK_EQ_U64(l.addr[2], 0x100);
    int on = 0;
    for (int i = 0; i < 64; i++) {
        on += l.be[2 * 64 + i] != 0;
    }
    CHECK_EQ_U64(on, 8);
    CHECK(l.be[2 * 64 + 7] && !l.be[2 * 64 + 8]);
    CHECK(l.be[0] && l.be[3] && !l.be[4]);
    cu_lines_free(&l);
}

static void test_coalesce_crossing(void)
{
    /* A thread crossing a line boundary touches both lines (SPEC.md 1.1). */
    static const CuThread th[] = {{0x13e, 4}, {0x100, 1}};
    CuLines l = {0};
    cu_coalesce(&l, 64, th, 2);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.addr[0], 0x100);
    CHECK_EQ_U64(l.addr[1], 0x140);
    CHECK(l.be[62] && l.be[63] && l.be[0] && !l.be[1]);
    CHECK(l.be[64] && l.be[65] && !l.be[66]);
    cu_lines_free(&l);
}

int main(void)
{
    RUN(test_records);
    RUN(test_wavefront_record);
    RUN(test_errors);
    RUN(test_missing_file);
    RUN(test_coalesce_b1);
    RUN(test_coalesce_crossing);
    return harness_report();
}
