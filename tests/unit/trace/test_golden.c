/* Golden vectors: loading (line-numbered errors), field rules (hex numeric, data
 * byte-wise case-insensitive, defaults of absent optional fields), and comparison in
 * the exact, order and set modes, each with a mismatch that must be detected;
 * declared commands are accepted only when the caller's list names them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/harness.h"
#include "tools/mgtlm/golden.h"

static char tmpdir[] = "/tmp/mgtlm-golden-XXXXXX";

/* Writes text to a file in tmpdir and returns its path (static buffer). */
static const char *put(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static json_t *obs(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    CHECK(v != NULL);
    return v;
}

static const char *const three =
    "{\"t\":1000,\"port\":\"a.out\",\"ev\":\"send\",\"id\":1,\"cmd\":\"read\"}\n"
    "\n"
    "{\"t\":2000,\"port\":\"b.in\",\"ev\":\"recv\",\"id\":1,\"addr\":\"0x0040\"}\n"
    "{\"t\":3000,\"port\":\"a.out\",\"ev\":\"recv\",\"id\":1,\"cmd\":\"resp\","
    "\"data\":\"0xDEADbeef\"}\n";

static const char *const observed_three =
    "[{\"t\":1000,\"port\":\"a.out\",\"ev\":\"send\",\"id\":1,\"cmd\":\"read\","
    "\"addr\":\"0x40\",\"len\":4},"
    "{\"t\":2000,\"port\":\"b.in\",\"ev\":\"recv\",\"id\":1,\"cmd\":\"read\","
    "\"addr\":\"0x40\",\"len\":4},"
    "{\"t\":3000,\"port\":\"a.out\",\"ev\":\"recv\",\"id\":1,\"cmd\":\"resp\","
    "\"req\":\"read\",\"status\":\"ok\",\"addr\":\"0x40\",\"len\":4,"
    "\"data\":\"0xdeadbeef\"}]";

static void test_load(void)
{
    Golden g;
    SimError err;
    CHECK(golden_load(put("ok.jsonl", three), NULL, &g, &err));
    CHECK_EQ_U64(json_array_size(g.records), 3);
    CHECK_EQ_U64(g.lines[0], 1);
    CHECK_EQ_U64(g.lines[1], 3);
    CHECK_EQ_U64(g.lines[2], 4);
    golden_free(&g);
    CHECK(golden_load(put("empty.jsonl", ""), NULL, &g, &err));
    CHECK_EQ_U64(json_array_size(g.records), 0);
    golden_free(&g);
}

static void check_load_error(const char *text, const char *want)
{
    Golden g;
    SimError err = {""};
    CHECK(!golden_load(put("bad.jsonl", text), NULL, &g, &err));
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, want);
        CHECK(false);
    }
}

static void test_load_errors(void)
{
    check_load_error("{\"t\":1}\n{\"t\":2,\"addr\":\"40\"}\n",
                     "bad.jsonl:2: /addr: expected a \"0x\" hex string");
    check_load_error("{\"t\":1}\n\n{\"tt\":2}\n",
                     "bad.jsonl:3: /tt: unknown record field");
    check_load_error("{\"t\":1,\n", "bad.jsonl:1:");
    check_load_error("[1]\n", "bad.jsonl:1: expected a JSON object");
    check_load_error("{\"data\":\"0xabc\"}\n", "bad.jsonl:1: /data:");
    check_load_error("{\"cmd\":\"fetch\"}\n", "bad.jsonl:1: /cmd:");
    check_load_error("{\"ev\":\"sent\"}\n", "bad.jsonl:1: /ev:");
    check_load_error("{\"t\":-1}\n", "bad.jsonl:1: /t:");
    check_load_error("{\"src\":-2}\n", "bad.jsonl:1: /src:");
    check_load_error("{\"parent\":[1,\"x\"]}\n", "bad.jsonl:1: /parent:");
    check_load_error("{\"posted\":1}\n", "bad.jsonl:1: /posted:");
    check_load_error("{\"t\":1,\"t\":2}\n", "bad.jsonl:1:");
    Golden g;
    SimError err;
    CHECK(!golden_load("/nonexistent/x.jsonl", NULL, &g, &err));
    CHECK(strstr(err.msg, "/nonexistent/x.jsonl: cannot open") != NULL);
}

static bool fm(const char *key, const char *gv, const char *ov)
{
    json_t *g = json_loads(gv, JSON_DECODE_ANY, NULL);
    json_t *o = ov ? json_loads(ov, JSON_DECODE_ANY, NULL) : NULL;
    bool r = golden_field_match(key, g, o);
    json_decref(g);
    json_decref(o);
    return r;
}

