/* Parked remote requests of the l2 block (see l2.c, decision "parking").
 *
 * The rq input carries this GPU's remote requests and, in the same FIFO, the home
 * side's egress (responses and invalidates for other GPUs). A remote write or
 * uncached access to a line with a fill in flight cannot proceed until that fill's
 * response comes back from another GPU; if it waited at the head of rq, the
 * responses behind it, which other GPUs' fills wait for, would wait too, and two GPUs
 * doing this to each other never make progress. So such a request is taken off rq
 * and parked here, and every later request of rq overlapping a parked one's lines is
 * parked behind it (per-line order is kept; requests to other lines and traffic
 * passing through go on). After every step of the L2 the parked list is replayed in
 * order: an entry proceeds when no earlier parked entry overlaps its lines, its
 * lines have no fill in flight, and the output it needs has room. */
#include <stdlib.h>

#include "hw/gpu/l2_priv.h"
#include "kernel/xalloc.h"

/* True if the line-aligned ranges of a and b intersect. */
static bool l2_park_overlap(const L2 *c, const Txn *a, const Txn *b)
{
    return l2_line_of(c, a->addr) <= l2_line_of(c, l2_end(b) - 1) &&
           l2_line_of(c, b->addr) <= l2_line_of(c, l2_end(a) - 1);
}

/* True if one of the first n parked entries overlaps t's lines. */
static bool l2_park_behind(const L2 *c, size_t n, const Txn *t)
{
    for (size_t i = 0; i < n; i++) {
        if (l2_park_overlap(c, c->park[i], t)) {
            return true;
        }
    }
    return false;
}

bool l2_park_needed(L2 *c, const Txn *t)
{
    return l2_park_behind(c, c->npark, t) || l2_remote_conflict(c, t);
}

void l2_park(L2 *c, Txn *t)
{
    c->park = xgrow(c->park, &c->cappark, c->npark + 1, sizeof *c->park, 8);
    c->park[c->npark++] = t;
    (*c->parked)++;
}

bool l2_park_replay(L2 *c)
{
    bool any = false;
    size_t keep = 0;
    for (size_t i = 0; i < c->npark; i++) {
        Txn *t = c->park[i];
        if (!l2_park_behind(c, keep, t) && !l2_remote_conflict(c, t) &&
            l2_remote_access(c, NULL, t)) {
            any = true;
            continue;
        }
        c->park[keep++] = t;
    }
    c->npark = keep;
    return any;
}

void l2_park_free(L2 *c)
{
    for (size_t i = 0; i < c->npark; i++) {
        txn_unref(c->park[i]);
    }
    free(c->park);
    c->park = NULL;
    c->npark = c->cappark = 0;
}
