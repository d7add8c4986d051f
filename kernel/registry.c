/* The registry: three growing arrays of borrowed pointers (block types, topology
 * generators, declared commands), searched linearly by name; registration order is
 * kept. The command array always ends with a NULL (the form txn_cmd_parse takes).
 * A fourth array holds the dlopen handles of the plug-ins loaded into it, closed in
 * reverse order by registry_free. */
#include "registry.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "registry_priv.h"
#include "xalloc.h"

struct Registry {
    const BlockType **types;
    size_t ntypes, types_cap;
    const TopologyType **topos;
    size_t ntopos, topos_cap;
    const TxnCmdDecl **cmds;
    size_t ncmds, cmds_cap;
    void **plugins;
    size_t nplugins, plugins_cap;
};

static const TxnCmdDecl *const registry_no_cmds[] = {NULL};

Registry *registry_new(void)
{
    return calloc(1, sizeof(Registry));
}

void registry_free(Registry *r)
{
    if (r) {
        free(r->types);
        free(r->topos);
        free(r->cmds);
        for (size_t i = r->nplugins; i > 0; i--) {
            dlclose(r->plugins[i - 1]);
        }
        free(r->plugins);
        free(r);
    }
}

bool registry_add(Registry *r, const BlockType *t, SimError *err)
{
    if (registry_find(r, t->name)) {
        return sim_error_set(err, "block type %s is already registered", t->name);
    }
    r->types = xgrow(r->types, &r->types_cap, r->ntypes + 1, sizeof *r->types, 32);
    r->types[r->ntypes++] = t;
    return true;
}

void registry_keep_plugin(Registry *r, void *handle)
{
    r->plugins =
        xgrow(r->plugins, &r->plugins_cap, r->nplugins + 1, sizeof *r->plugins, 4);
    r->plugins[r->nplugins++] = handle;
}

bool registry_add_topology(Registry *r, const TopologyType *t, SimError *err)
{
    if (strcmp(t->name, TOPOLOGY_NONE) == 0 || registry_find_topology(r, t->name)) {
        return sim_error_set(err, "topology %s is already registered", t->name);
    }
    r->topos = xgrow(r->topos, &r->topos_cap, r->ntopos + 1, sizeof *r->topos, 32);
    r->topos[r->ntopos++] = t;
    return true;
}

bool registry_add_cmd(Registry *r, const TxnCmdDecl *d, SimError *err)
{
    TxnCmd cmd;
    const TxnCmdDecl *found;
    if (strcmp(d->name, "declared") == 0 ||
        txn_cmd_parse(d->name, registry_cmds(r), &cmd, &found)) {
        return sim_error_set(err, "command %s is already registered", d->name);
    }
    r->cmds = xgrow(r->cmds, &r->cmds_cap, r->ncmds + 2, sizeof *r->cmds, 8);
    r->cmds[r->ncmds++] = d;
    r->cmds[r->ncmds] = NULL;
    return true;
}

const BlockType *const *registry_types(const Registry *r, size_t *n)
{
    *n = r->ntypes;
    return r->types;
}

const BlockType *registry_find(const Registry *r, const char *name)
{
    for (size_t i = 0; i < r->ntypes; i++) {
        if (strcmp(r->types[i]->name, name) == 0) {
            return r->types[i];
        }
    }
    return NULL;
}

const TopologyType *const *registry_topologies(const Registry *r, size_t *n)
{
    *n = r->ntopos;
    return r->topos;
}

const TopologyType *registry_find_topology(const Registry *r, const char *name)
{
    for (size_t i = 0; i < r->ntopos; i++) {
        if (strcmp(r->topos[i]->name, name) == 0) {
            return r->topos[i];
        }
    }
    return NULL;
}

const TxnCmdDecl *const *registry_cmds(const Registry *r)
{
    return r->cmds ? r->cmds : registry_no_cmds;
}
