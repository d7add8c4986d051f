/* The statistics of a platform aggregated by block type and stat name, by kind:
 * counters are summed; times and gauges give min, mean and max over the instances;
 * enums count the instances in each state; histograms are merged bucket by bucket
 * (so percentiles cover every instance). Never a sum of times or levels. */
#ifndef MGTLM_SUMMARY_AGG_H
#define MGTLM_SUMMARY_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/platform/platform.h"

typedef struct SummaryAgg {
    char *key;              /* "cu.reads": type, '.', the stat's name (owned) */
    const StatDef *def;     /* of the first instance (kind, unit, choices) */
    size_t n;               /* instances */
    uint64_t sum;           /* counters */
    double min, max, total; /* gauges and times */
    uint64_t *states;       /* enums: instances per state index (owned), nstates long */
    size_t nstates;
    StatHist hist; /* histograms: merged (buckets owned), min/max over all */
} SummaryAgg;

typedef struct SummaryAggs {
    SummaryAgg *v; /* in the order each key first appears (owned) */
    size_t n, cap;
} SummaryAggs;

/* Aggregates every statistic of p into aggs (free with summary_agg_free). */
void summary_agg_build(const Platform *p, SummaryAggs *aggs);
void summary_agg_free(SummaryAggs *aggs);

/* The aggregate of `type`.`stat`, or NULL. */
const SummaryAgg *summary_agg_find(const SummaryAggs *aggs, const char *type,
                                   const char *stat);
/* True when every instance's value was zero (a histogram without values); never for
 * an enum, whose state 0 is a state like the others. */
bool summary_agg_zero(const SummaryAgg *a);
/* The pct-th percentile (1 to 100) of a merged histogram: the upper edge of the
 * bucket where the running count reaches ceil(pct% of count), capped at the maximum
 * (the last bucket, which also takes larger values, gives the maximum). 0 without
 * values. */
uint64_t summary_agg_percentile(const StatHist *h, unsigned pct);

#endif
