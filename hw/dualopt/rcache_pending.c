/* RcPending: records in a growable array with a free-index stack, found by id. */
#include "hw/dualopt/rcache_pending.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

void rc_pending_destroy(RcPending *p)
{
    free(p->rec);
    free(p->free);
    idmap_destroy(&p->by_id);
    *p = (RcPending){0};
}

static void rc_pending_grow(RcPending *p)
{
    size_t cap = p->cap;
    p->rec = xgrow(p->rec, &cap, (size_t)p->cap + 1, sizeof *p->rec, 64);
    p->free = xrealloc_array(p->free, cap, sizeof *p->free);
    for (uint32_t i = (uint32_t)cap; i > p->cap; i--) {
        p->free[p->nfree++] = i - 1;
    }
    p->cap = (uint32_t)cap;
}

RcPend *rc_pending_add(RcPending *p, uint64_t id)
{
    if (idmap_get(&p->by_id, id, NULL)) {
        return NULL;
    }
    if (p->nfree == 0) {
        rc_pending_grow(p);
    }
    uint32_t i = p->free[--p->nfree];
    idmap_insert(&p->by_id, id, i);
    memset(&p->rec[i], 0, sizeof p->rec[i]);
    return &p->rec[i];
}

RcPend *rc_pending_get(RcPending *p, uint64_t id)
{
    uint64_t i;
    return idmap_get(&p->by_id, id, &i) ? &p->rec[i] : NULL;
}

void rc_pending_remove(RcPending *p, uint64_t id)
{
    uint64_t i;
    if (idmap_remove(&p->by_id, id, &i)) {
        p->free[p->nfree++] = (uint32_t)i;
    }
}

uint32_t rc_pending_count(const RcPending *p)
{
    return (uint32_t)idmap_count(&p->by_id);
}
