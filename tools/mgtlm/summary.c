/* Run summary: statistics totalled per block type ("cu.reads" = the sum over every cu
 * instance), histogram means weighted by their counts, and the model-error check. */
#include "summary.h"

#include <string.h>

/* The block type of the instance that registered stat `full` ("gpu0.cu[1].reads"),
 * or NULL. Stat names contain no '.', so the instance is everything before the last. */
static const char *summary_type_of(const Platform *p, const char *full)
{
    const char *dot = strrchr(full, '.');
    if (!dot || (size_t)(dot - full) >= 256) {
        return NULL;
    }
    char inst[256];
    memcpy(inst, full, (size_t)(dot - full));
    inst[dot - full] = '\0';
    const Block *b = platform_block(p, inst);
    return b ? b->type->name : NULL;
}

static void summary_add(json_t *totals, const char *key, json_int_t count, json_int_t sum)
{
    json_t *cell = json_object_get(totals, key);
    if (!cell) {
        cell = json_pack("{s:I,s:I}", "count", (json_int_t)0, "sum", (json_int_t)0);
        json_object_set_new(totals, key, cell);
    }
    json_object_set_new(
        cell, "count",
        json_integer(json_integer_value(json_object_get(cell, "count")) + count));
    json_object_set_new(
        cell, "sum",
        json_integer(json_integer_value(json_object_get(cell, "sum")) + sum));
}

void summary_print(FILE *f, const Platform *p)
{
    json_t *stats = stats_json(p->stats);
    json_t *counters = json_object();
    json_t *hists = json_object();
    const char *name;
    json_t *value;
    json_object_foreach(stats, name, value) {
        const char *type = summary_type_of(p, name);
        if (!type) {
            continue;
        }
        char key[320];
        snprintf(key, sizeof key, "%s.%s", type, strrchr(name, '.') + 1);
        if (json_is_integer(value)) {
            summary_add(counters, key, 1, json_integer_value(value));
        } else if (json_is_object(value)) {
            summary_add(hists, key, json_integer_value(json_object_get(value, "count")),
                        json_integer_value(json_object_get(value, "sum")));
        }
    }
    json_object_foreach(counters, name, value) {
        fprintf(f, "  %-36s %lld\n", name,
                (long long)json_integer_value(json_object_get(value, "sum")));
    }
    json_object_foreach(hists, name, value) {
        json_int_t count = json_integer_value(json_object_get(value, "count"));
        json_int_t sum = json_integer_value(json_object_get(value, "sum"));
        fprintf(f, "  %-36s mean %.1f over %lld\n", name,
                count ? (double)sum / (double)count : 0.0, (long long)count);
    }
    json_decref(counters);
    json_decref(hists);
    json_decref(stats);
}

static void summary_error(const char *name, uint64_t v, void *ctx)
{
    fprintf(ctx, "mgtlm: model error: %s = %lld\n", name, (long long)v);
}

size_t summary_report_errors(FILE *f, const Platform *p)
{
    return stats_errors(p->stats, summary_error, f);
}
