/* Statistics registry tests: registration order, duplicates, histograms, per-port
 * counter arrays, error counters, reading back (stats_at), overwriting (stats_set_at),
 * JSON, and the JSON of the statistics the host decides apart from the others. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/stats.h"
#include "tests/unit/harness.h"

static const StatDef test_count = {.kind = STAT_COUNTER, .unit = "", .doc = "n"};
static const StatDef test_error = {
    .kind = STAT_COUNTER, .unit = "", .doc = "e", .is_error = true};

static const StatDef test_host = {
    .kind = STAT_COUNTER, .unit = "", .doc = "h", .host = true};

/* A statistic the host decides is in stats_json_where(s, true) alone, the others in
 * stats_json_where(s, false), each in registration order; stats_json has all. */
static void test_host_json(void)
{
    Stats *s = stats_new();
    uint64_t *a = stats_counter(s, "gpu0.disp", "ctas", &test_count);
    uint64_t *b = stats_counter(s, "gpu0.disp", "ctas_spooled", &test_host);
    uint64_t *c = stats_counter(s, "gpu1.disp", "ctas", &test_count);
    CHECK(a && b && c);
    *a = 3;
    *b = 2;
    *c = 5;
    json_t *all = stats_json(s);
    CHECK_EQ_U64(json_object_size(all), 3);
    json_decref(all);
    json_t *in = stats_json_where(s, false), *host = stats_json_where(s, true);
    char *t_in = json_dumps(in, JSON_COMPACT), *t_host = json_dumps(host, JSON_COMPACT);
    CHECK_STR(t_in, "{\"gpu0.disp.ctas\":3,\"gpu1.disp.ctas\":5}");
    CHECK_STR(t_host, "{\"gpu0.disp.ctas_spooled\":2}");
    free(t_in);
    free(t_host);
    json_decref(in);
    json_decref(host);
    stats_free(s);
}

static void test_registry(void)
{
    Stats *s = stats_new();
    uint64_t *reads = stats_counter(s, "gpu0.mem", "reads", &test_count);
    double *rate = stats_real(s, "gpu0.mem", "rate", &test_count);
    StatHist *h = stats_hist(s, "gpu0.cu[0]", "latency", &test_count, 10, 3);
    CHECK(reads && rate && h);
    CHECK(stats_counter(s, "gpu0.mem", "reads", &test_count) == NULL);
    CHECK(stats_hist(s, "gpu0.mem", "bad", &test_count, 0, 3) == NULL);
    CHECK(stats_has(s, "gpu0.mem", "reads"));
    CHECK(!stats_has(s, "gpu0.mem", "writes"));
    *reads = 42;
    *rate = 0.5;
    stat_hist_add(h, 5);
    stat_hist_add(h, 15);
    stat_hist_add(h, 1000);
    CHECK_EQ_U64(h->min, 5);
    CHECK_EQ_U64(h->max, 1000);
    CHECK_EQ_U64(h->buckets[0], 1);
    CHECK_EQ_U64(h->buckets[1], 1);
    CHECK_EQ_U64(h->buckets[2], 1);
    const uint64_t *found = stats_find_counter(s, "gpu0.mem.reads");
    CHECK(found && *found == 42);
    CHECK(stats_find_counter(s, "gpu0.mem.rate") == NULL);
    StatView rv = stats_at(s, 1), hv = stats_at(s, 2);
    CHECK(rv.store == STAT_STORE_REAL && rv.real == 0.5);
    CHECK(hv.store == STAT_STORE_HIST && hv.hist == h);
    CHECK_STR(stat_kind_name(STAT_HIST), "histogram");
    json_t *j = stats_json(s);
    char *text = json_dumps(j, JSON_COMPACT);
    CHECK_STR(text, "{\"gpu0.mem.reads\":42,\"gpu0.mem.rate\":0.5,"
                    "\"gpu0.cu[0].latency\":{\"count\":3,\"sum\":1020,\"min\":5,"
                    "\"max\":1000,\"mean\":340.0,\"width\":10,\"buckets\":[1,1,1]}}");
    free(text);
    json_decref(j);
    stats_free(s);
}

