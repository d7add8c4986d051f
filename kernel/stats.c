/* Statistics registry: named counters, reals and histograms in registration order,
 * with a string hash for duplicate detection and lookup. */
#include "stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum StatKind { STAT_COUNTER, STAT_REAL, STAT_HIST } StatKind;

typedef struct StatEntry {
    char *name;
    const char *doc;
    StatKind kind;
    union {
        uint64_t counter;
        double real;
        StatHist hist;
    } v;
} StatEntry;

struct Stats {
    StatEntry **entries;
    size_t n, cap;
    StatEntry **table; /* open addressing by name */
    size_t table_mask;
};

static size_t stats_hash(const char *s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++) {
        h = (h ^ (uint8_t)*s) * UINT64_C(1099511628211);
    }
    return (size_t)h;
}

Stats *stats_new(void)
{
    Stats *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->table = calloc(256, sizeof *s->table);
    if (!s->table) {
        free(s);
        return NULL;
    }
    s->table_mask = 255;
    return s;
}

void stats_free(Stats *s)
{
    if (!s) {
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->entries[i]->kind == STAT_HIST) {
            free(s->entries[i]->v.hist.buckets);
        }
        free(s->entries[i]->name);
        free(s->entries[i]);
    }
    free(s->entries);
    free(s->table);
    free(s);
}

static StatEntry **stats_slot(const Stats *s, const char *name)
{
    size_t i = stats_hash(name) & s->table_mask;
    while (s->table[i] && strcmp(s->table[i]->name, name) != 0) {
        i = (i + 1) & s->table_mask;
    }
    return &s->table[i];
}

static bool stats_grow(Stats *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        StatEntry **entries = realloc(s->entries, cap * sizeof *entries);
        if (!entries) {
            return false;
        }
        s->entries = entries;
        s->cap = cap;
    }
    if ((s->n + 1) * 2 > s->table_mask + 1) {
        size_t size = (s->table_mask + 1) * 2;
        StatEntry **old = s->table;
        size_t old_size = s->table_mask + 1;
        s->table = calloc(size, sizeof *s->table);
        if (!s->table) {
            s->table = old;
            return false;
        }
        s->table_mask = size - 1;
        for (size_t i = 0; i < old_size; i++) {
            if (old[i]) {
                *stats_slot(s, old[i]->name) = old[i];
            }
        }
        free(old);
    }
    return true;
}

static StatEntry *stats_add(Stats *s, const char *owner, const char *name, const char *doc,
                            StatKind kind)
{
    size_t len = strlen(owner) + strlen(name) + 2;
    char *full = malloc(len);
    if (!full) {
        return NULL;
    }
    snprintf(full, len, "%s.%s", owner, name);
    if (*stats_slot(s, full) || !stats_grow(s)) {
        free(full);
        return NULL;
    }
    StatEntry *e = calloc(1, sizeof *e);
    if (!e) {
        free(full);
        return NULL;
    }
    e->name = full;
    e->doc = doc;
    e->kind = kind;
    s->entries[s->n++] = e;
    *stats_slot(s, full) = e;
    return e;
}

uint64_t *stats_counter(Stats *s, const char *owner, const char *name, const char *doc)
{
    StatEntry *e = stats_add(s, owner, name, doc, STAT_COUNTER);
    return e ? &e->v.counter : NULL;
}

double *stats_real(Stats *s, const char *owner, const char *name, const char *doc)
{
    StatEntry *e = stats_add(s, owner, name, doc, STAT_REAL);
    return e ? &e->v.real : NULL;
}

StatHist *stats_hist(Stats *s, const char *owner, const char *name, uint64_t width,
                     uint32_t nbuckets, const char *doc)
{
    if (width == 0 || nbuckets == 0) {
        return NULL;
    }
    uint64_t *buckets = calloc(nbuckets, sizeof *buckets);
    if (!buckets) {
        return NULL;
    }
    StatEntry *e = stats_add(s, owner, name, doc, STAT_HIST);
    if (!e) {
        free(buckets);
        return NULL;
    }
    e->v.hist.width = width;
    e->v.hist.nbuckets = nbuckets;
    e->v.hist.buckets = buckets;
    return &e->v.hist;
}

