/* Cost reports: an ordered list of storage and time items (see cost.h). */
#include "cost.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

typedef struct CostItem {
    char *owner, *what, *doc;
    bool is_time;
    uint64_t entries, bits_per_entry;
    SimTime time;
} CostItem;

struct CostReport {
    CostItem *items;
    size_t n, cap;
};

CostReport *cost_report_new(void)
{
    return calloc(1, sizeof(CostReport));
}

void cost_report_free(CostReport *r)
{
    if (!r) {
        return;
    }
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].owner);
        free(r->items[i].what);
        free(r->items[i].doc);
    }
    free(r->items);
    free(r);
}

static char *cost_strdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "mgtlm: out of memory in a cost report\n");
        abort();
    }
    return d;
}

static CostItem *cost_push(CostReport *r, const char *owner, const char *what,
                           const char *doc)
{
    r->items = xgrow(r->items, &r->cap, r->n + 1, sizeof *r->items, 16);
    CostItem *it = &r->items[r->n++];
    memset(it, 0, sizeof *it);
    it->owner = cost_strdup(owner);
    it->what = cost_strdup(what);
    it->doc = cost_strdup(doc);
    return it;
}

void cost_add_storage(CostReport *r, const char *owner, const char *what,
                      uint64_t entries, uint64_t bits_per_entry, const char *doc)
{
    CostItem *it = cost_push(r, owner, what, doc);
    it->entries = entries;
    it->bits_per_entry = bits_per_entry;
}

void cost_add_time(CostReport *r, const char *owner, const char *what, SimTime t,
                   const char *doc)
{
    CostItem *it = cost_push(r, owner, what, doc);
    it->is_time = true;
    it->time = t;
}

uint64_t cost_report_total_bits(const CostReport *r)
{
    uint64_t total = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (!r->items[i].is_time) {
            total += r->items[i].entries * r->items[i].bits_per_entry;
        }
    }
    return total;
}

json_t *cost_report_json(const CostReport *r)
{
    json_t *items = json_array();
    for (size_t i = 0; i < r->n; i++) {
        const CostItem *it = &r->items[i];
        json_t *o;
        if (it->is_time) {
            o = json_pack("{s:s,s:s,s:I,s:s}", "instance", it->owner, "what", it->what,
                          "time_ps", (json_int_t)it->time, "doc", it->doc);
        } else {
            uint64_t bits = it->entries * it->bits_per_entry;
            o = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:s}", "instance", it->owner, "what",
                          it->what, "entries", (json_int_t)it->entries, "bits_per_entry",
                          (json_int_t)it->bits_per_entry, "total_bits", (json_int_t)bits,
                          "total_bytes", (json_int_t)((bits + 7) / 8), "doc", it->doc);
        }
        json_array_append_new(items, o);
    }
    uint64_t total = cost_report_total_bits(r);
    return json_pack("{s:o,s:I,s:I}", "items", items, "total_bits", (json_int_t)total,
                     "total_bytes", (json_int_t)((total + 7) / 8));
}
