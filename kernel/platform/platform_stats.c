/* The stats file of a built platform (see platform_stats.h).
 * Decisions: a stat's instance is the longest part of its name before a '.' that
 * names a block instance (the host's per-kernel stats, "host.k0.cycles", are the
 * host's "k0.cycles"; until stop 37 the CSV said instance "host.k0" with no type),
 * else its name up to the last '.'; a metadata key's unit comes from its suffix ("_ps":
 * ps, "_s": s), the one naming rule the run and host objects follow; CSV fields are
 * quoted (RFC 4180) only when they hold a comma, a quote or a line break; the statistics
 * the host decides (StatDef.host) go into the host object as its member "stats", there
 * only when there is one, so a run of none writes the host object it always did. */
#include "platform_stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/csv.h"
#include "kernel/xalloc.h"

const Block *platform_stats_owner(const Platform *p, const char *full, const char **stat)
{
    char inst[512];
    for (size_t n = strlen(full); n-- > 0;) {
        if (full[n] != '.' || n >= sizeof inst) {
            continue;
        }
        memcpy(inst, full, n);
        inst[n] = '\0';
        const Block *b = platform_block(p, inst);
        if (b) {
            *stat = full + n + 1;
            return b;
        }
    }
    const char *last = strrchr(full, '.');
    *stat = last && (size_t)(last - full) < sizeof inst ? last + 1 : full;
    return NULL;
}

static json_t *platform_stats_def_json(const StatDef *d)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:b}", "kind", stat_kind_name(d->kind), "unit",
                          d->unit, "doc", d->doc, "error", d->is_error);
    if (d->host) {
        json_object_set_new(o, "host", json_true());
    }
    if (d->choices) {
        json_t *values = json_array();
        for (const char *const *c = d->choices; *c; c++) {
            json_array_append_new(values, json_string(*c));
        }
        json_object_set_new(o, "values", values);
    }
    return o;
}

/* {"type": {"stat": {...}}} for every type with an instance in p, in block order;
 * a per-port row is keyed "<port><suffix>" as `mgtlm blocks` shows it. */
static json_t *platform_stats_types(const Platform *p)
{
    json_t *types = json_object();
    for (size_t i = 0; i < p->nblocks; i++) {
        const BlockType *t = p->blocks[i]->type;
        if (json_object_get(types, t->name)) {
            continue;
        }
        json_t *table = json_object();
        for (size_t k = 0; k < t->nstat_defs; k++) {
            const StatDef *d = &t->stat_defs[k];
            char key[128];
            snprintf(key, sizeof key, "%s%s",
                     d->store == STAT_STORE_PORTS ? "<port>" : "", d->name);
            json_object_set_new(table, key, platform_stats_def_json(d));
        }
        json_object_set_new(types, t->name, table);
    }
    return types;
}

/* host with the statistics the host decides as its member "stats" when there are any
 * (new ref). */
static json_t *platform_stats_host(const Platform *p, json_t *host)
{
    json_t *out = json_copy(host);
    json_t *stats = stats_json_where(p->stats, true);
    if (json_object_size(stats) > 0) {
        json_object_set(out, "stats", stats);
    }
    json_decref(stats);
    return out;
}

json_t *platform_stats_json(const Platform *p, json_t *run, json_t *host)
{
    json_t *instances = json_object();
    for (size_t i = 0; i < p->nblocks; i++) {
        json_object_set_new(instances, p->blocks[i]->name,
                            json_string(p->blocks[i]->type->name));
    }
    json_t *errors = json_array();
    for (size_t i = 0; i < stats_count(p->stats); i++) {
        StatView v = stats_at(p->stats, i);
        if (v.def->is_error) {
            json_array_append_new(errors, json_string(v.name));
        }
    }
    return json_pack("{s:s,s:O,s:o,s:o,s:o,s:o,s:o}", "format", PLATFORM_STATS_FORMAT,
                     "run", run, "host", platform_stats_host(p, host), "instances",
                     instances, "types", platform_stats_types(p), "errors", errors,
                     "stats", stats_json_where(p->stats, false));
}

static FILE *platform_stats_open(const char *path, SimError *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        sim_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    }
    return f;
}

static bool platform_stats_close(FILE *f, const char *path, SimError *err)
{
    bool ok = !ferror(f);
    if (fclose(f) != 0) {
        ok = false;
    }
    return ok || sim_error_set(err, "%s: write failed: %s", path, strerror(errno));
}

bool platform_stats_write_json(const Platform *p, json_t *run, json_t *host,
                               const char *path, SimError *err)
{
    FILE *f = platform_stats_open(path, err);
    if (!f) {
        return false;
    }
    json_t *doc = platform_stats_json(p, run, host);
    json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
    fputc('\n', f);
    json_decref(doc);
    return platform_stats_close(f, path, err);
}

