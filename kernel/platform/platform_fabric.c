/* The inter-GPU fabric: {"topology": T, "params": {}, "<part>": {"params": {},
 * "doc": "..."}, "latency": "0ns", "doc": "..."}. The loader's side of the topology
 * generators (kernel/topology.h): it checks the fabric object, picks the generator of the
 * registry called T ("none", the default, generates nothing) and calls it with a
 * context (topology.c) that adds instances and wires to the flat description.
 * The members a fabric object may have are "topology", the parts of every registered
 * generator (in registration order), "params", "latency" and "doc"; every part given
 * is checked whatever the topology, and none may give a parameter that a registered
 * generator computes. "params" holds the chosen generator's own settings (its
 * ParamDef table): a member it does not declare is an error, under "none" too; the
 * settings are applied anew for each of the two calls (they are plain values). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/registry.h"
#include "params.h"
#include "platform_priv.h"

static const char *const platform_part_keys[] = {"params", "doc", NULL};

/* The i-th list platform_fabric_names joins: lead, each generator's parts, tail. */
static const char *const *platform_fabric_list(const TopologyType *const *topo,
                                               size_t ntopo, const char *const *lead,
                                               const char *const *tail, size_t i)
{
    if (i == 0 || i > ntopo) {
        return i == 0 ? lead : tail;
    }
    return topo[i - 1]->parts;
}

/* A new NULL-terminated array (free(); NULL on OOM): the names of lead, then of every
 * registered generator's parts in registration order, then of tail, each name once. */
static const char **platform_fabric_names(const Registry *r, const char *const *lead,
                                          const char *const *tail)
{
    size_t ntopo, room = 1, n = 0;
    const TopologyType *const *topo = registry_topologies(r, &ntopo);
    for (size_t i = 0; i < ntopo + 2; i++) {
        const char *const *names = platform_fabric_list(topo, ntopo, lead, tail, i);
        for (size_t k = 0; names && names[k]; k++) {
            room++;
        }
    }
    const char **list = malloc(room * sizeof *list);
    for (size_t i = 0; list && i < ntopo + 2; i++) {
        const char *const *names = platform_fabric_list(topo, ntopo, lead, tail, i);
        for (size_t k = 0; names && names[k]; k++) {
            size_t j = 0;
            while (j < n && strcmp(list[j], names[k]) != 0) {
                j++;
            }
            if (j == n) {
                list[n++] = names[k];
            }
        }
    }
    if (list) {
        list[n] = NULL;
    }
    return list;
}

/* The first parameter (generators in registration order) that a registered generator
 * computes and that is a member of params, or (params NULL) equals param; NULL if
 * none. */
static const char *platform_fabric_computed_in(const Registry *r, const json_t *params,
                                               const char *param)
{
    size_t ntopo;
    const TopologyType *const *topo = registry_topologies(r, &ntopo);
    for (size_t i = 0; i < ntopo; i++) {
        for (size_t k = 0; topo[i]->computed && topo[i]->computed[k]; k++) {
            const char *c = topo[i]->computed[k];
            if (params ? json_object_get(params, c) != NULL
                       : param && strcmp(c, param) == 0) {
                return c;
            }
        }
    }
    return NULL;
}

bool platform_fabric_computed(const Registry *r, const char *name, const char *param)
{
    size_t nlen = strlen(TOPOLOGY_NAMESPACE);
    return strncmp(name, TOPOLOGY_NAMESPACE, nlen) == 0 && name[nlen] == '.' &&
           platform_fabric_computed_in(r, NULL, param) != NULL;
}

/* Checks the fabric object's members against "topology", the parts, "latency" and
 * "doc". */
static bool platform_fabric_check_keys(PlatformLoad *ld, json_t *fab, SimError *err)
{
    static const char *const lead[] = {"topology", NULL};
    static const char *const tail[] = {"params", "latency", "doc", NULL};
    const char **keys = platform_fabric_names(ld->desc->registry, lead, tail);
    if (!keys) {
        return platform_fail(ld, "/fabric", err, "out of memory");
    }
    bool ok = platform_check_keys(ld, fab, "/fabric", keys, err);
    free(keys);
    return ok;
}

