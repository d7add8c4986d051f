/* `mgtlm run PLATFORM [options]`: load and build a platform, run it until it is idle
 * (or --until), write logs and stats, print a summary. Exit 0, 1 on a model error
 * (a nonzero "*errors" counter, e.g. a read that returned wrong data), 2 on bad input.
 * On a terminal, a progress line (simulated time, events/s) is refreshed on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_set.h"
#include "commands.h"
#include "kernel/platform.h"
#include "kernel/trace.h"
#include "kernel/units.h"
#include "summary.h"
#include "workload.h"

#define RUN_MAX_GLOBS 64
#define RUN_SLICE (10 * SIM_US)

typedef struct RunArgs {
    const char *platform;
    const char *workload;
    const char *log_dir;
    const char *log_globs[RUN_MAX_GLOBS];
    size_t nglobs;
    TraceFormat log_format;
    const char *stats;
    const char *stats_csv;
    const char *until_arg;
    bool quiet;
    json_t *sets;
} RunArgs;

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: mgtlm run PLATFORM [--workload W] [--until T] [--set inst.param=v]...\n"
            "                [--log-dir D] [--log-ports GLOB]... [--log-format "
            "jsonl|perfetto|vcd]\n"
            "                [--stats F.json] [--stats-csv F.csv] [--quiet]\n");
}

static double run_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool run_parse_format(const char *s, TraceFormat *out)
{
    static const struct {
        const char *name;
        TraceFormat fmt;
    } formats[] = {{"jsonl", TRACE_JSONL}, {"perfetto", TRACE_PERFETTO}, {"vcd", TRACE_VCD}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(s, formats[i].name) == 0) {
            *out = formats[i].fmt;
            return true;
        }
    }
    return false;
}

/* Fills a from argv; on a usage error prints one line and returns false. */
static bool run_parse_args(int argc, char **argv, RunArgs *a, json_t *cli_sets)
{
    for (int i = 1; i < argc; i++) {
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
        } else if (strcmp(arg, "--log-dir") == 0) {
            a->log_dir = val;
        } else if (strcmp(arg, "--log-ports") == 0) {
            if (a->nglobs == RUN_MAX_GLOBS) {
                fprintf(stderr, "mgtlm run: at most %d --log-ports\n", RUN_MAX_GLOBS);
                return false;
            }
            a->log_globs[a->nglobs++] = val;
        } else if (strcmp(arg, "--log-format") == 0) {
            if (!run_parse_format(val, &a->log_format)) {
                fprintf(stderr, "mgtlm run: --log-format %s: expected jsonl, perfetto or vcd\n",
                        val);
                return false;
            }
        } else if (strcmp(arg, "--stats") == 0) {
            a->stats = val;
        } else if (strcmp(arg, "--stats-csv") == 0) {
            a->stats_csv = val;
        } else if (strcmp(arg, "--set") == 0) {
            SimError err;
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
    if (a->log_dir) {
        log = trace_log_open(p, a->log_dir, a->log_format, a->log_globs, a->nglobs, &err);
        if (!log) {
            fprintf(stderr, "%s\n", err.msg);
            platform_free(p);
            sim_free(sim);
            free(pname);
            return 2;
        }
    }
    int status = 0;
    double t0 = run_wall_seconds();
    platform_reset(p);
    run_loop(sim, until, !a->quiet && isatty(2));
    double wall = run_wall_seconds() - t0;
    platform_finish_stats(p);
    if (log && !trace_log_close(log, &err)) {
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

int cmd_run(int argc, char **argv)
{
    RunArgs a = {.log_format = TRACE_JSONL};
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
    if (!platform_load(a.platform, sets, &desc, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    status = run_simulation(&a, &desc, until);
out:
    json_decref(cli_sets);
    json_decref(sets);
    return status;
}
