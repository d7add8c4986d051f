/* Outboxes of the partitioned engine: growable arrays of messages, two per outbox
 * (see outbox.h). */
#include "outbox.h"

#include <stdlib.h>

#include "xalloc.h"

void outbox_init(Outbox *o, OutboxSide *side)
{
    *o = (Outbox){.side = side};
}

void outbox_put(Outbox *o, SimTime at, Port *dst, Txn *t)
{
    OutboxBuf *b = &o->buf[o->side->cur];
    b->m = xgrow(b->m, &b->cap, b->n + 1, sizeof *b->m, 64);
    b->m[b->n++] = (OutboxMsg){at, dst, t};
    if (at < o->side->earliest) {
        o->side->earliest = at;
    }
}

void outbox_side_begin(OutboxSide *s, unsigned k)
{
    s->cur = k & 1u;
    s->earliest = SIM_TIME_MAX;
}

void outbox_release(Outbox *o, unsigned which)
{
    OutboxBuf *b = &o->buf[which & 1u];
    for (size_t i = 0; i < b->n; i++) {
        if (b->m[i].t) {
            txn_unref(b->m[i].t);
        }
    }
    b->n = 0;
}

void outbox_destroy(Outbox *o)
{
    for (unsigned w = 0; w < 2; w++) {
        outbox_release(o, w);
        free(o->buf[w].m);
        o->buf[w].m = NULL;
        o->buf[w].cap = 0;
    }
}
