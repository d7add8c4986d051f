/* Helpers shared by the platform unit tests: the data folder, loading with the
 * hardware registry, instance and wire lookups in a PlatformDesc, and JSON text of
 * values. */
#ifndef MGTLM_TEST_PLATFORM_SUPPORT_H
#define MGTLM_TEST_PLATFORM_SUPPORT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/platform/platform.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

/* Changes into the data folder given as argv[1] (file names in messages are then
 * relative to it). */
static inline int support_enter_data(int argc, char **argv)
{
    if (argc < 2 || chdir(argv[1]) != 0) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 1;
    }
    return 0;
}

/* Compact JSON text of v; the returned string lives until the next call. */
static inline const char *support_json(json_t *v)
{
    static char buf[4096];
    char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    snprintf(buf, sizeof buf, "%s", s ? s : "(none)");
    free(s);
    return buf;
}

/* JSON text of parameter key of instance name as given in the description. */
static inline const char *support_param(const PlatformDesc *d, const char *name,
                                        const char *key)
{
    const PlatformInstance *in = platform_desc_find(d, name);
    return support_json(in ? json_object_get(in->params, key) : NULL);
}

/* "a <-> b @latency" of wire i. */
static inline const char *support_wire(const PlatformDesc *d, size_t i)
{
    static char buf[512];
    if (i >= d->nwires) {
        return "(no wire)";
    }
    snprintf(buf, sizeof buf, "%s <-> %s @%llu", d->wires[i].a, d->wires[i].b,
             (unsigned long long)d->wires[i].latency);
    return buf;
}

/* A new registry of the hardware's block types and topologies and the n of mine
 * (test types), for registry_free. */
static inline Registry *support_registry(const BlockType *const *mine, size_t n)
{
    Registry *r = registry_new();
    SimError err;
    size_t ntypes, ntopo;
    const BlockType *const *types = registry_types(hw_registry(), &ntypes);
    const TopologyType *const *topo = registry_topologies(hw_registry(), &ntopo);
    for (size_t i = 0; i < ntypes; i++) {
        CHECK(registry_add(r, types[i], &err));
    }
    for (size_t i = 0; i < ntopo; i++) {
        CHECK(registry_add_topology(r, topo[i], &err));
    }
    for (size_t i = 0; i < n; i++) {
        CHECK(registry_add(r, mine[i], &err));
    }
    return r;
}

/* Loads path with the block types of r and optional --set style overrides given as
 * JSON text. */
static inline bool support_load_in(const Registry *r, const char *path,
                                   const char *cli_json, PlatformDesc *d, SimError *err)
{
    json_t *sets = cli_json ? json_loads(cli_json, 0, NULL) : NULL;
    bool ok = platform_load(r, path, sets, d, err);
    json_decref(sets);
    return ok;
}

static inline bool support_load(const char *path, const char *cli_json, PlatformDesc *d,
                                SimError *err)
{
    return support_load_in(hw_registry(), path, cli_json, d, err);
}

/* The error message of loading path with the block types of r (with overrides), or
 * "(loaded)". */
static inline const char *support_load_error_in(const Registry *r, const char *path,
                                                const char *cli_json)
{
    static SimError err;
    PlatformDesc d;
    if (support_load_in(r, path, cli_json, &d, &err)) {
        platform_desc_free(&d);
        return "(loaded)";
    }
    CHECK(d.ninst == 0 && d.inst == NULL && d.name == NULL);
    return err.msg;
}

static inline const char *support_load_error(const char *path, const char *cli_json)
{
    return support_load_error_in(hw_registry(), path, cli_json);
}

#endif
