/* Blocks: the base every hardware model derives from (QEMU device-model shape).
 *
 * A block type is a `static const BlockType` with a parameter table and a port table.
 * A block's state struct has `Block` as its first member; parameters are written into
 * that struct at their offsets before realize() runs. Ports named in the port table
 * are created by the platform builder (array ports get their count from a parameter)
 * and live in block->ports in table order, arrays expanded ("cu[0]", "cu[1]", ...).
 *
 * Statistics are declared in a stat table (StatDef rows, stats.h) like the
 * parameters: block_realize registers every row under the instance's name and writes
 * the storage pointers into the state before the type's realize runs.
 *
 * Life cycle: params applied -> stats registered -> realize (validate combinations,
 * allocate, look ports up; may fail with a clear error) -> ports connected -> reset
 * (schedule initial events) -> on_recv / on_free during the run -> stats (compute
 * derived statistics) -> finalize (free what the block allocated). `cost` (optional)
 * reports storage by formula from the parameters, for `mgtlm cost`; `agree`
 * (optional) checks, once all are realized, what the instances of one type must
 * share.
 * A block touches only its own state and its own ports. */
#ifndef MGTLM_BLOCK_H
#define MGTLM_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"
#include "error.h"
#include "port.h"
#include "sim.h"
#include "stats.h"

typedef enum ParamType {
    PT_U64,      /* uint64_t; JSON integer */
    PT_BOOL,     /* bool; JSON true/false */
    PT_DOUBLE,   /* double; JSON number */
    PT_TIME,     /* SimTime ps; "30ns", "1.5us", "30cycles" (platform clock) */
    PT_SIZE,     /* uint64_t bytes; "64B", "1.5MiB", "4GB", or a JSON integer */
    PT_BW,       /* uint64_t bytes per second; "32GB/s", "1.5GiB/s" */
    PT_FREQ,     /* uint64_t Hz; "1GHz", "800MHz" */
    PT_ENUM,     /* int index into choices; JSON string */
    PT_STRING,   /* char *, owned by the platform (do not free in the block) */
    PT_U64_LIST, /* U64List, owned by the platform; JSON array of integers */
} ParamType;

typedef struct U64List {
    size_t n;
    uint64_t *v;
} U64List;

typedef struct ParamDef {
    const char *key; /* JSON key */
    size_t offset;   /* offsetof(State, field) */
    ParamType type;
    /* Every instance of the platform whose type marks a parameter of this key holds
     * one value of it, which the loader checks (exit 2, platform_one_value.c in
     * kernel/platform/): CARVE's rdc, epoch and imst `coherence`. It sits in what was
     * padding: sizeof(ParamDef) and the plug-in ABI do not change, and a plug-in built
     * before it reads false. A table written without member names gives it after
     * `type`. */
    bool one_value;
    const char *def;            /* default, written as in JSON ("30ns", "64", "true") */
    uint64_t min, max;          /* inclusive bounds in base units (U64/TIME/SIZE/BW/FREQ,
                                   and list length for U64_LIST); max 0 = the
                                   type's maximum, params_type_max() */
    double dmin, dmax;          /* bounds for PT_DOUBLE */
    const char *const *choices; /* PT_ENUM: NULL-terminated */
    const char *doc;
} ParamDef;

typedef struct PortDef {
    const char *name;
    const char
        *count_param; /* NULL: a single port; else a PT_U64 param giving the count */
    bool required;    /* must be connected */
    const char *doc;
    /* The buffer refuses answers (responses, invalidates) too when full: for a
     * testbench sink that stands for a slow consumer of anything. Default: answers
     * are never refused (port.h). */
    bool bounded_answers;
    /* The block takes wavefront transactions (Txn threads) here and splits them into
     * lines: an sm in wavefront mode needs such a port on its mem port, which the
     * loader checks (kernel/platform/platform_cores_agree.c). It sits in what was
     * padding: sizeof(PortDef) and the plug-in ABI do not change, and a plug-in
     * built before it reads false. */
    bool wavefronts;
} PortDef;

typedef struct PlatformInfo {
    uint32_t gpus;
    uint64_t mem_bytes; /* bytes of memory per GPU; GPU g owns [g*M, (g+1)*M) */
    SimTime clock;      /* clock period in ps */
    uint64_t seed;      /* platform seed, mixed into per-block PRNG seeds */
    const char *trace;  /* the trace folder of a trace-driven run, NULL otherwise
                           (borrowed) */
    /* The declared commands stimulus may name (registry_cmds of the platform's
     * registry, NULL-terminated; borrowed; NULL = none), set by platform_build. */
    const TxnCmdDecl *const *cmds;
} PlatformInfo;

typedef struct Block Block;

typedef struct BlockType {
    const char *name;
    const char *doc; /* one line */
    size_t size;     /* sizeof the state struct */
    const ParamDef *params;
    size_t nparams;
    const PortDef *ports;
    size_t nports;
    const StatDef *stat_defs; /* in output order; names unique within the table */
    size_t nstat_defs;
    bool (*realize)(Block *b, SimError *err);
    void (*reset)(Block *b);
    void (*on_recv)(Block *b, Port *p);
    void (*on_free)(Block *b, Port *p);
    void (*stats)(Block *b);
    void (*finalize)(Block *b);
    /* Optional: adds the block's storage (and derived costs) to r, by formula from its
     * parameters, after realize; used by `mgtlm cost`. */
    void (*cost)(Block *b, CostReport *r);
    /* Optional: called once after every block has been realized, with all n instances
     * of this type in description order, for parameters that must agree across
     * instances (e.g. the cu's shared pattern). Returns false with err set and *bad =
     * the index (in blocks) of the instance the message is about. Reads only: it
     * never links instances to shared state (what instances must learn from each
     * other during a run travels as transactions, e.g. the cus' kernel barrier through
     * the kbar block), so a platform can be cut into partitions. */
    bool (*agree)(Block *const *blocks, size_t n, size_t *bad, SimError *err);
} BlockType;

struct Block {
    const BlockType *type;
    char *name;               /* "gpu0.cu[1]", owned by the platform */
    Sim *sim;                 /* borrowed */
    const PlatformInfo *plat; /* borrowed */
    Stats *stats;             /* borrowed registry */
    int gpu;                  /* GPU index, -1 outside any GPU (fabric, testbench) */
    int index;                /* index within a template array, -1 if not an array */
    uint32_t buffer;          /* receive-buffer slots of each port (common param) */
    Port *ports;
    size_t nports;
};

/* The common parameter every block has, applied to all of its ports. */
#define BLOCK_BUFFER_KEY "buffer"
#define BLOCK_BUFFER_DEFAULT 8

/* Looks a port up by table name and array index (-1 for a single port). Borrowed.
 * NULL if there is no such port. */
Port *block_port(Block *b, const char *name, int k);

/* Checks b's stat table (block_type_check_stats), registers its rows (after b's
 * parameters and ports) and runs the type's realize. False with err set on a bad row,
 * a duplicate stat name ("block type T: duplicate stat \"N\"") or a failed realize. */
bool block_realize(Block *b, SimError *err);

/* Checks a type's stat table without an instance: names unique (per-port rows
 * excepted), storage matching the kind, histogram geometry, enum choices. */
bool block_type_check_stats(const BlockType *t, SimError *err);

/* Home GPU of an address under the platform's address map. */
static inline int block_home(const Block *b, uint64_t addr)
{
    return (int)(addr / b->plat->mem_bytes);
}

#endif
