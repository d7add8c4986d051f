/* Workload files for `mgtlm run --workload W`: a JSON object
 *   {"doc": "...", "set": {"instance-glob.param": value, ...}, "until": "10us"}
 * whose sets apply after the platform's own and before the command line's. */
#ifndef MGTLM_WORKLOAD_H
#define MGTLM_WORKLOAD_H

#include <stdbool.h>

#include <jansson.h>

#include "kernel/error.h"
#include "kernel/simtime.h"

/* Adds the workload's sets to sets, in file order (call it before adding the command
 * line's sets, which are applied later and so win), and sets *until and *has_until
 * if the workload gives a time limit. */
bool workload_load(const char *path, json_t *sets, SimTime *until, bool *has_until,
                   SimError *err);

#endif
