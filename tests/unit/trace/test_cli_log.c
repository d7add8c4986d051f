/* Command-line log options: both option forms, repeated and comma-separated
 * --log-ports, format names, and the errors for missing values and for options that
 * need --log-dir. */
#include <string.h>

#include "tests/unit/harness.h"
#include "tools/mgtlm/cli_log.h"

/* Parses argv (NULL-terminated) as a subcommand would; returns the first error. */
static bool parse(CliLog *l, char **argv, SimError *err)
{
    int argc = 0;
    while (argv[argc]) {
        argc++;
    }
    for (int i = 1; i < argc; i++) {
        bool used;
        if (!cli_log_parse(l, argc, argv, &i, &used, err)) {
            return false;
        }
        CHECK(used);
    }
    return cli_log_check(l, err);
}

static void test_forms(void)
{
    CliLog l;
    SimError err;
    cli_log_init(&l);
    char *argv[] = {"run",
                    "--log-dir",
                    "out",
                    "--log-ports",
                    "gpu0.*,tb.*",
                    "--log-ports=fabric.*",
                    "--log-format=vcd",
                    NULL};
    CHECK(parse(&l, argv, &err));
    CHECK_STR(l.dir, "out");
    CHECK(l.format == TRACE_VCD);
    CHECK_EQ_U64(l.nglobs, 3);
    if (l.nglobs == 3) {
        CHECK_STR(l.globs[0], "gpu0.*");
        CHECK_STR(l.globs[1], "tb.*");
        CHECK_STR(l.globs[2], "fabric.*");
    }
    cli_log_free(&l);
    CHECK(l.dir == NULL && l.nglobs == 0 && l.format == TRACE_JSONL);
}

static void test_not_mine(void)
{
    CliLog l;
    SimError err;
    cli_log_init(&l);
    char *argv[] = {"run", "--log-dirx", "--until", "--log", NULL};
    for (int i = 1; i < 4; i++) {
        bool used = true;
        CHECK(cli_log_parse(&l, 4, argv, &i, &used, &err));
        CHECK(!used);
    }
    CHECK(cli_log_check(&l, &err));
    cli_log_free(&l);
}

static void expect_error(char **argv, const char *want)
{
    CliLog l;
    SimError err = {""};
    cli_log_init(&l);
    CHECK(!parse(&l, argv, &err));
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, want);
        CHECK(false);
    }
    cli_log_free(&l);
}

static void test_errors(void)
{
    expect_error((char *[]){"run", "--log-dir", NULL}, "--log-dir needs a value");
    expect_error(
        (char *[]){"run", "--log-format", "xml", NULL},
        "--log-format xml: expected jsonl, binary, perfetto, perfetto-gz or vcd");
    expect_error((char *[]){"run", "--log-ports", "a,,b", "--log-dir", "d", NULL},
                 "--log-ports a,,b: empty pattern");
    expect_error((char *[]){"run", "--log-ports", "tb.*", NULL},
                 "--log-ports needs --log-dir");
    expect_error((char *[]){"run", "--log-format", "vcd", NULL},
                 "--log-format needs --log-dir");
    expect_error((char *[]){"run", "--log-dir=", NULL}, "empty directory name");
}

int main(void)
{
    RUN(test_forms);
    RUN(test_not_mine);
    RUN(test_errors);
    return harness_report();
}
