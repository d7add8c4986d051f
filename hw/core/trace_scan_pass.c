/* One kernel's part of the whole-trace scan (see trace_scan_pass.h): the file is
 * streamed one CTA at a time (accelsim_read.h), so the pass holds one CTA whatever the
 * kernel's length.
 *
 * Decisions:
 * - Line requests and written bytes come from sm_coalesce (SPEC.md 6.3), the function
 *   the sm coalesces with, so the counts are the requests the sm makes.
 * - Seek points (trace_scan_seek): the mark of every block while there are at most
 *   TRACE_SEEK_MAX, then of every 2nd, 4th, ... block, so that a dispatcher starts
 *   near its GPU's first CTA instead of passing over the blocks of the GPUs before it.
 *   The table grows with the blocks (doubling, up to TRACE_SEEK_MAX): a trace of many
 *   launches of small kernels holds a few points per launch, not 6 KiB (a
 *   kernelslist.g of 20,000 launches of a 1-block file took 139 MiB in trace-info
 *   before, stop 29).
 * - Global (LDG, STG, ATOMG, RED) and local (LDL, STL) accesses make line requests;
 *   STG and STL store, ATOMG and RED touch bytes that are not checked. Shared-memory
 *   and constant accesses never leave the sm, so the reader keeps no address of
 *   theirs (ats_reader_sent_only; every line is still checked in full).
 * - The spool (trace_spool.h) gets each block's message from this reading: the block
 *   the reader gives is what a dispatcher's trusted reading gives (the instructions
 *   that do not leave the sm without width or addresses), so the messages are those
 *   the dispatcher would encode. A seek point also records its block's record. A
 *   block whose message cannot be written stops the spool (trace_spool_stop): the
 *   kernel's records are given back, and the dispatchers of that kernel and of every
 *   later one read the text. */
#include "hw/core/trace_scan_pass.h"

#include <stdlib.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/cta_map.h"
#include "hw/core/sm_coalesce.h"
#include "kernel/bits.h"

typedef struct PassCtx {
    TraceKernel *tk;
    uint32_t k;
    TraceWritten *w;
    uint64_t blocks; /* blocks read so far */
    uint64_t prev;   /* the CTA index of the last one */
} PassCtx;

static void pass_mem(PassCtx *c, const AtsInst *in, const AtsWarp *warp)
{
    bool local = in->cls == ATS_LDL || in->cls == ATS_STL;
    if (local) {
        c->tk->local_insts++;
    } else {
        c->tk->global_insts++;
    }
    if (in->width == 0) {
        return;
    }
    SmLineReq reqs[SM_COALESCE_MAX_REQS];
    size_t n = sm_coalesce(warp->addrs + in->addr_off, in->mask, in->width, reqs);
    c->tk->line_reqs += n;
    c->tk->local_line_reqs += local ? n : 0;
    bool store = in->cls == ATS_STG || in->cls == ATS_STL;
    bool atomic = in->cls == ATS_ATOMG || in->cls == ATS_RED;
    for (size_t i = 0; i < n && c->w && (store || atomic); i++) {
        if (store) {
            trace_written_store(c->w, reqs[i].line, c->k, reqs[i].bytes);
        } else {
            trace_written_atomic(c->w, reqs[i].line, reqs[i].bytes);
        }
    }
}

static void pass_cta(PassCtx *c, const AtsCta *cta)
{
    TraceKernel *tk = c->tk;
    tk->ctas++;
    tk->warps += cta->nwarps;
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *warp = &cta->warps[w];
        tk->warp_insts += warp->ninst;
        for (size_t i = 0; i < warp->ninst; i++) {
            const AtsInst *in = &warp->inst[i];
            tk->thread_insts += (unsigned)bits_popcount32(in->mask);
            tk->by_class[in->cls]++;
            if (ats_class_leaves_sm(in->cls)) {
                pass_mem(c, in, warp);
            }
        }
    }
}

/* Whether the file stays in index order (the first block out of it is kept for the
 * sm's message), and the block's seek point when it falls on the current spacing (a
 * full table keeps every other point and doubles the spacing: TRACE_SEEK_MAX). */
static bool pass_seek(PassCtx *c, AtsReader *r, const AtsCta *cta, uint64_t spool_at,
                      SimError *err)
{
    TraceKernel *tk = c->tk;
    uint64_t index = cta_index(tk->info.grid, cta->x, cta->y, cta->z);
    if (tk->in_order && c->blocks > 0 && index <= c->prev) {
        tk->in_order = false;
        tk->disorder = (TraceDisorder){
            ats_reader_block_line(r), cta->x, cta->y, cta->z, index, c->prev};
    }
    c->prev = index;
    uint64_t pos = c->blocks++;
    AtsMark at;
    if (pos % tk->seek_every != 0 || !ats_reader_mark(r, &at)) {
        return true;
    }
    if (tk->nseeks == TRACE_SEEK_MAX) {
        for (size_t i = 0; i < TRACE_SEEK_MAX / 2; i++) {
            tk->seeks[i] = tk->seeks[2 * i];
        }
        tk->nseeks = TRACE_SEEK_MAX / 2;
        tk->seek_every *= 2;
        if (pos % tk->seek_every != 0) {
            return true;
        }
    }
    if (tk->nseeks == tk->seek_cap) {
        size_t cap = tk->seek_cap ? 2 * tk->seek_cap : 1;
        cap = cap < TRACE_SEEK_MAX ? cap : TRACE_SEEK_MAX;
        TraceSeek *grown = realloc(tk->seeks, cap * sizeof *grown);
        if (!grown) {
            return sim_error_set(err, "%s: out of memory", tk->path);
        }
        tk->seeks = grown;
        tk->seek_cap = cap;
    }
    tk->seeks[tk->nseeks++] = (TraceSeek){index, at, spool_at};
    return true;
}

bool trace_scan_pass(TraceKernel *tk, uint32_t k, TraceWritten *w, TraceSpool *spool,
                     SimError *err)
{
    AtsReader *r = ats_reader_open(tk->path, &tk->info, err);
    if (!r) {
        return false;
    }
    ats_reader_sent_only(r);
    PassCtx c = {tk, k, w, 0, 0};
    tk->in_order = true;
    tk->seek_every = 1;
    tk->spooled = spool && trace_spool_taking(spool);
    tk->spool_start = spool ? trace_spool_end(spool) : 0;
    const AtsCta *cta;
    bool got, ok;
    while ((ok = ats_reader_view(r, &cta, &got, err)) && got) {
        pass_cta(&c, cta);
        uint64_t at = 0;
        if (tk->spooled && !trace_spool_put(spool, cta, &at)) {
            tk->spooled = false;
            trace_spool_stop(spool, tk->spool_start);
        }
        if (!(ok = pass_seek(&c, r, cta, at, err))) {
            break;
        }
    }
    tk->spool_end = spool ? trace_spool_end(spool) : 0;
    tk->unknown = ats_reader_unknown(r);
    tk->clustered = ats_reader_clustered(r);
    ats_reader_close(r);
    return ok;
}
