/* The registry: two growing arrays of borrowed pointers (block types, topology
 * generators), searched linearly by name; registration order is kept. */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct Registry {
    const BlockType **types;
    size_t ntypes, types_cap;
    const TopologyType **topos;
    size_t ntopos, topos_cap;
};

Registry *registry_new(void)
{
    return calloc(1, sizeof(Registry));
}

void registry_free(Registry *r)
{
    if (r) {
        free(r->types);
        free(r->topos);
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

bool registry_add_topology(Registry *r, const TopologyType *t, SimError *err)
{
    if (strcmp(t->name, TOPOLOGY_NONE) == 0 || registry_find_topology(r, t->name)) {
        return sim_error_set(err, "topology %s is already registered", t->name);
    }
    r->topos = xgrow(r->topos, &r->topos_cap, r->ntopos + 1, sizeof *r->topos, 32);
    r->topos[r->ntopos++] = t;
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
