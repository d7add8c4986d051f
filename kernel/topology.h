/* Topology generators: hardware-side code that expands the "fabric" object of a
 * platform file into instances and wires of the flat description
 * (docs/platform-format.md, "fabric").
 *
 * The loader reads the fabric object {"topology": NAME, "params": {...}, "<part>":
 * {"params": {...}, "doc": "..."}, "latency": "30ns", "doc": "..."}, finds the
 * generator called NAME in
 * the registry and calls it twice: `instances` when the instances are expanded
 * (after the GPU templates, before the top-level blocks) and `wires` after the `set`
 * overrides, so that parameters are final (after the GPU template wires, before the
 * top-level wires). "none" (TOPOLOGY_NONE) is built in and generates nothing.
 * The fabric object's own "params" are the generator's settings (a mesh's rows, a
 * chiplet fabric's chiplets per package): the loader applies them, with the same
 * checks and messages as block parameters, to a zeroed struct of the generator's
 * `size` that both calls read with topology_params.
 *
 * A generator names everything relative to the fabric namespace: the instance "sw[1]"
 * is added as "fabric.sw[1]", its port "sw[1].port[0]" is "fabric.sw[1].port[0]".
 * The context functions below report their own errors in full (file and JSON path:
 * an instance is blamed on "/fabric/<part>", a wire between fabric ports on
 * "/fabric", a wire to a GPU on "/gpu/uplink"); a generator returns false at once
 * when one fails. */
#ifndef MGTLM_TOPOLOGY_H
#define MGTLM_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "block.h"
#include "error.h"

#define TOPOLOGY_NONE "none"
#define TOPOLOGY_NAMESPACE "fabric"

/* The loader's context during one generator call (opaque). */
typedef struct TopologyGen TopologyGen;

typedef struct TopologyType {
    const char *name;  /* the value of "topology": "ring" */
    const char *doc;   /* one line */
    uint32_t min_gpus; /* fewer GPUs: "topology ring needs at least 2 GPUs" */
    /* Members of the fabric object that hold the user's params of one kind of
     * generated instance ("switch", "link"); NULL-terminated. */
    const char *const *parts;
    /* Parameters the generator computes for its instances ("ports", "routes"):
     * neither the parts' params nor `set` entries on fabric instances may give them.
     * NULL-terminated, or NULL for none. */
    const char *const *computed;
    /* The generator's settings: members of the fabric object's "params", applied
     * into a struct of `size` bytes (0: the generator takes none). */
    const ParamDef *params;
    size_t nparams;
    size_t size;
    bool (*instances)(TopologyGen *g, SimError *err);
    bool (*wires)(TopologyGen *g, SimError *err);
} TopologyType;

/* The platform's number of GPUs. */
uint32_t topology_gpus(const TopologyGen *g);
/* The generator's settings struct (borrowed; NULL when its size is 0). */
const void *topology_params(const TopologyGen *g);
/* Adds the instance "fabric.<name>" of block type `type`; its params are those the
 * user gave in the fabric object's member `part` (one of the generator's parts),
 * with the members of computed (borrowed; NULL for none) set over them. */
bool topology_add(TopologyGen *g, const char *part, const char *name, const char *type,
                  json_t *computed, SimError *err);
/* "<file>: /fabric: <message>" into err (for the generator's own failures, such as
 * running out of memory). Returns false. */
bool topology_fail(const TopologyGen *g, SimError *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "<file>: /fabric/params/<key>: <message>" into err (a setting at fault, such as
 * mesh rows that do not divide the GPU count). Returns false. */
bool topology_fail_param(const TopologyGen *g, const char *key, SimError *err,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Wires the fabric ports a and b ("sw[0].port[1]", "link[0].a") with the fabric
 * latency. Only in `wires`. */
bool topology_wire(TopologyGen *g, const char *a, const char *b, SimError *err);
/* Wires the fabric port `port` to the uplink port of GPU gpu (the GPU template's
 * "uplink") with the fabric latency. Only in `wires`. */
bool topology_uplink(TopologyGen *g, uint32_t gpu, const char *port, SimError *err);

#endif
