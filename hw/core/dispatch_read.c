/* The dispatcher's reading of a kernel's CTAs (dispatch.c; docs/cores.md "Kernels and
 * the dispatcher"): from the trace's text or from the scan's spool, one CTA ahead.
 *
 * Decisions:
 * - The kernel file is opened at the launch and read in file order, one CTA ahead:
 *   the dispatcher holds at most the CTA it will give next (the running ones are the
 *   SMs'), in the reader (ats_reader_view), interns its instructions when it reads it
 *   (core_cta_plan: the message's size) and encodes it straight into the cta message
 *   when it gives it. Reading stops once the GPU's last CTA is read.
 * - When the run holds the trace's scan (the sms take it in every trace-driven run,
 *   trace_scan_held), every line has been read in full without error before the run,
 *   so the dispatcher reads its CTAs trusted (ats_reader_trust): of the instructions
 *   that do not leave the SM only what the SM uses (class, mask, registers), not their
 *   addresses (most of the parse: GEMM's LDS lines carry 32 each); the cta messages
 *   are byte for byte the same. Without the scan (a dispatcher driven alone, as the
 *   unit tests do) every line is read in full here.
 * - Better still, with the scan held the dispatcher reads no text: the scan wrote
 *   every block's message to its spool (trace_spool.h), and the dispatcher passes
 *   over the records from its seek point's (trace_scan_spool), reads the header of
 *   each, skips other GPUs' by their length and copies its own into the cta message.
 *   The same rules of order, absence and errors apply; a record that cannot be read
 *   is a trace error that ends the kernel's file. A kernel the scan did not spool (the
 *   sms' `spool` false, no temporary file, or a record of it or of an earlier kernel
 *   that could not be written: past the spool's budget, a message past 4 GiB, a failed
 *   write; trace_scan_spool) is read as text as above; the messages are the same bytes
 *   either way, and ctas_spooled counts the CTAs given from the spool.
 * - Files list CTAs in index order, and may leave some out: Accel-Sim's
 *   post-processor writes thread blocks by index (x fastest) and skips those that
 *   recorded no instruction (util/tracer_nvbit/tracer_tool/traces-processing/
 *   post-traces-processing.cpp in accel-sim/accel-sim-framework, commit
 *   1453bb891df324c4148d1df5507c65b1d1d34702). So CTAs of other GPUs are skipped,
 *   CTAs of this GPU that the file leaves out count in ctas_absent (not an error,
 *   not run), and a CTA of this GPU whose index is not above the previous one of the
 *   GPU in the file (out of order, or twice), whose encoding passes 4 GiB (the
 *   length of a message), or a read error (the reader refuses a CTA outside the
 *   grid) counts in trace_errors (a model error; the first message
 *   per kernel goes to stderr) and is not run; a read error ends the kernel's file.
 *   Buffering CTAs to reorder them was rejected: a file in reverse order would make
 *   the dispatcher hold the whole grid. In a run the sms hold the scan and refuse a
 *   file out of order at load (sm.c); this count is for a dispatcher without it
 *   (driven alone), which does not see a block out of order after its GPU's last
 *   CTA.
 * - Other GPUs' CTAs are passed over without parsing their instructions
 *   (ats_reader_skip). With the scan held and a plain (not .gz) file in index order,
 *   the reading starts at the scan's seek point before the GPU's first CTA
 *   (trace_scan_seek, at most TRACE_SEEK_MAX points per kernel): with contiguous CTAs
 *   the N GPUs then read the file about once between them, not (N + 1) / 2 times. */
#include <stdio.h>
#include <string.h>

#include "hw/core/dispatch_priv.h"
#include "hw/core/trace_spool.h"
#include "kernel/xalloc.h"

void disp_close(Disp *d)
{
    d->ready = false;
    ats_reader_close(d->rd);
    d->rd = NULL;
    trace_scan_put(d->scan);
    d->scan = NULL;
    d->sp = NULL;
    d->eof = true;
}

/* The next block's x, y, z (got false at the end of the kernel): from the spool's
 * record, or the reader's next #BEGIN_TB. */
static bool disp_next_id(Disp *d, uint32_t id[3], bool *got, SimError *err)
{
    if (!d->sp) {
        return ats_reader_peek(d->rd, id, got, err);
    }
    *got = d->sp_at < d->sp_end;
    if (*got && !trace_spool_head(d->sp, d->sp_at, id, &d->sp_len)) {
        return sim_error_set(err, "%s: cannot read the trace's spool",
                             d->ks.kernels[d->kernel].path);
    }
    return true;
}

