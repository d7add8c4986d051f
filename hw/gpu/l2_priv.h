/* Internals of the l2 block shared by l2.c (type, ports, dispatch), l2_ops.c
 * (cache operations, fills, invalidates), l2_park.c (parked remote requests) and
 * l2_fence.c (reads ordered behind posted writes). */
#ifndef MGTLM_HW_GPU_L2_PRIV_H
#define MGTLM_HW_GPU_L2_PRIV_H

#include "hw/coherence/dir_cmds.h"
#include "hw/gpu/l2_array.h"
#include "kernel/block.h"
#include "kernel/egress.h"

enum { L2_INSERT_TWICE, L2_INSERT_ONCE, L2_INSERT_AUTO };

/* An outstanding line fill (a read of a whole line sent by the L2). */
typedef struct L2Fill {
    uint64_t id;   /* id of the fill read */
    uint64_t line; /* line address */
    bool remote;   /* remote line: fetched through net, answered through rq */
    bool poisoned; /* an invalidate arrived meanwhile: answer, do not insert */
    /* bytes of the line written back while the fill was in flight: they are newer
     * than the fill's data, which memory read before the write-back arrived */
    uint8_t keep[L2A_MAX_LINE];
    uint64_t kmask[L2A_MASK_WORDS];
    Txn **w; /* waiting requests (owned references) */
    size_t nw, capw;
} L2Fill;

/* Posted-write fences of one requesting unit (l2_fence.c): bit g = GPU g. */
typedef struct L2Unit {
    uint64_t posted; /* homes sent posted writes since the unit's last release */
    uint64_t fenced; /* homes whose next read from the unit must go to the home */
} L2Unit;

typedef struct L2 {
    Block base;
    uint64_t size, ways, line;
    int index; /* L2Index (`index`) */
    SimTime latency;
    bool remote;
    int insert;
    uint64_t once_hint;

    int own;
    uint64_t lo, hi; /* this GPU's memory range */
    bool once_now;   /* auto mode: the last kernel_begin asked for once */
    L2Array a;
    L2Fill *fills;
    size_t nfills, capfills;
    Txn **park; /* parked remote requests in arrival order (owned references) */
    size_t npark, cappark;
    L2Unit *units; /* per requesting unit (owned) */
    size_t nunits, capunits;
    Port *up, *mem, *rq, *net;
    Egress qup, qmem, qrq, qnet;

    uint64_t *reads, *writes, *atomics, *hits, *misses, *merged, *remote_reads;
    uint64_t *remote_writes, *remote_hits, *remote_misses, *remote_updates, *fills_done;
    uint64_t *evictions, *remote_evictions, *writebacks, *bypasses, *once_skips;
    uint64_t *inv_received, *inv_acks, *inv_hits, *inv_pending, *kernels, *passed,
        *controls;
    uint64_t *outstanding, *parked, *fenced_reads, *route_errors;
} L2;

/* Handlers of the head of each input; false = cannot proceed now (the head stays:
 * backpressure or a line with a fill in flight). On success they take t from p and
 * consume it; p NULL: t is already owned (a parked request). */
bool l2_local_access(L2 *c, Port *p, Txn *t);
bool l2_remote_access(L2 *c, Port *p, Txn *t);
/* True if the remote access t must wait for a fill in flight of one of its lines
 * (a write or uncached access; reads join the fill instead). False if !remote. */
bool l2_remote_conflict(L2 *c, const Txn *t);
/* A response to a fill read (consumed); false if id names no fill. */
bool l2_fill_done(L2 *c, Txn *resp);
/* Drops the lines overlapping the invalidate t (consumed); answers it with an
 * inv_ack pushed on back if it asks for one. */
void l2_invalidate(L2 *c, Txn *t, Egress *back);
/* The line address of addr; the end of t's bytes (a 0-byte access counts as 1). */
uint64_t l2_line_of(const L2 *c, uint64_t addr);
uint64_t l2_end(const Txn *t);
/* True if the line of addr is local to this GPU. */
bool l2_is_local(const L2 *c, uint64_t addr);
void l2_fills_free(L2 *c);

/* l2_park.c: true if the remote request t must be parked (a fill conflict, or an
 * earlier parked request on one of its lines). */
bool l2_park_needed(L2 *c, const Txn *t);
/* Parks t (reference moves in). */
void l2_park(L2 *c, Txn *t);
/* Lets parked requests proceed in order where they can; true if any did. */
bool l2_park_replay(L2 *c);
/* Drops the parked requests. */
void l2_park_free(L2 *c);

/* l2_fence.c: records the posted write t (any other t is ignored). */
void l2_fence_posted(L2 *c, const Txn *t);
/* A release or kernel_end t: its unit's posted homes become fenced. */
void l2_fence_release(L2 *c, const Txn *t);
/* True if the read t must go to its home: its unit fenced t's destination. */
bool l2_fence_due(L2 *c, const Txn *t);
/* The read t went to its home: its unit's fence of that home is done. */
void l2_fence_clear(L2 *c, const Txn *t);
/* Drops every unit's fences. */
void l2_fence_free(L2 *c);

#endif
