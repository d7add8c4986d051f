/* A standalone program that embeds the mgtlm library (docs/kernel.md, "A program
 * embedding the library"): it fills a registry with the shipped hardware models and
 * the plug-ins named on the command line, loads a platform file, runs it until no
 * event is left and prints the simulated time, the events executed and every
 * statistic as JSON.
 *     embed PLATFORM.json [PLUGIN.so...]
 * Exit status: 0 done, 1 a model error counter is nonzero, 2 bad input. */
#include <stdio.h>

#include <jansson.h>

#include "hw/blocks.h"
#include "kernel/platform/platform.h"
#include "kernel/plugin.h"
#include "kernel/registry.h"
#include "kernel/sim.h"
#include "kernel/stats.h"

static void embed_model_error(const char *name, uint64_t v, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "embed: model error: %s = %llu\n", name, (unsigned long long)v);
}

/* Loads, builds and runs the platform at path with the types of r. */
static int embed_run(const Registry *r, const char *path)
{
    SimError err;
    PlatformDesc desc = {.registry = r};
    if (!platform_load(r, path, NULL, &desc, &err)) {
        fprintf(stderr, "embed: %s\n", err.msg);
        return 2;
    }
    Sim *sim = sim_new();
    if (!sim) {
        platform_desc_free(&desc);
        fprintf(stderr, "embed: out of memory\n");
        return 2;
    }
    Platform *p = platform_build(&desc, sim, &err); /* takes desc in any case */
    if (!p) {
        fprintf(stderr, "embed: %s\n", err.msg);
        sim_free(sim);
        return 2;
    }
    platform_reset(p);
    sim_run(sim, SIM_TIME_MAX);
    platform_finish_stats(p);
    printf("simulated %llu ps, %llu events\n", (unsigned long long)sim_now(sim),
           (unsigned long long)sim_events_executed(sim));
    json_t *stats = stats_json(p->stats);
    json_dumpf(stats, stdout, JSON_INDENT(1));
    printf("\n");
    json_decref(stats);
    size_t errors = stats_errors(p->stats, embed_model_error, NULL);
    platform_free(p); /* before the kernel: queued transactions go back to its pool */
    sim_free(sim);
    return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: embed PLATFORM.json [PLUGIN.so...]\n");
        return 2;
    }
    SimError err;
    Registry *r = registry_new();
    if (!r || !hw_register(r, &err)) {
        fprintf(stderr, "embed: %s\n", r ? err.msg : "out of memory");
        registry_free(r);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (!plugin_load(r, argv[i], &err)) {
            fprintf(stderr, "embed: %s\n", err.msg);
            registry_free(r);
            return 2;
        }
    }
    int status = embed_run(r, argv[1]);
    registry_free(r); /* after every platform built with it */
    return status;
}
