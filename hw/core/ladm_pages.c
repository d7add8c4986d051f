/* LADM's pass 2 (ladm.h): per page touched in an NL, row- or column-shared structure,
 * how many lane accesses the CTAs of each GPU make to it under the structure's
 * binding, and the home that follows (the most accesses; ties from page number mod N
 * on). */
#include <assert.h>
#include <string.h>

#include "hw/core/ladm_priv.h"
#include "kernel/bits.h"
#include "kernel/xalloc.h"

/* The record of page pn, created (counters zero) on its first use by a structure of
 * class cls. */
static size_t page_record(Ladm *l, uint64_t pn, LadmClass cls)
{
    uint64_t r;
    if (idmap_get(&l->pages, pn, &r)) {
        return (size_t)r;
    }
    if (l->nrec == l->caprec) {
        l->caprec = l->caprec ? 2 * l->caprec : 64;
        l->binding = xrealloc_array(l->binding, l->caprec, sizeof *l->binding);
        l->counts = xrealloc_array(l->counts, l->caprec * l->ngpus, sizeof *l->counts);
    }
    r = l->nrec++;
    l->binding[r] = (uint8_t)cls;
    memset(&l->counts[r * l->ngpus], 0, l->ngpus * sizeof *l->counts);
    idmap_insert(&l->pages, pn, r);
    return (size_t)r;
}

void ladm_touch(Ladm *l, const AtsCta *cta)
{
    assert(l->scheduled);
    uint64_t i = cta_map_index(&l->sched, cta->x, cta->y, cta->z);
    uint32_t g_sched = cta_map_gpu(&l->sched, i), g_row = cta_map_gpu(&l->rowmap, i),
             g_col = cta_map_gpu(&l->colmap, i);
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *warp = &cta->warps[w];
        for (size_t k = 0; k < warp->ninst; k++) {
            const AtsInst *in = &warp->inst[k];
            if (in->width == 0 || !ladm_is_global(in->cls)) {
                continue;
            }
            int lanes = bits_popcount32(in->mask);
            for (int j = 0; j < lanes; j++) {
                uint64_t a = warp->addrs[in->addr_off + (size_t)j];
                size_t s = ladm_find(l, a);
                LadmClass cls = s == LADM_NONE ? LADM_UNUSED : l->structs[s].cls;
                if (cls != LADM_NL && cls != LADM_ROW && cls != LADM_COL) {
                    continue;
                }
                size_t r = page_record(l, a >> l->page_shift, cls);
                uint32_t g = l->binding[r] == LADM_NL    ? g_sched
                             : l->binding[r] == LADM_ROW ? g_row
                                                         : g_col;
                l->counts[r * l->ngpus + g]++;
            }
        }
    }
}

void ladm_place(const Ladm *l, Placement *pl)
{
    size_t pos = 0;
    uint64_t pn, r;
    while (idmap_next(&l->pages, &pos, &pn, &r)) {
        const uint64_t *c = &l->counts[r * l->ngpus];
        uint32_t home = (uint32_t)(pn % l->ngpus);
        for (uint32_t j = 1; j < l->ngpus; j++) {
            uint32_t g = (uint32_t)((pn + j) % l->ngpus);
            if (c[g] > c[home]) {
                home = g;
            }
        }
        placement_plan(pl, pn << l->page_shift, home);
    }
}
