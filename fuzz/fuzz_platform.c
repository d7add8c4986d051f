/* libFuzzer target for the platform loader (kernel/platform/): the input is a
 * platform document, loaded as if it were the file platforms/fuzz-input.json, so that
 * its `extends` reach the shipped platforms (the seeds are those platforms).
 * Properties, each a failure when broken (abort):
 * - a platform that loads has a flat dump that loads again and dumps identically
 *   (dump -> reload -> dump is a fixed point);
 * - a platform that builds runs FUZZ_EVENTS events (or until idle) and frees
 *   cleanly; crashes, leaks and sanitizer reports are failures too.
 * Inputs that are not JSON objects, or that the loader refuses, are fine. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/blocks.h"
#include "kernel/platform/platform.h"

#define FUZZ_EVENTS 4000
#define FUZZ_PATH "platforms/fuzz-input.json"

static Registry *fuzz_registry;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    SimError err;
    fuzz_registry = registry_new();
    if (!fuzz_registry || !hw_register(fuzz_registry, &err)) {
        fprintf(stderr, "fuzz_platform: %s\n", fuzz_registry ? err.msg : "no memory");
        exit(2);
    }
    return 0;
}

static bool load_inline(json_t *doc, PlatformDesc *out, SimError *err)
{
    PlatformLoadArgs a = {
        .registry = fuzz_registry, .path = FUZZ_PATH, .inline_doc = doc};
    return platform_load_args(&a, out, err);
}

/* Dumps d, reloads the dump and dumps again: both dumps must be equal. */
static void check_round_trip(const PlatformDesc *d)
{
    SimError err;
    PlatformDesc again;
    json_t *first = platform_dump(d);
    if (!load_inline(first, &again, &err)) {
        fprintf(stderr, "fuzz_platform: the dump does not load: %s\n", err.msg);
        abort();
    }
    json_t *second = platform_dump(&again);
    if (!json_equal(first, second)) {
        fprintf(stderr, "fuzz_platform: dump -> reload -> dump changed the dump\n");
        abort();
    }
    json_decref(first);
    json_decref(second);
    platform_desc_free(&again);
}

static void run_briefly(PlatformDesc *d)
{
    SimError err;
    Sim *sim = sim_new();
    Platform *p = platform_build(d, sim, &err); /* takes d */
    if (p) {
        platform_reset(p);
        for (unsigned i = 0; i < FUZZ_EVENTS && sim_step(sim); i++) {
        }
        platform_finish_stats(p);
        platform_free(p);
    }
    sim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    PlatformDesc d;
    SimError err;
    if (json_is_object(doc) && load_inline(doc, &d, &err)) {
        check_round_trip(&d);
        run_briefly(&d);
        platform_desc_free(&d);
    }
    json_decref(doc);
    return 0;
}
