/* Parameter tables: strict JSON types, bounds, enum choices, lists, defaults, the
 * common "buffer" parameter and canonical JSON. Uses a test-only block type. */
#include <stddef.h>
#include <stdlib.h>

#include "kernel/platform/params.h"
#include "tests/unit/harness.h"

typedef struct Fake {
    Block base;
    uint64_t entries;
    bool on;
    double prob;
    SimTime latency;
    uint64_t size;
    uint64_t bw;
    uint64_t freq;
    int mode;
    char *label;
    U64List routes;
    uint64_t needed;
} Fake;

static const char *const fake_modes[] = {"lru", "fifo", NULL};

static const ParamDef fake_params[] = {
    {"entries", offsetof(Fake, entries), PT_U64, false, "64", 1, 4096, 0, 0, NULL,
     "entries"},
    {"on", offsetof(Fake, on), PT_BOOL, false, "true", 0, 0, 0, 0, NULL, "switch"},
    {"prob", offsetof(Fake, prob), PT_DOUBLE, false, "0.25", 0, 0, 0.0, 1.0, NULL,
     "probability"},
    {"latency", offsetof(Fake, latency), PT_TIME, false, "30ns", 1, 1000000, 0, 0, NULL,
     "delay"},
    {"size", offsetof(Fake, size), PT_SIZE, false, "1.5MiB", 64, 0, 0, 0, NULL,
     "capacity"},
    {"bw", offsetof(Fake, bw), PT_BW, false, "32GB/s", 0, 0, 0, 0, NULL, "bandwidth"},
    {"freq", offsetof(Fake, freq), PT_FREQ, false, "1GHz", 0, 0, 0, 0, NULL, "clock"},
    {"mode", offsetof(Fake, mode), PT_ENUM, false, "fifo", 0, 0, 0, 0, fake_modes,
     "policy"},
    {"label", offsetof(Fake, label), PT_STRING, false, "none", 0, 0, 0, 0, NULL,
     "a name"},
    {"routes", offsetof(Fake, routes), PT_U64_LIST, false, "[3, 1, 2]", 1, 4, 0, 0, NULL,
     "ports"},
    {"needed", offsetof(Fake, needed), PT_U64, false, NULL, 0, 0, 0, 0, NULL, "required"},
};

static const BlockType fake_type = {
    .name = "fake",
    .doc = "test type",
    .size = sizeof(Fake),
    .params = fake_params,
    .nparams = sizeof fake_params / sizeof fake_params[0],
};

static const PlatformInfo fake_plat = {
    .gpus = 1, .mem_bytes = 1 << 20, .clock = 625, .seed = 1};

/* Applies JSON text (NULL = the default) to key; returns the error message or "". */
static const char *apply(Fake *f, const char *key, const char *json)
{
    static SimError err;
    err.msg[0] = '\0';
    const ParamDef *d = params_find(&fake_type, key);
    if (!d) {
        return "(no such param)";
    }
    json_t *v = json ? json_loads(json, JSON_DECODE_ANY, NULL) : NULL;
    if (json && !v) {
        return "(bad test json)";
    }
    bool ok = params_apply(f, d, v, &fake_plat, &err);
    json_decref(v);
    return ok ? "" : err.msg;
}

/* Canonical JSON text of key's value. Caller frees. */
static char *canon(const Fake *f, const char *key)
{
    json_t *v = params_to_json(f, params_find(&fake_type, key));
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(v);
    return s;
}

static void check_canon(const Fake *f, const char *key, const char *want)
{
    char *s = canon(f, key);
    CHECK_STR(s, want);
    free(s);
}

static void test_defaults(void)
{
    Fake f = {0};
    for (size_t i = 0; i + 1 < fake_type.nparams; i++) {
        CHECK_STR(apply(&f, fake_params[i].key, NULL), "");
    }
    CHECK_STR(apply(&f, "buffer", NULL), "");
    CHECK_EQ_U64(f.entries, 64);
    CHECK(f.on);
    CHECK(f.prob == 0.25);
    CHECK_EQ_U64(f.latency, 30000);
    CHECK_EQ_U64(f.size, 1572864);
    CHECK_EQ_U64(f.bw, 32000000000ULL);
    CHECK_EQ_U64(f.freq, 1000000000ULL);
    CHECK_EQ_U64(f.mode, 1);
    CHECK_STR(f.label, "none");
    CHECK_EQ_U64(f.routes.n, 3);
    CHECK(f.routes.n == 3 && f.routes.v[0] == 3 && f.routes.v[2] == 2);
    CHECK_EQ_U64(f.base.buffer, 8);
    check_canon(&f, "entries", "64");
    check_canon(&f, "on", "true");
    check_canon(&f, "prob", "0.25");
    check_canon(&f, "latency", "\"30ns\"");
    check_canon(&f, "size", "\"1536KiB\"");
    check_canon(&f, "bw", "\"32GB/s\"");
    check_canon(&f, "freq", "\"1GHz\"");
    check_canon(&f, "mode", "\"fifo\"");
    check_canon(&f, "label", "\"none\"");
    check_canon(&f, "routes", "[3,1,2]");
    check_canon(&f, "buffer", "8");
    CHECK_STR(apply(&f, "needed", NULL), "missing required parameter needed");
    params_release(&f, fake_params, fake_type.nparams);
    CHECK(f.label == NULL && f.routes.v == NULL && f.routes.n == 0);
}

