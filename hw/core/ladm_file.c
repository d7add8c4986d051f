/* LADM's two passes over a kernel file (ladm.h ladm_plan_kernel): the file is read
 * with the streaming reader once per pass, so memory stays that of one CTA plus the
 * analysis. */
#include "hw/core/accelsim_read.h"
#include "hw/core/ladm.h"

/* Feeds every CTA of reader r to pass (ladm_observe or ladm_touch), then closes r. */
static bool one_pass(AtsReader *r, Ladm *l, void (*pass)(Ladm *, const AtsCta *),
                     SimError *err)
{
    const AtsCta *cta;
    bool got, ok;
    while ((ok = ats_reader_view(r, &cta, &got, err)) && got) {
        pass(l, cta);
    }
    ats_reader_close(r);
    return ok;
}

bool ladm_plan_kernel(const char *path, uint32_t ngpus, uint64_t page,
                      const LadmAlloc *allocs, size_t nallocs, LadmClass hint,
                      CtaMap *map, bool *itl, Placement *pl, SimError *err)
{
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(path, &info, err);
    if (!r) {
        return false;
    }
    Ladm *l = ladm_new(info.grid, ngpus, page, allocs, nallocs, err);
    if (!l) {
        ats_reader_close(r);
        return sim_error_prefix(err, path);
    }
    ladm_hint(l, hint);
    CtaMap local;
    bool ok =
        one_pass(r, l, ladm_observe, err) && ladm_schedule(l, map ? map : &local, err);
    if (ok && itl) {
        *itl = ladm_itl(l);
    }
    if (ok && pl) {
        r = ats_reader_open(path, &info, err);
        ok = r && one_pass(r, l, ladm_touch, err);
        if (ok) {
            ladm_place(l, pl);
        }
    }
    ladm_free(l);
    return ok;
}
