/* The numeric results of a stats file as one flat object, shared by `mgtlm compare`
 * and `mgtlm sweep` so that both name and select a run's results the same way. */
#ifndef MGTLM_STATS_FLAT_H
#define MGTLM_STATS_FLAT_H

#include <jansson.h>

#include "kernel/error.h"

/* The flat stats of path (new reference: a JSON object name -> number, in file
 * order), or NULL with err set. A stats file of mgtlm run (docs/stats.md) contributes
 * its "stats" values and the numbers of its "run" metadata (as "run.<key>": simulated
 * time, events); "host" (host time, version) and the stat tables are not results and
 * are left out. A JSON object without a "stats" object is taken whole. A stat is a
 * numeric leaf: a number at "name", or inside an object (a histogram) at
 * "name.member"; strings, booleans and arrays are left out, and so is a leaf whose
 * name would exceed 1023 characters. Errors: an unreadable or malformed file as
 * "<file>:<line>:<column>: <message>", a file that is not a JSON object as
 * "<file>: /: ...". */
json_t *stats_flat_load(const char *path, SimError *err);

#endif
