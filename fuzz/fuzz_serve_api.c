/* libFuzzer target for the mgtlm serve JSON handlers (tools/serve/serve_api.c).
 * Input: byte 0 picks a (method, route) pair, the rest is the request body. One
 * Server over the platform named by $MGTLM_FUZZ_PLATFORM (default
 * tests/serve/mem1.json, endpoint tb.host on gpu0.mem.in) lives across inputs; after
 * each input a running kernel gets a bounded slice, and the platform is rebuilt
 * every 256 inputs so that memory stays bounded. Crashes, leaks and sanitizer
 * reports are failures; every reply must carry a status and a JSON body. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/blocks.h"
#include "tools/serve/endpoint.h"
#include "tools/serve/serve_api.h"

static Server fuzz_server;
static ServeConfig fuzz_cfg;
static Registry *fuzz_registry; /* the hardware's types and the endpoint */
static unsigned fuzz_inputs;

static const struct {
    const char *method, *path;
} fuzz_routes[] = {
    {"GET", "/api/health"},  {"GET", "/api/platform"}, {"GET", "/api/stats"},
    {"GET", "/api/ports"},   {"POST", "/api/run"},     {"POST", "/api/pause"},
    {"POST", "/api/inject"}, {"POST", "/api/inject"},  {"POST", "/api/inject"},
    {"POST", "/api/run"},    {"POST", "/api/reset"},   {"PUT", "/api/run"},
    {"GET", "/api/run"},     {"POST", "/api/nothing"}, {"GET", "/../etc/passwd"},
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *p = getenv("MGTLM_FUZZ_PLATFORM");
    SimError err;
    fuzz_registry = registry_new();
    if (!fuzz_registry || !hw_register(fuzz_registry, &err) ||
        !endpoint_register(fuzz_registry, &err)) {
        fprintf(stderr, "fuzz_serve_api: %s\n", fuzz_registry ? err.msg : "no memory");
        exit(2);
    }
    fuzz_cfg.registry = fuzz_registry;
    fuzz_cfg.platform = p ? p : "tests/serve/mem1.json";
    snprintf(fuzz_cfg.attach[0].name, sizeof fuzz_cfg.attach[0].name, "tb.host");
    fuzz_cfg.attach[0].target = "gpu0.mem.in";
    fuzz_cfg.nattach = 1;
    fuzz_cfg.quantum = SIM_US;
    fuzz_server.cfg = &fuzz_cfg;
    if (!serve_build(&fuzz_server, &err)) {
        fprintf(stderr, "fuzz_serve_api: %s\n", err.msg);
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    size_t nroutes = sizeof fuzz_routes / sizeof fuzz_routes[0];
    size_t k = data[0] % nroutes;
    ServeReply r;
    serve_api(&fuzz_server, fuzz_routes[k].method, fuzz_routes[k].path,
              (const char *)data + 1, size - 1, &r);
    if (r.status < 200 || r.status > 599 || (!r.body == !r.text)) {
        abort();
    }
    json_decref(r.body);
    free(r.text);
    if (fuzz_server.plat) {
        serve_advance(&fuzz_server, 2000);
    }
    if (++fuzz_inputs % 256 == 0 || !fuzz_server.plat) {
        SimError err;
        if (!serve_build(&fuzz_server, &err)) {
            abort();
        }
    }
    return 0;
}
