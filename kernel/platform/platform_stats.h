/* The stats file of a built platform, in JSON and as a tidy CSV (docs/stats.md).
 *
 * JSON: {"format", "run", "host", "instances", "types", "errors", "stats"}: the run's
 * metadata and the host's (objects given by the caller), each instance's block type,
 * each present type's stat table (kind, unit, doc, error), the names of every stat
 * that is a model error, then the values in registration order (stats_json_where).
 * CSV: instance,type,stat,value,unit; first the metadata rows (instance empty, type
 * "run" or "host", nested keys joined by '.'), then one row per value, a histogram
 * giving count, sum, min, max, mean, width and one row per bucket.
 * Everything the host or build decides (host time, version, commit, the statistics
 * whose StatDef.host is set, as its member "stats") is in "host" and only there, so
 * two runs of the same input differ in that object (JSON) and in the "host" rows
 * (CSV) alone. */
#ifndef MGTLM_PLATFORM_STATS_H
#define MGTLM_PLATFORM_STATS_H

#include <stdbool.h>

#include <jansson.h>

#include "kernel/error.h"
#include "platform.h"

/* The format name written as "format" (changes when the layout does). */
#define PLATFORM_STATS_FORMAT "mgtlm-stats-2"

/* The block that registered the stat called full (its instance: the longest part of
 * the name before a '.' that names one), or NULL (*stat then follows the last '.');
 * *stat is the stat's own name. The CSV's instance and type columns, serve's statdefs
 * and the summary's by-type rows all come from it. */
const Block *platform_stats_owner(const Platform *p, const char *full, const char **stat);

/* The JSON document (new reference); run and host are borrowed objects. */
json_t *platform_stats_json(const Platform *p, json_t *run, json_t *host);
/* Write the document to path (JSON indented by one, one stat per line) or the CSV.
 * A failure names the path. */
bool platform_stats_write_json(const Platform *p, json_t *run, json_t *host,
                               const char *path, SimError *err);
bool platform_stats_write_csv(const Platform *p, json_t *run, json_t *host,
                              const char *path, SimError *err);

#endif
