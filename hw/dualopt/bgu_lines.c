/* BGU mask generation (paper 000 section 4.1, SPEC.md 1.1): one entry per distinct
 * line in order of first appearance, masks of threads on one line ORed; an access
 * crossing a line boundary contributes to both lines (SPEC Decision). */
#include "hw/dualopt/bgu.h"

#include <stdlib.h>

#include "kernel/xalloc.h"

static BguLine *bgu_slot(BguLines *l, uint64_t addr)
{
    for (size_t k = 0; k < l->n; k++) {
        if (l->v[k].addr == addr) {
            return &l->v[k];
        }
    }
    l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v, 16);
    l->v[l->n] = (BguLine){.addr = addr, .mask = 0};
    return &l->v[l->n++];
}

void bgu_lines(BguLines *l, uint64_t line, const TxnThread *threads, size_t n)
{
    l->n = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = threads[i].addr;
        uint64_t end = a + threads[i].size;
        while (a < end) {
            uint64_t base = a & ~(line - 1);
            uint64_t stop = end < base + line ? end : base + line;
            uint32_t first = (uint32_t)((a - base) / BGU_WORD);
            uint32_t last = (uint32_t)((stop - 1 - base) / BGU_WORD);
            BguLine *s = bgu_slot(l, base);
            for (uint32_t w = first; w <= last; w++) {
                s->mask |= 1u << w;
            }
            a = stop;
        }
    }
}

void bgu_lines_free(BguLines *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