static void test_u64(void)
{
    Fake f = {0};
    CHECK_STR(apply(&f, "entries", "17"), "");
    CHECK_EQ_U64(f.entries, 17);
    CHECK_STR(apply(&f, "entries", "4096"), "");
    CHECK_STR(apply(&f, "entries", "1"), "");
    CHECK_STR(apply(&f, "entries", "0"), "0 is below minimum 1");
    CHECK_STR(apply(&f, "entries", "5000"), "5000 is above maximum 4096");
    CHECK_STR(apply(&f, "entries", "-1"), "expected a non-negative integer, got -1");
    CHECK_STR(apply(&f, "entries", "\"64\""),
              "expected a non-negative integer, got string");
    CHECK_STR(apply(&f, "entries", "1.5"), "expected a non-negative integer, got real");
    CHECK_STR(apply(&f, "entries", "64.0"), "expected a non-negative integer, got real");
    CHECK_STR(apply(&f, "entries", "null"), "expected a non-negative integer, got null");
    CHECK_EQ_U64(f.entries, 1);
    CHECK_STR(apply(&f, "needed", "9223372036854775807"), "");
    CHECK_EQ_U64(f.needed, 9223372036854775807ULL);
}

static void test_bool_double(void)
{
    Fake f = {0};
    CHECK_STR(apply(&f, "on", "false"), "");
    CHECK(!f.on);
    CHECK_STR(apply(&f, "on", "\"true\""), "expected true or false, got string");
    CHECK_STR(apply(&f, "on", "1"), "expected true or false, got integer");
    CHECK_STR(apply(&f, "prob", "1"), "");
    CHECK(f.prob == 1.0);
    CHECK_STR(apply(&f, "prob", "0"), "");
    CHECK_STR(apply(&f, "prob", "0.01"), "");
    CHECK(f.prob == 0.01);
    CHECK_STR(apply(&f, "prob", "1.5"), "1.5 is above maximum 1");
    CHECK_STR(apply(&f, "prob", "-0.5"), "-0.5 is below minimum 0");
    CHECK_STR(apply(&f, "prob", "\"0.5\""), "expected a number, got string");
    check_canon(&f, "prob", "0.01");
}

static void test_units(void)
{
    Fake f = {0};
    CHECK_STR(apply(&f, "latency", "\"4cycles\""), "");
    CHECK_EQ_U64(f.latency, 2500);
    check_canon(&f, "latency", "\"2500ps\"");
    CHECK_STR(apply(&f, "latency", "\"1us\""), "");
    CHECK_STR(apply(&f, "latency", "\"0ns\""), "0ns is below minimum 1ps");
    CHECK_STR(apply(&f, "latency", "\"2us\""), "2us is above maximum 1us");
    CHECK_STR(apply(&f, "latency", "30"),
              "expected a time string like \"30ns\", got integer");
    CHECK_STR(apply(&f, "latency", "\"30 ns\""),
              "bad time \"30 ns\": unknown unit \" ns\" (expected ps, ns, us, ms, s or "
              "cycles)");
    CHECK_STR(apply(&f, "size", "4096"), "");
    CHECK_EQ_U64(f.size, 4096);
    check_canon(&f, "size", "\"4KiB\"");
    CHECK_STR(apply(&f, "size", "\"2KB\""), "");
    CHECK_EQ_U64(f.size, 2000);
    CHECK_STR(apply(&f, "size", "32"), "32 is below minimum 64B");
    CHECK_STR(apply(&f, "size", "\"32B\""), "32B is below minimum 64B");
    CHECK_STR(apply(&f, "size", "-64"), "expected a non-negative integer, got -64");
    CHECK_STR(apply(&f, "size", "true"),
              "expected a size (bytes or a string like \"64KiB\"), got boolean");
    CHECK_STR(
        apply(&f, "bw", "\"64GB\""),
        "bad bandwidth \"64GB\": unknown unit \"GB\" (expected B/s, KB/s, MB/s, GB/s, "
        "TB/s, KiB/s, MiB/s, GiB/s or TiB/s)");
    CHECK_STR(apply(&f, "bw", "64"),
              "expected a bandwidth string like \"32GB/s\", got integer");
    CHECK_STR(apply(&f, "freq", "\"800MHz\""), "");
    CHECK_EQ_U64(f.freq, 800000000ULL);
    CHECK_STR(apply(&f, "freq", "1000"),
              "expected a frequency string like \"1GHz\", got integer");
}

