/* Fences of the l2 block over posted remote writes (see l2.c, decision "fences").
 *
 * A posted write gets no answer, so its writer learns that it has landed only from a
 * later read to the same home GPU, which cannot pass it on the way (PCIe's ordering
 * rule; the sm's flush reads at kernel_end, docs/cores.md). An L2 that caches remote
 * lines would answer such a read from its copy, ahead of the writes still on their way
 * to the home (in FinePack's queue, on a link): the writer's kernel ends and another
 * GPU's next kernel reads the home's old bytes. So the L2 keeps, per requesting unit
 * (the transaction's `unit`, e.g. the sm index), the homes it sent posted writes to
 * since that unit's last release or kernel_end; such a control turns them into fenced
 * homes, and the unit's next read to each fenced home is sent on to the home
 * unchanged (not answered from a copy, not joined to a fill sent before it), its
 * answer passing back. Reads of other units, and later reads of the unit, use the
 * cache as before. A unit index below 0 counts as unit 0. */
#include <stdlib.h>
#include <string.h>

#include "hw/gpu/l2_priv.h"
#include "kernel/xalloc.h"

/* The unit slot of t, grown to hold it (new slots start with no homes). */
static L2Unit *l2_fence_unit(L2 *c, const Txn *t)
{
    size_t u = t->unit > 0 ? (size_t)t->unit : 0;
    if (u >= c->nunits) {
        size_t old = c->capunits;
        c->units = xgrow(c->units, &c->capunits, u + 1, sizeof *c->units, 8);
        memset(c->units + old, 0, (c->capunits - old) * sizeof *c->units);
        c->nunits = u + 1;
    }
    return &c->units[u];
}

static uint64_t l2_fence_bit(const Txn *t)
{
    return t->dst >= 0 && t->dst < 64 ? 1ull << t->dst : 0;
}

void l2_fence_posted(L2 *c, const Txn *t)
{
    if (t->cmd == TXN_WRITE && t->posted) {
        l2_fence_unit(c, t)->posted |= l2_fence_bit(t);
    }
}

void l2_fence_release(L2 *c, const Txn *t)
{
    L2Unit *u = l2_fence_unit(c, t);
    u->fenced |= u->posted;
    u->posted = 0;
}

bool l2_fence_due(L2 *c, const Txn *t)
{
    size_t u = t->unit > 0 ? (size_t)t->unit : 0;
    return u < c->nunits && (c->units[u].fenced & l2_fence_bit(t)) != 0;
}

void l2_fence_clear(L2 *c, const Txn *t)
{
    l2_fence_unit(c, t)->fenced &= ~l2_fence_bit(t);
}

void l2_fence_free(L2 *c)
{
    free(c->units);
    c->units = NULL;
    c->nunits = c->capunits = 0;
}
