/* Run summary (see summary.h; docs/stats.md says what each figure is).
 * Decisions: times print in the largest unit (ps, ns, us, ms, s) that keeps the
 * largest value of a row at 1 or more; bandwidths are bytes on the wire (payload,
 * overhead and padding) per simulated ns, i.e. GB/s, and utilisation the fraction of
 * the simulated time a link direction spent serialising; with more than
 * SUMMARY_LINKS links only the busiest are listed unless --all. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"
#include "summary_agg.h"
#include "summary_trace.h"

#define SUMMARY_LINKS 8

static const struct {
    double ps;
    const char *name;
} summary_time_units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}, {1, "ps"}};

/* The unit for times up to max ps, as an index in summary_time_units. */
static size_t summary_time_scale(double max)
{
    size_t i = 0;
    while (i + 1 < sizeof summary_time_units / sizeof summary_time_units[0] &&
           max < summary_time_units[i].ps) {
        i++;
    }
    return i;
}

static void summary_time(FILE *f, double ps, size_t scale)
{
    fprintf(f, "%.3f %s", ps / summary_time_units[scale].ps,
            summary_time_units[scale].name);
}

static double summary_ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static double summary_ratio_d(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

static uint64_t summary_sum(const SummaryAggs *aggs, const char *type, const char *stat)
{
    const SummaryAgg *a = summary_agg_find(aggs, type, stat);
    return a ? a->sum : 0;
}

static uint64_t summary_counter(const Platform *p, const char *inst, const char *stat)
{
    char name[600];
    snprintf(name, sizeof name, "%s.%s", inst, stat);
    const uint64_t *v = stats_find_counter(p->stats, name);
    return v ? *v : 0;
}

typedef struct SummaryLink {
    const char *name;
    double gbps[2], util[2];
} SummaryLink;

static int summary_link_cmp(const void *x, const void *y)
{
    const SummaryLink *a = x, *b = y;
    double ua = a->util[0] > a->util[1] ? a->util[0] : a->util[1];
    double ub = b->util[0] > b->util[1] ? b->util[0] : b->util[1];
    return ua < ub ? 1 : ua > ub ? -1 : strcmp(a->name, b->name);
}

/* One line per link direction pair: GB/s and utilisation, busiest first. */
static void summary_links(FILE *f, const Platform *p, SimTime now, bool all)
{
    SummaryLink *links = xcalloc(p->nblocks, sizeof *links);
    size_t n = 0;
    for (size_t i = 0; i < p->nblocks; i++) {
        const Block *b = p->blocks[i];
        if (strcmp(b->type->name, "link") != 0) {
            continue;
        }
        SummaryLink *l = &links[n++];
        l->name = b->name;
        for (int d = 0; d < 2; d++) {
            const char *dir = d ? "ba" : "ab";
            char stat[32];
            uint64_t bytes = 0;
            const char *parts[] = {"payload_bytes", "overhead_bytes", "padding_bytes"};
            for (size_t k = 0; k < 3; k++) {
                snprintf(stat, sizeof stat, "%s_%s", dir, parts[k]);
                bytes += summary_counter(p, b->name, stat);
            }
            snprintf(stat, sizeof stat, "%s_busy_ps", dir);
            l->gbps[d] = now ? (double)bytes * 1000.0 / (double)now : 0.0;
            l->util[d] = summary_ratio(summary_counter(p, b->name, stat), now);
        }
    }
    if (n == 0) {
        free(links);
        return;
    }
    qsort(links, n, sizeof *links, summary_link_cmp);
    size_t shown = all || n <= SUMMARY_LINKS ? n : SUMMARY_LINKS;
    fprintf(f, "  links (a->b, b->a: GB/s on the wire, utilisation)%s\n",
            shown < n ? ", busiest first" : "");
    for (size_t i = 0; i < shown; i++) {
        fprintf(f, "    %-28s %8.3f GB/s %5.1f%%  %8.3f GB/s %5.1f%%\n", links[i].name,
                links[i].gbps[0], 100.0 * links[i].util[0], links[i].gbps[1],
                100.0 * links[i].util[1]);
    }
    if (shown < n) {
        fprintf(f, "    ... %zu more links (--all lists them)\n", n - shown);
    }
    free(links);
}

/* cu read latency: mean, p50 and p99 over every cu's histogram. */
static void summary_latency(FILE *f, const SummaryAggs *aggs)
{
    const SummaryAgg *a = summary_agg_find(aggs, "cu", "read_latency");
    if (!a || a->hist.count == 0) {
        return;
    }
    const StatHist *h = &a->hist;
    fprintf(f, "  %-28s mean %.3f ns, p50 %.3f ns, p99 %.3f ns (%llu reads)\n",
            "read latency", stat_hist_mean(h) / 1e3,
            (double)summary_agg_percentile(h, 50) / 1e3,
            (double)summary_agg_percentile(h, 99) / 1e3, (unsigned long long)h->count);
}

/* Each present mechanism's figure: a ratio of summed counters, num / (den + den2). */
static void summary_mechanisms(FILE *f, const SummaryAggs *aggs)
{
    static const struct {
        const char *label, *type, *num, *den, *den2, *what;
        bool rate; /* a fraction shown in % (else a plain ratio) */
    } figs[] = {
        {"CoDec", "codec", "entries_out", "packets_out", NULL, "responses per packet",
         false},
        {"FinePack", "packetizer", "stores", "packets", NULL, "stores per packet", false},
        {"RDMA cache", "rdma_cache", "read_hits", "read_hits", "read_misses",
         "read hit rate", true},
        {"RDC (CARVE)", "rdc", "hits", "lookups", NULL, "hit rate", true},
    };
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        if (!summary_agg_find(aggs, figs[i].type, figs[i].num)) {
            continue;
        }
        unsigned long long num = summary_sum(aggs, figs[i].type, figs[i].num);
        unsigned long long den =
            summary_sum(aggs, figs[i].type, figs[i].den) +
            (figs[i].den2 ? summary_sum(aggs, figs[i].type, figs[i].den2) : 0);
        if (figs[i].rate) {
            fprintf(f, "  %-28s %s %.1f%% (%llu of %llu)\n", figs[i].label, figs[i].what,
                    100.0 * summary_ratio(num, den), num, den);
        } else {
            fprintf(f, "  %-28s %.3f %s (%llu over %llu)\n", figs[i].label,
                    summary_ratio(num, den), figs[i].what, num, den);
        }
    }
    static const char *const dirs[] = {"dir_baseline", "dir_hmg", "dir_rec"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (summary_agg_find(aggs, dirs[i], "invalidates")) {
            fprintf(f, "  %-28s %llu invalidates\n", dirs[i],
                    (unsigned long long)summary_sum(aggs, dirs[i], "invalidates"));
        }
    }
}