static void test_enum_string(void)
{
    Fake f = {0};
    CHECK_STR(apply(&f, "mode", "\"lru\""), "");
    CHECK_EQ_U64(f.mode, 0);
    check_canon(&f, "mode", "\"lru\"");
    CHECK_STR(apply(&f, "mode", "\"mru\""),
              "unknown choice \"mru\" (choices: lru, fifo)");
    CHECK_STR(apply(&f, "mode", "\"LRU\""),
              "unknown choice \"LRU\" (choices: lru, fifo)");
    CHECK_STR(apply(&f, "mode", "0"), "expected one of lru, fifo, got integer");
    CHECK_STR(apply(&f, "label", "\"hello\""), "");
    CHECK_STR(f.label, "hello");
    CHECK_STR(apply(&f, "label", "5"), "expected a string, got integer");
    params_release(&f, fake_params, fake_type.nparams);
    CHECK_STR(apply(&f, "label", "\"\""), "");
    check_canon(&f, "label", "\"\"");
    params_release(&f, fake_params, fake_type.nparams);
}

static void test_list(void)
{
    Fake f = {0};
    CHECK_STR(apply(&f, "routes", "[0, 7, 9, 1]"), "");
    CHECK(f.routes.n == 4 && f.routes.v[1] == 7 && f.routes.v[3] == 1);
    check_canon(&f, "routes", "[0,7,9,1]");
    params_release(&f, fake_params, fake_type.nparams);
    CHECK_STR(apply(&f, "routes", "[]"), "list length 0 is below minimum 1");
    CHECK_STR(apply(&f, "routes", "[1,2,3,4,5]"), "list length 5 is above maximum 4");
    CHECK_STR(apply(&f, "routes", "[1,-2]"),
              "element 1: expected a non-negative integer, got -2");
    CHECK_STR(apply(&f, "routes", "[1,\"x\"]"),
              "element 1: expected a non-negative integer, got string");
    CHECK_STR(apply(&f, "routes", "3"), "expected an array of non-negative integers, got "
                                        "integer");
    CHECK(f.routes.v == NULL);
}

static void test_buffer(void)
{
    Fake f = {0};
    const ParamDef *d = params_find(&fake_type, "buffer");
    CHECK(d == params_buffer_def());
    CHECK_STR(apply(&f, "buffer", "4"), "");
    CHECK_EQ_U64(f.base.buffer, 4);
    CHECK_EQ_U64(f.base.nports, 0);
    CHECK(f.base.ports == NULL);
    check_canon(&f, "buffer", "4");
    CHECK_STR(apply(&f, "buffer", "0"), "0 is below minimum 1");
    CHECK_STR(apply(&f, "buffer", "65537"), "65537 is above maximum 65536");
    CHECK(params_find(&fake_type, "nothing") == NULL);
}

static void test_bad_default(void)
{
    static const ParamDef bad[] = {
        {"a", 0, PT_U64, false, "sixty", 0, 0, 0, 0, NULL, ""},
        {"b", 0, PT_TIME, false, "30", 0, 0, 0, 0, NULL, ""},
        {"c", 0, PT_U64, false, "0", 1, 0, 0, 0, NULL, ""},
    };
    uint64_t x = 0;
    SimError err;
    CHECK(!params_apply(&x, &bad[0], NULL, &fake_plat, &err));
    CHECK_STR(err.msg, "default of a: \"sixty\" is not valid JSON");
    CHECK(!params_apply(&x, &bad[1], NULL, &fake_plat, &err));
    CHECK_STR(err.msg,
              "default of b: bad time \"30\": missing unit (expected ps, ns, us, "
              "ms, s or cycles)");
    CHECK(!params_apply(&x, &bad[2], NULL, &fake_plat, &err));
    CHECK_STR(err.msg, "default of c: 0 is below minimum 1");
}

static void test_type_names(void)
{
    char b[32];
    CHECK_STR(params_type_name(PT_U64_LIST), "u64 list");
    CHECK_STR(params_type_name(PT_BW), "bandwidth");
    CHECK_STR(params_format_base(PT_TIME, 1000, b), "1ns");
    CHECK_STR(params_format_base(PT_U64, 1000, b), "1000");
    CHECK_STR(params_format_base(PT_SIZE, 1024, b), "1KiB");
}

int main(void)
{
    RUN(test_defaults);
    RUN(test_u64);
    RUN(test_bool_double);
    RUN(test_units);
    RUN(test_enum_string);
    RUN(test_list);
    RUN(test_buffer);
    RUN(test_bad_default);
    RUN(test_type_names);
    return harness_report();
}
