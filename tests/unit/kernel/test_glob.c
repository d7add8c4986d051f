/* The one glob dialect (kernel/glob.h) on instance and port names: '*', '?', literal
 * brackets of array names, classes; the `set` keys of shipped files included. */
#include "kernel/glob.h"
#include "tests/unit/harness.h"

static void test_plain(void)
{
    CHECK(glob_match("gpu0.mem.in", "gpu0.mem.in"));
    CHECK(!glob_match("gpu0.mem.in", "gpu0.mem.inx"));
    CHECK(!glob_match("gpu0.mem.in", "gpu0.mem.i"));
    CHECK(glob_match("", ""));
    CHECK(!glob_match("", "a"));
}

static void test_star_question(void)
{
    CHECK(glob_match("*", ""));
    CHECK(glob_match("*", "gpu0.mem.in"));
    CHECK(glob_match("gpu0.mem.*", "gpu0.mem.in"));
    CHECK(!glob_match("gpu0.mem.*", "gpu1.mem.in"));
    CHECK(glob_match("gpu*.mem.in", "gpu12.mem.in"));
    CHECK(glob_match("*.in", "gpu0.xbar.in"));
    CHECK(glob_match("g*u*.*", "gpu0.x"));
    CHECK(!glob_match("*.out", "gpu0.mem.in"));
    CHECK(glob_match("gpu?.mem.in", "gpu3.mem.in"));
    CHECK(!glob_match("gpu?.mem.in", "gpu10.mem.in"));
    CHECK(glob_match("**a", "bba"));
}

static void test_brackets(void)
{
    CHECK(glob_match("gpu0.xbar.cu[1]", "gpu0.xbar.cu[1]"));
    CHECK(!glob_match("gpu0.xbar.cu[1]", "gpu0.xbar.cu[2]"));
    CHECK(glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.cu[12]"));
    CHECK(glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.cu[0]"));
    CHECK(!glob_match("gpu0.xbar.cu[*]", "gpu0.xbar.mem"));
    CHECK(glob_match("gpu[0-3].mem.in", "gpu2.mem.in"));
    CHECK(!glob_match("gpu[0-3].mem.in", "gpu4.mem.in"));
    CHECK(glob_match("gpu[!0].mem.in", "gpu5.mem.in"));
    CHECK(!glob_match("gpu[!0].mem.in", "gpu0.mem.in"));
    CHECK(glob_match("gpu[^0].mem.in", "gpu7.mem.in"));
    CHECK(glob_match("sw[13]", "sw3"));
    CHECK(glob_match("sw[13]", "sw[13]"));
    CHECK(!glob_match("sw[13]", "sw2"));
    /* an unclosed '[' is an ordinary character */
    CHECK(glob_match("a[b", "a[b"));
    CHECK(!glob_match("a[b", "ab"));
    CHECK(glob_match("fabric.switch.port[?]", "fabric.switch.port[3]"));
}

/* Instance names, as `set` keys use them (platform-format.md). The bracket rule is
 * the one of port names: "gpu[0].x" also matches "gpu0.x" (a `set` glob took it
 * literally before the dialects were merged; no shipped file relied on that). */
static void test_instances(void)
{
    CHECK(glob_match("gpu*.cu[*]", "gpu0.cu[3]"));
    CHECK(glob_match("gpu*.cu[*]", "gpu12.cu[10]"));
    CHECK(!glob_match("gpu*.cu[*]", "gpu0.cu"));
    CHECK(!glob_match("gpu?.mem", "gpu10.mem"));
    CHECK(glob_match("gpu?.mem", "gpu1.mem"));
    CHECK(glob_match("*", "fabric.sw[0]"));
    CHECK(glob_match("a*b*c", "axxbyybc"));
    CHECK(!glob_match("a*b*c", "axxbyybd"));
    CHECK(glob_match("gpu1*", "gpu1"));
    CHECK(glob_match("gpu[0].x", "gpu[0].x"));
    CHECK(glob_match("gpu[0].x", "gpu0.x"));
    CHECK(glob_match("gpu0.cu[1]", "gpu0.cu[1]"));
    CHECK(!glob_match("gpu0.cu[1]", "gpu0.cu[2]"));
    CHECK(glob_match("gpu?.cu[0]", "gpu3.cu[0]"));
    CHECK(!glob_match("", "x"));
}

int main(void)
{
    RUN(test_plain);
    RUN(test_star_question);
    RUN(test_brackets);
    RUN(test_instances);
    return harness_report();
}
