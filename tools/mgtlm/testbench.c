/* Running a testbench: build the platform described by tb_load, load the drivers'
 * stimulus, attach the collector (and the log), reset, run until `until` or idle,
 * then judge (a platform of several partitions runs on the partitioned engine, its
 * records merged as trace_defer.c says): the drivers' response checks, the model-error
 * counters and the golden comparison. A model-error counter (StatDef.is_error) that is
 * not zero fails the testbench unless `expect_errors` lists it; a listed counter must end
 * at exactly its listed value (any counter may be listed). Output per testbench: "PASS
 * <name>", or "FAIL <name>" followed by indented reasons and the first differing records
 * side by side (golden_print_diff).
 * On MPI ranks (mgtlm test --mpi) every rank builds and runs the testbench on the
 * engine; rank 0 receives the records, logs and stats of the others' partitions
 * (engine_mpi.h) and each driver's check from the rank that ran it, and judges. */
#include "testbench.h"

#include <stdlib.h>
#include <string.h>

#include "hw/tb/driver.h"
#include "kernel/json_util.h"
#include "kernel/xalloc.h"
#include "testbench_priv.h"

static bool tb_build(Tb *tb, SimError *err)
{
    PlatformPartition parts;
    if (!platform_partition(&tb->desc, &parts, err)) {
        return false;
    }
    if (parts.n > 1 || tb->mpi) {
        tb->engine = engine_new(parts.n);
    } else {
        tb->sim = sim_new();
    }
    if (!tb->sim && !tb->engine) {
        platform_partition_free(&parts);
        return tb_fail(tb, "/", err, "out of memory");
    }
    tb->has_desc = false;
    tb->p = tb->engine ? platform_build_engine(&tb->desc, tb->engine, &parts, err)
                       : platform_build(&tb->desc, tb->sim, err);
    platform_partition_free(&parts);
    if (!tb->p) {
        return false;
    }
    json_t *e;
    const char *name;
    json_object_foreach(json_object_get(tb->doc, "drive"), name, e) {
        char inst[128], origin[SIM_ERROR_MAX], at[512] = "";
        json_t *stim = json_object_get(e, "stimulus");
        snprintf(inst, sizeof inst, "tb.%s", name);
        json_pointer_push(json_pointer_push(at, sizeof at, "drive"), sizeof at, name);
        snprintf(origin, sizeof origin, "%s: %s/stimulus", tb->path, at);
        json_t *none = json_array();
        bool ok =
            driver_load(platform_block(tb->p, inst), stim ? stim : none, origin, err);
        json_decref(none);
        if (!ok) {
            return false;
        }
    }
#ifdef MGTLM_MPI
    if (tb->mpi) {
        tb->ranks = engine_mpi_new(tb->p, registry_cmds(tb->registry));
    }
#endif
    return tb_check_expected(tb, err);
}

#ifdef MGTLM_MPI
/* Runs on the ranks, gathers the records, logs and stats on rank 0, and each
 * driver's check there from the rank that runs it. */
