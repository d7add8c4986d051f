/* Statistics: counters, real values and histograms registered per block under
 * "instance.stat" names, kept in registration order and read back one by one
 * (stats_at) or as one JSON object of values (stats_json). The stats file, which adds
 * the run's metadata and each instance's block type, is written by
 * kernel/platform/platform_stats.h.
 *
 * Each statistic is described by a StatDef (a row of its block type's stat table,
 * see block.h): name, where its storage pointer lives in the block state, kind,
 * unit, doc, whether a nonzero value is a model error and whether the host decides
 * it rather than the input. The registry owns the
 * storage; the block reaches it through the pointer member the table names, so a
 * hot-path update stays `(*c->reads)++`. Kind, unit and is_error are metadata,
 * which the stats file and the summary read through stats_at. */
#ifndef MGTLM_STATS_H
#define MGTLM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "error.h"

typedef struct Stats Stats;
struct Block;

typedef struct StatHist {
    uint64_t count, sum, min, max;
    uint64_t width;    /* bucket width */
    uint32_t nbuckets; /* the last bucket also takes every larger value */
    uint64_t *buckets;
} StatHist;

/* What the member at a StatDef's offset is, set by STAT from its C type. */
typedef enum StatStore {
    STAT_STORE_U64,   /* uint64_t *: one counter */
    STAT_STORE_REAL,  /* double *: one real value */
    STAT_STORE_HIST,  /* StatHist *: one histogram */
    STAT_STORE_PORTS, /* uint64_t **: one counter per port of the block, in port
                         order, named "<port><name>" ("port[3]_out"); the array is
                         owned by the registry */
} StatStore;

/* What the value means (metadata for summaries and docs). */
typedef enum StatKind {
    STAT_COUNTER, /* events or amounts added up during the run */
    STAT_GAUGE,   /* a level: a value at the end, a maximum, a ratio, a mean */
    STAT_TIME,    /* a duration or an instant (unit "ps") */
    STAT_ENUM,    /* a state index; choices names the values */
    STAT_HIST,    /* a histogram of a value (unit of the value) */
} StatKind;

typedef struct StatDef {
    const char *name; /* the stat's name; for STAT_STORE_PORTS the suffix after the
                         port's name */
    size_t offset;    /* of the storage pointer member in the block state */
    StatStore store;  /* the type of that member */
    StatKind kind;
    const char *unit; /* "" (a count), "B", "ps", ... */
    const char *doc;
    bool is_error; /* a model error: a nonzero value fails the run */
    bool host;     /* decided by the host, not by the input (its temporary folders, its
                      limits): the stats file writes it in the host object, which
                      comparisons of runs drop (docs/stats.md) */
    /* STAT_HIST: bucket width, and the bucket count: buckets, or buckets_of(the
     * block) when it depends on the parameters (called before realize). */
    uint64_t width;
    uint32_t buckets;
    uint32_t (*buckets_of)(const struct Block *b);
    const char *const *choices; /* STAT_ENUM: NULL-terminated names of 0, 1, ... */
} StatDef;

/* The StatStore of member m of T (a compile error for any other member type). */
#define STAT_STORE_OF(T, m)                                                              \
    _Generic(((T *)0)->m,                                                                \
        uint64_t *: STAT_STORE_U64,                                                      \
        double *: STAT_STORE_REAL,                                                       \
        StatHist *: STAT_STORE_HIST,                                                     \
        uint64_t **: STAT_STORE_PORTS)
/* A stat table row for member m (a storage pointer) of state struct T, with the
 * storage taken from m's C type (a member of any other type does not compile) and
 * optional further designators (.is_error, .width, .buckets, .choices, ...):
 *     STAT(Cu, reads, "reads", STAT_COUNTER, "", "read requests sent"),
 *     STAT(Cu, data_errors, "data_errors", STAT_COUNTER, "", "...", .is_error = true),
 */
#define STAT(T, m, nm, k, u, d, ...)                                                     \
    {                                                                                    \
        .name = (nm), .offset = offsetof(T, m), .store = STAT_STORE_OF(T, m),            \
        .kind = (k), .unit = (u), .doc = (d), __VA_ARGS__                                \
    }

/* New empty registry (owned by the caller). */
Stats *stats_new(void);
void stats_free(Stats *s);

/* Registers a statistic named "<owner>.<name>" described by def (borrowed, must
 * outlive the registry) and returns its storage (zeroed), owned by the registry and
 * stable until stats_free. NULL on a duplicate name (or out of memory). */
uint64_t *stats_counter(Stats *s, const char *owner, const char *name,
                        const StatDef *def);
double *stats_real(Stats *s, const char *owner, const char *name, const StatDef *def);
StatHist *stats_hist(Stats *s, const char *owner, const char *name, const StatDef *def,
                     uint64_t width, uint32_t nbuckets);
/* Registers counters "<owner>.<names[i]>" for i < n, all described by def, and
 * returns an array of their storage (owned by the registry, like the counters).
 * NULL on a duplicate name or out of memory (the counters before it stay). */
uint64_t **stats_counters(Stats *s, const char *owner, const char *const *names, size_t n,
                          const StatDef *def);
/* True if "<owner>.<name>" is registered. */
bool stats_has(const Stats *s, const char *owner, const char *name);
void stat_hist_add(StatHist *h, uint64_t v);

/* Looks a counter up by full name (for tests and summaries); NULL if absent. */
const uint64_t *stats_find_counter(const Stats *s, const char *full_name);

/* Calls fn for every nonzero counter whose def is an error (StatDef.is_error), in
 * registration order; returns how many there were. */
size_t stats_errors(const Stats *s, void (*fn)(const char *name, uint64_t v, void *ctx),
                    void *ctx);

/* One registered statistic as stats_at shows it: its full name, its description
 * and its value, in the member its storage selects (borrowed views, valid until the
 * next registration or stats_free). */
typedef struct StatView {
    const char *name;   /* "gpu0.cu[1].reads" */
    const StatDef *def; /* the row that registered it */
    StatStore store;    /* STAT_STORE_U64, STAT_STORE_REAL or STAT_STORE_HIST */
    uint64_t counter;
    double real;
    const StatHist *hist;
} StatView;

/* How many statistics are registered; stats_at(s, i) for i below it gives them in
 * registration order. */
size_t stats_count(const Stats *s);
StatView stats_at(const Stats *s, size_t i);
/* Overwrites the value of statistic i with v's (v->store must be its store; a
 * histogram's count, sum, min, max and buckets are copied, its width and bucket
 * count must match). How MPI ranks merge their stats into rank 0's registry. */
void stats_set_at(Stats *s, size_t i, const StatView *v);

/* "counter", "gauge", "time", "enum" or "histogram" (a static string). */
const char *stat_kind_name(StatKind k);
/* The mean of the values added (0 when none). */
double stat_hist_mean(const StatHist *h);

/* JSON object {"name": value | {histogram}} in registration order (new ref). */
json_t *stats_json(const Stats *s);
/* The same, of the statistics whose def's `host` is host only: the stats file's
 * "stats" (false) and its host object's "stats" (true). */
json_t *stats_json_where(const Stats *s, bool host);
/* The JSON of one histogram: count, sum, min, max, mean, width, buckets (new ref). */
json_t *stat_hist_json(const StatHist *h);

#endif