/* The topology's generator (*gen NULL for none); checks the fabric object's keys. */
static bool platform_fabric_kind(PlatformLoad *ld, const TopologyType **gen,
                                 SimError *err)
{
    json_t *fab, *topo, *doc;
    *gen = NULL;
    if (!platform_check_member(ld, ld->doc, "", "fabric", JSON_OBJECT, &fab, err)) {
        return false;
    }
    if (!fab) {
        return true;
    }
    if (!platform_fabric_check_keys(ld, fab, err) ||
        !platform_check_member(ld, fab, "/fabric", "topology", JSON_STRING, &topo, err) ||
        !platform_check_member(ld, fab, "/fabric", "doc", JSON_STRING, &doc, err)) {
        return false;
    }
    const char *name = topo ? json_string_value(topo) : TOPOLOGY_NONE;
    if (strcmp(name, TOPOLOGY_NONE) == 0) {
        return true;
    }
    *gen = registry_find_topology(ld->desc->registry, name);
    if (*gen && ld->desc->info.gpus < (*gen)->min_gpus) {
        return platform_fail(ld, "/fabric/topology", err,
                             "topology %s needs at least %u GPUs", name,
                             (*gen)->min_gpus);
    }
    if (*gen) {
        return true;
    }
    size_t ntopo;
    const TopologyType *const *all = registry_topologies(ld->desc->registry, &ntopo);
    char choices[256] = TOPOLOGY_NONE;
    for (size_t i = 0; i < ntopo; i++) {
        size_t used = strlen(choices);
        snprintf(choices + used, sizeof choices - used, ", %s", all[i]->name);
    }
    return platform_fail(ld, "/fabric/topology", err,
                         "unknown topology \"%s\" (choices: %s)", name, choices);
}

/* Checks the object of fabric part `part` (if given): its keys, member types, and
 * no parameter a generator computes. */
static bool platform_fabric_part(PlatformLoad *ld, const char *part, SimError *err)
{
    json_t *fab = json_object_get(ld->doc, "fabric"), *obj, *params, *doc;
    char path[PLATFORM_PATH_MAX];
    platform_path(path, sizeof path, "/fabric", part);
    if (!platform_check_member(ld, fab, "/fabric", part, JSON_OBJECT, &obj, err)) {
        return false;
    }
    if (!obj) {
        return true;
    }
    if (!platform_check_keys(ld, obj, path, platform_part_keys, err) ||
        !platform_check_member(ld, obj, path, "params", JSON_OBJECT, &params, err) ||
        !platform_check_member(ld, obj, path, "doc", JSON_STRING, &doc, err)) {
        return false;
    }
    if (!params) {
        return true;
    }
    const char *computed = platform_fabric_computed_in(ld->desc->registry, params, NULL);
    if (!computed) {
        return true;
    }
    char p[PLATFORM_PATH_MAX];
    platform_path(p, sizeof p, path, "params");
    json_pointer_push(p, sizeof p, computed);
    return platform_fail(ld, p, err, "computed from the fabric topology; remove it");
}

/* Checks the object of every part a registered generator declares. */
static bool platform_fabric_parts(PlatformLoad *ld, SimError *err)
{
    const char **parts = platform_fabric_names(ld->desc->registry, NULL, NULL);
    if (!parts) {
        return platform_fail(ld, "/fabric", err, "out of memory");
    }
    bool ok = true;
    for (size_t i = 0; ok && parts[i]; i++) {
        ok = platform_fabric_part(ld, parts[i], err);
    }
    free(parts);
    return ok;
}

/* True if gen declares the setting key. */
static bool platform_fabric_declares(const TopologyType *gen, const char *key)
{
    for (size_t i = 0; gen && i < gen->nparams; i++) {
        if (strcmp(gen->params[i].key, key) == 0) {
            return true;
        }
    }
    return false;
}