static bool tb_run_ranks(Tb *tb, SimError *err)
{
    SimRunResult res;
    if (!engine_mpi_run(tb->ranks, tb->until, NULL, &res, err) ||
        !engine_mpi_gather_log(tb->ranks, tb->col.defer, err) ||
        (tb->log && !engine_mpi_gather_log(tb->ranks, trace_log_defer(tb->log), err))) {
        return false;
    }
    collector_flush(&tb->col);
    trace_log_flush(tb->log);
    EngineTimes times = {0};
    engine_mpi_gather_stats(tb->ranks, &times);
    json_t *drive = json_object_get(tb->doc, "drive");
    size_t n = json_object_size(drive), k = 0,
           ranks = (size_t)engine_mpi_ranks(tb->ranks);
    char(*mine)[SIM_ERROR_MAX] = xcalloc(n ? n : 1, sizeof *mine);
    char(*all)[SIM_ERROR_MAX] = xcalloc(n ? n * ranks : 1, sizeof *all);
    int rank = engine_mpi_rank(tb->ranks);
    int *owner = xcalloc(n ? n : 1, sizeof *owner);
    json_t *e;
    const char *name;
    json_object_foreach(drive, name, e) {
        char inst[128];
        SimError derr;
        snprintf(inst, sizeof inst, "tb.%s", name);
        Block *b = platform_block(tb->p, inst);
        owner[k] = engine_mpi_owner(tb->ranks, b->sim);
        if (owner[k] == rank && !driver_check(b, &derr)) {
            snprintf(mine[k], SIM_ERROR_MAX, "%s", derr.msg);
        }
        k++;
    }
    engine_mpi_gather_bytes(tb->ranks, mine, n * sizeof *mine, all);
    tb->checks = xcalloc(n ? n : 1, sizeof *tb->checks);
    for (size_t i = 0; rank == 0 && i < n; i++) {
        memcpy(tb->checks[i], all[(size_t)owner[i] * n + i], SIM_ERROR_MAX);
    }
    free(mine);
    free(all);
    free(owner);
    return true;
}
#endif

/* Runs the reset platform until tb->until (or idle) on one kernel, the engine's
 * threads or the MPI ranks, records flushed; false with err set if the engine
 * cannot run. */
static bool tb_simulate(Tb *tb, SimError *err)
{
#ifdef MGTLM_MPI
    if (tb->ranks) {
        return tb_run_ranks(tb, err);
    }
#endif
    if (!tb->engine) {
        sim_run(tb->sim, tb->until);
        return true;
    }
    SimRunResult res;
    if (!engine_run(tb->engine, tb->until, tb->threads, NULL, &res, err)) {
        return false;
    }
    collector_flush(&tb->col);
    trace_log_flush(tb->log);
    return true;
}

/* Runs the testbench; false on bad input (observe patterns, log). */
static bool tb_run(Tb *tb, const CliLog *log, const char *log_subdir, SimError *err)
{
    char origin[SIM_ERROR_MAX];
    snprintf(origin, sizeof origin, "%s: /observe", tb->path);
    if (!collector_attach(&tb->col, tb->p, json_object_get(tb->doc, "observe"), origin,
                          err)) {
        return false;
    }
    bool log_ok = true, writer = true;
#ifdef MGTLM_MPI
    writer = !tb->ranks || engine_mpi_rank(tb->ranks) == 0;
#endif
    if (log && !writer) {
        log_ok = (tb->log = trace_log_open(tb->p, NULL, log->format,
                                           (const char *const *)log->globs, log->nglobs,
                                           err)) != NULL;
    } else if (log) {
        log_ok = cli_log_open(log, tb->p, log_subdir, &tb->log, err);
    }
#ifdef MGTLM_MPI
    if (tb->ranks && engine_mpi_max(tb->ranks, !log_ok) && log_ok) {
        log_ok =
            sim_error_set(err, "%s: the log could not be opened on MPI rank 0", tb->path);
    }
#endif
    if (!log_ok) {
        return false;
    }
    platform_reset(tb->p);
    if (!tb_simulate(tb, err)) {
        return false;
    }
    collector_detach(&tb->col);
    TraceLog *l = tb->log;
    tb->log = NULL;
    return cli_log_close(l, err);
}

/* At most this many reasons are printed under a FAIL. */
#define TB_REASONS 6

/* What tb_unexpected_error needs: the expected counters and the reasons so far. */
typedef struct TbErrors {
    json_t *expected;
    char (*reasons)[SIM_ERROR_MAX];
    size_t *n;
} TbErrors;

/* stats_errors callback: a nonzero model-error counter that expect_errors does not
 * list becomes a reason. */
