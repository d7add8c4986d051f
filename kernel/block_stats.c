/* Stat tables: registering a block's statistics from its type's StatDef rows (each
 * storage pointer written into the state at its row's offset) before realize, and
 * the check of a table's rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"

/* Why row d cannot be registered as declared, or NULL if it can. */
static const char *block_stat_row_fault(const StatDef *d)
{
    if (!d->name || !d->name[0] || !d->unit || !d->doc) {
        return "has no name, unit or doc";
    }
    if ((d->store == STAT_STORE_HIST) != (d->kind == STAT_HIST)) {
        return "is a histogram in storage or kind but not both";
    }
    if (d->store == STAT_STORE_HIST &&
        (d->width == 0 || (!d->buckets && !d->buckets_of))) {
        return "is a histogram without a bucket width or count";
    }
    if (d->store == STAT_STORE_REAL && d->kind != STAT_GAUGE && d->kind != STAT_TIME) {
        return "is a real value that is neither a gauge nor a time";
    }
    if ((d->kind == STAT_ENUM) != (d->choices != NULL)) {
        return "has choices without being an enum, or is an enum without choices";
    }
    if (d->is_error && (d->store != STAT_STORE_U64 || d->kind != STAT_COUNTER)) {
        return "is an error that is not a plain counter";
    }
    if (d->is_error && d->host) {
        return "is an error the host decides (a model error must follow from the input)";
    }
    return NULL;
}

bool block_type_check_stats(const BlockType *t, SimError *err)
{
    for (size_t i = 0; i < t->nstat_defs; i++) {
        const StatDef *d = &t->stat_defs[i];
        const char *fault = block_stat_row_fault(d);
        if (fault) {
            return sim_error_set(err, "block type %s: stat %zu (%s) %s", t->name, i,
                                 d->name ? d->name : "?", fault);
        }
        for (size_t j = 0; j < i && d->store != STAT_STORE_PORTS; j++) {
            const StatDef *e = &t->stat_defs[j];
            if (e->store != STAT_STORE_PORTS && strcmp(e->name, d->name) == 0) {
                return sim_error_set(err, "block type %s: duplicate stat \"%s\"", t->name,
                                     d->name);
            }
        }
    }
    return true;
}

static bool block_stat_duplicate(Block *b, const char *name, SimError *err)
{
    return sim_error_set(err, "block type %s: duplicate stat \"%s\"", b->type->name,
                         name);
}

/* The counters of a per-port row, one per port: "<local port name><suffix>". */
static uint64_t **block_stat_ports(Block *b, const StatDef *d, SimError *err)
{
    char **names = calloc(b->nports ? b->nports : 1, sizeof *names);
    const char *dup = NULL;
    bool ok = names != NULL;
    for (size_t i = 0; ok && !dup && i < b->nports; i++) {
        const char *local = b->ports[i].name + strlen(b->name) + 1;
        size_t len = strlen(local) + strlen(d->name) + 1;
        if ((ok = (names[i] = malloc(len)) != NULL)) {
            snprintf(names[i], len, "%s%s", local, d->name);
            dup = stats_has(b->stats, b->name, names[i]) ? names[i] : NULL;
        }
    }
    uint64_t **v = NULL;
    if (dup) {
        block_stat_duplicate(b, dup, err);
    } else if (!ok || !(v = stats_counters(b->stats, b->name, (const char *const *)names,
                                           b->nports, d))) {
        sim_error_set(err, "%s: out of memory", b->name);
    }
    for (size_t i = 0; names && i < b->nports; i++) {
        free(names[i]);
    }
    free(names);
    return v;
}

static bool block_register_stat(Block *b, const StatDef *d, SimError *err)
{
    char *slot = (char *)b + d->offset;
    if (d->store != STAT_STORE_PORTS && stats_has(b->stats, b->name, d->name)) {
        return block_stat_duplicate(b, d->name, err);
    }
    uint32_t buckets = d->buckets_of ? d->buckets_of(b) : d->buckets;
    if (d->store == STAT_STORE_HIST && buckets == 0) {
        return sim_error_set(err, "%s: histogram %s has no buckets", b->name, d->name);
    }
    bool ok = false;
    switch (d->store) {
    case STAT_STORE_U64:
        ok = (*(uint64_t **)slot = stats_counter(b->stats, b->name, d->name, d)) != NULL;
        break;
    case STAT_STORE_REAL:
        ok = (*(double **)slot = stats_real(b->stats, b->name, d->name, d)) != NULL;
        break;
    case STAT_STORE_HIST:
        ok = (*(StatHist **)slot =
                  stats_hist(b->stats, b->name, d->name, d, d->width, buckets)) != NULL;
        break;
    case STAT_STORE_PORTS:
        return (*(uint64_t ***)slot = block_stat_ports(b, d, err)) != NULL;
    }
    return ok || sim_error_set(err, "%s: out of memory", b->name);
}

bool block_realize(Block *b, SimError *err)
{
    const BlockType *t = b->type;
    if (!block_type_check_stats(t, err)) {
        return false;
    }
    for (size_t i = 0; i < t->nstat_defs; i++) {
        if (!block_register_stat(b, &t->stat_defs[i], err)) {
            return false;
        }
    }
    return !t->realize || t->realize(b, err);
}
