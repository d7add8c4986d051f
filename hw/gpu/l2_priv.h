/* Internals of the l2 block shared by l2.c (type, ports, dispatch) and l2_ops.c
 * (cache operations, fills, invalidates). */
#ifndef MGTLM_HW_GPU_L2_PRIV_H
#define MGTLM_HW_GPU_L2_PRIV_H

#include "hw/gpu/l2_array.h"
#include "hw/gpu/outq.h"
#include "kernel/block.h"

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
    Txn **w;       /* waiting requests (owned references) */
    size_t nw, capw;
} L2Fill;

typedef struct L2 {
    Block base;
    uint64_t size, ways, line;
    SimTime latency;
    bool remote;
    int insert;
    uint64_t once_hint;

    int own;
    uint64_t lo, hi; /* this GPU's memory range */
    bool once_now;   /* auto mode: the last kernel_begin asked for once */
    bool busy;
    L2Array a;
    L2Fill *fills;
    size_t nfills, capfills;
    Port *up, *mem, *rq, *net;
    OutQ qup, qmem, qrq, qnet;

    uint64_t *reads, *writes, *atomics, *hits, *misses, *merged, *remote_reads;
    uint64_t *remote_writes, *remote_hits, *remote_misses, *remote_updates, *fills_done;
    uint64_t *evictions, *remote_evictions, *writebacks, *bypasses, *once_skips;
    uint64_t *inv_received, *inv_hits, *inv_pending, *kernels, *passed, *controls;
    uint64_t *outstanding, *route_errors;
} L2;

/* Handlers of the head of each input; false = cannot proceed now (the head stays:
 * backpressure or a line with a fill in flight). On success they take t from p and
 * consume it. */
bool l2_local_access(L2 *c, Port *p, Txn *t);
bool l2_remote_access(L2 *c, Port *p, Txn *t);
/* A response to a fill read (consumed); false if id names no fill. */
bool l2_fill_done(L2 *c, Txn *resp);
/* Drops the lines overlapping the invalidate t (consumed). */
void l2_invalidate(L2 *c, Txn *t);
/* True if the line of addr is local to this GPU. */
bool l2_is_local(const L2 *c, uint64_t addr);
void l2_fills_free(L2 *c);

#endif
