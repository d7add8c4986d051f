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

static void run_usage(FILE *f)
{
    fprintf(
        f,
        "usage: mgtlm run PLATFORM [--workload W] [--until T] [--set inst.param=v]...\n"
        "                [--log-dir D] [--log-ports GLOB]... [--log-format "
        "jsonl|binary|perfetto|perfetto-gz|vcd]\n"
        "                [--stats F.json] [--stats-csv F.csv] [--quiet]\n");
}

static double run_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fills a from argv; on a usage error prints one line and returns false. */
static bool run_parse_args(int argc, char **argv, RunArgs *a, json_t *cli_sets)
{
    for (int i = 1; i < argc; i++) {
        SimError err;
        bool used;
        if (!cli_log_parse(&a->log, argc, argv, &i, &used, &err)) {
            fprintf(stderr, "mgtlm run: %s\n", err.msg);
            return false;
        }
        if (used) {
            continue;
        }
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        if (strcmp(arg, "--help") == 0) {
            run_usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--quiet") == 0) {
            a->quiet = true;
            takes = false;
        } else if (arg[0] != '-') {
            if (a->platform) {
                fprintf(stderr, "mgtlm run: unexpected argument '%s'\n", arg);
                return false;
            }
            a->platform = arg;
            takes = false;
        } else if (!val) {
            fprintf(stderr, "mgtlm run: %s needs a value\n", arg);
            return false;
        } else if (strcmp(arg, "--workload") == 0) {
            a->workload = val;
        } else if (strcmp(arg, "--until") == 0) {
            a->until_arg = val;
        } else if (strcmp(arg, "--stats") == 0) {
            a->stats = val;
        } else if (strcmp(arg, "--stats-csv") == 0) {
            a->stats_csv = val;
        } else if (strcmp(arg, "--set") == 0) {
            if (!cli_set_add(cli_sets, val, &err)) {
                fprintf(stderr, "mgtlm run: %s\n", err.msg);
                return false;
            }
        } else {
            fprintf(stderr, "mgtlm run: unknown option '%s' (try --help)\n", arg);
            return false;
        }
        if (takes) {
            i++;
        }
    }
    SimError err;
    if (!cli_log_check(&a->log, &err)) {
        fprintf(stderr, "mgtlm run: %s\n", err.msg);
        return false;
    }
    if (!a->platform) {
        run_usage(stderr);
        return false;
    }
    return true;
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
    if (!run_parse_args(argc, argv, &a, cli_sets)) {
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
    json_object_update(sets, cli_sets);
    if (!platform_load(r, a.platform, sets, &desc, &err)) {
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
