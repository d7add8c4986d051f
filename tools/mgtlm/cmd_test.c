/* `mgtlm test TB.json... [--log-dir D] [--log-ports GLOB]... [--log-format F]
 * [--threads N] [--mpi]`:
 * runs directed testbenches and compares them with their golden vectors.
 * stdout: "PASS <name>" or "FAIL <name>" (with reasons and the first differing
 * records) per testbench, then "<n> passed, <m> failed".
 * A testbench with bad input prints a one-line error (file and JSON path or line) on
 * stderr and "FAIL <file> (bad input)" on stdout, and counts as failed.
 * Exit status: 0 all passed, 2 if any input was bad, else 1 if any failed.
 * With --log-dir D each testbench logs into D/<file name without .json>; two
 * testbenches with the same file name in one invocation are refused. --threads N runs
 * the partitions of a platform of several on N threads (docs/parallel.md); --mpi,
 * under mpirun, on its ranks: rank 0 alone prints and writes logs (the others' stdout
 * goes to /dev/null, and every rank exits with rank 0's status); without MPI in the build
 * --mpi is a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_log.h"
#include "cli_opt.h"
#include "cli_threads.h"
#include "commands.h"
#include "testbench.h"

#ifdef MGTLM_MPI
#include <mpi.h>
#endif

enum { TEST_MPI = CLI_LONG_ONLY };

static const CliOpt test_opts[] = {
    CLI_LOG_OPTS,
    CLI_THREADS_OPT,
    {TEST_MPI, "mpi", NULL, "run on the ranks of mpirun (a build with MPI)", false},
    CLI_OPT_HELP,
};

static const CliSpec test_spec = {
    "mgtlm test", "TB.json... [options]",
    "Runs directed testbenches and compares them with their golden vectors. With\n"
    "--log-dir D, each testbench logs into D/<file name without .json>.",
    test_opts, sizeof test_opts / sizeof test_opts[0]};

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

/* Reads the command line; returns CLI_END with the testbench files in *files and
 * *nfiles, CLI_HELP after printing the help, CLI_ERROR with err set. */
static int test_parse(int argc, char **argv, CliLog *log, unsigned *threads, bool *mpi,
                      char ***files, int *nfiles, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &test_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        if (id == TEST_MPI) {
            *mpi = true;
#ifndef MGTLM_MPI
            sim_error_set(err, "mgtlm test: --mpi: this mgtlm was built without MPI "
                               "(install libopenmpi-dev and reconfigure)");
            return CLI_ERROR;
#endif
            continue;
        }
        bool ok = id == CLI_THREADS ? cli_threads_parse(val, threads, err)
                                    : cli_log_option(log, id, val, err);
        if (!ok) {
            if (id == CLI_THREADS) {
                sim_error_prefix(err, "mgtlm test");
            }
            return CLI_ERROR;
        }
    }
    *files = cli_parse_operands(&cp, nfiles);
    if (id != CLI_END) {
        return id;
    }
    if (*nfiles == 0) {
        sim_error_set(err, "mgtlm test: no testbench given (try --help)");
        return CLI_ERROR;
    }
    return cli_log_check(log, err) ? CLI_END : CLI_ERROR;
}

static bool test_stems_unique(char **files, int n, char **stems, SimError *err)
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

static int test_all(const Registry *r, char **files, int n, const CliLog *log,
                    unsigned threads, bool mpi, char **stems)
{
    int passed = 0, failed = 0, status = 0;
    for (int i = 0; i < n; i++) {
        SimError err;
        TbStatus s = testbench_run_threads(r, files[i], log->dir ? log : NULL, stems[i],
                                           threads, mpi, stdout, &err);
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
    CliLog log;
    cli_log_init(&log);
    char **files = NULL;
    char **stems = calloc((size_t)argc + 1, sizeof *stems);
    int nfiles = 0, status = 2;
    SimError err;
    unsigned threads = 1;
    bool mpi = false;
    int parsed = test_parse(argc, argv, &log, &threads, &mpi, &files, &nfiles, &err);
    if (parsed == CLI_HELP) {
        status = 0;
    } else if (!stems) {
        fprintf(stderr, "mgtlm test: out of memory\n");
    } else if (parsed != CLI_END ||
               (log.dir && !test_stems_unique(files, nfiles, stems, &err))) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
#ifdef MGTLM_MPI
        int rank = 0;
        if (mpi) {
            MPI_Init(NULL, NULL);
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        }
        if (rank != 0 && !freopen("/dev/null", "w", stdout)) {
            fprintf(stderr, "mgtlm test: cannot discard the output of rank %d\n", rank);
        }
#endif
        status = test_all(r, files, nfiles, &log, threads, mpi, stems);
#ifdef MGTLM_MPI
        if (mpi) {
            MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
            MPI_Finalize();
        }
#endif
    }
    for (int i = 0; stems && i < nfiles; i++) {
        free(stems[i]);
    }
    free(stems);
    cli_log_free(&log);
    return status;
}