/* Passes over the next block (another GPU's, or out of order). */
static bool disp_skip(Disp *d, SimError *err)
{
    if (d->sp) {
        d->sp_at += 4 + (uint64_t)d->sp_len;
        return true;
    }
    bool got;
    return ats_reader_skip(d->rd, &got, err);
}

/* Takes the next block (the GPU's next CTA): its message from the spool into msg, or
 * its view from the reader, interned into plan (*fits false when the message would
 * pass 4 GiB). */
static bool disp_take(Disp *d, bool *fits, SimError *err)
{
    *fits = true;
    if (d->sp) {
        d->msg = xgrow(d->msg, &d->msg_cap, d->sp_len, 1, 4096);
        if (!trace_spool_body(d->sp, d->sp_at, d->sp_len, d->msg)) {
            return sim_error_set(err, "%s: cannot read the trace's spool",
                                 d->ks.kernels[d->kernel].path);
        }
        d->msg_len = d->sp_len;
        d->sp_at += 4 + (uint64_t)d->sp_len;
        return true;
    }
    bool got;
    if (!ats_reader_view(d->rd, &d->next, &got, err)) {
        return false;
    }
    *fits = core_cta_plan(d->plan, d->next) <= UINT32_MAX;
    return true;
}

/* got is the rank (cta_map_rank) after the last CTA taken. */
bool disp_peek(Disp *d)
{
    uint32_t g = (uint32_t)d->base.gpu;
    const char *path = d->ks.kernels[d->kernel].path;
    while (!d->ready && !d->eof) {
        if (d->got == d->want) {
            disp_close(d);
            break;
        }
        uint32_t id[3];
        bool got;
        SimError err;
        if (!disp_next_id(d, id, &got, &err)) {
            disp_trace_error(d, err.msg);
            disp_close(d);
            break;
        }
        if (!got) {
            *d->absent += d->want - d->got;
            disp_close(d);
            break;
        }
        uint64_t i = cta_map_index(&d->map, id[0], id[1], id[2]);
        uint64_t rank = cta_map_rank(&d->map, i);
        bool ours = cta_map_gpu(&d->map, i) == g;
        if (!ours || rank < d->got) {
            if (ours) {
                char msg[200];
                snprintf(msg, sizeof msg,
                         "%s: thread block %u,%u,%u (index %llu) after index %llu: not "
                         "in index order",
                         path, id[0], id[1], id[2], (unsigned long long)i,
                         (unsigned long long)cta_map_nth(&d->map, g, d->got - 1));
                disp_trace_error(d, msg);
            }
            if (!disp_skip(d, &err)) {
                disp_trace_error(d, err.msg);
                disp_close(d);
            }
            continue;
        }
        bool fits;
        if (!disp_take(d, &fits, &err)) {
            disp_trace_error(d, err.msg);
            disp_close(d);
            break;
        }
        *d->absent += rank - d->got;
        d->got = rank + 1;
        if (!fits) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: thread block %u,%u,%u does not fit a message",
                     path, id[0], id[1], id[2]);
            disp_trace_error(d, msg);
            continue;
        }
        d->cta_index = i;
        d->ready = true;
    }
    return d->ready;
}

/* The blocks before the scan's seek point before the GPU's first CTA are all of lower
 * index, so none is the GPU's: they are not read at all. From the spool, the reader of
 * the text is closed (its header is read); without it, the reader moves there
 * (trace_scan_seek). */
void disp_read_from_scan(Disp *d, const char *dir)
{
    SimError err;
    const TraceScan *s;
    if (!d->rd || d->want == 0 || !(s = trace_scan_get(dir, false, &err))) {
        return;
    }
    uint64_t first = cta_map_nth(&d->map, (uint32_t)d->base.gpu, 0);
    d->sp = trace_scan_spool(s, d->kernel, first, &d->sp_at, &d->sp_end);
    if (d->sp) {
        d->scan = s; /* held while the spool is read */
        ats_reader_close(d->rd);
        d->rd = NULL;
        return;
    }
    AtsMark at;
    if (trace_scan_seek(s, d->kernel, first, &at) && !ats_reader_seek(d->rd, &at, &err)) {
        disp_trace_error(d, err.msg);
        disp_close(d);
    }
    trace_scan_put(s);
}

size_t disp_cta_len(const Disp *d)
{
    return d->sp ? d->msg_len : d->plan->bytes;
}

void disp_cta_write(Disp *d, uint8_t *out)
{
    if (d->sp) {
        memcpy(out, d->msg, d->msg_len);
        (*d->spooled)++;
    } else {
        core_cta_encode(d->plan, d->next, out);
    }
    d->ready = false;
}
