/* Internal interfaces of the platform loader, shared by the files of kernel/platform/
 * only.
 *
 * Errors name the file and the JSON pointer of the value at fault. After `extends`
 * the loader works on one merged document; an error at pointer P is blamed on the
 * most derived file of the chain that contains P (else its longest existing prefix),
 * since that file's value is the one that won the merge. */
#ifndef MGTLM_PLATFORM_PRIV_H
#define MGTLM_PLATFORM_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/topology.h"
#include "platform.h"

#define PLATFORM_PATH_MAX 512
#define PLATFORM_MAX_GPUS 64
#define PLATFORM_MAX_COUNT 4096
#define PLATFORM_MAX_NAME 64
#define PLATFORM_FLAT_FORMAT "mgtlm-flat"
#define PLATFORM_STR2(x) #x
#define PLATFORM_STR(x) PLATFORM_STR2(x)

/* One document of the extends chain. */
typedef struct PlatformSrc {
    char *file;   /* as named in messages (owned) */
    char *prefix; /* pointer of the document inside file: "" or e.g. "/platform" */
    json_t *doc;  /* owned reference */
    bool overlay; /* an overlay of an extends list (platform_overlay.c) */
    char *by;     /* overlays: "<file>: <pointer>" of the list entry naming it (owned) */
} PlatformSrc;

/* The cores section as read by platform_cores_prepare. */
typedef struct PlatformCores {
    json_t *section;     /* in the merged document (borrowed; NULL when absent) */
    const char *replace; /* the GPU template entry the SMs replace (borrowed) */
    bool apply;          /* a non-empty trace: the section changes the expansion */
    bool scaled;         /* applied, or cus given: the scale items follow count */
    uint64_t count;      /* SMs per GPU (applied), else CUs per GPU (scaled) */
    SimTime disp_latency, host_latency;
} PlatformCores;

typedef struct PlatformLoad {
    PlatformDesc *desc;
    PlatformSrc *src; /* the user's document first, then what it extends (owned) */
    size_t nsrc;
    json_t *doc;  /* the merged document (owned) */
    char **paths; /* JSON pointer each instance was described at, parallel to
                     desc->inst (owned) */
    uint64_t sms; /* the top-level value sms (0 = the replaced entry's count) */
    uint64_t cus; /* the top-level value cus (0 = the replaced entry's count) */
    PlatformCores cores;
    char **wire_from; /* with overlays: "<file>: <pointer>" each entry of the merged
                         gpu.wires was written at (owned; NULL without overlays) */
    size_t nwire_from;
} PlatformLoad;

/* Where a group of `set` entries came from (errors name it). */
typedef enum PlatformSetFrom {
    PLATFORM_SET_DOC,   /* the platform's own "set" (blamed like any value) */
    PLATFORM_SET_EXTRA, /* PlatformLoadArgs.sets ("file: pointer/key") */
    PLATFORM_SET_CLI,   /* the command line ("--set key") */
} PlatformSetFrom;

/* platform_source.c: reads the chain (following extends) and merges it. */
bool platform_source_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err);
void platform_source_free(PlatformLoad *ld);
/* Deep merge: a new value (NULL on OOM); when both are objects, base's members (in
 * base's order) merged with over's (over wins; members only in over follow in over's
 * order), recursively; otherwise a copy of over. Neither argument is modified. */
json_t *platform_source_deep_merge(json_t *base, json_t *over);

/* platform_overlay.c: overlays (docs/composition.md). */
/* Applies the overlays src[first+n-1] (listed first) .. src[first] (listed last) of
 * one extends list to the merged document doc, keeping ld->wire_from parallel to its
 * gpu.wires. */
bool platform_overlay_list(PlatformLoad *ld, json_t *doc, size_t first, size_t n,
                           SimError *err);
/* After a platform document s was merged into doc: its gpu.wires, if it has one,
 * replaced the merged array, so their origins are s's. */
bool platform_overlay_origins(PlatformLoad *ld, json_t *doc, const PlatformSrc *s,
                              SimError *err);
/* Fails if one overlay of the chain excludes another (their "excludes"). */
bool platform_overlay_excludes(const PlatformLoad *ld, SimError *err);
/* The name a wire entry is addressed by: its "name", else its "b" (borrowed; NULL
 * for an entry that is not an object with a string b). */
const char *platform_wire_name(json_t *w);