void stat_hist_add(StatHist *h, uint64_t v)
{
    if (h->count == 0 || v < h->min) {
        h->min = v;
    }
    if (v > h->max) {
        h->max = v;
    }
    h->count++;
    h->sum += v;
    uint64_t b = v / h->width;
    h->buckets[b < h->nbuckets ? b : h->nbuckets - 1]++;
}

const uint64_t *stats_find_counter(const Stats *s, const char *full_name)
{
    StatEntry *e = *stats_slot(s, full_name);
    return (e && e->kind == STAT_COUNTER) ? &e->v.counter : NULL;
}

static double stat_hist_mean(const StatHist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

static json_t *stats_hist_json(const StatHist *h)
{
    json_t *buckets = json_array();
    for (uint32_t i = 0; i < h->nbuckets; i++) {
        json_array_append_new(buckets, json_integer((json_int_t)h->buckets[i]));
    }
    return json_pack("{s:I,s:I,s:I,s:I,s:f,s:I,s:o}", "count", (json_int_t)h->count,
                     "sum", (json_int_t)h->sum, "min", (json_int_t)h->min, "max",
                     (json_int_t)h->max, "mean", stat_hist_mean(h), "width",
                     (json_int_t)h->width, "buckets", buckets);
}

json_t *stats_json(const Stats *s)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < s->n; i++) {
        const StatEntry *e = s->entries[i];
        json_t *v = NULL;
        switch (e->kind) {
        case STAT_COUNTER:
            v = json_integer((json_int_t)e->v.counter);
            break;
        case STAT_REAL:
            v = json_real(e->v.real);
            break;
        case STAT_HIST:
            v = stats_hist_json(&e->v.hist);
            break;
        }
        json_object_set_new(obj, e->name, v);
    }
    return obj;
}

static FILE *stats_open(const char *path, SimError *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        sim_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    }
    return f;
}

static bool stats_close(FILE *f, const char *path, SimError *err)
{
    bool ok = !ferror(f);
    if (fclose(f) != 0) {
        ok = false;
    }
    return ok || sim_error_set(err, "%s: write failed: %s", path, strerror(errno));
}

bool stats_write_json(const Stats *s, const char *path, SimError *err)
{
    FILE *f = stats_open(path, err);
    if (!f) {
        return false;
    }
    json_t *obj = stats_json(s);
    json_dumpf(obj, f, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
    fputc('\n', f);
    json_decref(obj);
    return stats_close(f, path, err);
}

bool stats_write_csv(const Stats *s, const char *path, SimError *err)
{
    FILE *f = stats_open(path, err);
    if (!f) {
        return false;
    }
    fputs("name,value\n", f);
    for (size_t i = 0; i < s->n; i++) {
        const StatEntry *e = s->entries[i];
        const StatHist *h = &e->v.hist;
        switch (e->kind) {
        case STAT_COUNTER:
            fprintf(f, "%s,%llu\n", e->name, (unsigned long long)e->v.counter);
            break;
        case STAT_REAL:
            fprintf(f, "%s,%.12g\n", e->name, e->v.real);
            break;
        case STAT_HIST:
            fprintf(f, "%s.count,%llu\n%s.mean,%.12g\n%s.min,%llu\n%s.max,%llu\n",
                    e->name, (unsigned long long)h->count, e->name, stat_hist_mean(h),
                    e->name, (unsigned long long)h->min, e->name,
                    (unsigned long long)h->max);
            for (uint32_t b = 0; b < h->nbuckets; b++) {
                fprintf(f, "%s.bucket%u,%llu\n", e->name, b,
                        (unsigned long long)h->buckets[b]);
            }
            break;
        }
    }
    return stats_close(f, path, err);
}