/* Applies the fabric object's "params" to a new settings struct of gen in g->params
 * (NULL when gen takes none); release it with platform_fabric_release, also after a
 * failure. */
static bool platform_fabric_settings(PlatformLoad *ld, const TopologyType *gen,
                                     TopologyGen *g, SimError *err)
{
    json_t *fab = json_object_get(ld->doc, "fabric"), *given, *v;
    char path[PLATFORM_PATH_MAX];
    const char *key;
    if (!platform_check_member(ld, fab, "/fabric", "params", JSON_OBJECT, &given, err)) {
        return false;
    }
    json_object_foreach(given, key, v) {
        if (!platform_fabric_declares(gen, key)) {
            platform_path(path, sizeof path, "/fabric/params", key);
            return platform_fail(ld, path, err, "unknown parameter \"%s\" of topology %s",
                                 key, gen ? gen->name : TOPOLOGY_NONE);
        }
    }
    if (!gen || gen->size == 0) {
        return true;
    }
    g->params = calloc(1, gen->size);
    if (!g->params) {
        return platform_fail(ld, "/fabric/params", err, "out of memory");
    }
    for (size_t i = 0; i < gen->nparams; i++) {
        const ParamDef *d = &gen->params[i];
        if (!params_apply(g->params, d, json_object_get(given, d->key), &ld->desc->info,
                          err)) {
            platform_path(path, sizeof path, "/fabric/params", d->key);
            return platform_fail_prefix(ld, path, err);
        }
    }
    return true;
}

static void platform_fabric_release(const TopologyType *gen, TopologyGen *g)
{
    if (g->params) {
        params_release(g->params, gen->params, gen->nparams);
        free(g->params);
    }
}

bool platform_fabric_instances(PlatformLoad *ld, SimError *err)
{
    const TopologyType *gen;
    if (!platform_fabric_kind(ld, &gen, err) || !platform_fabric_parts(ld, err)) {
        return false;
    }
    TopologyGen g = {.ld = ld};
    bool ok =
        platform_fabric_settings(ld, gen, &g, err) && (!gen || gen->instances(&g, err));
    platform_fabric_release(gen, &g);
    return ok;
}

/* The fabric latency and the GPU template's uplink port. */
static bool platform_fabric_ends(PlatformLoad *ld, TopologyGen *g, SimError *err)
{
    json_t *fab = json_object_get(ld->doc, "fabric"), *gpu, *jl, *up;
    if (!platform_check_member(ld, fab, "/fabric", "latency", JSON_STRING, &jl, err)) {
        return false;
    }
    if (jl && !params_parse_latency(json_string_value(jl), ld->desc->info.clock,
                                    &g->latency, err)) {
        return platform_fail_prefix(ld, "/fabric/latency", err);
    }
    gpu = json_object_get(ld->doc, "gpu");
    if (!platform_check_member(ld, gpu, "/gpu", "uplink", JSON_STRING, &up, err)) {
        return false;
    }
    if (!up) {
        return platform_fail(ld, "/gpu", err,
                             "missing key \"uplink\" (the port joined to the fabric)");
    }
    g->uplink = json_string_value(up);
    if (strchr(g->uplink, '*')) {
        /* the uplink is written as it is into each GPU's wire, where a later load of
           the flat dump would expand it */
        return platform_fail(ld, "/gpu/uplink", err,
                             "\"%s\": one port, without [*] or a glob", g->uplink);
    }
    return true;
}

bool platform_fabric_wires(PlatformLoad *ld, SimError *err)
{
    const TopologyType *gen;
    TopologyGen g = {.ld = ld};
    if (!platform_fabric_kind(ld, &gen, err)) {
        return false;
    }
    bool ok = !gen || (platform_fabric_settings(ld, gen, &g, err) &&
                       platform_fabric_ends(ld, &g, err) && gen->wires(&g, err));
    platform_fabric_release(gen, &g);
    return ok;
}
