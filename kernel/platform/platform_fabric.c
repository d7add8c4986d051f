/* The inter-GPU fabric: {"topology": T, "switch": {"params": {}}, "link":
 * {"params": {}}, "latency": "0ns", "doc": "..."}. Generated instances, wires and
 * routing tables (N = gpus, uplink U = the GPU template's "uplink" port):
 * - "none": nothing.
 * - "switch": fabric.switch (ports N); port[i] <-> gpu<i>.U; routes[d] = d.
 * - "ring" (N >= 2): fabric.sw[i] (ports 3): port[0] <-> gpu<i>.U, port[1] towards
 *   i+1, port[2] towards i-1; fabric.link[i]: sw[i].port[1] <-> link.a, link.b <->
 *   sw[i+1 mod N].port[2]. routes[d] = 0 for d = i, else 1 if the forward distance
 *   (d - i) mod N is at most the backward one, else 2 (Decision: ties go forward).
 * - "fully_connected" (N >= 2): fabric.sw[i] (ports N): port[0] <-> gpu<i>.U, port[1..]
 *   to the peers in ascending GPU order; fabric.link[k] for the pairs i < j in
 *   lexicographic order, link.a at sw[i], link.b at sw[j]. routes[d] = 0 for d = i,
 *   else 1 + (d < i ? d : d - 1).
 * Every fabric wire has the fabric latency. The user's switch/link params are merged
 * into each generated instance; "ports" and "routes" are computed and may not be
 * given. Switch origins are "/fabric/switch", links "/fabric/link", the GPU-side
 * wires "/gpu/uplink", the others "/fabric". */
#include <stdio.h>
#include <string.h>

#include "kernel/json_util.h"
#include "platform_priv.h"
#include "kernel/units.h"

static const char *const platform_fabric_keys[] = {"topology", "switch", "link",
                                                   "latency",  "doc",    NULL};
static const char *const platform_part_keys[] = {"params", "doc", NULL};

typedef enum { FABRIC_NONE, FABRIC_SWITCH, FABRIC_RING, FABRIC_FULL } FabricKind;

static const char *const platform_fabric_names[] = {"none", "switch", "ring",
                                                    "fully_connected", NULL};

/* Reads the topology (and checks the fabric object's keys). */
static bool platform_fabric_kind(PlatformLoad *ld, FabricKind *kind, SimError *err)
{
    json_t *fab, *topo, *doc;
    *kind = FABRIC_NONE;
    if (!platform_member(ld, ld->doc, "", "fabric", JSON_OBJECT, &fab, err)) {
        return false;
    }
    if (!fab) {
        return true;
    }
    if (!platform_check_keys(ld, fab, "/fabric", platform_fabric_keys, err) ||
        !platform_member(ld, fab, "/fabric", "topology", JSON_STRING, &topo, err) ||
        !platform_member(ld, fab, "/fabric", "doc", JSON_STRING, &doc, err)) {
        return false;
    }
    if (!topo) {
        return true;
    }
    for (int i = 0; platform_fabric_names[i]; i++) {
        if (strcmp(json_string_value(topo), platform_fabric_names[i]) == 0) {
            *kind = (FabricKind)i;
            if (*kind >= FABRIC_RING && ld->desc->info.gpus < 2) {
                return platform_fail(ld, "/fabric/topology", err,
                                     "topology %s needs at least 2 GPUs",
                                     platform_fabric_names[i]);
            }
            return true;
        }
    }
    return platform_fail(ld, "/fabric/topology", err,
                         "unknown topology \"%s\" (choices: none, switch, ring, "
                         "fully_connected)",
                         json_string_value(topo));
}

/* The user's params of fabric part "switch" or "link" (borrowed, may be NULL). */
static bool platform_fabric_params(PlatformLoad *ld, const char *part, json_t **params,
                                   SimError *err)
{
    json_t *fab = json_object_get(ld->doc, "fabric"), *obj, *doc;
    char path[64];
    snprintf(path, sizeof path, "/fabric/%s", part);
    *params = NULL;
    if (!platform_member(ld, fab, "/fabric", part, JSON_OBJECT, &obj, err)) {
        return false;
    }
    if (!obj) {
        return true;
    }
    if (!platform_check_keys(ld, obj, path, platform_part_keys, err) ||
        !platform_member(ld, obj, path, "params", JSON_OBJECT, params, err) ||
        !platform_member(ld, obj, path, "doc", JSON_STRING, &doc, err)) {
        return false;
    }
    const char *computed[] = {"ports", "routes"};
    for (int i = 0; *params && i < 2; i++) {
        if (json_object_get(*params, computed[i])) {
            char p[PLATFORM_PATH_MAX];
            platform_path(p, sizeof p, path, "params");
            json_pointer_push(p, sizeof p, computed[i]);
            return platform_fail(ld, p, err,
                                 "computed from the fabric topology; remove it");
        }
    }
    return true;
}

/* Output port of switch i towards GPU d. */
static uint64_t platform_fabric_route(FabricKind kind, uint32_t n, uint32_t i, uint32_t d)
{
    if (kind == FABRIC_SWITCH) {
        return d;
    }
    if (d == i) {
        return 0;
    }
    if (kind == FABRIC_RING) {
        uint32_t fwd = (d + n - i) % n;
        return fwd <= n - fwd ? 1 : 2;
    }
    return 1 + (d < i ? d : d - 1);
}