/* A trace-driven run's figures (with a host block): execution time (the host's
 * exec_ps; while kernels are left, a run stopped early, it is unknown and the IPC is
 * taken over the simulated time), kernels and CTAs ended, warp instructions, IPC
 * (warp instructions per platform clock cycle, every SM of every GPU together). */
static void summary_trace(FILE *f, const Platform *p, SimTime now)
{
    const Block *h = summary_trace_host(p);
    if (!h) {
        return;
    }
    double exec = summary_trace_value(p, h, "exec_ps");
    double kernels = summary_trace_value(p, h, "kernels");
    double done = summary_trace_value(p, h, "kernels_done");
    double insts = summary_trace_value(p, h, "warp_insts");
    bool finished = done >= kernels && exec > 0;
    fprintf(f, "  %-28s ", "execution time");
    if (finished) {
        summary_time(f, exec, summary_time_scale(exec));
        fputc('\n', f);
    } else {
        fprintf(f, "unfinished (%.0f of %.0f kernels ended)\n", done, kernels);
    }
    fprintf(f, "  %-28s %.0f of %.0f ended (%.0f of %.0f CTAs)\n", "kernels", done,
            kernels, summary_trace_value(p, h, "ctas_done"),
            summary_trace_value(p, h, "ctas"));
    fprintf(f, "  %-28s %.0f\n", "warp instructions", insts);
    double cycles = (finished ? exec : (double)now) / (double)p->desc.info.clock;
    fprintf(f, "  %-28s %.3f warp instructions per cycle (all SMs, %.0f cycles%s)\n",
            "IPC", summary_ratio_d(insts, cycles), cycles, finished ? "" : " simulated");
}

