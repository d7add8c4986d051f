/* `mgtlm run PLATFORM [options]`: load and build a platform, run it until it is idle
 * (or --until), write logs and stats, print a summary. Exit 0, 1 on a model error
 * (a nonzero counter its stat table marks is_error, e.g. data_errors: a read that
 * returned wrong data), 2 on bad input.
 * On a terminal, a progress line (simulated time, events/s) is refreshed on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_log.h"
#include "cli_opt.h"
#include "cli_set.h"
#include "commands.h"
#include "kernel/platform/platform.h"
#include "kernel/units.h"
#include "summary.h"
#include "workload.h"

#define RUN_SLICE (10 * SIM_US)

typedef struct RunArgs {
    const char *platform;
    const char *workload;
    CliLog log;
    const char *stats;
    const char *stats_csv;
    const char *until_arg;
    bool quiet;
    json_t *sets;
} RunArgs;

enum { RUN_STATS_CSV = CLI_LONG_ONLY };

static const CliOpt run_opts[] = {
    {'w', "workload", "FILE", "apply a workload file's sets and time limit"},
    {'u', "until", "TIME", "stop at this simulated time (e.g. 10us)"},
    {'s', "set", "inst.param=value", "set a parameter (repeatable; globs allowed)"},
    {'o', "stats", "FILE", "write the stats as JSON into FILE"},
    {RUN_STATS_CSV, "stats-csv", "FILE", "write the stats as CSV into FILE"},
    CLI_LOG_OPTS,
    {'q', "quiet", NULL, "print no summary and no progress line"},
    CLI_OPT_HELP,
};

static const CliSpec run_spec = {
    "mgtlm run", "PLATFORM [options]",
    "Runs PLATFORM until it is idle (or --until) and prints a summary. Sets apply in\n"
    "the order platform, workload, command line.",
    run_opts, sizeof run_opts / sizeof run_opts[0]};

static double run_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fills a from argv; on a usage error prints one line and returns false, on --help
 * sets *help and returns false. */
static bool run_parse_args(int argc, char **argv, RunArgs *a, json_t *cli_sets,
                           bool *help)
{
    CliParse cp;
    SimError err;
    const char *val;
    int id = CLI_END;
    bool ok = true;
    cli_parse_init(&cp, &run_spec, argc, argv);
    while (ok && (id = cli_parse_next(&cp, &val, &err)) > 0) {
        switch (id) {
        case 'w':
            a->workload = val;
            break;
        case 'u':
            a->until_arg = val;
            break;
        case 's':
            ok = cli_set_add(cli_sets, val, &err);
            break;
        case 'o':
            a->stats = val;
            break;
        case RUN_STATS_CSV:
            a->stats_csv = val;
            break;
        case 'q':
            a->quiet = true;
            break;
        default:
            ok = cli_log_option(&a->log, id, val, &err);
        }
    }
    int n;
    char **operands = cli_parse_operands(&cp, &n);
    *help = id == CLI_HELP;
    if (ok && id == CLI_END) {
        if (n > 1) {
            ok = sim_error_set(&err, "unexpected argument '%s'", operands[1]);
        } else if (n == 0) {
            ok = sim_error_set(&err, "no platform given (try --help)");
        } else {
            a->platform = operands[0];
            ok = cli_log_check(&a->log, &err);
        }
    }
    if (id == CLI_ERROR) {
        fprintf(stderr, "%s\n", err.msg);
    } else if (!ok) {
        fprintf(stderr, "mgtlm run: %s\n", err.msg);
    }
    return ok && id == CLI_END;
}

/* Runs to `until` in slices, refreshing a progress line on a terminal. */
static void run_loop(Sim *sim, SimTime until, bool progress)
{
    double start = run_wall_seconds(), last = start;
    for (;;) {
        SimTime next = sim_next_time(sim);
        if (next == SIM_TIME_MAX || next > until) {
            break;
        }
        SimTime slice_end = next > until - RUN_SLICE ? until : next + RUN_SLICE;
        sim_run(sim, slice_end);
        double now = run_wall_seconds();
        if (progress && now - last > 0.5) {
            last = now;
            fprintf(stderr, "\r  t = %.3f us, %llu events, %.2f M events/s   ",
                    (double)sim_now(sim) / (double)SIM_US,
                    (unsigned long long)sim_events_executed(sim),
                    (double)sim_events_executed(sim) / (now - start) / 1e6);
        }
    }
    if (progress && last != start) {
        fputc('\n', stderr);
    }
}

static int run_simulation(const RunArgs *a, PlatformDesc *desc, SimTime until)
{
    SimError err;
    const char *name = desc->name ? desc->name : a->platform;
    char *pname = strdup(name);
    uint32_t gpus = desc->info.gpus;
    Sim *sim = sim_new();
    Platform *p = platform_build(desc, sim, &err);
    if (!p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        free(pname);
        return 2;
    }
    TraceLog *log = NULL;
    if (!cli_log_open(&a->log, p, NULL, &log, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        platform_free(p);
        sim_free(sim);
        free(pname);
        return 2;
    }
    int status = 0;
    double t0 = run_wall_seconds();
    platform_reset(p);
    run_loop(sim, until, !a->quiet && isatty(2));
    double wall = run_wall_seconds() - t0;
    platform_finish_stats(p);
    if (!cli_log_close(log, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    if (a->stats && !stats_write_json(p->stats, a->stats, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    if (a->stats_csv && !stats_write_csv(p->stats, a->stats_csv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    if (!a->quiet) {
        uint64_t events = sim_events_executed(sim);
        printf("mgtlm run: %s, %u GPUs, %zu instances\n", pname, gpus, p->nblocks);
        printf("  simulated %.3f us, %llu events, %.3f s host (%.2f M events/s)\n",
               (double)sim_now(sim) / (double)SIM_US, (unsigned long long)events, wall,
               wall > 0 ? (double)events / wall / 1e6 : 0.0);
        summary_print(stdout, p);
    }
    if (summary_report_errors(stderr, p) > 0 && status == 0) {
        status = 1;
    }
    platform_free(p);
    sim_free(sim);
    free(pname);
    return status;
}

int cmd_run(Registry *r, int argc, char **argv)
{
    RunArgs a = {0};
    cli_log_init(&a.log);
    json_t *cli_sets = json_object();
    json_t *sets = json_object();
    int status = 2;
    SimError err;
    PlatformDesc desc;
    bool help;
    if (!run_parse_args(argc, argv, &a, cli_sets, &help)) {
        status = help ? 0 : 2;
        goto out;
    }
    SimTime until = SIM_TIME_MAX;
    bool has_until = false;
    if (a.workload && !workload_load(a.workload, sets, &until, &has_until, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (a.until_arg && !units_parse_time(a.until_arg, 0, &until, &err)) {
        fprintf(stderr, "mgtlm run: --until %s: %s\n", a.until_arg, err.msg);
        goto out;
    }
    const PlatformLoadArgs load = {.registry = r,
                                   .path = a.platform,
                                   .sets = sets,
                                   .sets_file = a.workload,
                                   .sets_pointer = "/set",
                                   .cli_sets = cli_sets};
    if (!platform_load_args(&load, &desc, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    status = run_simulation(&a, &desc, until);
out:
    cli_log_free(&a.log);
    json_decref(cli_sets);
    json_decref(sets);
    return status;
}
