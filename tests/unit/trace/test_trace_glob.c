/* Glob matching of port names: '*', '?', literal brackets of array ports, classes. */
#include "kernel/trace/trace.h"
#include "tests/unit/harness.h"

static void test_plain(void)
{
    CHECK(trace_glob_match("gpu0.mem.in", "gpu0.mem.in"));
    CHECK(!trace_glob_match("gpu0.mem.in", "gpu0.mem.inx"));
    CHECK(!trace_glob_match("gpu0.mem.in", "gpu0.mem.i"));
    CHECK(trace_glob_match("", ""));
    CHECK(!trace_glob_match("", "a"));
}

static void test_star_question(void)
{
    CHECK(trace_glob_match("*", ""));
    CHECK(trace_glob_match("*", "gpu0.mem.in"));
    CHECK(trace_glob_match("gpu0.mem.*", "gpu0.mem.in"));
    CHECK(!trace_glob_match("gpu0.mem.*", "gpu1.mem.in"));
    CHECK(trace_glob_match("gpu*.mem.in", "gpu12.mem.in"));
    CHECK(trace_glob_match("*.in", "gpu0.xbar.in"));
    CHECK(trace_glob_match("g*u*.*", "gpu0.x"));
    CHECK(!trace_glob_match("*.out", "gpu0.mem.in"));
    CHECK(trace_glob_match("gpu?.mem.in", "gpu3.mem.in"));
    CHECK(!trace_glob_match("gpu?.mem.in", "gpu10.mem.in"));
    CHECK(trace_glob_match("**a", "bba"));
}

static void test_brackets(void)
{
    CHECK(trace_glob_match("gpu0.xbar.cu[1]", "gpu0.xbar.cu[1]"));
    CHECK(!trace_glob_match("gpu0.xbar.cu[1]", "gpu0.xbar.cu[2]"));
    CHECK(trace_glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.cu[12]"));
    CHECK(trace_glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.cu[0]"));
    CHECK(!trace_glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.mem"));
    CHECK(trace_glob_match("gpu[0-3].mem.in", "gpu2.mem.in"));
    CHECK(!trace_glob_match("gpu[0-3].mem.in", "gpu4.mem.in"));
    CHECK(trace_glob_match("gpu[!0].mem.in", "gpu5.mem.in"));
    CHECK(!trace_glob_match("gpu[!0].mem.in", "gpu0.mem.in"));
    CHECK(trace_glob_match("gpu[^0].mem.in", "gpu7.mem.in"));
    CHECK(trace_glob_match("sw[13]", "sw3"));
    CHECK(trace_glob_match("sw[13]", "sw[13]"));
    CHECK(!trace_glob_match("sw[13]", "sw2"));
    /* an unclosed '[' is an ordinary character */
    CHECK(trace_glob_match("a[b", "a[b"));
    CHECK(!trace_glob_match("a[b", "ab"));
    CHECK(trace_glob_match("fabric.switch.port[?]", "fabric.switch.port[3]"));
}

int main(void)
{
    RUN(test_plain);
    RUN(test_star_question);
    RUN(test_brackets);
    return harness_report();
}