static void test_fields(void)
{
    CHECK(fm("addr", "\"0x0040\"", "\"0x40\""));
    CHECK(fm("addr", "\"0XAB\"", "\"0xab\""));
    CHECK(!fm("addr", "\"0x40\"", "\"0x400\""));
    CHECK(fm("be", "\"0x00ff\"", "\"0xff\""));
    CHECK(!fm("be", "\"0xff\"", NULL));
    CHECK(fm("mask", "\"0x0\"", NULL));
    CHECK(!fm("mask", "\"0x1\"", NULL));
    CHECK(fm("sharers", "\"0x000\"", NULL));
    CHECK(fm("data", "\"0xDEADBEEF\"", "\"0xdeadbeef\""));
    CHECK(!fm("data", "\"0x00deadbeef\"", "\"0xdeadbeef\""));
    CHECK(!fm("data", "\"0x01\"", NULL));
    CHECK(fm("src", "-1", NULL));
    CHECK(!fm("src", "0", NULL));
    CHECK(fm("epoch", "0", NULL));
    CHECK(!fm("epoch", "1", NULL));
    CHECK(fm("posted", "false", NULL));
    CHECK(!fm("posted", "true", NULL));
    CHECK(fm("parent", "[]", NULL));
    CHECK(fm("parent", "[1,2]", "[1,2]"));
    CHECK(!fm("parent", "[1,2]", "[2,1]"));
    CHECK(!fm("id", "1", NULL));
    CHECK(!fm("req", "\"read\"", NULL));
    CHECK(fm("cmd", "\"resp\"", "\"resp\""));
    CHECK(!fm("cmd", "\"read\"", "\"write\""));
}

static Golden load_three(void)
{
    Golden g;
    SimError err;
    CHECK(golden_load(put("three.jsonl", three), NULL, &g, &err));
    return g;
}

static void test_exact(void)
{
    Golden g = load_three();
    json_t *o = obs(observed_three);
    GoldenResult r = golden_compare(&g, o, GOLDEN_EXACT);
    CHECK(r.match);
    CHECK_EQ_U64(r.matched, 3);
    /* one time off by 1 ps: exact must fail at record 1, order must pass */
    json_object_set_new(json_array_get(o, 1), "t", json_integer(2001));
    r = golden_compare(&g, o, GOLDEN_EXACT);
    CHECK(!r.match);
    CHECK_EQ_U64(r.golden_index, 1);
    CHECK_EQ_U64(r.observed_index, 1);
    CHECK(golden_compare(&g, o, GOLDEN_ORDER).match);
    json_decref(o);
    golden_free(&g);
}

static void test_order(void)
{
    Golden g = load_three();
    json_t *o = obs(observed_three);
    /* swap records 0 and 1: order (and exact) must fail, set must pass */
    json_t *first = json_incref(json_array_get(o, 0));
    json_array_remove(o, 0);
    json_array_insert_new(o, 1, first);
    GoldenResult r = golden_compare(&g, o, GOLDEN_ORDER);
    CHECK(!r.match);
    CHECK_EQ_U64(r.golden_index, 0);
    CHECK(!golden_compare(&g, o, GOLDEN_EXACT).match);
    CHECK(golden_compare(&g, o, GOLDEN_SET).match);
    /* an extra observed record fails every mode */
    json_array_append_new(o, json_pack("{s:s}", "port", "x"));
    r = golden_compare(&g, o, GOLDEN_ORDER);
    CHECK(!r.match);
    CHECK(!golden_compare(&g, o, GOLDEN_SET).match);
    json_decref(o);
    /* a missing observed record */
    o = obs(observed_three);
    json_array_remove(o, 2);
    r = golden_compare(&g, o, GOLDEN_ORDER);
    CHECK(!r.match);
    CHECK_EQ_U64(r.golden_index, 2);
    CHECK(r.observed_index == SIZE_MAX);
    json_decref(o);
    golden_free(&g);
}

static void test_set(void)
{
    /* golden #0 is general, #1 specific: greedy would give observed #0 to golden #0
     * and leave #1 unmatched; the assignment search must find the match. */
    Golden g;
    SimError err;
    CHECK(golden_load(put("set.jsonl", "{\"cmd\":\"read\"}\n"
                                       "{\"cmd\":\"read\",\"addr\":\"0x40\"}\n"),
                      NULL, &g, &err));
    json_t *o = obs("[{\"cmd\":\"read\",\"addr\":\"0x40\",\"t\":5},"
                    "{\"cmd\":\"read\",\"addr\":\"0x80\",\"t\":1}]");
    CHECK(golden_compare(&g, o, GOLDEN_SET).match);
    CHECK(!golden_compare(&g, o, GOLDEN_ORDER).match);
    /* now nothing matches golden #1: set must fail and name it */
    json_object_set_new(json_array_get(o, 0), "addr", json_string("0xc0"));
    GoldenResult r = golden_compare(&g, o, GOLDEN_SET);
    CHECK(!r.match);
    CHECK_EQ_U64(r.golden_index, 1);
    CHECK_EQ_U64(r.matched, 1);
    CHECK(r.observed_index != SIZE_MAX);
    json_decref(o);
    golden_free(&g);
}

