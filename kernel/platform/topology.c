/* The context of a topology generator (kernel/topology.h): what a generator may do
 * to the flat description while platform_fabric.c calls it. Instances are named
 * "fabric.<name>", take the user's params of their fabric part with the computed
 * ones set over them, and are blamed on "/fabric/<part>"; wires carry the fabric
 * latency and are blamed on "/fabric", or on "/gpu/uplink" for a GPU's uplink; a
 * setting at fault is blamed on "/fabric/params/<key>". */
#include <stdarg.h>
#include <stdio.h>

#include "kernel/topology.h"
#include "platform_priv.h"

uint32_t topology_gpus(const TopologyGen *g)
{
    return g->ld->desc->info.gpus;
}

const void *topology_params(const TopologyGen *g)
{
    return g->params;
}

bool topology_fail_param(const TopologyGen *g, const char *key, SimError *err,
                         const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    char path[PLATFORM_PATH_MAX];
    platform_path(path, sizeof path, "/fabric/params", key);
    return platform_fail_prefix(g->ld, path, err);
}

bool topology_fail(const TopologyGen *g, SimError *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return platform_fail_prefix(g->ld, "/fabric", err);
}

bool topology_add(TopologyGen *g, const char *part, const char *name, const char *type,
                  json_t *computed, SimError *err)
{
    json_t *fab = json_object_get(g->ld->doc, "fabric");
    json_t *user = json_object_get(json_object_get(fab, part), "params");
    char full[PLATFORM_PATH_MAX], path[PLATFORM_PATH_MAX];
    snprintf(full, sizeof full, "%s.%s", TOPOLOGY_NAMESPACE, name);
    platform_path(path, sizeof path, "/fabric", part);
    json_t *params = user ? json_deep_copy(user) : json_object();
    bool ok = params != NULL && (!computed || json_object_update(params, computed) == 0);
    ok = ok ? platform_load_add(g->ld, full, type, -1, params, path, err)
            : topology_fail(g, err, "out of memory");
    json_decref(params);
    return ok;
}

bool topology_wire(TopologyGen *g, const char *a, const char *b, SimError *err)
{
    char fa[PLATFORM_PATH_MAX], fb[PLATFORM_PATH_MAX];
    snprintf(fa, sizeof fa, "%s.%s", TOPOLOGY_NAMESPACE, a);
    snprintf(fb, sizeof fb, "%s.%s", TOPOLOGY_NAMESPACE, b);
    return platform_wire_add(g->ld, fa, fb, g->latency, "/fabric", err);
}

bool topology_uplink(TopologyGen *g, uint32_t gpu, const char *port, SimError *err)
{
    char fp[PLATFORM_PATH_MAX], gp[PLATFORM_PATH_MAX];
    snprintf(fp, sizeof fp, "%s.%s", TOPOLOGY_NAMESPACE, port);
    snprintf(gp, sizeof gp, "gpu%u.%s", gpu, g->uplink);
    return platform_wire_add(g->ld, fp, gp, g->latency, "/gpu/uplink", err);
}