static void tb_unexpected_error(const char *name, uint64_t v, void *ctx)
{
    TbErrors *te = ctx;
    if (!json_object_get(te->expected, name) && *te->n < TB_REASONS) {
        snprintf(te->reasons[(*te->n)++], SIM_ERROR_MAX, "model error: %s = %llu", name,
                 (unsigned long long)v);
    }
}

/* Prints the verdict; returns TB_PASS or TB_FAIL. */
static TbStatus tb_judge(Tb *tb, FILE *out)
{
    char reasons[TB_REASONS][SIM_ERROR_MAX];
    size_t nreasons = 0, k = 0;
    json_t *e;
    const char *name;
    json_object_foreach(json_object_get(tb->doc, "drive"), name, e) {
        char inst[128];
        SimError derr;
        snprintf(inst, sizeof inst, "tb.%s", name);
        bool ok = tb->checks ? tb->checks[k][0] == '\0'
                             : driver_check(platform_block(tb->p, inst), &derr);
        if (!ok && nreasons < 3) {
            snprintf(reasons[nreasons++], SIM_ERROR_MAX, "%s",
                     tb->checks ? tb->checks[k] : derr.msg);
        }
        k++;
    }
    if (tb->col.oom) {
        snprintf(reasons[nreasons++], SIM_ERROR_MAX, "out of memory collecting records");
    }
    TbErrors te = {.expected = json_object_get(tb->doc, "expect_errors"),
                   .reasons = reasons,
                   .n = &nreasons};
    stats_errors(tb->p->stats, tb_unexpected_error, &te);
    json_t *want;
    json_object_foreach(te.expected, name, want) {
        uint64_t got = *stats_find_counter(tb->p->stats, name);
        if (got != (uint64_t)json_integer_value(want) && nreasons < TB_REASONS) {
            snprintf(reasons[nreasons++], SIM_ERROR_MAX,
                     "%s = %llu, expect_errors says %lld", name, (unsigned long long)got,
                     (long long)json_integer_value(want));
        }
    }
    GoldenResult r = golden_compare(&tb->golden, tb->col.records, tb->mode);
    if (r.match && nreasons == 0) {
        fprintf(out, "PASS %s\n", tb->name);
        return TB_PASS;
    }
    fprintf(out, "FAIL %s\n", tb->name);
    for (size_t k = 0; k < nreasons; k++) {
        fprintf(out, "  %s\n", reasons[k]);
    }
    if (!r.match) {
        golden_print_diff(out, &tb->golden, tb->col.records, tb->mode, &r);
    }
    return TB_FAIL;
}

static void tb_free(Tb *tb)
{
    if (tb->log) {
        trace_log_close(tb->log, NULL);
    }
    collector_free(&tb->col);
#ifdef MGTLM_MPI
    engine_mpi_free(tb->ranks);
#endif
    free(tb->checks);
    if (tb->p) {
        platform_free(tb->p);
    }
    sim_free(tb->sim);
    engine_free(tb->engine);
    if (tb->has_desc) {
        platform_desc_free(&tb->desc);
    }
    golden_free(&tb->golden);
    json_decref(tb->doc);
}

TbStatus testbench_run(const Registry *r, const char *path, const CliLog *log,
                       const char *log_subdir, FILE *out, SimError *err)
{
    return testbench_run_threads(r, path, log, log_subdir, 1, false, out, err);
}

TbStatus testbench_run_threads(const Registry *r, const char *path, const CliLog *log,
                               const char *log_subdir, unsigned threads, bool mpi,
                               FILE *out, SimError *err)
{
    Tb tb;
    memset(&tb, 0, sizeof tb);
    tb.registry = r;
    tb.path = path;
    tb.threads = threads;
    tb.mpi = mpi;
    TbStatus status = TB_BAD_INPUT;
    if (tb_load(&tb, err) && tb_build(&tb, err) && tb_run(&tb, log, log_subdir, err)) {
        status = tb_judge(&tb, out);
    }
    tb_free(&tb);
    return status;
}
