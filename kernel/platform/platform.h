/* Platforms: loading a JSON description, expanding it to a flat description, and
 * building blocks and connections from the flat description.
 *
 * The flat description (PlatformDesc) is what `mgtlm validate --dump` prints and is
 * itself accepted as input. The schema is documented in docs/platform-format.md. */
#ifndef MGTLM_PLATFORM_H
#define MGTLM_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/block.h"
#include "kernel/engine.h"
#include "kernel/error.h"
#include "kernel/registry.h"
#include "kernel/sim.h"
#include "kernel/stats.h"

typedef struct PlatformIndex PlatformIndex;

typedef struct PlatformInstance {
    char *name;            /* "gpu0.cu[1]" */
    const BlockType *type; /* borrowed from the registry */
    int gpu;               /* -1 outside any GPU */
    int index;             /* -1 if not an array element */
    json_t *params;        /* object key -> JSON value as given (owned reference) */
    char *origin;          /* "file: /json/path" where the instance was described */
} PlatformInstance;

typedef struct PlatformWire {
    char *a, *b; /* full port names "gpu0.xbar.cu[1]" */
    SimTime latency;
    char *origin; /* "file: /json/path" */
} PlatformWire;

typedef struct PlatformDesc {
    const Registry *registry; /* borrowed: where instance types are looked up; it
                                 must outlive the description and its platform */
    char *file;               /* the file given by the user */
    char *name;               /* platform name */
    PlatformInfo info;
    char *trace; /* the top-level value trace, NULL when empty (owned; info.trace
                    points to it) */
    PlatformInstance *inst;
    size_t ninst, inst_cap;
    PlatformWire *wires;
    size_t nwires, wire_cap;
    PlatformIndex *index;    /* instance name -> position in inst (owned) */
    json_t *partitions;      /* the explicit partition map {"GLOB": index, ...} (owned
                                reference), NULL for the default map */
    char *partitions_origin; /* "file: /partitions" (owned), NULL without a map */
} PlatformDesc;

/* Loads path (a platform file or a flat dump) with the block types and topology
 * generators of r, expands it and applies `set` overrides from the file and then from
 * cli_sets (object "instance.param" -> value; may be NULL). Every error names the file
 * and JSON path. On success *out is filled (free it with platform_desc_free); on
 * failure *out is left empty but for its registry. */
bool platform_load(const Registry *r, const char *path, json_t *cli_sets,
                   PlatformDesc *out, SimError *err);
/* Frees what d holds and empties it, keeping its registry. */
void platform_desc_free(PlatformDesc *d);

/* Everything a load can take (platform_load is the common case). */
typedef struct PlatformLoadArgs {
    const Registry *registry;   /* block types and topology generators (borrowed) */
    const char *path;           /* the platform file, or the file holding inline_doc */
    json_t *inline_doc;         /* NULL: read path. Else the platform object itself
                                   (borrowed), written in path at inline_pointer; its
                                   `extends` resolve relative to path's directory */
    const char *inline_pointer; /* e.g. "/platform" (NULL = "") */
    json_t *sets;               /* extra `set` object applied after the platform's own
                                   (e.g. a testbench's); NULL = none */
    const char *sets_file;      /* where sets was written, e.g. "tb.json" */
    const char *sets_pointer;   /* and at which pointer, e.g. "/set" */
    json_t *cli_sets;           /* applied last; errors read "--set <key>: ..." */
} PlatformLoadArgs;

/* platform_load with every option. Errors inside inline_doc read
 * "<path>: <inline_pointer><pointer>: ...", those of sets
 * "<sets_file>: <sets_pointer>/<key>: ...". */
bool platform_load_args(const PlatformLoadArgs *a, PlatformDesc *out, SimError *err);
/* The flat form as JSON (new reference). */
json_t *platform_dump(const PlatformDesc *d);

/* Adds an instance of the type called `type` in d->registry (params: borrowed, a
 * reference is taken; NULL = no params; origin copied). The index is taken from a
 * trailing "[k]" of the name (else -1). Fails on an invalid name (segments `ident` or
 * `ident[k]` joined by '.'), a duplicate name or an unknown type; messages carry no
 * location ("duplicate instance name gpu0.mem"). A description built by hand starts
 * as {.registry = r}. */
bool platform_desc_add_instance(PlatformDesc *d, const char *name, const char *type,
                                int gpu, json_t *params, const char *origin,
                                SimError *err);
bool platform_desc_add_wire(PlatformDesc *d, const char *a, const char *b,
                            SimTime latency, const char *origin, SimError *err);
/* Removes the wire touching port (if any); true if one was removed. */
bool platform_desc_unwire(PlatformDesc *d, const char *port);
/* The instance called name (borrowed, valid until the next add), or NULL. */
PlatformInstance *platform_desc_find(const PlatformDesc *d, const char *name);
/* The wire touching port (borrowed), or NULL. */
PlatformWire *platform_desc_wire_of(const PlatformDesc *d, const char *port);

/* The partition map (platform_partition.c, docs/parallel.md). */
typedef struct PlatformPartition {
    uint32_t n;        /* partitions, >= 1 */
    uint32_t *of;      /* partition of each instance, in description order (owned) */
    size_t ncut;       /* wires whose ends are in different partitions */
    SimTime lookahead; /* smallest latency of those wires, SIM_TIME_MAX if none */
} PlatformPartition;

/* Computes d's partition map into *out (free it with platform_partition_free).
 * Fails on an explicit map that leaves an instance out or a partition empty, or
 * that cuts a wire of latency 0 (the message names the wire). */
bool platform_partition(const PlatformDesc *d, PlatformPartition *out, SimError *err);
void platform_partition_free(PlatformPartition *pp);

typedef struct Platform {
    PlatformDesc desc; /* owned */
    Sim *sim;          /* borrowed: the kernel (of partition 0 with an engine) */
    Engine *engine;    /* borrowed; NULL: one kernel */
    Stats *stats;      /* owned */
    Block **blocks;    /* owned, in desc order */
    size_t nblocks;
    PlatformIndex *index; /* block name -> position in blocks (owned) */
} Platform;

/* Builds blocks and connections; takes ownership of *desc (left empty) whether or not
 * it succeeds. Checks params, realizes blocks, connects wires, and fails on unknown
 * ports, double binding and unbound required ports. Returns a new platform or NULL.
 * Errors start with the origin of the instance or wire at fault:
 * "x.json: /gpu/blocks/mem: port gpu0.mem.in is not connected".
 * finalize is called only for blocks whose realize succeeded (or that have none); a
 * realize that fails must release what it allocated itself. */
Platform *platform_build(PlatformDesc *desc, Sim *sim, SimError *err);
/* platform_build over the partitions of engine e (at least pp->n of them): the
 * blocks of instance i run on engine_sim(e, pp->of[i]) and every wire between
 * partitions is cut (engine_cut). */
Platform *platform_build_engine(PlatformDesc *desc, Engine *e,
                                const PlatformPartition *pp, SimError *err);
/* The latest simulated time and the events executed, over every partition. */
SimTime platform_now(const Platform *p);
uint64_t platform_events(const Platform *p);
/* Calls every block's reset in order (schedules the initial events). */
void platform_reset(Platform *p);
/* Calls every block's stats callback (derived statistics). */
void platform_finish_stats(Platform *p);
/* Finalizes every block and frees the platform (not the kernel; free the platform
 * before the kernel, since queued transactions go back to the kernel's pool). */
void platform_free(Platform *p);

/* Borrowed lookups; NULL if absent. */
Block *platform_block(const Platform *p, const char *name);
Port *platform_port(const Platform *p, const char *full_name);

#endif
