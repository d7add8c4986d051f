/* The subcommands' option parser (tools/mgtlm/cli_opt.c): the four ways of giving a
 * value, operands mixed with options (also under POSIXLY_CORRECT), "--", unambiguous
 * prefixes, a second parse in one process, the one-line errors (a value option given
 * twice among them, in each of its forms, while a repeatable one and a flag may be
 * given twice), and a help text naming every option. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/harness.h"
#include "tools/mgtlm/cli_opt.h"

enum { OPT_STATS_CSV = CLI_LONG_ONLY, OPT_DRY };

static const CliOpt opts[] = {
    {'s', "set", "inst.param=value", "set a parameter (repeatable)", true},
    {'w', "workload", "FILE", "a workload", false},
    {'o', "stats", "FILE", "stats as JSON", false},
    {OPT_STATS_CSV, "stats-csv", "FILE", "stats as CSV", false},
    {OPT_DRY, "dry", NULL, "a long-only flag", false},
    {'q', "quiet", NULL, "a short flag", false},
    CLI_OPT_HELP,
};
static const CliSpec spec = {"mgtlm x", "PLATFORM [options]", "About x.", opts,
                             sizeof opts / sizeof opts[0]};

typedef struct Seen {
    int ids[16];
    const char *vals[16];
    int n;
    int last; /* CLI_END, CLI_ERROR or CLI_HELP */
    char **operands;
    int noperands;
    SimError err;
} Seen;

static void parse(char **argv, Seen *s)
{
    int argc = 0;
    while (argv[argc]) {
        argc++;
    }
    CliParse cp;
    const char *val;
    memset(s, 0, sizeof *s);
    cli_parse_init(&cp, &spec, argc, argv);
    while ((s->last = cli_parse_next(&cp, &val, &s->err)) > 0 && s->n < 16) {
        s->ids[s->n] = s->last;
        s->vals[s->n++] = val;
    }
    s->operands = cli_parse_operands(&cp, &s->noperands);
}

static void test_value_forms(void)
{
    Seen s;
    parse((char *[]){"x", "--set=a=1", "--set", "b=2", "-s", "c=3", "-sd=4", "--dry",
                     "-q", NULL},
          &s);
    CHECK(s.last == CLI_END);
    CHECK_EQ_U64(s.n, 6);
    const char *want[] = {"a=1", "b=2", "c=3", "d=4"};
    for (int i = 0; i < 4 && i < s.n; i++) {
        CHECK(s.ids[i] == 's');
        CHECK_STR(s.vals[i], want[i]);
    }
    CHECK(s.n == 6 && s.ids[4] == OPT_DRY && s.vals[4] == NULL);
    CHECK(s.n == 6 && s.ids[5] == 'q');
    CHECK_EQ_U64(s.noperands, 0);
}

static void test_operands(void)
{
    Seen s;
    parse((char *[]){"x", "p.json", "--work", "w.json", "more", "--", "-q", NULL}, &s);
    CHECK(s.last == CLI_END);
    CHECK(s.n == 1 && s.ids[0] == 'w');
    CHECK_STR(s.vals[0], "w.json");
    CHECK_EQ_U64(s.noperands, 3);
    if (s.noperands == 3) {
        CHECK_STR(s.operands[0], "p.json");
        CHECK_STR(s.operands[1], "more");
        CHECK_STR(s.operands[2], "-q");
    }
    /* a second parse in the same process starts from its own first argument */
    parse((char *[]){"x", "-o", "s.json", "q.json", NULL}, &s);
    CHECK(s.last == CLI_END && s.n == 1 && s.ids[0] == 'o');
    CHECK(s.noperands == 1 && strcmp(s.operands[0], "q.json") == 0);
}

/* POSIXLY_CORRECT would make getopt stop at the first operand; options after it must
 * still be options. */
static void test_posixly_correct(void)
{
    Seen s;
    setenv("POSIXLY_CORRECT", "1", 1);
    parse((char *[]){"x", "p.json", "-q", "--set", "a=1", NULL}, &s);
    unsetenv("POSIXLY_CORRECT");
    CHECK(s.last == CLI_END);
    CHECK(s.n == 2 && s.ids[0] == 'q' && s.ids[1] == 's');
    CHECK(s.noperands == 1 && strcmp(s.operands[0], "p.json") == 0);
}

static void expect_error(char **argv, const char *want)
{
    Seen s;
    parse(argv, &s);
    CHECK(s.last == CLI_ERROR);
    CHECK_STR(s.err.msg, want);
}

static void test_errors(void)
{
    expect_error((char *[]){"x", "p", "--dumps", NULL},
                 "mgtlm x: unknown option '--dumps' (try --help)");
    expect_error((char *[]){"x", "-z", NULL},
                 "mgtlm x: unknown option '-z' (try --help)");
    expect_error((char *[]){"x", "--stat", "f", NULL},
                 "mgtlm x: unknown option '--stat' (try --help)");
    expect_error((char *[]){"x", "p", "--set", NULL},
                 "mgtlm x: --set needs inst.param=value");
    expect_error((char *[]){"x", "-w", NULL}, "mgtlm x: --workload needs FILE");
    expect_error((char *[]){"x", "--stats-csv", NULL}, "mgtlm x: --stats-csv needs FILE");
    expect_error((char *[]){"x", "--quiet=1", NULL}, "mgtlm x: --quiet takes no value");
    expect_error((char *[]){"x", "--dry=yes", NULL}, "mgtlm x: --dry takes no value");
    expect_error((char *[]){"x", "-o", "a.json", "--stats", "b.json", NULL},
                 "mgtlm x: --stats given twice (it takes one value)");
    expect_error((char *[]){"x", "--work=a", "p", "-wb", NULL},
                 "mgtlm x: --workload given twice (it takes one value)");
    expect_error((char *[]){"x", "--stats-csv", "a", "--stats-c=b", NULL},
                 "mgtlm x: --stats-csv given twice (it takes one value)");
    Seen s;
    parse((char *[]){"x", "-q", "--quiet", "--dry", "--dry", "-o", "a", "--stats-csv",
                     "b", "-sa=1", "-sa=2", NULL},
          &s);
    CHECK(s.last == CLI_END && s.n == 8);
}

/* The help names every option, long and short, with its placeholder and help line. */
static void test_usage(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL);
    if (!f) {
        return;
    }
    cli_usage(f, &spec);
    fclose(f);
    const char *head = "usage: mgtlm x PLATFORM [options]\nAbout x.\n";
    CHECK(strncmp(text, head, strlen(head)) == 0);
    CHECK(strstr(text, "  -s, --set inst.param=value\n") != NULL);
    CHECK(strstr(text, "  -w, --workload FILE       a workload\n") != NULL);
    CHECK(strstr(text, "      --stats-csv FILE      stats as CSV\n") != NULL);
    CHECK(strstr(text, "      --dry                 a long-only flag\n") != NULL);
    CHECK(strstr(text, "  -h, --help                print this help and exit\n") != NULL);
    free(text);
}

static void test_help(void)
{
    Seen s;
    fflush(stdout);
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    parse((char *[]){"x", "-q", "--help", "p", NULL}, &s);
    fclose(stdout);
    stdout = saved;
    CHECK(s.last == CLI_HELP);
    CHECK(s.n == 1 && s.ids[0] == 'q');
}

int main(void)
{
    RUN(test_value_forms);
    RUN(test_operands);
    RUN(test_posixly_correct);
    RUN(test_errors);
    RUN(test_usage);
    RUN(test_help);
    return harness_report();
}
