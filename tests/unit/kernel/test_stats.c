/* Statistics registry tests: registration order, duplicates, histograms, output. */
#include <stdio.h>
#include <stdlib.h>

#include "kernel/stats.h"
#include "tests/unit/harness.h"

static void test_registry(void)
{
    Stats *s = stats_new();
    uint64_t *reads = stats_counter(s, "gpu0.mem", "reads", "reads served");
    double *rate = stats_real(s, "gpu0.mem", "rate", "x");
    StatHist *h = stats_hist(s, "gpu0.cu[0]", "latency", 10, 3, "ps");
    CHECK(reads && rate && h);
    CHECK(stats_counter(s, "gpu0.mem", "reads", "again") == NULL);
    CHECK(stats_hist(s, "gpu0.mem", "bad", 0, 3, "zero width") == NULL);
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
    json_t *j = stats_json(s);
    char *text = json_dumps(j, JSON_COMPACT);
    CHECK_STR(text, "{\"gpu0.mem.reads\":42,\"gpu0.mem.rate\":0.5,"
                    "\"gpu0.cu[0].latency\":{\"count\":3,\"sum\":1020,\"min\":5,"
                    "\"max\":1000,\"mean\":340.0,\"width\":10,\"buckets\":[1,1,1]}}");
    free(text);
    json_decref(j);
    stats_free(s);
}

static void test_many_and_files(void)
{
    Stats *s = stats_new();
    char owner[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(owner, sizeof owner, "b%d", i);
        uint64_t *c = stats_counter(s, owner, "n", "");
        CHECK(c != NULL);
        if (c) {
            *c = (uint64_t)i;
        }
    }
    const uint64_t *c = stats_find_counter(s, "b1234.n");
    CHECK(c && *c == 1234);
    char path[] = "/tmp/mgtlm-stats-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    SimError err;
    CHECK(stats_write_csv(s, path, &err));
    FILE *f = fopen(path, "r");
    char line[64] = "";
    CHECK(f && fgets(line, sizeof line, f));
    CHECK_STR(line, "name,value\n");
    CHECK(fgets(line, sizeof line, f));
    CHECK_STR(line, "b0.n,0\n");
    fclose(f);
    CHECK(stats_write_json(s, path, &err));
    json_t *back = json_load_file(path, 0, NULL);
    CHECK(back && json_integer_value(json_object_get(back, "b1999.n")) == 1999);
    json_decref(back);
    remove(path);
    CHECK(!stats_write_json(s, "/nonexistent-dir/x.json", &err));
    CHECK_STR(err.msg, "/nonexistent-dir/x.json: cannot write: No such file or directory");
    stats_free(s);
}

int main(void)
{
    RUN(test_registry);
    RUN(test_many_and_files);
    return harness_report();
}
