/* The RDMA$'s record of what it forwarded and waits for: read misses (to merge and
 * fill their responses) and its own write-backs (whose acks end here). Keyed by
 * transaction id (IdMap: no dependence on pointer values). */
#ifndef MGTLM_HW_DUALOPT_RCACHE_PENDING_H
#define MGTLM_HW_DUALOPT_RCACHE_PENDING_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/dualopt/rcache_store.h"
#include "kernel/idmap.h"

typedef enum RcKind { RC_READ, RC_WRITEBACK } RcKind;

typedef struct RcPend {
    RcKind kind;
    bool fill;      /* read: fill the line with the response */
    uint64_t epoch; /* cache epoch (invalidate-all count) when forwarded */
    uint64_t snap;  /* read: dirty bytes of the line when forwarded */
    uint8_t snap_data[RC_MAX_LINE];
} RcPend;

typedef struct RcPending {
    RcPend *rec;    /* owned */
    uint32_t *free; /* owned stack of free indices */
    uint32_t cap, nfree;
    IdMap by_id;
} RcPending;

/* An empty table needs no allocation: `RcPending p = {0};`. */
void rc_pending_destroy(RcPending *p);
/* A new zeroed record for id (borrowed until removed); NULL if id is already
 * waiting. Aborts if memory is exhausted. */
RcPend *rc_pending_add(RcPending *p, uint64_t id);
/* The record of id (borrowed), NULL if none. */
RcPend *rc_pending_get(RcPending *p, uint64_t id);
void rc_pending_remove(RcPending *p, uint64_t id);
uint32_t rc_pending_count(const RcPending *p);

#endif