/* platform_fail.c: messages and origins. */
/* "<file>: <prefix><path>: <message>" (path "" shows as "/"). Returns false. */
bool platform_fail(const PlatformLoad *ld, const char *path, SimError *err,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Prefixes an existing message with "<file>: <prefix><path>". Returns false. */
bool platform_fail_prefix(const PlatformLoad *ld, const char *path, SimError *err);
/* path + "/" + key (key escaped) into out; returns out. */
char *platform_path(char *out, size_t n, const char *path, const char *key);
/* "<file>: <prefix><path>" into buf. */
char *platform_origin(const PlatformLoad *ld, const char *path, char *buf, size_t n);

/* platform_load.c: adds an instance described at path (errors blamed there; the
 * path is kept for the messages of platform_check_instances). */
bool platform_load_add(PlatformLoad *ld, const char *name, const char *type, int gpu,
                       json_t *params, const char *path, SimError *err);

/* platform_top.c: name, gpus, mem_bytes, clock, seed. Each of the last four may
 * also be given as a `set` entry with that key alone ("gpus": 8): the file's own set
 * (doc_set, NULL for none), then a->sets, then a->cli_sets, the last one winning
 * over the document's value. allow_gpus false refuses a set "gpus" (a flat dump is
 * already expanded). */
bool platform_top_read(PlatformLoad *ld, json_t *doc, json_t *doc_set,
                       const PlatformLoadArgs *a, bool allow_gpus, SimError *err);
/* True for the set keys platform_top_read takes: gpus, mem_bytes, clock, seed,
 * trace, sms, cus. */
bool platform_top_key(const char *key);
/* Prefixes err with where the winning value of top-level key was written (the
 * document or a set entry). Returns false. */
bool platform_top_blame_key(PlatformLoad *ld, json_t *doc, json_t *doc_set,
                            const PlatformLoadArgs *a, const char *key, SimError *err);

/* platform_cores.c: the cores section (a trace-driven run's SMs, dispatchers and
 * host). Every function does nothing beyond checks unless the section applies. */
/* Checks the section and, with a trace, rewrites the document for it (scale counts,
 * GPU template wire ends naming the replaced entry). After platform_top_read. */
bool platform_cores_prepare(PlatformLoad *ld, json_t *doc_set, const PlatformLoadArgs *a,
                            SimError *err);
/* True if key of the GPU template is the entry the applied section replaces. */
bool platform_cores_replaces(const PlatformLoad *ld, const char *key);
/* Adds gpu<g>.sm[*] and gpu<g>.disp (in the replaced entry's place). */
bool platform_cores_gpu_add(PlatformLoad *ld, int gpu, SimError *err);
/* Adds host (after the top-level blocks). */
bool platform_cores_host_add(PlatformLoad *ld, SimError *err);
/* Checks the "entry.param" scale items against the instances and sets them. */
bool platform_cores_scale(PlatformLoad *ld, SimError *err);
/* The wires sm[k].ctl <-> disp.sm[k] of GPU gpu. */
bool platform_cores_gpu_wires(PlatformLoad *ld, int gpu, SimError *err);
/* The wires host.gpu[g] <-> gpu<g>.disp.host. */
bool platform_cores_host_wires(PlatformLoad *ld, SimError *err);
/* platform_desc.c: the port of block type t named name (without index), or NULL. */
const PortDef *platform_type_port(const BlockType *t, const char *name);

/* platform_cores_agree.c: after the set overrides, every sm's `page` (when its type
 * has one) equals the host's. */
bool platform_cores_check_page(PlatformLoad *ld, SimError *err);
/* After the wires: an sm in wavefront mode has its mem port wired to a port that
 * takes wavefronts (PortDef.wavefronts). */
bool platform_cores_check_wavefront(PlatformLoad *ld, SimError *err);

/* platform_blocks.c: block entries of an object (gpu >= 0: GPU template of GPU gpu,
 * names "gpu<g>.<key>"; gpu < 0: top-level blocks). */
bool platform_blocks_add(PlatformLoad *ld, json_t *blocks, const char *path, int gpu,
                         SimError *err);

/* topology.c: the context a topology generator gets (kernel/topology.h). */
struct TopologyGen {
    PlatformLoad *ld;
    SimTime latency;    /* the fabric latency (wires only) */
    const char *uplink; /* the GPU template's uplink port (wires only) */
    void *params;       /* the generator's settings (owned by platform_fabric.c) */
};

/* platform_fabric.c: the fabric object and its topology generator. */
/* Calls the generator's `instances` (after checking the fabric object). */
bool platform_fabric_instances(PlatformLoad *ld, SimError *err);
/* Calls the generator's `wires` (after reading the latency and the uplink port). */
bool platform_fabric_wires(PlatformLoad *ld, SimError *err);
/* True if name is a fabric instance ("fabric.*") and param is computed by a topology
 * generator of r (so no `set` may give it). */
bool platform_fabric_computed(const Registry *r, const char *name, const char *param);

/* platform_set.c: set overrides. */
bool platform_set_apply(PlatformLoad *ld, json_t *sets, PlatformSetFrom from,
                        const PlatformLoadArgs *a, SimError *err);
/* Prefixes err with where the entry key of a set object from `from` was written.
 * Returns false. */
bool platform_set_blame(PlatformLoad *ld, PlatformSetFrom from, const PlatformLoadArgs *a,
                        const char *key, SimError *err);

/* platform_check.c: schema and parameter checks. */
/* Fails on a member of obj whose key is not in allowed (NULL-terminated). */
bool platform_check_keys(const PlatformLoad *ld, json_t *obj, const char *path,
                         const char *const *allowed, SimError *err);
/* *out = member key of obj (borrowed; NULL if absent). Fails if present and not of
 * type want (JSON_TRUE stands for a boolean). */
bool platform_check_member(const PlatformLoad *ld, json_t *obj, const char *path,
                           const char *key, json_type want, json_t **out, SimError *err);
/* Checks one value for parameter d of type t. */
bool platform_check_value(const BlockType *t, const ParamDef *d, json_t *v,
                          const PlatformInfo *pi, SimError *err);
/* Checks every instance added by the loader (errors at "<path>/params/<key>"), and
 * that the parameters marked `one_value` hold one value (platform_one_value.c). */
bool platform_check_instances(PlatformLoad *ld, SimError *err);

/* platform_one_value.c: the first value of each `one_value` parameter key seen so far. */
typedef struct PlatformOneValue {
    json_t *first; /* key -> {"value": canonical value, "inst": instance index} */
} PlatformOneValue;

bool platform_one_value_init(PlatformOneValue *ov);
void platform_one_value_free(PlatformOneValue *ov);
/* Records or compares the `one_value` parameters of instance i, whose parameters state
 * holds; fails naming the instance's file and JSON path when one differs. */
bool platform_one_value_add(PlatformOneValue *ov, const PlatformLoad *ld, size_t i,
                            const void *state, SimError *err);

/* platform_state.c: scratch state structs of block types. */
/* A zeroed state struct of type t (at least a Block), NULL on OOM; free(). */
void *platform_state_alloc(const BlockType *t);
/* A scratch state with every parameter of in applied (new, free with
 * platform_state_free). On failure NULL, *bad_key names the parameter at fault
 * (NULL if the fault is not one parameter's) and err has the message. */
void *platform_state_new(const PlatformInstance *in, const PlatformInfo *pi,
                         const char **bad_key, SimError *err);
void platform_state_free(const BlockType *t, void *state);
/* Value of a PT_U64 parameter of an instance (its count of array ports). */
bool platform_state_u64(const PlatformInstance *in, const PlatformInfo *pi,
                        const char *key, uint64_t *out, SimError *err);
/* Value in bytes of the PT_SIZE parameter key of an instance, default applied; *has
 * false (and true returned) when its type has no such parameter. */
bool platform_state_size(const PlatformInstance *in, const PlatformInfo *pi,
                         const char *key, bool *has, uint64_t *out, SimError *err);
/* Value of the PT_BOOL parameter key of an instance, default applied; false (and true
 * returned) when its type has no such parameter. */
bool platform_state_bool(const PlatformInstance *in, const PlatformInfo *pi,
                         const char *key, bool *out, SimError *err);

/* platform_wires.c: wire entries, with `[*]` expanded element-wise (gpu >= 0: port
 * names relative to "gpu<g>."). */
bool platform_wires_add(PlatformLoad *ld, json_t *wires, const char *path, int gpu,
                        SimError *err);
/* One wire described at path. */
bool platform_wire_add(PlatformLoad *ld, const char *a, const char *b, SimTime latency,
                       const char *path, SimError *err);

/* platform_template.c and platform_flat.c: the two input forms. */
bool platform_template_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err);
bool platform_flat_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err);

/* platform_dump.c: {"param": canonical value, ...} of every parameter of type t held
 * in state (a scratch state or a realized block), "buffer" last. New reference. */
json_t *platform_dump_state(const BlockType *t, const void *state);
/* platform_partition.c: reads the top-level "partitions" (an object of instance
 * globs to partition indexes below PLATFORM_MAX_PARTS) into ld->desc; absent: the
 * default map. */
#define PLATFORM_MAX_PARTS 1024
bool platform_partition_read(PlatformLoad *ld, SimError *err);

/* platform_names.c: name rules. */
/* True if name is an identifier: [A-Za-z_][A-Za-z0-9_]*. */
bool platform_name_ident(const char *name);
/* Splits a full port name "inst.port[k]" into instance (into inst, size n), port
 * table name (into port, size n) and k (-1 without an index). False if malformed. */
bool platform_name_split_port(const char *full, char *inst, char *port, size_t n, int *k);
/* True for a valid instance name: segments `ident` or `ident[k]` joined by '.'. */
bool platform_name_valid(const char *name);
/* k of a trailing "[k]", else -1. */
int platform_name_index(const char *name);

#endif