static void summary_headline(FILE *f, const Platform *p, const SummaryAggs *aggs,
                             SimTime now, bool all)
{
    summary_trace(f, p, now);
    fprintf(f, "  %-28s ", "simulated time");
    summary_time(f, (double)now, summary_time_scale((double)now));
    fputc('\n', f);
    const SummaryAgg *fin = summary_agg_find(aggs, "cu", "finish_ps");
    if (fin && fin->max > 0) {
        fprintf(f, "  %-28s ", "last response (cu)");
        summary_time(f, fin->max, summary_time_scale(fin->max));
        fputc('\n', f);
    }
    uint64_t reads = summary_sum(aggs, "cu", "reads");
    if (reads) {
        uint64_t remote = summary_sum(aggs, "cu", "remote_reads");
        fprintf(f, "  %-28s %.1f%% (%llu of %llu cu reads)\n", "remote reads",
                100.0 * summary_ratio(remote, reads), (unsigned long long)remote,
                (unsigned long long)reads);
    }
    if (summary_agg_find(aggs, "rdma", "bytes_out")) {
        uint64_t bytes = summary_sum(aggs, "rdma", "bytes_out");
        fprintf(f, "  %-28s %llu B (%.3f GB/s)\n", "inter-GPU data (rdma out)",
                (unsigned long long)bytes,
                now ? (double)bytes * 1000.0 / (double)now : 0.0);
    }
    summary_latency(f, aggs);
    summary_mechanisms(f, aggs);
    summary_links(f, p, now, all);
}

static void summary_row(FILE *f, const SummaryAgg *a)
{
    const StatDef *d = a->def;
    const char *unit = d->unit;
    bool ps = strcmp(unit, "ps") == 0;
    fprintf(f, "    %-34s %-9s ", a->key, stat_kind_name(d->kind));
    switch (d->kind) {
    case STAT_COUNTER:
        fprintf(f, "%llu%s%s", (unsigned long long)a->sum, unit[0] ? " " : "", unit);
        break;
    case STAT_GAUGE:
    case STAT_TIME: {
        double mean = a->n ? a->total / (double)a->n : 0.0;
        if (ps) {
            size_t s = summary_time_scale(a->max);
            fputs("min ", f);
            summary_time(f, a->min, s);
            fputs(", mean ", f);
            summary_time(f, mean, s);
            fputs(", max ", f);
            summary_time(f, a->max, s);
        } else {
            fprintf(f, "min %.6g, mean %.6g, max %.6g%s%s", a->min, mean, a->max,
                    unit[0] ? " " : "", unit);
        }
        break;
    }
    case STAT_ENUM: {
        const char *sep = "";
        size_t nchoices = 0;
        while (d->choices[nchoices]) {
            nchoices++;
        }
        for (size_t k = 0; k < a->nstates; k++) {
            if (a->states[k]) {
                fprintf(f, "%s%s x%llu", sep, k < nchoices ? d->choices[k] : "?",
                        (unsigned long long)a->states[k]);
                sep = ", ";
            }
        }
        break;
    }
    case STAT_HIST: {
        const StatHist *h = &a->hist;
        double p50 = (double)summary_agg_percentile(h, 50);
        double p99 = (double)summary_agg_percentile(h, 99);
        fprintf(f, "count %llu, mean ", (unsigned long long)h->count);
        if (ps) {
            size_t s = summary_time_scale((double)h->max);
            summary_time(f, stat_hist_mean(h), s);
            fputs(", p50 ", f);
            summary_time(f, p50, s);
            fputs(", p99 ", f);
            summary_time(f, p99, s);
        } else {
            fprintf(f, "%.6g, p50 %.6g, p99 %.6g%s%s", stat_hist_mean(h), p50, p99,
                    unit[0] ? " " : "", unit);
        }
        break;
    }
    }
    fputc('\n', f);
}

void summary_print(FILE *f, const Platform *p, SimTime now, bool all)
{
    SummaryAggs aggs;
    summary_agg_build(p, &aggs);
    summary_headline(f, p, &aggs, now, all);
    size_t hidden = 0;
    for (size_t i = 0; i < aggs.n; i++) {
        hidden += !all && summary_agg_zero(&aggs.v[i]);
    }
    fprintf(f,
            "  by block type (counters summed; times and gauges min/mean/max over "
            "instances)%s\n",
            hidden ? "" : ":");
    if (hidden) {
        fprintf(f, "  %zu statistics that stayed zero are hidden (--all lists them):\n",
                hidden);
    }
    for (size_t i = 0; i < aggs.n; i++) {
        if (all || !summary_agg_zero(&aggs.v[i])) {
            summary_row(f, &aggs.v[i]);
        }
    }
    summary_agg_free(&aggs);
}

static void summary_error(const char *name, uint64_t v, void *ctx)
{
    fprintf(ctx, "mgtlm: model error: %s = %lld\n", name, (long long)v);
}

size_t summary_report_errors(FILE *f, const Platform *p)
{
    return stats_errors(p->stats, summary_error, f);
}