static bool platform_fabric_switch(PlatformLoad *ld, FabricKind kind, json_t *user,
                                   const char *name, uint32_t i, SimError *err)
{
    uint32_t n = ld->desc->info.gpus;
    json_t *params = user ? json_deep_copy(user) : json_object();
    json_t *routes = json_array();
    for (uint32_t d = 0; routes && d < n; d++) {
        json_array_append_new(
            routes, json_integer((json_int_t)platform_fabric_route(kind, n, i, d)));
    }
    uint32_t ports = kind == FABRIC_RING ? 3 : n;
    bool ok = params && routes &&
              json_object_set_new(params, "ports", json_integer(ports)) == 0 &&
              json_object_set(params, "routes", routes) == 0;
    ok = ok ? platform_add(ld, name, "switch", -1, params, "/fabric/switch", err)
            : platform_fail(ld, "/fabric", err, "out of memory");
    json_decref(routes);
    json_decref(params);
    return ok;
}

bool platform_fabric_instances(PlatformLoad *ld, SimError *err)
{
    FabricKind kind;
    json_t *sw, *link;
    if (!platform_fabric_kind(ld, &kind, err) ||
        !platform_fabric_params(ld, "switch", &sw, err) ||
        !platform_fabric_params(ld, "link", &link, err)) {
        return false;
    }
    uint32_t n = ld->desc->info.gpus;
    if (kind == FABRIC_SWITCH) {
        return platform_fabric_switch(ld, kind, sw, "fabric.switch", 0, err);
    }
    if (kind == FABRIC_NONE) {
        return true;
    }
    char name[64];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "fabric.sw[%u]", i);
        if (!platform_fabric_switch(ld, kind, sw, name, i, err)) {
            return false;
        }
    }
    uint32_t nlinks = kind == FABRIC_RING ? n : n * (n - 1) / 2;
    for (uint32_t k = 0; k < nlinks; k++) {
        snprintf(name, sizeof name, "fabric.link[%u]", k);
        if (!platform_add(ld, name, "link", -1, link, "/fabric/link", err)) {
            return false;
        }
    }
    return true;
}

/* Wires switch port sp of sw[i] through link k to switch port dp of sw[j]. */
static bool platform_fabric_join(PlatformLoad *ld, uint32_t i, uint32_t sp, uint32_t k,
                                 uint32_t j, uint32_t dp, SimTime lat, SimError *err)
{
    char s[64], la[64], lb[64], d[64];
    snprintf(s, sizeof s, "fabric.sw[%u].port[%u]", i, sp);
    snprintf(la, sizeof la, "fabric.link[%u].a", k);
    snprintf(lb, sizeof lb, "fabric.link[%u].b", k);
    snprintf(d, sizeof d, "fabric.sw[%u].port[%u]", j, dp);
    return platform_wire_add(ld, s, la, lat, "/fabric", err) &&
           platform_wire_add(ld, lb, d, lat, "/fabric", err);
}

/* The fabric latency and the GPU template's uplink port. */
static bool platform_fabric_ends(PlatformLoad *ld, SimTime *lat, const char **uplink,
                                 SimError *err)
{
    json_t *fab = json_object_get(ld->doc, "fabric"), *gpu, *jl, *up;
    *lat = 0;
    if (!platform_member(ld, fab, "/fabric", "latency", JSON_STRING, &jl, err)) {
        return false;
    }
    if (jl && !units_parse_time(json_string_value(jl), ld->desc->info.clock, lat, err)) {
        return platform_fail_prefix(ld, "/fabric/latency", err);
    }
    gpu = json_object_get(ld->doc, "gpu");
    if (!platform_member(ld, gpu, "/gpu", "uplink", JSON_STRING, &up, err)) {
        return false;
    }
    if (!up) {
        return platform_fail(ld, "/gpu", err,
                             "missing key \"uplink\" (the port joined to the fabric)");
    }
    *uplink = json_string_value(up);
    return true;
}

bool platform_fabric_wires(PlatformLoad *ld, SimError *err)
{
    FabricKind kind;
    SimTime lat = 0;
    const char *uplink = NULL;
    if (!platform_fabric_kind(ld, &kind, err)) {
        return false;
    }
    if (kind == FABRIC_NONE) {
        return true;
    }
    if (!platform_fabric_ends(ld, &lat, &uplink, err)) {
        return false;
    }
    uint32_t n = ld->desc->info.gpus;
    for (uint32_t i = 0; i < n; i++) {
        char sp[64], gp[256];
        if (kind == FABRIC_SWITCH) {
            snprintf(sp, sizeof sp, "fabric.switch.port[%u]", i);
        } else {
            snprintf(sp, sizeof sp, "fabric.sw[%u].port[0]", i);
        }
        snprintf(gp, sizeof gp, "gpu%u.%s", i, uplink);
        if (!platform_wire_add(ld, sp, gp, lat, "/gpu/uplink", err)) {
            return false;
        }
    }
    if (kind == FABRIC_RING) {
        for (uint32_t i = 0; i < n; i++) {
            if (!platform_fabric_join(ld, i, 1, i, (i + 1) % n, 2, lat, err)) {
                return false;
            }
        }
    } else if (kind == FABRIC_FULL) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = i + 1; j < n; j++, k++) {
                /* sw[i] reaches j through port 1 + (j - 1); sw[j] reaches i via 1 + i */
                if (!platform_fabric_join(ld, i, j, k, j, i + 1, lat, err)) {
                    return false;
                }
            }
        }
    }
    return true;
}
