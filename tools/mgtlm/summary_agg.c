/* Aggregation of a platform's statistics by block type and kind (see summary_agg.h).
 * Decisions: a stat's block and own name are the stats file's (platform_stats_owner:
 * the longest part of the name before a '.' that names a block); stats of no block,
 * and those whose own name holds a '.' (the host's per-kernel "k0.cycles": rows per
 * launch, whose totals the summary's execution time, kernels and IPC lines give), are
 * left out; per-port counters ("port[3]_out") aggregate under their own names, like
 * any counter; histograms of one key share their width (one table row), and their
 * bucket counts, which can depend on parameters, merge up to the longest. */
#include "summary_agg.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/platform/platform_stats.h"
#include "kernel/xalloc.h"

static SummaryAgg *summary_agg_slot(SummaryAggs *aggs, const char *key,
                                    const StatDef *def)
{
    for (size_t i = aggs->n; i-- > 0;) {
        if (strcmp(aggs->v[i].key, key) == 0) {
            return &aggs->v[i];
        }
    }
    aggs->v = xgrow(aggs->v, &aggs->cap, aggs->n + 1, sizeof *aggs->v, 64);
    size_t len = strlen(key) + 1;
    SummaryAgg *a = &aggs->v[aggs->n++];
    *a = (SummaryAgg){.key = memcpy(xmalloc(len), key, len), .def = def};
    return a;
}

static void summary_agg_level(SummaryAgg *a, double v)
{
    a->min = a->n == 0 || v < a->min ? v : a->min;
    a->max = a->n == 0 || v > a->max ? v : a->max;
    a->total += v;
}

static void summary_agg_state(SummaryAgg *a, uint64_t v)
{
    if (v >= a->nstates) {
        uint64_t *states = xrealloc_array(a->states, (size_t)v + 1, sizeof *states);
        memset(states + a->nstates, 0, (size_t)(v + 1 - a->nstates) * sizeof *states);
        a->states = states;
        a->nstates = (size_t)v + 1;
    }
    a->states[v]++;
}

static void summary_agg_hist(SummaryAgg *a, const StatHist *h)
{
    StatHist *m = &a->hist;
    if (h->nbuckets > m->nbuckets) {
        uint64_t *b = xrealloc_array(m->buckets, h->nbuckets, sizeof *b);
        memset(b + m->nbuckets, 0, (h->nbuckets - m->nbuckets) * sizeof *b);
        m->buckets = b;
        m->nbuckets = h->nbuckets;
    }
    m->width = h->width;
    for (uint32_t i = 0; i < h->nbuckets; i++) {
        m->buckets[i] += h->buckets[i];
    }
    if (h->count) {
        m->min = m->count == 0 || h->min < m->min ? h->min : m->min;
        m->max = h->max > m->max ? h->max : m->max;
    }
    m->count += h->count;
    m->sum += h->sum;
}

static void summary_agg_add(SummaryAgg *a, const StatView *v)
{
    double level = v->store == STAT_STORE_REAL ? v->real : (double)v->counter;
    switch (v->def->kind) {
    case STAT_COUNTER:
        a->sum += v->counter;
        break;
    case STAT_GAUGE:
    case STAT_TIME:
        summary_agg_level(a, level);
        break;
    case STAT_ENUM:
        summary_agg_state(a, v->counter);
        break;
    case STAT_HIST:
        summary_agg_hist(a, v->hist);
        break;
    }
    a->n++;
}

void summary_agg_build(const Platform *p, SummaryAggs *aggs)
{
    *aggs = (SummaryAggs){0};
    for (size_t i = 0; i < stats_count(p->stats); i++) {
        StatView v = stats_at(p->stats, i);
        const char *stat;
        const Block *b = platform_stats_owner(p, v.name, &stat);
        if (!b || strchr(stat, '.')) {
            continue;
        }
        char key[640];
        snprintf(key, sizeof key, "%s.%s", b->type->name, stat);
        summary_agg_add(summary_agg_slot(aggs, key, v.def), &v);
    }
}

void summary_agg_free(SummaryAggs *aggs)
{
    for (size_t i = 0; i < aggs->n; i++) {
        free(aggs->v[i].key);
        free(aggs->v[i].states);
        free(aggs->v[i].hist.buckets);
    }
    free(aggs->v);
    *aggs = (SummaryAggs){0};
}

const SummaryAgg *summary_agg_find(const SummaryAggs *aggs, const char *type,
                                   const char *stat)
{
    size_t tl = strlen(type);
    for (size_t i = 0; i < aggs->n; i++) {
        const char *k = aggs->v[i].key;
        if (strncmp(k, type, tl) == 0 && k[tl] == '.' && strcmp(k + tl + 1, stat) == 0) {
            return &aggs->v[i];
        }
    }
    return NULL;
}

bool summary_agg_zero(const SummaryAgg *a)
{
    switch (a->def->kind) {
    case STAT_COUNTER:
        return a->sum == 0;
    case STAT_GAUGE:
    case STAT_TIME:
        return a->min == 0 && a->max == 0;
    case STAT_ENUM:
        return false;
    case STAT_HIST:
        return a->hist.count == 0;
    }
    return false;
}

uint64_t summary_agg_percentile(const StatHist *h, unsigned pct)
{
    if (h->count == 0) {
        return 0;
    }
    uint64_t rank = (h->count * pct + 99) / 100;
    uint64_t seen = 0;
    for (uint32_t b = 0; b + 1 < h->nbuckets; b++) {
        seen += h->buckets[b];
        if (seen >= rank) {
            uint64_t edge = (uint64_t)(b + 1) * h->width;
            return edge < h->max ? edge : h->max;
        }
    }
    return h->max;
}