static void test_many(void)
{
    Stats *s = stats_new();
    char owner[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(owner, sizeof owner, "b%d", i);
        uint64_t *c = stats_counter(s, owner, "n", &test_count);
        CHECK(c != NULL);
        if (c) {
            *c = (uint64_t)i;
        }
    }
    const uint64_t *c = stats_find_counter(s, "b1234.n");
    CHECK(c && *c == 1234);
    CHECK_EQ_U64(stats_count(s), 2000);
    StatView v = stats_at(s, 1999);
    CHECK_STR(v.name, "b1999.n");
    CHECK(v.def == &test_count && v.store == STAT_STORE_U64);
    CHECK_EQ_U64(v.counter, 1999);
    stats_free(s);
}

static void test_error_sink(const char *name, uint64_t v, void *ctx)
{
    char *out = ctx;
    size_t used = strlen(out);
    snprintf(out + used, 256 - used, "%s=%llu;", name, (unsigned long long)v);
}

static void test_arrays_and_errors(void)
{
    Stats *s = stats_new();
    const char *const names[] = {"a_out", "b_out", "c_out"};
    uint64_t **v = stats_counters(s, "sw", names, 3, &test_count);
    CHECK(v && v[0] && v[1] && v[2] && v[0] != v[1]);
    CHECK(stats_counters(s, "sw", names + 2, 1, &test_count) == NULL);
    uint64_t *bad = stats_counter(s, "sw", "route_errors", &test_error);
    uint64_t *zero = stats_counter(s, "sw", "data_errors", &test_error);
    uint64_t *plain = stats_counter(s, "sw", "plain_errors", &test_count);
    CHECK(bad && zero && plain);
    *v[1] = 7;
    *bad = 3;
    *plain = 9;
    const uint64_t *found = stats_find_counter(s, "sw.b_out");
    CHECK(found && *found == 7);
    char out[256] = "";
    CHECK_EQ_U64(stats_errors(s, test_error_sink, out), 1);
    CHECK_STR(out, "sw.route_errors=3;");
    stats_free(s);
}

/* stats_set_at overwrites a value of each store with another registry's (how MPI
 * ranks merge into rank 0's). */
static void test_set_at(void)
{
    Stats *a = stats_new(), *b = stats_new();
    uint64_t *ca = stats_counter(a, "x", "n", &test_count);
    double *ra = stats_real(a, "x", "r", &test_count);
    StatHist *ha = stats_hist(a, "x", "h", &test_count, 10, 3);
    uint64_t *cb = stats_counter(b, "x", "n", &test_count);
    double *rb = stats_real(b, "x", "r", &test_count);
    StatHist *hb = stats_hist(b, "x", "h", &test_count, 10, 3);
    CHECK(ca && ra && ha && cb && rb && hb);
    *ca = 7;
    *ra = 2.25;
    stat_hist_add(ha, 25);
    stat_hist_add(ha, 3);
    stat_hist_add(hb, 12);
    for (size_t i = 0; i < 3; i++) {
        StatView v = stats_at(a, i);
        stats_set_at(b, i, &v);
    }
    CHECK_EQ_U64(*cb, 7);
    CHECK(*rb == 2.25);
    CHECK(hb != ha && hb->buckets != ha->buckets);
    CHECK_EQ_U64(hb->count, 2);
    CHECK_EQ_U64(hb->sum, 28);
    CHECK_EQ_U64(hb->min, 3);
    CHECK_EQ_U64(hb->max, 25);
    CHECK_EQ_U64(hb->buckets[0], 1);
    CHECK_EQ_U64(hb->buckets[1], 0);
    CHECK_EQ_U64(hb->buckets[2], 1);
    stats_free(a);
    stats_free(b);
}

int main(void)
{
    RUN(test_registry);
    RUN(test_set_at);
    RUN(test_arrays_and_errors);
    RUN(test_many);
    RUN(test_host_json);
    return harness_report();
}
