/* Stat table tests: block_realize registers a type's rows in table order (counters,
 * reals, histograms with a parameter-dependent bucket count, per-port counters)
 * before realize runs; duplicate names and malformed rows are errors naming the type
 * and the stat; every shipped block type's table passes the check. */
#include <stdlib.h>
#include <string.h>

#include "kernel/block.h"
#include "kernel/registry.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

typedef struct Fake {
    Block base;
    uint64_t lines;
    bool saw_stats; /* realize found its storage pointers set */
    uint64_t *hits, *errors, *mode;
    double *ratio;
    StatHist *lat;
    uint64_t **out;
} Fake;

static uint32_t fake_buckets(const Block *b)
{
    return (uint32_t)(((const Fake *)b)->lines + 1);
}

static bool fake_realize(Block *b, SimError *err)
{
    Fake *f = (Fake *)b;
    (void)err;
    f->saw_stats = f->hits && f->errors && f->mode && f->ratio && f->lat && f->out;
    return true;
}

static const char *const fake_modes[] = {"off", "on", NULL};

static const StatDef fake_stats[] = {
    STAT(Fake, hits, "hits", STAT_COUNTER, "", "hits"),
    STAT(Fake, ratio, "ratio", STAT_GAUGE, "", "hits per access"),
    STAT(Fake, lat, "lat", STAT_HIST, "ps", "latency", .width = 10,
         .buckets_of = fake_buckets),
    STAT(Fake, out, "_out", STAT_COUNTER, "", "sent out of this port"),
    STAT(Fake, mode, "mode", STAT_ENUM, "", "mode", .choices = fake_modes),
    STAT(Fake, errors, "route_errors", STAT_COUNTER, "", "model error", .is_error = true),
};

static const BlockType fake_type = {
    .name = "fake",
    .size = sizeof(Fake),
    .stat_defs = fake_stats,
    .nstat_defs = sizeof fake_stats / sizeof fake_stats[0],
    .realize = fake_realize,
};

/* A fake block "gpu0.f" with ports "port[0]" and "local", realized into s. */
static Fake *fake_new(const BlockType *t, Stats *s, bool *ok, SimError *err)
{
    Fake *f = calloc(1, sizeof *f);
    Block *b = &f->base;
    b->type = t;
    b->name = "gpu0.f";
    b->stats = s;
    f->lines = 4;
    b->ports = calloc(2, sizeof *b->ports);
    port_init(&b->ports[0], b, 0, "gpu0.f.port[0]", 1);
    port_init(&b->ports[1], b, 1, "gpu0.f.local", 1);
    b->nports = 2;
    *ok = block_realize(b, err);
    return f;
}

static void fake_free(Fake *f)
{
    for (size_t i = 0; i < f->base.nports; i++) {
        port_destroy(&f->base.ports[i]);
    }
    free(f->base.ports);
    free(f);
}

static void test_register(void)
{
    Stats *s = stats_new();
    SimError err;
    bool ok;
    Fake *f = fake_new(&fake_type, s, &ok, &err);
    CHECK(ok && f->saw_stats);
    (*f->hits)++;
    *f->ratio = 0.25;
    stat_hist_add(f->lat, 1000);
    (*f->out[1]) += 2;
    *f->mode = 1;
    json_t *j = stats_json(s);
    char *text = json_dumps(j, JSON_COMPACT);
    CHECK_STR(text,
              "{\"gpu0.f.hits\":1,\"gpu0.f.ratio\":0.25,\"gpu0.f.lat\":{\"count\":1,"
              "\"sum\":1000,\"min\":1000,\"max\":1000,\"mean\":1000.0,\"width\":10,"
              "\"buckets\":[0,0,0,0,1]},\"gpu0.f.port[0]_out\":0,"
              "\"gpu0.f.local_out\":2,\"gpu0.f.mode\":1,\"gpu0.f.route_errors\":0}");
    free(text);
    json_decref(j);
    fake_free(f);
    stats_free(s);
}

static void test_duplicates(void)
{
    static const StatDef twice[] = {
        STAT(Fake, hits, "hits", STAT_COUNTER, "", "hits"),
        STAT(Fake, mode, "mode", STAT_ENUM, "", "mode", .choices = fake_modes),
        STAT(Fake, errors, "hits", STAT_COUNTER, "", "hits again"),
    };
    static const StatDef clash[] = {
        STAT(Fake, hits, "local_out", STAT_COUNTER, "", "a scalar"),
        STAT(Fake, out, "_out", STAT_COUNTER, "", "per port"),
    };
    BlockType t = fake_type;
    t.name = "twice";
    t.stat_defs = twice;
    t.nstat_defs = 3;
    SimError err;
    CHECK(!block_type_check_stats(&t, &err));
    CHECK_STR(err.msg, "block type twice: duplicate stat \"hits\"");
    Stats *s = stats_new();
    bool ok;
    Fake *f = fake_new(&t, s, &ok, &err);
    CHECK(!ok && !f->saw_stats);
    CHECK_STR(err.msg, "block type twice: duplicate stat \"hits\"");
    fake_free(f);
    t.name = "clash";
    t.stat_defs = clash;
    t.nstat_defs = 2;
    CHECK(block_type_check_stats(&t, &err));
    f = fake_new(&t, s, &ok, &err);
    CHECK(!ok);
    CHECK_STR(err.msg, "block type clash: duplicate stat \"local_out\"");
    fake_free(f);
    stats_free(s);
}

static void test_bad_rows(void)
{
    static const StatDef no_width[] = {
        STAT(Fake, lat, "lat", STAT_HIST, "ps", "latency", .buckets = 4),
    };
    static const StatDef real_counter[] = {
        STAT(Fake, ratio, "ratio", STAT_COUNTER, "", "a real counter"),
    };
    static const StatDef error_gauge[] = {
        STAT(Fake, hits, "x_errors", STAT_GAUGE, "", "e", .is_error = true),
    };
    static const StatDef host_error[] = {
        STAT(Fake, errors, "route_errors", STAT_COUNTER, "", "e", .is_error = true,
             .host = true),
    };
    BlockType t = fake_type;
    SimError err;
    t.nstat_defs = 1;
    t.stat_defs = no_width;
    CHECK(!block_type_check_stats(&t, &err));
    CHECK_STR(err.msg, "block type fake: stat 0 (lat) is a histogram without a bucket "
                       "width or count");
    t.stat_defs = real_counter;
    CHECK(!block_type_check_stats(&t, &err));
    t.stat_defs = error_gauge;
    CHECK(!block_type_check_stats(&t, &err));
    t.stat_defs = host_error;
    CHECK(!block_type_check_stats(&t, &err));
    CHECK_STR(err.msg, "block type fake: stat 0 (route_errors) is an error the host "
                       "decides (a model error must follow from the input)");
}

static void test_shipped_tables(void)
{
    size_t n;
    const BlockType *const *types = registry_types(hw_registry(), &n);
    CHECK(n > 0);
    for (size_t i = 0; i < n; i++) {
        SimError err = {0};
        bool ok = block_type_check_stats(types[i], &err);
        if (!ok) {
            fprintf(stderr, "%s\n", err.msg);
        }
        CHECK(ok);
    }
}

int main(void)
{
    RUN(test_register);
    RUN(test_duplicates);
    RUN(test_bad_rows);
    RUN(test_shipped_tables);
    return harness_report();
}
