/* Unit tests of the serve JSON API without sockets (tools/serve/serve_api.c): a
 * Server over tests/serve/mem1.json with endpoint tb.host on gpu0.mem.in; the kernel
 * is advanced with serve_advance as the loop would. Expected values are arithmetic
 * on the requests (memory latency 50 ns from the platform file; the data written is
 * the data read). */
#include <string.h>

#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"
#include "tools/serve/endpoint.h"
#include "tools/serve/serve_api.h"

static const char *platform_path;
static const Registry *serve_registry; /* the hardware's and the endpoint (main) */

static json_t *call(Server *s, const char *method, const char *path, const char *body,
                    int expect)
{
    ServeReply r;
    serve_api(s, method, path, body, body ? strlen(body) : 0, &r);
    if (r.text) {
        r.body = json_loads(r.text, 0, NULL);
        free(r.text);
    }
    CHECK_EQ_U64((uint64_t)r.status, (uint64_t)expect);
    if (r.status != expect) {
        char *t = json_dumps(r.body, JSON_COMPACT);
        fprintf(stderr, "%s %s -> %d %s\n", method, path, r.status, t);
        free(t);
    }
    return r.body;
}

static void check_error(Server *s, const char *method, const char *path, const char *body,
                        int status, const char *prefix)
{
    json_t *r = call(s, method, path, body, status);
    const char *e = json_string_value(json_object_get(r, "error"));
    CHECK(e && strncmp(e, prefix, strlen(prefix)) == 0);
    if (!e || strncmp(e, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "expected error \"%s...\", got \"%s\"\n", prefix,
                e ? e : "(none)");
    }
    json_decref(r);
}

static void setup(Server *s, ServeConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->registry = serve_registry;
    cfg->platform = platform_path;
    snprintf(cfg->attach[0].name, sizeof cfg->attach[0].name, "tb.host");
    cfg->attach[0].target = "gpu0.mem.in";
    cfg->nattach = 1;
    cfg->quantum = SIM_US;
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    SimError err;
    if (!serve_build(s, &err)) {
        fprintf(stderr, "%s\n", err.msg);
    }
    CHECK(s->plat != NULL);
}

static void run_to_stop(Server *s)
{
    for (int i = 0; i < 1000 && s->running; i++) {
        serve_advance(s, 100);
    }
}

static void test_inject_run_read_back(void)
{
    Server s;
    ServeConfig cfg;
    setup(&s, &cfg);
    json_t *r =
        call(&s, "POST", "/api/inject",
             "{\"port\":\"gpu0.mem.in\",\"txn\":{\"cmd\":\"write\",\"addr\":\"0x80\","
             "\"data\":\"0xcafe\",\"src\":0,\"dst\":0}}",
             200);
    CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(r, "id")), 1);
    json_decref(r);
    json_decref(
        call(&s, "POST", "/api/inject",
             "{\"port\":\"tb.host.io\",\"txn\":{\"cmd\":\"read\",\"addr\":\"0x80\","
             "\"len\":2,\"gap\":\"5ns\",\"src\":0,\"dst\":0}}",
             200));
    json_decref(call(&s, "POST", "/api/run", "{\"until\":\"1us\"}", 200));
    CHECK(s.running);
    run_to_stop(&s);
    CHECK(!s.running);
    CHECK_STR(s.last_stop, "until");
    CHECK_EQ_U64(sim_now(s.sim), SIM_US);
    r = call(&s, "GET", "/api/stats", NULL, 200);
    CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(r, "tb.host.responses_in")),
                 2);
    CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(r, "gpu0.mem.bytes_read")),
                 2);
    json_decref(r);
    json_decref(call(&s, "POST", "/api/inject",
                     "{\"port\":\"tb.host\",\"txn\":{\"cmd\":\"read\",\"addr\":\"0x0\","
                     "\"len\":4}}",
                     200));
    r = call(&s, "GET", "/api/stats", NULL, 200); /* no event ran: not the cached text */
    CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(r, "tb.host.injected")), 3);
    json_decref(r);
    r = call(&s, "GET", "/api/platform", NULL, 200);
    CHECK(json_array_size(json_object_get(r, "ports")) == 2);
    json_decref(r);
    json_decref(call(&s, "POST", "/api/reset", NULL, 200));
    CHECK_EQ_U64(sim_now(s.sim), 0);
    CHECK_EQ_U64(sim_events_executed(s.sim), 0);
    serve_teardown(&s);
}

