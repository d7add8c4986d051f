/* Statistics registry: named counters, reals and histograms in registration order,
 * each with the StatDef that describes it, and a string hash for duplicate detection
 * and lookup. */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

typedef enum StatValue { STAT_VALUE_U64, STAT_VALUE_REAL, STAT_VALUE_HIST } StatValue;

typedef struct StatEntry {
    char *name;
    const StatDef *def; /* borrowed */
    StatValue store;
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
    uint64_t ***arrays; /* returned by stats_counters */
    size_t narrays;
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
        if (s->entries[i]->store == STAT_VALUE_HIST) {
            free(s->entries[i]->v.hist.buckets);
        }
        free(s->entries[i]->name);
        free(s->entries[i]);
    }
    for (size_t i = 0; i < s->narrays; i++) {
        free(s->arrays[i]);
    }
    free(s->arrays);
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

static char *stats_full_name(const char *owner, const char *name)
{
    size_t len = strlen(owner) + strlen(name) + 2;
    char *full = malloc(len);
    if (full) {
        snprintf(full, len, "%s.%s", owner, name);
    }
    return full;
}

static StatEntry *stats_add(Stats *s, const char *owner, const char *name,
                            const StatDef *def, StatValue store)
{
    char *full = stats_full_name(owner, name);
    if (!full) {
        return NULL;
    }
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
    e->def = def;
    e->store = store;
    s->entries[s->n++] = e;
    *stats_slot(s, full) = e;
    return e;
}

uint64_t *stats_counter(Stats *s, const char *owner, const char *name, const StatDef *def)
{
    StatEntry *e = stats_add(s, owner, name, def, STAT_VALUE_U64);
    return e ? &e->v.counter : NULL;
}

double *stats_real(Stats *s, const char *owner, const char *name, const StatDef *def)
{
    StatEntry *e = stats_add(s, owner, name, def, STAT_VALUE_REAL);
    return e ? &e->v.real : NULL;
}

StatHist *stats_hist(Stats *s, const char *owner, const char *name, const StatDef *def,
                     uint64_t width, uint32_t nbuckets)
{
    if (width == 0 || nbuckets == 0) {
        return NULL;
    }
    uint64_t *buckets = calloc(nbuckets, sizeof *buckets);
    if (!buckets) {
        return NULL;
    }
    StatEntry *e = stats_add(s, owner, name, def, STAT_VALUE_HIST);
    if (!e) {
        free(buckets);
        return NULL;
    }
    e->v.hist.width = width;
    e->v.hist.nbuckets = nbuckets;
    e->v.hist.buckets = buckets;
    return &e->v.hist;
}

uint64_t **stats_counters(Stats *s, const char *owner, const char *const *names, size_t n,
                          const StatDef *def)
{
    uint64_t ***arrays = realloc(s->arrays, (s->narrays + 1) * sizeof *arrays);
    if (!arrays) {
        return NULL;
    }
    s->arrays = arrays;
    uint64_t **v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        return NULL;
    }
    s->arrays[s->narrays++] = v;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] = stats_counter(s, owner, names[i], def))) {
            return NULL;
        }
    }
    return v;
}

bool stats_has(const Stats *s, const char *owner, const char *name)
{
    char *full = stats_full_name(owner, name);
    bool found = full && *stats_slot(s, full);
    free(full);
    return found;
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
    return (e && e->store == STAT_VALUE_U64) ? &e->v.counter : NULL;
}

size_t stats_errors(const Stats *s, void (*fn)(const char *name, uint64_t v, void *ctx),
                    void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const StatEntry *e = s->entries[i];
        if (e->store == STAT_VALUE_U64 && e->def->is_error && e->v.counter != 0) {
            fn(e->name, e->v.counter, ctx);
            n++;
        }
    }
    return n;
}

size_t stats_count(const Stats *s)
{
    return s->n;
}

StatView stats_at(const Stats *s, size_t i)
{
    const StatEntry *e = s->entries[i];
    StatView v = {.name = e->name, .def = e->def};
    switch (e->store) {
    case STAT_VALUE_U64:
        v.store = STAT_STORE_U64;
        v.counter = e->v.counter;
        break;
    case STAT_VALUE_REAL:
        v.store = STAT_STORE_REAL;
        v.real = e->v.real;
        break;
    case STAT_VALUE_HIST:
        v.store = STAT_STORE_HIST;
        v.hist = &e->v.hist;
        break;
    }
    return v;
}

void stats_set_at(Stats *s, size_t i, const StatView *v)
{
    StatEntry *e = s->entries[i];
    switch (e->store) {
    case STAT_VALUE_U64:
        e->v.counter = v->counter;
        break;
    case STAT_VALUE_REAL:
        e->v.real = v->real;
        break;
    case STAT_VALUE_HIST:
        e->v.hist.count = v->hist->count;
        e->v.hist.sum = v->hist->sum;
        e->v.hist.min = v->hist->min;
        e->v.hist.max = v->hist->max;
        memcpy(e->v.hist.buckets, v->hist->buckets,
               e->v.hist.nbuckets * sizeof *e->v.hist.buckets);
        break;
    }
}

const char *stat_kind_name(StatKind k)
{
    static const char *const names[] = {[STAT_COUNTER] = "counter",
                                        [STAT_GAUGE] = "gauge",
                                        [STAT_TIME] = "time",
                                        [STAT_ENUM] = "enum",
                                        [STAT_HIST] = "histogram"};
    return names[k];
}

double stat_hist_mean(const StatHist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

json_t *stat_hist_json(const StatHist *h)
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

/* The values of the statistics whose def's host is host, or of all (all true). */
static json_t *stats_json_of(const Stats *s, bool all, bool host)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < s->n; i++) {
        const StatEntry *e = s->entries[i];
        if (!all && e->def->host != host) {
            continue;
        }
        json_t *v = NULL;
        switch (e->store) {
        case STAT_VALUE_U64:
            v = json_integer((json_int_t)e->v.counter);
            break;
        case STAT_VALUE_REAL:
            v = json_real(e->v.real);
            break;
        case STAT_VALUE_HIST:
            v = stat_hist_json(&e->v.hist);
            break;
        }
        json_object_set_new(obj, e->name, v);
    }
    return obj;
}

json_t *stats_json(const Stats *s)
{
    return stats_json_of(s, true, false);
}

json_t *stats_json_where(const Stats *s, bool host)
{
    return stats_json_of(s, false, host);
}
