/* SimError: control characters in a message (from keys, values or file names) are
 * escaped so that it stays one line, by both writers, and escaping an escaped message
 * again (a message embedded in another, or prefixed twice) changes nothing. */
#include "kernel/error.h"
#include "tests/unit/harness.h"

static void test_escape_set(void)
{
    SimError err;
    CHECK(!sim_error_set(&err, "%s: /%s: unknown key", "a\nb.json", "k\te\ry"));
    CHECK_STR(err.msg, "a\\nb.json: /k\\te\\ry: unknown key");
    sim_error_set(&err, "bad \"%s\"", "\x1b[31mred\x7f\x01");
    CHECK_STR(err.msg, "bad \"\\x1b[31mred\\x7f\\x01\"");
    sim_error_set(&err, "%s", "back\\slash, caf\xc3\xa9");
    CHECK_STR(err.msg, "back\\slash, caf\xc3\xa9");
}

static void test_escape_prefix(void)
{
    SimError err;
    sim_error_set(&err, "line\nbreak");
    CHECK(!sim_error_prefix(&err, "dir\n/x.json"));
    CHECK_STR(err.msg, "dir\\n/x.json: line\\nbreak");
    SimError outer;
    sim_error_set(&outer, "%s: %s", "tb.json", err.msg);
    CHECK_STR(outer.msg, "tb.json: dir\\n/x.json: line\\nbreak");
}

static void test_escape_truncates_whole(void)
{
    char big[SIM_ERROR_MAX + 8];
    memset(big, '\n', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    SimError err;
    sim_error_set(&err, "%s", big);
    CHECK_EQ_U64(strlen(err.msg), SIM_ERROR_MAX - 2);
    CHECK(strchr(err.msg, '\n') == NULL);
}

int main(void)
{
    RUN(test_escape_set);
    RUN(test_escape_prefix);
    RUN(test_escape_truncates_whole);
    return harness_report();
}