static void test_run_events_and_for(void)
{
    Server s;
    ServeConfig cfg;
    setup(&s, &cfg);
    json_decref(call(&s, "POST", "/api/inject",
                     "{\"port\":\"tb.host\",\"txn\":{\"cmd\":\"read\",\"addr\":\"0x0\","
                     "\"len\":4,\"t\":\"100ns\"}}",
                     200));
    json_decref(call(&s, "POST", "/api/run", "{\"events\":1}", 200));
    run_to_stop(&s);
    CHECK_STR(s.last_stop, "events");
    CHECK_EQ_U64(sim_events_executed(s.sim), 1);
    json_decref(call(&s, "POST", "/api/run", "{\"for\":\"20ns\"}", 200));
    run_to_stop(&s);
    CHECK_EQ_U64(sim_now(s.sim), 120 * SIM_NS);
    json_decref(call(&s, "POST", "/api/run", "{}", 200));
    run_to_stop(&s);
    CHECK_STR(s.last_stop, "idle");
    serve_teardown(&s);
}

static void test_errors(void)
{
    Server s;
    ServeConfig cfg;
    setup(&s, &cfg);
    check_error(&s, "POST", "/api/run", "{\"until\":", 400, "body: line 1");
    check_error(&s, "POST", "/api/run", "[]", 400, "body: expected an object");
    check_error(&s, "POST", "/api/run", "{\"x\":1}", 400, "x: unknown field");
    check_error(&s, "POST", "/api/run", "{\"for\":\"1 us\"}", 400, "for: bad time");
    check_error(&s, "POST", "/api/run", "{\"events\":-3}", 400, "events:");
    check_error(&s, "POST", "/api/run", "{\"wait\":1}", 400, "wait:");
    check_error(&s, "POST", "/api/inject", "{\"port\":\"gpu0.mem.in\"}", 400, "txn:");
    check_error(&s, "POST", "/api/inject",
                "{\"port\":\"gpu0.mem.in\",\"txn\":{\"cmd\":\"read\",\"addr\":\"zz\","
                "\"len\":4}}",
                400, "txn/addr");
    check_error(&s, "POST", "/api/inject", "{\"port\":\"gpu0.nope\",\"txn\":{}}", 404,
                "port:");
    check_error(&s, "POST", "/api/pause", "{\"now\":true}", 400, "now: unknown field");
    check_error(&s, "GET", "/api/inject", NULL, 405, "/api/inject needs POST");
    check_error(&s, "DELETE", "/api/stats", NULL, 405, "/api/stats needs GET");
    check_error(&s, "GET", "/etc/passwd", NULL, 404, "no route");
    static const char nul_body[] = "{\"until\":\"1us\"\0}";
    ServeReply r;
    serve_api(&s, "POST", "/api/run", nul_body, sizeof nul_body - 1, &r);
    CHECK_EQ_U64((uint64_t)r.status, 400);
    json_decref(r.body);
    CHECK(!s.running);
    serve_teardown(&s);
}

int main(int argc, char **argv)
{
    platform_path = argc > 1 ? argv[1] : "tests/serve/mem1.json";
    SimError err;
    if (!endpoint_register(hw_registry(), &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    serve_registry = hw_registry();
    RUN(test_inject_run_read_back);
    RUN(test_run_events_and_for);
    RUN(test_errors);
    return harness_report();
}
