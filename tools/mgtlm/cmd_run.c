/* `mgtlm run PLATFORM [options]`: load and build a platform, run it until it is idle
 * (or --until, or a SIGINT/SIGTERM), write logs and stats, print a summary.
 * --trace DIR is the command-line set of the platform value trace (applied with the
 * other command-line sets, in command-line order).
 * Exit 0; 1 on a model error (a nonzero counter its stat table marks is_error, e.g.
 * data_errors: a read that returned wrong data); 2 on bad input; 128 + the signal
 * (130 SIGINT, 143 SIGTERM) for a run a signal ended, after its stats and logs were
 * written as at a normal end. SIGUSR1 writes the stats files (or, without any, prints
 * the summary) and the run goes on. A progress line goes to stderr (run_progress.h)
 * unless --quiet.
 * A platform of several partitions (its partition map, docs/parallel.md) runs on the
 * partitioned engine, its partitions spread over --threads threads; its outputs do
 * not depend on the thread count. With --mpi (under mpirun) the partitions are spread
 * over the MPI ranks instead (kernel/mpi/engine_mpi.h): every rank builds the
 * platform, rank 0 alone writes the stats and the logs (the other ranks send it their
 * records) and prints the summary; without MPI in the build, --mpi is a usage
 * error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef MGTLM_MPI
#include <mpi.h>
#endif

#include "cli_log.h"
#include "cli_opt.h"
#include "cli_set.h"
#include "cli_threads.h"
#include "commands.h"
#include "kernel/mpi/engine_mpi.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"
#include "kernel/units.h"
#include "run_progress.h"
#include "run_signal.h"
#include "run_stats.h"
#include "summary.h"
#include "summary_trace.h"
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
    unsigned threads;
    bool quiet;
    bool all;
    bool mpi;
    const TxnCmdDecl *const *cmds; /* the registry's declared commands */
} RunArgs;

enum { RUN_STATS_CSV = CLI_LONG_ONLY, RUN_ALL, RUN_PROGRESS, RUN_MPI };

static const CliOpt run_opts[] = {
    {'w', "workload", "FILE", "apply a workload file's sets and time limit", false},
    {'t', "trace", "DIR",
     "run the trace in DIR on the platform's cores (--set trace=DIR)", false},
    {'u', "until", "TIME", "stop at this simulated time (e.g. 10us)", false},
    {'s', "set", "inst.param=value", "set a parameter (repeatable; globs allowed)", true},
    {'o', "stats", "FILE", "write the stats as JSON into FILE", false},
    {RUN_STATS_CSV, "stats-csv", "FILE", "write the stats as CSV into FILE", false},
    CLI_LOG_OPTS,
    {'q', "quiet", NULL, "print no summary and no progress line", false},
    {RUN_ALL, "all", NULL, "the summary also lists the statistics that stayed zero",
     false},
    {RUN_PROGRESS, "progress", "SECONDS",
     "a progress line every SECONDS host seconds (0.5 on a terminal, else 10; 0: none)",
     false},
    CLI_THREADS_OPT,
    {RUN_MPI, "mpi", NULL,
     "spread the partitions over the ranks of mpirun (a build with MPI)", false},
    CLI_OPT_HELP,
};

static const CliSpec run_spec = {
    "mgtlm run", "PLATFORM [options]",
    "Runs PLATFORM until it is idle (or --until) and prints a summary. Sets apply in\n"
    "the order platform, workload, command line. With a trace (--trace) the GPUs\n"
    "execute its kernels on the platform's cores instead of the cu generators.",
    run_opts, sizeof run_opts / sizeof run_opts[0]};

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
        case 't':
            ok = cli_set_trace(cli_sets, val, &err);
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
        case RUN_ALL:
            a->all = true;
            break;
        case RUN_PROGRESS:
            a->progress_arg = val;
            break;
        case CLI_THREADS:
            ok = cli_threads_parse(val, &a->threads, &err);
            break;
        case RUN_MPI:
            a->mpi = true;
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
#ifndef MGTLM_MPI
        if (ok && a->mpi) {
            ok = sim_error_set(&err, "--mpi: this mgtlm was built without MPI "
                                     "(install libopenmpi-dev and reconfigure)");
        }
#endif
    }
    if (id == CLI_ERROR) {
        fprintf(stderr, "%s\n", err.msg);
    } else if (!ok) {
        fprintf(stderr, "mgtlm run: %s\n", err.msg);
    }
    return ok && id == CLI_END;
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
        summary_print(stdout, p, platform_now(p), a->all);
        fflush(stdout);
    } else if (!run_stats_write(p, m, a->stats, a->stats_csv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        fprintf(stderr, "mgtlm run: stats written at t = %.3f us\n",
                (double)platform_now(p) / (double)SIM_US);
    }
}

