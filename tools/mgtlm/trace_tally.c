/* Per-kernel tally of an Accel-Sim trace for `mgtlm trace-info` (see trace_tally.h).
 * The kernel is read one CTA at a time, in place (ats_reader_view: nothing is kept),
 * so the tally of a trace of any length needs the memory of one CTA. A line request is
 * counted per distinct 128 B line per instruction: the number of requests SPEC.md 6.3
 * sends, each carrying the sectors it touches. */
#include "trace_tally.h"

#include <string.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_read.h"

uint64_t trace_tally_lines(const uint64_t *addrs, unsigned lanes, uint32_t width)
{
    /* A lane of at most ATS_WIDTH_MAX (256) bytes touches at most 3 lines. */
    uint64_t seen[ATS_LANES * 3];
    unsigned n = 0;
    for (unsigned i = 0; i < lanes; i++) {
        uint64_t first = addrs[i] / TRACE_TALLY_LINE;
        uint64_t end =
            addrs[i] > UINT64_MAX - (width - 1) ? UINT64_MAX : addrs[i] + (width - 1);
        for (uint64_t line = first; line <= end / TRACE_TALLY_LINE; line++) {
            unsigned j = 0;
            while (j < n && seen[j] != line) {
                j++;
            }
            if (j == n) {
                seen[n++] = line;
            }
        }
    }
    return n;
}

static void tally_cta(TraceTally *t, const AtsCta *cta)
{
    t->ctas++;
    t->warps += cta->nwarps;
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *warp = &cta->warps[w];
        t->warp_insts += warp->ninst;
        for (size_t i = 0; i < warp->ninst; i++) {
            const AtsInst *in = &warp->inst[i];
            unsigned lanes = (unsigned)__builtin_popcount(in->mask);
            t->thread_insts += lanes;
            t->by_class[in->cls]++;
            if (in->width > 0 && ats_class_is_global(in->cls)) {
                t->line_requests +=
                    trace_tally_lines(warp->addrs + in->addr_off, lanes, in->width);
            }
        }
    }
}

bool trace_tally_kernel(const char *path, TraceTally *t, SimError *err)
{
    memset(t, 0, sizeof *t);
    AtsReader *r = ats_reader_open(path, &t->info, err);
    if (!r) {
        return false;
    }
    const AtsCta *cta;
    bool got;
    bool ok;
    while ((ok = ats_reader_view(r, &cta, &got, err)) && got) {
        tally_cta(t, cta);
    }
    t->unknown = ats_reader_unknown(r);
    ats_reader_close(r);
    return ok;
}