/* A set match whose only assignment moves every record: golden #i (i < n-1) accepts
 * observed #i and #i+1 (even i by addr, odd i by id), the last golden record only
 * observed #0, which the greedy pass gave to golden #0; the augmenting path then
 * runs through all n records (a recursion per record overflowed the C stack). */
static void test_set_long_path(void)
{
    enum { N = 200000 };
    char *text = malloc((size_t)N * 48), *at = text;
    json_t *o = json_array();
    for (size_t i = 0; i + 1 < N; i++) {
        if (i % 2 == 0) {
            at += sprintf(at, "{\"addr\":\"0x%zx\"}\n", i / 2);
        } else {
            at += sprintf(at, "{\"id\":%zu}\n", (i + 1) / 2);
        }
    }
    sprintf(at, "{\"addr\":\"0x0\",\"id\":0}\n");
    for (size_t j = 0; j < N; j++) {
        char addr[32];
        snprintf(addr, sizeof addr, "0x%zx", j / 2);
        json_array_append_new(
            o, json_pack("{s:s,s:I}", "addr", addr, "id", (json_int_t)((j + 1) / 2)));
    }
    Golden g;
    SimError err;
    CHECK(golden_load(put("long.jsonl", text), NULL, &g, &err));
    free(text);
    GoldenResult r = golden_compare(&g, o, GOLDEN_SET);
    CHECK(r.match);
    CHECK_EQ_U64(r.matched, N);
    /* without observed #0 the last golden record has nothing left: found and named */
    json_array_remove(o, 0);
    json_array_append_new(o, json_pack("{s:s,s:I}", "addr", "0x1", "id", (json_int_t)7));
    r = golden_compare(&g, o, GOLDEN_SET);
    CHECK(!r.match);
    CHECK_EQ_U64(r.golden_index, N - 1);
    json_decref(o);
    golden_free(&g);
}

static void test_diff_print(void)
{
    Golden g = load_three();
    json_t *o = obs(observed_three);
    json_object_set_new(json_array_get(o, 2), "data", json_string("0xdeadbeee"));
    GoldenResult r = golden_compare(&g, o, GOLDEN_EXACT);
    CHECK(!r.match);
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    golden_print_diff(f, &g, o, GOLDEN_EXACT, &r);
    fclose(f);
    CHECK(strstr(text, "record #2 differs (golden line 4)") != NULL);
    CHECK(strstr(text, "* data") != NULL);
    CHECK(strstr(text, "0xDEADbeef") != NULL);
    CHECK(strstr(text, "| 0xdeadbeee") != NULL);
    CHECK(strstr(text, "  port") != NULL);
    CHECK(strstr(text, "(not compared)") != NULL);
    free(text);
    json_decref(o);
    golden_free(&g);
}

static void test_modes(void)
{
    GoldenMode m;
    CHECK(golden_mode_parse("exact", &m) && m == GOLDEN_EXACT);
    CHECK(golden_mode_parse("order", &m) && m == GOLDEN_ORDER);
    CHECK(golden_mode_parse("set", &m) && m == GOLDEN_SET);
    CHECK(!golden_mode_parse("fuzzy", &m));
    CHECK_STR(golden_mode_name(GOLDEN_SET), "set");
}

static void test_declared_cmds(void)
{
    static const TxnCmdDecl poke = {.name = "poke", .doc = "a test command"};
    const TxnCmdDecl *const cmds[] = {&poke, NULL};
    const char *text = "{\"cmd\":\"resp\",\"req\":\"poke\"}\n{\"cmd\":\"poke\"}\n";
    Golden g;
    SimError err;
    CHECK(!golden_load(put("decl.jsonl", text), NULL, &g, &err));
    CHECK(strstr(err.msg, "decl.jsonl:1: /req: expected a command name") != NULL);
    CHECK(golden_load(put("decl.jsonl", text), cmds, &g, &err));
    CHECK_EQ_U64(json_array_size(g.records), 2);
    golden_free(&g);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        return 1;
    }
    RUN(test_load);
    RUN(test_load_errors);
    RUN(test_fields);
    RUN(test_exact);
    RUN(test_order);
    RUN(test_set_long_path);
    RUN(test_set);
    RUN(test_diff_print);
    RUN(test_modes);
    RUN(test_declared_cmds);
    const char *files[] = {"ok.jsonl",    "empty.jsonl", "bad.jsonl",
                           "three.jsonl", "set.jsonl",   "decl.jsonl"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", tmpdir, files[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return harness_report();
}
