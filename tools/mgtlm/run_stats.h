/* What `mgtlm run` writes about a run: the stats file (JSON and CSV, with the run's
 * metadata and the host's, see kernel/platform/platform_stats.h and docs/stats.md)
 * and, beside the stats, the effective flat platform (<stats>.platform.json, as
 * `mgtlm validate --dump` prints it). */
#ifndef MGTLM_RUN_STATS_H
#define MGTLM_RUN_STATS_H

#include <jansson.h>

#include "kernel/platform/platform.h"

/* The run's side of the metadata; everything borrowed. */
typedef struct RunMeta {
    const char *platform_file; /* as given on the command line */
    const char *platform_name;
    uint32_t gpus;
    uint64_t seed;
    const char *workload;  /* NULL without --workload */
    json_t *workload_sets; /* the workload's sets (object) */
    json_t *cli_sets;      /* the --set values (object), applied after them */
    SimTime until;         /* SIM_TIME_MAX without a limit */
    const char *stop;      /* "idle", "until", "signal" or "running" (SIGUSR1) */
    int signal;            /* the stopping signal, 0 if none */
    double wall_s;         /* host seconds spent simulating */
} RunMeta;

/* Writes the stats JSON (if json_path), the CSV (if csv_path) and the flat platform
 * beside the first of them given. Stops at the first failure, which names the file. */
bool run_stats_write(const Platform *p, const RunMeta *m, const char *json_path,
                     const char *csv_path, SimError *err);

#endif
