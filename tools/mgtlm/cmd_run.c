/* `mgtlm run PLATFORM [options]`: load and build a platform, run it until it is idle
 * (or --until, or a SIGINT/SIGTERM), write logs and stats, print a summary.
 * Exit 0; 1 on a model error (a nonzero counter its stat table marks is_error, e.g.
 * data_errors: a read that returned wrong data); 2 on bad input; 128 + the signal
 * (130 SIGINT, 143 SIGTERM) for a run a signal ended, after its stats and logs were
 * written as at a normal end. SIGUSR1 writes the stats files (or, without any, prints
 * the summary) and the run goes on. A progress line goes to stderr (run_progress.h)
 * unless --quiet. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_log.h"
#include "cli_set.h"
#include "commands.h"
#include "kernel/platform/platform.h"
#include "kernel/units.h"
#include "run_progress.h"
#include "run_signal.h"
#include "run_stats.h"
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
    const char *progress_arg;
    bool quiet;
    bool all;
} RunArgs;

static void run_usage(FILE *f)
{
    fprintf(
        f,
        "usage: mgtlm run PLATFORM [--workload W] [--until T] [--set inst.param=v]...\n"
        "                [--log-dir D] [--log-ports GLOB]... [--log-format "
        "jsonl|perfetto|vcd]\n"
        "                [--stats F.json] [--stats-csv F.csv] [--quiet] [--all]\n"
        "                [--progress SECONDS]\n"
        "  --all        the summary also lists the statistics that stayed zero\n"
        "  --progress S a progress line every S host seconds (default 0.5 on a "
        "terminal,\n"
        "               10 otherwise; 0 = none)\n");
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
        } else if (strcmp(arg, "--all") == 0) {
            a->all = true;
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
        } else if (strcmp(arg, "--progress") == 0) {
            a->progress_arg = val;
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

/* The progress interval in host seconds: --progress, else by where stderr goes. */
static bool run_progress_interval(const RunArgs *a, double *interval)
{
    if (a->quiet) {
        *interval = 0;
        return true;
    }
    if (!a->progress_arg) {
        *interval = isatty(2) ? 0.5 : 10.0;
        return true;
    }
    char *end;
    *interval = strtod(a->progress_arg, &end);
    if (end == a->progress_arg || *end || !(*interval >= 0 && *interval <= 1e6)) {
        fprintf(stderr, "mgtlm run: --progress %s: expected seconds from 0 to 1e6\n",
                a->progress_arg);
        return false;
    }
    return true;
}

/* SIGUSR1: the stats files now, or the summary without any; the run goes on. */
static void run_dump_now(const RunArgs *a, Platform *p, RunMeta *m, double t0)
{
    platform_finish_stats(p);
    m->stop = "running";
    m->wall_s = run_progress_clock() - t0;
    SimError err;
    if (!a->stats && !a->stats_csv) {
        summary_print(stdout, p, sim_now(p->sim), a->all);
        fflush(stdout);
    } else if (!run_stats_write(p, m, a->stats, a->stats_csv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        fprintf(stderr, "mgtlm run: stats written at t = %.3f us\n",
                (double)sim_now(p->sim) / (double)SIM_US);
    }
}

/* Runs in slices until idle, the limit or a stopping signal; sets m->stop and
 * m->signal and answers SIGUSR1 on the way. */
static void run_loop(const RunArgs *a, Platform *p, RunMeta *m, RunProgress *pr)
{
    Sim *sim = p->sim;
    SimTime until = m->until;
    for (;;) {
        SimTime next = sim_next_time(sim);
        if (next == SIM_TIME_MAX || next > until) {
            m->stop = next == SIM_TIME_MAX ? "idle" : "until";
            break;
        }
        SimTime slice_end = until - next <= RUN_SLICE ? until : next + RUN_SLICE;
        sim_run(sim, slice_end);
        if (run_signal_flag) {
            int stop;
            bool dump;
            run_signal_take(&stop, &dump);
            if (stop) {
                m->stop = "signal";
                m->signal = stop;
                break;
            }
            if (dump) {
                run_dump_now(a, p, m, pr->start);
            }
        }
        run_progress_tick(pr, sim, run_progress_clock());
    }
    run_progress_end(pr);
}

static int run_simulation(const RunArgs *a, PlatformDesc *desc, RunMeta *m,
                          double interval)
{
    SimError err;
    char *pname = strdup(desc->name ? desc->name : a->platform);
    m->platform_name = pname;
    m->gpus = desc->info.gpus;
    m->seed = desc->info.seed;
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
    RunProgress pr;
    run_progress_init(&pr, stderr, interval, isatty(2), m->until, run_progress_clock());
    sim_watch(sim, &run_signal_flag);
    run_signal_install();
    platform_reset(p);
    run_loop(a, p, m, &pr);
    m->wall_s = run_progress_clock() - pr.start;
    platform_finish_stats(p);
    if (!cli_log_close(log, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    if (!run_stats_write(p, m, a->stats, a->stats_csv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    run_signal_restore();
    sim_watch(sim, NULL);
    if (!a->quiet) {
        uint64_t events = sim_events_executed(sim);
        printf("mgtlm run: %s, %u GPUs, %zu instances, stopped: %s%s%s\n", pname, m->gpus,
               p->nblocks, m->stop, m->signal ? " " : "",
               m->signal ? run_signal_name(m->signal) : "");
        printf("  %llu events, %.3f s host (%.2f M events/s)\n",
               (unsigned long long)events, m->wall_s,
               m->wall_s > 0 ? (double)events / m->wall_s / 1e6 : 0.0);
        summary_print(stdout, p, sim_now(sim), a->all);
    }
    if (summary_report_errors(stderr, p) > 0 && status == 0) {
        status = 1;
    }
    if (m->signal && status != 2) {
        status = 128 + m->signal;
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
    json_t *workload_sets = NULL;
    int status = 2;
    SimError err;
    PlatformDesc desc;
    double interval;
    if (!run_parse_args(argc, argv, &a, cli_sets) ||
        !run_progress_interval(&a, &interval)) {
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
    workload_sets = json_deep_copy(sets);
    json_object_update(sets, cli_sets);
    if (!platform_load(r, a.platform, sets, &desc, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    RunMeta m = {.platform_file = a.platform,
                 .workload = a.workload,
                 .workload_sets = workload_sets,
                 .cli_sets = cli_sets,
                 .until = until};
    status = run_simulation(&a, &desc, &m, interval);
out:
    cli_log_free(&a.log);
    json_decref(cli_sets);
    json_decref(sets);
    json_decref(workload_sets);
    return status;
}
