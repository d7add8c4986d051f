/* Statistics: counters, real values and histograms registered per block under
 * "instance.stat" names; written as JSON or CSV in registration order. */
#ifndef MGTLM_STATS_H
#define MGTLM_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "error.h"

typedef struct Stats Stats;

typedef struct StatHist {
    uint64_t count, sum, min, max;
    uint64_t width;    /* bucket width */
    uint32_t nbuckets; /* the last bucket also takes every larger value */
    uint64_t *buckets;
} StatHist;

/* New empty registry (owned by the caller). */
Stats *stats_new(void);
void stats_free(Stats *s);

/* Registers a statistic named "<owner>.<name>" and returns its storage (zeroed),
 * owned by the registry and stable until stats_free. NULL on a duplicate name. */
uint64_t *stats_counter(Stats *s, const char *owner, const char *name, const char *doc);
double *stats_real(Stats *s, const char *owner, const char *name, const char *doc);
StatHist *stats_hist(Stats *s, const char *owner, const char *name, uint64_t width,
                     uint32_t nbuckets, const char *doc);
void stat_hist_add(StatHist *h, uint64_t v);

/* Looks a counter up by full name (for tests and summaries); NULL if absent. */
const uint64_t *stats_find_counter(const Stats *s, const char *full_name);

/* JSON object {"name": value | {histogram}} in registration order (new ref). */
json_t *stats_json(const Stats *s);
bool stats_write_json(const Stats *s, const char *path, SimError *err);
bool stats_write_csv(const Stats *s, const char *path, SimError *err);

#endif
