/* Command-line log options through the getopt table: both option forms, repeated and
 * comma-separated --log-ports, format names, and the errors for missing values and for
 * options that need --log-dir. */
#include <string.h>

#include "tests/unit/harness.h"
#include "tools/mgtlm/cli_log.h"

static const CliOpt log_opts[] = {
    CLI_LOG_OPTS,
    {'q', "quiet", NULL, "a flag that is not a log option", false},
    CLI_OPT_HELP,
};
static const CliSpec log_spec = {"mgtlm run", "[options]", NULL, log_opts,
                                 sizeof log_opts / sizeof log_opts[0]};

/* Parses argv (NULL-terminated) as a subcommand would; returns the first error. */
static bool parse(CliLog *l, char **argv, SimError *err)
{
    int argc = 0;
    while (argv[argc]) {
        argc++;
    }
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &log_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        CHECK(id != 'q');
        if (!cli_log_option(l, id, val, err)) {
            return false;
        }
    }
    return id == CLI_END && cli_log_check(l, err);
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

/* The table entries: one per option, long-only, each taking a value. */
static void test_table(void)
{
    for (size_t i = 0; i < 3; i++) {
        CHECK(log_opts[i].id >= CLI_LONG_ONLY);
        CHECK(log_opts[i].arg != NULL);
        CHECK(strncmp(log_opts[i].name, "log-", 4) == 0);
    }
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
    expect_error((char *[]){"run", "--log-dir", NULL}, "--log-dir needs DIR");
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
    RUN(test_table);
    RUN(test_errors);
    return harness_report();
}
