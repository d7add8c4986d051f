/* The block shared by dir_baseline, dir_hmg and dir_rec: a bump in the wire in front
 * of the home GPU's L2 (ports `up` towards xbar.local, `down` towards l2.up) that
 * applies the SPEC.md 3.1 actions of dir_core.h to the requests passing down and
 * sends the invalidates out of `up` (the xbar routes them to the remote side). */
#ifndef MGTLM_HW_COHERENCE_DIR_BLOCK_H
#define MGTLM_HW_COHERENCE_DIR_BLOCK_H

#include "hw/coherence/dir_core.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/idmap.h"

/* A write waiting for the eviction acknowledgements of one of its lines. */
typedef struct DirWaiter {
    uint64_t line, req;
} DirWaiter;

/* A posted write whose invalidates are not all acknowledged (seq: arrival order). */
typedef struct DirPosted {
    uint64_t req, seq;
    int src;
} DirPosted;

/* A later request of src whose response waits for src's posted writes up to seq. */
typedef struct DirFence {
    uint64_t req, seq;
    int src;
} DirFence;

typedef struct DirBlock {
    Block base;
    uint64_t entries, ways, range, line;
    int repl; /* DirRepl */
    SimTime latency;
    bool shared_vector;
    bool acks; /* invalidates ask for an inv_ack; responses wait for them */
    int own;
    DirCore core;
    Egress qup, qdown;
    const Txn *cur;     /* the request being applied (its invalidates count for it) */
    IdMap inv_req;      /* invalidate id -> id of the request that caused it */
    IdMap req_wait;     /* request id -> acknowledgements still to come */
    IdMap evict_inv;    /* eviction invalidate id -> its line */
    IdMap line_acks;    /* line -> eviction acknowledgements still to come */
    DirWaiter *waiters; /* writes waiting for their line's eviction acks (owned) */
    size_t nwaiters, capwaiters;
    Txn **held; /* responses waiting for acknowledgements (owned) */
    size_t nheld, capheld;
    DirPosted *posted; /* posted writes with acknowledgements due, in arrival order */
    size_t nposted, capposted;
    DirFence *fences; /* requests waiting for earlier posted writes of their source */
    size_t nfences, capfences;
    uint64_t posted_seq;
    uint64_t *inv_acks, *resp_held, *fenced, *ack_waiting, *ack_errors;
    uint64_t *remote_reads, *local_writes, *remote_writes, *passed;
    uint64_t *allocations, *evictions, *inv_write, *inv_evict, *invalidates;
    uint64_t *valid_entries, *positions, *route_errors;
    StatHist *coalesced;
} DirBlock;

#define DIR_BLOCK_NPORTS 2
extern const PortDef dir_block_ports[DIR_BLOCK_NPORTS];
#define DIR_BLOCK_NSTATS 18
extern const StatDef dir_block_stat_defs[DIR_BLOCK_NSTATS];
extern const char *const dir_block_repl_choices[];

/* Realize with the given layout (range is forced to line for the baseline). */
bool dir_block_realize(Block *b, bool shared_vector, SimError *err);
void dir_block_reset(Block *b);
void dir_block_on_recv(Block *b, Port *p);
void dir_block_on_free(Block *b, Port *p);
void dir_block_stats(Block *b);
void dir_block_finalize(Block *b);
void dir_block_cost(Block *b, CostReport *r);

/* Parameter-table entries and BlockType members shared by the three directory types
 * (dir_baseline.c, dir_hmg.c, dir_rec.c differ only in defaults and docs). */
#define DIR_PARAM_ENTRIES                                                                \
    {                                                                                    \
        .key = "entries", .offset = offsetof(DirBlock, entries), .type = PT_U64,         \
        .def = "8192", .min = 1, .max = 1048576,                                         \
        .doc = "directory entries (a multiple of ways)"                                  \
    }
#define DIR_PARAM_WAYS(docstr)                                                           \
    {                                                                                    \
        .key = "ways", .offset = offsetof(DirBlock, ways), .type = PT_U64, .def = "8",   \
        .min = 1, .max = 1024, .doc = docstr                                             \
    }
#define DIR_PARAM_LINE                                                                   \
    {                                                                                    \
        .key = "line", .offset = offsetof(DirBlock, line), .type = PT_SIZE, .def = "64", \
        .min = 4, .max = 4096, .doc = "coherence line size in bytes (power of two)"      \
    }
#define DIR_PARAM_RANGE(defstr, docstr)                                                  \
    {                                                                                    \
        .key = "range", .offset = offsetof(DirBlock, range), .type = PT_SIZE,            \
        .def = defstr, .min = 128, .max = 4096, .doc = docstr                            \
    }
#define DIR_PARAM_REPLACEMENT(defstr)                                                    \
    {                                                                                    \
        .key = "replacement", .offset = offsetof(DirBlock, repl), .type = PT_ENUM,       \
        .def = defstr, .choices = dir_block_repl_choices,                                \
        .doc = "victim choice in a full set: lru (least recently used) or fifo (oldest)" \
    }
#define DIR_PARAM_ACKS                                                                   \
    {                                                                                    \
        .key = "acks", .offset = offsetof(DirBlock, acks), .type = PT_BOOL,              \
        .def = "true",                                                                   \
        .doc = "invalidates ask for an inv_ack; a write's response waits for those of "  \
               "its invalidates and of the evictions of its lines"                       \
    }
#define DIR_PARAM_LATENCY                                                                \
    {                                                                                    \
        .key = "latency", .offset = offsetof(DirBlock, latency), .type = PT_TIME,        \
        .def = "0ns",                                                                    \
        .doc = "lookup latency added to tracked requests and to invalidates"             \
    }
#define DIR_BLOCK_TYPE_COMMON                                                            \
    .size = sizeof(DirBlock), .ports = dir_block_ports, .nports = DIR_BLOCK_NPORTS,      \
    .stat_defs = dir_block_stat_defs, .nstat_defs = DIR_BLOCK_NSTATS,                    \
    .reset = dir_block_reset, .on_recv = dir_block_on_recv,                              \
    .on_free = dir_block_on_free, .stats = dir_block_stats,                              \
    .finalize = dir_block_finalize, .cost = dir_block_cost

#endif
