/* The host's statistics for the summary and the progress line (see
 * summary_trace.h). A statistic is read whatever its storage (a counter or a real
 * value), so the figures do not depend on how the host stores them. */
#include "summary_trace.h"

#include <string.h>

const Block *summary_trace_host(const Platform *p)
{
    for (size_t i = 0; i < p->nblocks; i++) {
        if (strcmp(p->blocks[i]->type->name, "host") == 0) {
            return p->blocks[i];
        }
    }
    return NULL;
}

double summary_trace_value(const Platform *p, const Block *b, const char *stat)
{
    char name[600];
    snprintf(name, sizeof name, "%s.%s", b->name, stat);
    for (size_t i = 0, n = stats_count(p->stats); i < n; i++) {
        StatView v = stats_at(p->stats, i);
        if (strcmp(v.name, name) == 0) {
            return v.store == STAT_STORE_U64    ? (double)v.counter
                   : v.store == STAT_STORE_REAL ? v.real
                                                : 0.0;
        }
    }
    return 0.0;
}

void summary_trace_ctas(const Platform *p, const uint64_t **done, const uint64_t **total)
{
    const Block *h = summary_trace_host(p);
    *done = *total = NULL;
    if (!h) {
        return;
    }
    char name[600];
    snprintf(name, sizeof name, "%s.ctas_done", h->name);
    const uint64_t *d = stats_find_counter(p->stats, name);
    snprintf(name, sizeof name, "%s.ctas", h->name);
    const uint64_t *t = stats_find_counter(p->stats, name);
    if (d && t) {
        *done = d;
        *total = t;
    }
}