/* Runs in slices until idle, the limit or a stopping signal; sets m->stop and
 * m->signal and answers SIGUSR1 on the way. False (message printed) if the threads
 * of the engine could not be started. */
static bool run_loop(const RunArgs *a, Platform *p, EngineMpi *mpi, TraceLog *log,
                     RunMeta *m, RunProgress *pr, EngineTimes *times)
{
    Sim *sim = p->sim;
    SimTime until = m->until;
    for (;;) {
        SimTime next = p->engine ? engine_next_time(p->engine) : sim_next_time(sim);
        if (next == SIM_TIME_MAX || next > until) {
            m->stop = next == SIM_TIME_MAX ? "idle" : "until";
            break;
        }
        SimTime slice_end = until - next <= RUN_SLICE ? until : next + RUN_SLICE;
#ifdef MGTLM_MPI
        if (mpi) {
            SimRunResult r;
            SimError err;
            if (!engine_mpi_run(mpi, slice_end, times, &r, &err) ||
                (log && !engine_mpi_gather_log(mpi, trace_log_defer(log), &err))) {
                fprintf(stderr, "mgtlm run: %s\n", err.msg);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            trace_log_flush(log);
            int stop = 0;
            bool dump = false;
            if (engine_mpi_max(mpi, run_signal_flag != 0)) {
                run_signal_take(&stop, &dump);
            }
            if ((stop = engine_mpi_max(mpi, stop)) != 0) {
                m->stop = "signal";
                m->signal = stop;
                break;
            }
            run_progress_tick(pr, platform_now(p), platform_events(p),
                              run_progress_clock());
            continue;
        }
#else
        (void)mpi;
#endif
        if (p->engine) {
            SimRunResult r;
            SimError err;
            if (!engine_run(p->engine, slice_end, a->threads, times, &r, &err)) {
                fprintf(stderr, "mgtlm run: %s\n", err.msg);
                return false;
            }
            trace_log_flush(log);
        } else {
            sim_run(sim, slice_end);
        }
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
        run_progress_tick(pr, platform_now(p), platform_events(p), run_progress_clock());
    }
    run_progress_end(pr);
    return true;
}

/* Builds the platform of desc (taken) on one kernel (*sim) or, with several
 * partitions or on MPI ranks, on an engine (*engine); NULL with err set on
 * failure. */
static Platform *run_build(PlatformDesc *desc, bool mpi, Sim **sim, Engine **engine,
                           SimError *err)
{
    PlatformPartition parts;
    *sim = NULL;
    *engine = NULL;
    if (!platform_partition(desc, &parts, err)) {
        platform_desc_free(desc);
        return NULL;
    }
    Platform *p;
    if (parts.n > 1 || mpi) {
        *engine = engine_new(parts.n);
        p = *engine ? platform_build_engine(desc, *engine, &parts, err) : NULL;
    } else {
        *sim = sim_new();
        p = *sim ? platform_build(desc, *sim, err) : NULL;
    }
    if (!*sim && !*engine) {
        platform_desc_free(desc);
        sim_error_set(err, "out of memory");
    }
    platform_partition_free(&parts);
    return p;
}

/* The summary line of an engine run: partitions, threads or MPI ranks, where the
 * time went. */
static void run_print_engine(const Platform *p, const EngineMpi *mpi, unsigned threads,
                             const EngineTimes *t)
{
    uint32_t n = engine_parts(p->engine);
    int ranks = 0;
#ifdef MGTLM_MPI
    if (mpi) {
        MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    }
#else
    (void)mpi;
#endif
    printf("  %u partitions (lookahead %.3f ns) on %u %s: %llu windows, "
           "%.3f s working, %.3f s waiting (%s seconds)\n",
           n, (double)engine_lookahead(p->engine) / 1e3,
           ranks         ? (unsigned)ranks
           : threads < n ? threads
                         : n,
           ranks ? "MPI ranks" : "threads", (unsigned long long)t->windows, t->work_s,
           t->wait_s, ranks ? "rank" : "thread");
}

static int run_simulation(const RunArgs *a, PlatformDesc *desc, RunMeta *m,
                          double interval)
{
    SimError err;
    char *pname = strdup(desc->name ? desc->name : a->platform);
    m->platform_name = pname;
    m->gpus = desc->info.gpus;
    m->seed = desc->info.seed;
    Sim *sim;
    Engine *engine;
    Platform *p = run_build(desc, a->mpi, &sim, &engine, &err);
    if (!p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        engine_free(engine);
        free(pname);
        return 2;
    }
    EngineMpi *mpi = NULL;
    bool quiet = a->quiet, writer = true;
#ifdef MGTLM_MPI
    if (a->mpi) {
        mpi = engine_mpi_new(p, a->cmds);
        writer = engine_mpi_rank(mpi) == 0;
        quiet = quiet || !writer;
    }
#endif
    TraceLog *log = NULL;
    bool log_ok = true;
    if (mpi && !writer && a->log.dir) {
        log_ok = (log = trace_log_open(p, NULL, a->log.format,
                                       (const char *const *)a->log.globs, a->log.nglobs,
                                       &err)) != NULL;
    } else {
        log_ok = cli_log_open(&a->log, p, NULL, &log, &err);
    }
    if (!log_ok) {
        fprintf(stderr, "%s\n", err.msg);
        platform_free(p);
        sim_free(sim);
        engine_free(engine);
        free(pname);
        return 2;
    }
    int status = 0;
    RunProgress pr;
    run_progress_init(&pr, stderr, quiet ? 0 : interval, isatty(2), m->until,
                      run_progress_clock());
    const uint64_t *ctas_done, *ctas;
    summary_trace_ctas(p, &ctas_done, &ctas);
    run_progress_trace(&pr, ctas_done, ctas);
    if (engine) {
        engine_watch(engine, &run_signal_flag);
    } else {
        sim_watch(sim, &run_signal_flag);
    }
    run_signal_install();
    platform_reset(p);
    EngineTimes times = {0};
    if (!run_loop(a, p, mpi, log, m, &pr, &times)) {
        m->stop = "error";
        status = 2;
    }
    m->wall_s = run_progress_clock() - pr.start;
    platform_finish_stats(p);
#ifdef MGTLM_MPI
    if (mpi) {
        engine_mpi_gather_stats(mpi, &times);
    }
#endif
    if (!cli_log_close(log, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    if (writer && !run_stats_write(p, m, a->stats, a->stats_csv, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        status = 2;
    }
    run_signal_restore();
    if (engine) {
        engine_watch(engine, NULL);
    } else {
        sim_watch(sim, NULL);
    }
    if (!quiet) {
        uint64_t events = platform_events(p);
        printf("mgtlm run: %s, %u GPUs, %zu instances, stopped: %s%s%s\n", pname, m->gpus,
               p->nblocks, m->stop, m->signal ? " " : "",
               m->signal ? run_signal_name(m->signal) : "");
        printf("  %llu events, %.3f s host (%.2f M events/s)\n",
               (unsigned long long)events, m->wall_s,
               m->wall_s > 0 ? (double)events / m->wall_s / 1e6 : 0.0);
        if (engine) {
            run_print_engine(p, mpi, a->threads, &times);
        }
        summary_print(stdout, p, platform_now(p), a->all);
    }
    if (writer && summary_report_errors(stderr, p) > 0 && status == 0) {
        status = 1;
    }
    if (m->signal && status != 2) {
        status = 128 + m->signal;
    }
#ifdef MGTLM_MPI
    engine_mpi_free(mpi);
#endif
    platform_free(p);
    sim_free(sim);
    engine_free(engine);
    free(pname);
    return status;
}

int cmd_run(Registry *r, int argc, char **argv)
{
    RunArgs a = {.threads = 1};
    cli_log_init(&a.log);
    json_t *cli_sets = json_object();
    json_t *sets = json_object();
    int status = 2;
    SimError err;
    PlatformDesc desc;
    bool help = false;
    double interval;
    if (!run_parse_args(argc, argv, &a, cli_sets, &help) ||
        !run_progress_interval(&a, &interval)) {
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
    a.cmds = registry_cmds(r);
#ifdef MGTLM_MPI
    if (a.mpi) {
        MPI_Init(NULL, NULL);
    }
#endif
    RunMeta m = {.platform_file = a.platform,
                 .workload = a.workload,
                 .workload_sets = sets,
                 .cli_sets = cli_sets,
                 .until = until};
    status = run_simulation(&a, &desc, &m, interval);
#ifdef MGTLM_MPI
    if (a.mpi) {
        MPI_Finalize();
    }
#endif
out:
    cli_log_free(&a.log);
    json_decref(cli_sets);
    json_decref(sets);
    return status;
}