static void platform_stats_row(FILE *f, const char *inst, const char *type,
                               const char *stat, const char *value, const char *unit)
{
    const char *fields[] = {inst, type, stat, value, unit};
    for (size_t i = 0; i < 5; i++) {
        if (i) {
            fputc(',', f);
        }
        csv_field(f, fields[i]);
    }
    fputc('\n', f);
}

static const char *platform_stats_meta_unit(const char *key)
{
    size_t n = strlen(key);
    if (n > 3 && strcmp(key + n - 3, "_ps") == 0) {
        return "ps";
    }
    return n > 2 && strcmp(key + n - 2, "_s") == 0 ? "s" : "";
}

/* The rows of metadata value v called key (objects: one row per member, keys joined
 * by '.'; strings as they are; other values as compact JSON; null as empty). */
static void platform_stats_meta_rows(FILE *f, const char *type, const char *key,
                                     json_t *v)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m) {
            size_t len = strlen(key) + strlen(k) + 2;
            char *sub = xmalloc(len);
            snprintf(sub, len, "%s%s%s", key, key[0] ? "." : "", k);
            platform_stats_meta_rows(f, type, sub, m);
            free(sub);
        }
        return;
    }
    char *text =
        json_is_string(v) ? NULL
        : json_is_null(v)
            ? NULL
            : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(12));
    const char *shown = json_is_string(v) ? json_string_value(v) : text ? text : "";
    platform_stats_row(f, "", type, key, shown, platform_stats_meta_unit(key));
    free(text);
}

static void platform_stats_u64_row(FILE *f, const char *inst, const char *type,
                                   const char *stat, uint64_t v, const char *unit)
{
    char value[24];
    snprintf(value, sizeof value, "%llu", (unsigned long long)v);
    platform_stats_row(f, inst, type, stat, value, unit);
}

static void platform_stats_hist_rows(FILE *f, const char *inst, const char *type,
                                     const char *stat, const StatHist *h,
                                     const char *unit)
{
    char name[160], value[32];
    const struct {
        const char *part;
        uint64_t v;
        const char *unit;
    } parts[] = {{"count", h->count, ""},
                 {"sum", h->sum, unit},
                 {"min", h->min, unit},
                 {"max", h->max, unit},
                 {"width", h->width, unit}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        snprintf(name, sizeof name, "%s.%s", stat, parts[i].part);
        platform_stats_u64_row(f, inst, type, name, parts[i].v, parts[i].unit);
        if (i == 0) {
            snprintf(name, sizeof name, "%s.mean", stat);
            snprintf(value, sizeof value, "%.12g", stat_hist_mean(h));
            platform_stats_row(f, inst, type, name, value, unit);
        }
    }
    for (uint32_t b = 0; b < h->nbuckets; b++) {
        snprintf(name, sizeof name, "%s.bucket%u", stat, b);
        platform_stats_u64_row(f, inst, type, name, h->buckets[b], "");
    }
}

bool platform_stats_write_csv(const Platform *p, json_t *run, json_t *host,
                              const char *path, SimError *err)
{
    FILE *f = platform_stats_open(path, err);
    if (!f) {
        return false;
    }
    fputs("instance,type,stat,value,unit\n", f);
    platform_stats_meta_rows(f, "run", "", run);
    json_t *h = platform_stats_host(p, host);
    platform_stats_meta_rows(f, "host", "", h);
    json_decref(h);
    for (size_t i = 0; i < stats_count(p->stats); i++) {
        StatView v = stats_at(p->stats, i);
        if (v.def->host) {
            continue;
        }
        const char *stat;
        const Block *b = platform_stats_owner(p, v.name, &stat);
        char inst[512];
        snprintf(inst, sizeof inst, "%.*s", (int)(stat == v.name ? 0 : stat - v.name - 1),
                 v.name);
        const char *type = b ? b->type->name : "";
        char value[32];
        switch (v.store) {
        case STAT_STORE_U64:
            platform_stats_u64_row(f, inst, type, stat, v.counter, v.def->unit);
            break;
        case STAT_STORE_REAL:
            snprintf(value, sizeof value, "%.12g", v.real);
            platform_stats_row(f, inst, type, stat, value, v.def->unit);
            break;
        case STAT_STORE_HIST:
            platform_stats_hist_rows(f, inst, type, stat, v.hist, v.def->unit);
            break;
        case STAT_STORE_PORTS:
            break;
        }
    }
    return platform_stats_close(f, path, err);
}
