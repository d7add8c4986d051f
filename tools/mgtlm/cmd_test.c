/* `mgtlm test TB.json... [--log-dir D] [--log-ports GLOB]... [--log-format F]`:
 * runs directed testbenches and compares them with their golden vectors.
 * stdout: "PASS <name>" or "FAIL <name>" (with reasons and the first differing
 * records) per testbench, then "<n> passed, <m> failed".
 * A testbench with bad input prints a one-line error (file and JSON path or line) on
 * stderr and "FAIL <file> (bad input)" on stdout, and counts as failed.
 * Exit status: 0 all passed, 2 if any input was bad, else 1 if any failed.
 * With --log-dir D each testbench logs into D/<file name without .json>; two
 * testbenches with the same file name in one invocation are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_log.h"
#include "commands.h"
#include "testbench.h"

static void test_usage(FILE *f)
{
    fprintf(f,
            "usage: mgtlm test TB.json... [--log-dir D] [--log-ports GLOB]...\n"
            "                  [--log-format jsonl|binary|perfetto|perfetto-gz|vcd]\n");
}

/* The file name of path without directories and without ".json" (new string). */
static char *test_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) {
        len -= 5;
    }
    return strndup(base, len);
}

static bool test_parse(int argc, char **argv, CliLog *log, const char **files,
                       int *nfiles, SimError *err)
{
    for (int i = 1; i < argc; i++) {
        bool used;
        if (!cli_log_parse(log, argc, argv, &i, &used, err)) {
            return false;
        }
        if (used) {
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return sim_error_set(err, "mgtlm test: unknown option '%s' (try --help)",
                                 argv[i]);
        }
        files[(*nfiles)++] = argv[i];
    }
    if (*nfiles == 0) {
        return sim_error_set(err, "mgtlm test: no testbench given (try --help)");
    }
    return cli_log_check(log, err);
}

static bool test_stems_unique(const char **files, int n, char **stems, SimError *err)
{
    for (int i = 0; i < n; i++) {
        stems[i] = test_stem(files[i]);
        if (!stems[i]) {
            return sim_error_set(err, "mgtlm test: out of memory");
        }
        for (int j = 0; j < i; j++) {
            if (strcmp(stems[i], stems[j]) == 0) {
                return sim_error_set(err,
                                     "mgtlm test: %s and %s would log into the same"
                                     " directory '%s'",
                                     files[j], files[i], stems[i]);
            }
        }
    }
    return true;
}

static int test_all(const Registry *r, const char **files, int n, const CliLog *log,
                    char **stems)
{
    int passed = 0, failed = 0, status = 0;
    for (int i = 0; i < n; i++) {
        SimError err;
        TbStatus s =
            testbench_run(r, files[i], log->dir ? log : NULL, stems[i], stdout, &err);
        if (s == TB_BAD_INPUT) {
            fflush(stdout);
            fprintf(stderr, "%s\n", err.msg);
            printf("FAIL %s (bad input)\n", files[i]);
            status = 2;
        } else if (s == TB_FAIL && status == 0) {
            status = 1;
        }
        passed += s == TB_PASS;
        failed += s != TB_PASS;
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return status;
}

int cmd_test(Registry *r, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            test_usage(stdout);
            return 0;
        }
    }
    CliLog log;
    cli_log_init(&log);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    char **stems = calloc((size_t)argc + 1, sizeof *stems);
    int nfiles = 0, status = 2;
    SimError err;
    if (!files || !stems) {
        fprintf(stderr, "mgtlm test: out of memory\n");
    } else if (!test_parse(argc, argv, &log, files, &nfiles, &err) ||
               (log.dir && !test_stems_unique(files, nfiles, stems, &err))) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        status = test_all(r, files, nfiles, &log, stems);
    }
    for (int i = 0; stems && i < nfiles; i++) {
        free(stems[i]);
    }
    free(stems);
    free(files);
    cli_log_free(&log);
    return status;
}
