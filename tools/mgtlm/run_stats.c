/* The files `mgtlm run` writes about a run (see run_stats.h). The run object holds
 * what the input decides (platform, sets, seed, simulated time, events, why it
 * stopped, model errors), the host object what the machine and the build decide
 * (version, commit, host time, speed), so that comparisons can drop exactly "host". */
#include "run_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flat_print.h"
#include "kernel/platform/platform_stats.h"
#include "kernel/xalloc.h"
#include "run_signal.h"
#include "version.h"

static json_t *run_stats_time(SimTime t)
{
    return t == SIM_TIME_MAX ? json_null() : json_integer((json_int_t)t);
}

static json_t *run_stats_run(const Platform *p, const RunMeta *m)
{
    size_t errors = 0;
    for (size_t i = 0; i < stats_count(p->stats); i++) {
        StatView v = stats_at(p->stats, i);
        errors += v.def->is_error && v.store == STAT_STORE_U64 && v.counter != 0;
    }
    json_t *run =
        json_pack("{s:s,s:s,s:I,s:I,s:o,s:O,s:O,s:o,s:I,s:I,s:s}", "platform",
                  m->platform_name, "platform_file", m->platform_file, "gpus",
                  (json_int_t)m->gpus, "seed", (json_int_t)m->seed, "workload",
                  m->workload ? json_string(m->workload) : json_null(), "workload_sets",
                  m->workload_sets, "sets", m->cli_sets, "until_ps",
                  run_stats_time(m->until), "simulated_ps", (json_int_t)platform_now(p),
                  "events", (json_int_t)platform_events(p), "stop", m->stop);
    if (m->signal) {
        json_object_set_new(run, "signal", json_string(run_signal_name(m->signal)));
    }
    json_object_set_new(run, "model_errors", json_integer((json_int_t)errors));
    return run;
}

static json_t *run_stats_host(const Platform *p, const RunMeta *m)
{
    double events = (double)platform_events(p);
    return json_pack("{s:s,s:s,s:f,s:f}", "mgtlm_version", MGTLM_VERSION, "mgtlm_commit",
                     MGTLM_COMMIT, "wall_s", m->wall_s, "events_per_second",
                     m->wall_s > 0 ? events / m->wall_s : 0.0);
}

static bool run_stats_platform(const Platform *p, const char *beside, SimError *err)
{
    size_t len = strlen(beside) + sizeof ".platform.json";
    char *path = xmalloc(len);
    snprintf(path, len, "%s.platform.json", beside);
    FILE *f = fopen(path, "w");
    bool ok = f != NULL;
    if (f) {
        json_t *flat = platform_dump(&p->desc);
        flat_print(f, flat);
        json_decref(flat);
        ok = !ferror(f);
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) {
        sim_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    }
    free(path);
    return ok;
}

bool run_stats_write(const Platform *p, const RunMeta *m, const char *json_path,
                     const char *csv_path, SimError *err)
{
    json_t *run = run_stats_run(p, m);
    json_t *host = run_stats_host(p, m);
    bool ok = (!json_path || platform_stats_write_json(p, run, host, json_path, err)) &&
              (!csv_path || platform_stats_write_csv(p, run, host, csv_path, err)) &&
              (!(json_path || csv_path) ||
               run_stats_platform(p, json_path ? json_path : csv_path, err));
    json_decref(run);
    json_decref(host);
    return ok;
}
