/* cu: a compute unit as a traffic generator and end-to-end data checker (the
 * requester side of every experiment; wavefront coalescing after SPEC.md 1.1).
 *
 * Modelled: a stream of memory requests (synthetic patterns, cu_pattern.h; the
 * multi-kernel sharing pattern, cu_shared.h; halo-exchange stores, cu_halo.h; or a
 * JSON Lines trace, cu_trace.h) issued at most one per `gap`, with at most
 * `outstanding` requests waiting for a response; coalescing of a trace wavefront
 * into one whole-line request per distinct line in order of first appearance; a
 * check of every read and atomic response against the expected bytes; latency
 * statistics. Not modelled: instruction execution, warps/wavefront scheduling,
 * L1/L2 caches (separate blocks), memory ordering beyond issue order.
 *
 * Requests: src = own GPU, dst = home GPU of the address (controls: own GPU),
 * unit = the cu's array index (0 when not an array). Reads and atomics and
 * non-posted writes take an outstanding slot until their response arrives.
 *
 * Issue timing (exact): request k is sent at the first instant t with
 *   t >= its ready time (trace: the record's time; kernel_begin of kernel k: k * T;
 *   the first verify read: last release/kernel_end + verify_delay; else 0),
 *   t >= previous send + gap,
 *   a free slot if it needs one (a response frees its slot at its arrival),
 *   no response outstanding if it is a kernel's (or the verify phase's) release,
 *   barrier 1, kernel_begin of kernel k > 0: the kbar's open k has arrived on bar[0]
 *   (the kernel barrier),
 * and the port accepts it (a refused send waits for on_free). All requests of one
 * wavefront record share the record's time, so they leave `gap` apart.
 *
 * Sequence: kernel mode (kernels > 1, or pattern shared) repeats per kernel k:
 * kernel_begin (kernel_hint = param hint), the kernel's accesses, release (after
 * every response), kernel_end; a kernel_end leaving later than (k + 1) * T - gap
 * counts in kernel_overrun_errors. Without kernel mode the accesses run once. With
 * verify, after the last access (and a release, or the last kernel_end), the cu reads
 * back every byte it wrote (cu_written.h) and checks it against the shadow.
 *
 * Data check (exact): the cu keeps a sparse shadow of every byte it wrote (the
 * shadow starts as the fill pattern, which must match the memory's `fill`). A read
 * expects the shadow's bytes at the moment the read is issued; an atomic
 * (fetch-and-add, see memory.c) expects the old value and adds its addend to the
 * shadow; a write updates the shadow at issue. A mismatch, a missing or short data
 * field counts in data_errors; a response with a status other than ok counts in
 * status_errors; both are model-error counters (the run fails).
 *
 * Decisions:
 * - Ownership (keeps checks exact with many writers): line n belongs to the cu with
 *   global id n mod (gpus * cus), global id = gpu * cus + index (`cus` = CUs per GPU,
 *   default 64, must exceed every index). A synthetic pattern with write_frac > 0
 *   uses only the cu's own lines, for reads and writes, so no other cu writes a line
 *   it reads. With write_frac = 0 reads go anywhere in the footprint and expect the
 *   fill pattern: correct as long as no other unit writes those lines (a platform
 *   mixing writing and non-writing cus must keep them apart, e.g. by target).
 *   Traces are not restricted: a trace must read only bytes no other unit writes,
 *   or that this cu wrote last.
 * - Synthetic requests: `count` accesses of `size` bytes; each is a write with
 *   probability write_frac (else a read); write data comes from the PRNG (seeded
 *   from seed, the platform seed, the GPU and the index).
 * - Trace path: taken relative to the current working directory of mgtlm. The file
 *   is validated completely in realize (errors "<file>:<line>: <message>", exit 2)
 *   and streamed again during the run (never held in memory).
 * - Trace wavefronts (threads): a read becomes whole-line reads; a write becomes one
 *   whole-line write per line with byte enables for the bytes the threads touch
 *   (data from the PRNG). Trace writes and atomics without data use PRNG data.
 *   With `wavefront` true a wavefront is sent as one transaction carrying the
 *   thread list (Txn threads; for a DualOpt bgu, which splits it): addr = the first
 *   thread's, len = the sum of the sizes, data and the expected response = the
 *   threads' bytes in thread order (overlapping threads: the later one wins).
 * - release/kernel_begin/kernel_end are sent (dst = own GPU) without a slot and are
 *   not waited for (no response exists, txn.h); posted writes likewise.
 * - completed counts responses; finish_ps is the time of the last response (or of
 *   the last send when nothing is answered).
 * - Kernels: `count` accesses per kernel; the synthetic stream continues across
 *   kernels. T = 0 runs kernels back to back (no overrun); pattern shared needs
 *   T > 0. kernels > 1 is refused for patterns none and trace.
 * - Kernel barrier (pattern shared, barrier 1): the readers of kernel k expect every
 *   write of kernel k - 1, so, as a GPU launches a kernel only when the previous one
 *   has ended (SPEC.md 6.4), kernel k of a cu begins only after every cu of the
 *   pattern sent kernel k - 1's kernel_end, which each sends after its release, after
 *   the responses to all its non-posted writes (a write is answered once its
 *   invalidates are acknowledged, docs/coherence.md). The cus learn it from a kbar
 *   block (kbar.c) by transactions: at the instant a cu sends kernel k - 1's
 *   kernel_end it sends `arrive` k - 1 on bar[0] (only when kernel k exists), and
 *   it sends kernel k's kernel_begin only once the kbar's `open` k arrived there.
 *   With wires of latency L the barrier so costs 2L after the last kernel_end. A
 *   kernel that overruns its slot T thus delays the next kernel everywhere instead of
 *   letting a faster cu read lines a slower one has not yet written; the overrun is
 *   still counted. The param `barrier` is the count of the port array bar (0 or 1),
 *   so that bar[0] is a required port exactly when asked for: an unwired one is a
 *   load error. Barrier 0 (default) runs kernel k at its slot k x T only: exact as
 *   long as no kernel overruns (an overrun is a model error anyway). Decision: the
 *   barrier is opt-in because it needs a wire from every cu to one kbar, which a
 *   platform writes per GPU (docs/blocks.md, kbar). It works the same for every
 *   pattern in kernel mode (kernels > 1 or shared); a cu that runs no kernels sends
 *   no arrive (a kbar wired to it never opens). An open for another kernel than the
 *   next counts in resp_unmatched_errors.
 * - Shared reads expect the bytes given by the kernel predicates (cu_shared.h), not
 *   the shadow (other cus write those lines); verify reads expect the shadow.
 * - Shared and halo writes carry data v(addr, k) (cu_value); other writes PRNG data.
 * - posted makes every write of a synthetic, shared or halo pattern posted; trace
 *   writes are posted when the record or the parameter says so.
 * - Verify: one read per maximal run of written bytes in a line, ascending
 *   addresses; skipped when the cu wrote nothing. Posted writes are not waited for:
 *   verify_delay must cover their flight if the path can reorder them.
 * - unanswered_errors: requests still outstanding at the end of a run that ended idle
 *   (no event pending); a run cut by --until counts none.
 * - A response matching no outstanding request counts in resp_unmatched_errors, a trace
 *   that cannot be read during the run (changed after validation) in trace_errors;
 *   both are model-error counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/lib/amo.h"
#include "hw/lib/fill.h"
#include "hw/workload/cu_priv.h"
#include "hw/workload/kbar.h"
#include "kernel/xalloc.h"

const char *const cu_patterns[] = {"none",  "trace",   "uniform", "strided", "stream",
                                   "tiled", "scatter", "shared",  "halo",    NULL};
static const char *const cu_targets[] = {"all", "local", "remote", NULL};
static const char *const cu_fill_choices[] = FILL_CHOICES;

static const ParamDef cu_params[] = {
    {.key = "pattern",
     .offset = offsetof(Cu, pattern),
     .type = PT_ENUM,
     .def = "none",
     .choices = cu_patterns,
     .doc = "traffic: none, trace (replay `trace`), or a synthetic pattern"},
    {.key = "trace",
     .offset = offsetof(Cu, trace),
     .type = PT_STRING,
     .def = "",
     .doc = "JSON Lines trace file (pattern trace), relative to the working directory"},
    {.key = "count",
     .offset = offsetof(Cu, count),
     .type = PT_U64,
     .def = "1000",
     .doc = "synthetic patterns and shared: accesses (per kernel with kernels)"},
    {.key = "outstanding",
     .offset = offsetof(Cu, outstanding),
     .type = PT_U64,
     .def = "8",
     .min = 1,
     .max = 4096,
     .doc = "requests in flight at most"},
    {.key = "size",
     .offset = offsetof(Cu, size),
     .type = PT_SIZE,
     .def = "4",
     .min = 1,
     .max = 4096,
     .doc = "synthetic patterns: bytes per access (divides line)"},
    {.key = "gap",
     .offset = offsetof(Cu, gap),
     .type = PT_TIME,
     .def = "1ns",
     .doc = "minimum time between two sends"},
    {.key = "seed",
     .offset = offsetof(Cu, seed),
     .type = PT_U64,
     .def = "1",
     .doc = "PRNG seed (mixed with the platform seed, GPU and index)"},
    {.key = "footprint",
     .offset = offsetof(Cu, footprint),
     .type = PT_SIZE,
     .def = "64MiB",
     .min = 1,
     .max = (uint64_t)1 << 40,
     .doc = "bytes used at the start of each target (shared: every) GPU's range"},
    {.key = "target",
     .offset = offsetof(Cu, target),
     .type = PT_ENUM,
     .def = "all",
     .choices = cu_targets,
     .doc = "synthetic patterns: GPUs addressed"},
    {.key = "stride",
     .offset = offsetof(Cu, stride),
     .type = PT_SIZE,
     .def = "64",
     .min = 1,
     .max = (uint64_t)1 << 40,
     .doc = "strided, scatter: distance between accesses (multiple of size)"},
    {.key = "tile",
     .offset = offsetof(Cu, tile),
     .type = PT_SIZE,
     .def = "4KiB",
     .min = 1,
     .max = (uint64_t)1 << 40,
     .doc = "tiled: tile bytes (multiple of size)"},
    {.key = "reuse",
     .offset = offsetof(Cu, reuse),
     .type = PT_U64,
     .def = "4",
     .min = 1,
     .doc = "tiled: sweeps per tile; scatter: accesses per group"},
    {.key = "write_frac",
     .offset = offsetof(Cu, write_frac),
     .type = PT_DOUBLE,
     .def = "0",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "probability that an access is a write; shared: of a line per kernel"},
    {.key = "line",
     .offset = offsetof(Cu, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 1,
     .max = 4096,
     .doc = "line size: wavefront coalescing and ownership unit"},
    {.key = "fill",
     .offset = offsetof(Cu, fill),
     .type = PT_ENUM,
     .def = "hash",
     .choices = cu_fill_choices,
     .doc = "initial memory content assumed by the data check (as memory.fill)"},
    {.key = "cus",
     .offset = offsetof(Cu, cus),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = 65536,
     .doc = "CUs per GPU for the line-ownership rule (> every index)"},
    {.key = "posted",
     .offset = offsetof(Cu, posted),
     .type = PT_BOOL,
     .def = "false",
     .doc = "writes are posted (no response, no slot); trace: or when the record says"},
    {.key = "wavefront",
     .offset = offsetof(Cu, wavefront),
     .type = PT_BOOL,
     .def = "false",
     .doc = "trace: send a wavefront as one transaction with its threads (for a bgu)"},
    {.key = "kernels",
     .offset = offsetof(Cu, kernels),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 1u << 20,
     .doc = "kernels K (synthetic patterns): kernel k starts at k * kernel_time"},
    {.key = "kernel_time",
     .offset = offsetof(Cu, kernel_time),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "kernel slot T; 0 = each kernel starts when the previous ends (not shared)"},
    {.key = "hint",
     .offset = offsetof(Cu, hint),
     .type = PT_U64,
     .def = "0",
     .max = UINT32_MAX,
     .doc = "hint carried by every kernel_begin the cu sends"},
    {.key = "read_only_frac",
     .offset = offsetof(Cu, read_only_frac),
     .type = PT_DOUBLE,
     .def = "0",
     .dmin = 0.0,
     .dmax = 1.0,
     .doc = "shared: fraction of the region's lines never written"},
    {.key = "halo",
     .offset = offsetof(Cu, halo),
     .type = PT_SIZE,
     .def = "4KiB",
     .min = 1,
     .max = (uint64_t)1 << 40,
     .doc = "halo: bytes of the strip written into each neighbour GPU"},
    {.key = "verify",
     .offset = offsetof(Cu, verify),
     .type = PT_BOOL,
     .def = "false",
     .doc = "after the last store and a release, read back every byte written"},
    {.key = "verify_delay",
     .offset = offsetof(Cu, verify_delay),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "verify: wait after the release (or last kernel_end) before reading back"},
    {.key = "barrier",
     .offset = offsetof(Cu, barrier),
     .type = PT_U64,
     .def = "0",
     .max = 1,
     .doc = "1 = kernel k + 1 waits for a kbar's open on port bar[0] (kernel mode)"},
};

static const PortDef cu_ports[] = {
    {.name = "mem", .required = true, .doc = "requests out, responses in"},
    {.name = "bar",
     .count_param = "barrier",
     .required = true,
     .doc = "barrier 1: arrive out, open in (to a kbar's cu[k])"},
};

static void cu_wake(void *subject, void *obj);

/* Prefixes err with the block and pattern names; returns false. */
static bool cu_pattern_failed(const Cu *c, SimError *err)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s: pattern %s", c->base.name,
             cu_patterns[c->pattern]);
    return sim_error_prefix(err, prefix);
}

static bool cu_realize_shared(Cu *c, SimError *err)
{
    Block *b = &c->base;
    if (c->kernel_time == 0) {
        return sim_error_set(err,
                             "%s: pattern shared needs kernel_time (kernel k runs in "
                             "[k * kernel_time, (k + 1) * kernel_time))",
                             b->name);
    }
    CuSharedCfg cfg = {
        .target = (CuTarget)c->target,
        .gpus = b->plat->gpus,
        .gpu = (uint32_t)c->own,
        .mem_bytes = b->plat->mem_bytes,
        .footprint = c->footprint,
        .line = c->line,
        .size = c->size,
        .owner = (uint64_t)c->own * c->cus + (uint64_t)c->unit,
        .owners = (uint64_t)b->plat->gpus * c->cus,
        .seed = b->plat->seed,
        .write_frac = c->write_frac,
        .read_only_frac = c->read_only_frac,
        .count = c->count,
        .kernels = (uint32_t)c->kernels,
        .fill = (FillKind)c->fill,
    };
    if (!cu_shared_init(&c->sh, &cfg, err)) {
        return cu_pattern_failed(c, err);
    }
    c->sh_init = true;
    return true;
}

static bool cu_realize_pattern(Cu *c, SimError *err)
{
    Block *b = &c->base;
    if (c->kernels > 1 && (c->pattern == CU_TRACE || c->pattern == CU_NONE)) {
        return sim_error_set(err,
                             "%s: kernels needs a synthetic pattern (a trace carries its "
                             "own kernel_begin/kernel_end records)",
                             b->name);
    }
    if (c->pattern == CU_TRACE) {
        if (!c->trace || !c->trace[0]) {
            return sim_error_set(err, "%s: pattern trace needs the trace parameter",
                                 b->name);
        }
        return cu_trace_validate(c->trace, b->plat->clock,
                                 (uint64_t)b->plat->gpus * b->plat->mem_bytes, c->line,
                                 err);
    }
    if (c->trace && c->trace[0]) {
        return sim_error_set(err,
                             "%s: trace is set but pattern is %s (use pattern "
                             "trace)",
                             b->name, cu_patterns[c->pattern]);
    }
    if (c->pattern == CU_NONE) {
        return true;
    }
    if (c->pattern == CU_SHARED) {
        return cu_realize_shared(c, err);
    }
    if (c->pattern == CU_HALO) {
        CuHaloCfg hcfg = {.gpus = b->plat->gpus,
                          .gpu = (uint32_t)c->own,
                          .mem_bytes = b->plat->mem_bytes,
                          .halo = c->halo,
                          .size = c->size,
                          .index = (uint64_t)c->unit,
                          .cus = c->cus};
        return cu_halo_init(&c->hl, &hcfg, err) || cu_pattern_failed(c, err);
    }
    CuPatternCfg cfg = {
        .kind = (CuPatternKind)(c->pattern - CU_UNIFORM),
        .target = (CuTarget)c->target,
        .gpus = b->plat->gpus,
        .gpu = (uint32_t)c->own,
        .mem_bytes = b->plat->mem_bytes,
        .footprint = c->footprint,
        .line = c->line,
        .size = c->size,
        .stride = c->stride,
        .tile = c->tile,
        .reuse = c->reuse,
        .owned = c->write_frac > 0.0,
        .owner = (uint64_t)c->own * c->cus + (uint64_t)c->unit,
        .owners = (uint64_t)b->plat->gpus * c->cus,
    };
    return cu_pattern_init(&c->pat, &cfg, err) || cu_pattern_failed(c, err);
}

static bool cu_realize(Block *b, SimError *err)
{
    Cu *c = (Cu *)b;
    c->mem = block_port(b, "mem", -1);
    c->own = b->gpu >= 0 ? b->gpu : 0;
    c->unit = b->index >= 0 ? b->index : 0;
    if ((uint64_t)c->unit >= c->cus) {
        return sim_error_set(err,
                             "%s: index %d is not below cus %llu (set cus to the "
                             "number of CUs per GPU)",
                             b->name, c->unit, (unsigned long long)c->cus);
    }
    if (!cu_realize_pattern(c, err)) {
        return false;
    }
    c->kernel_mode =
        c->pattern >= CU_UNIFORM && (c->kernels > 1 || c->pattern == CU_SHARED);
    cu_written_init(&c->written, c->line);
    c->max_len = CU_TRACE_MAX_SIZE > c->line ? CU_TRACE_MAX_SIZE : (uint32_t)c->line;
    c->shadow = sparse_new((FillKind)c->fill);
    c->slots = calloc(c->outstanding, sizeof *c->slots);
    c->free_slots = calloc(c->outstanding, sizeof *c->free_slots);
    c->scratch = malloc(c->max_len);
    if (!c->shadow || !c->slots || !c->free_slots || !c->scratch) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    idmap_init_ordered(&c->ids);
    sim_event_init(&c->ev, b->sim, SIM_PRIO_DEFAULT, cu_wake, c, NULL);
    if (c->barrier) {
        c->bar = block_port(b, "bar", 0);
        egress_init(&c->bar_out, b, c->bar, NULL);
    }
    return true;
}

static void cu_trace_failed(Cu *c, const char *msg)
{
    sim_report(c->base.sim, "mgtlm: %s: %s", c->base.name, msg);
    (*c->trace_errors)++;
    c->phase = CU_PH_DONE;
}

static void cu_reset(Block *b)
{
    Cu *c = (Cu *)b;
    rng_seed(&c->rng, c->seed, b->plat->seed, b->gpu, b->index);
    sparse_clear(c->shadow);
    idmap_destroy(&c->ids);
    for (uint32_t i = 0; i < c->outstanding; i++) {
        free(c->slots[i].expect);
        c->slots[i].expect = NULL;
        c->free_slots[i] = (uint32_t)c->outstanding - 1 - i;
    }
    c->nfree = (uint32_t)c->outstanding;
    c->reported = false;
    if (c->held) {
        txn_unref(c->held);
        c->held = NULL;
    }
    c->have_req = false;
    c->rec_pending = false;
    c->line_next = c->lines.n = 0;
    c->generated = 0;
    c->next_issue = 0;
    c->kernel = 0;
    c->kends = 0;
    c->opened = 0;
    if (c->bar) {
        egress_clear(&c->bar_out);
    }
    c->last_ctl = 0;
    c->verify_at = 0;
    cu_written_clear(&c->written);
    c->phase = c->pattern == CU_NONE ? CU_PH_DONE
               : c->kernel_mode      ? CU_PH_BEGIN
                                     : CU_PH_WORK;
    if (c->sh_init) {
        c->sh.skipped = 0;
        cu_shared_begin(&c->sh, 0);
    }
    if (c->pattern == CU_HALO) {
        cu_halo_restart(&c->hl);
    }
    if (c->pattern == CU_TRACE) {
        SimError err;
        if (c->tr_open) {
            cu_trace_close(&c->tr);
            c->tr_open = false;
        }
        if (cu_trace_open(&c->tr, c->trace, b->plat->clock,
                          (uint64_t)b->plat->gpus * b->plat->mem_bytes, c->line, &err)) {
            c->tr_open = true;
        } else {
            cu_trace_failed(c, err.msg);
        }
    } else if (c->pattern >= CU_UNIFORM && c->pattern <= CU_SCATTER) {
        cu_pattern_restart(&c->pat);
    }
    if (c->phase != CU_PH_DONE) {
        sim_event_notify(&c->ev, 0);
    }
}

static void cu_req_from_rec(Cu *c)
{
    static const TxnCmd cmds[] = {
        [CU_OP_READ] = TXN_READ,
        [CU_OP_WRITE] = TXN_WRITE,
        [CU_OP_ATOMIC] = TXN_ATOMIC,
        [CU_OP_RELEASE] = TXN_RELEASE,
        [CU_OP_KERNEL_BEGIN] = TXN_KERNEL_BEGIN,
        [CU_OP_KERNEL_END] = TXN_KERNEL_END,
    };
    const CuTraceRec *r = &c->rec;
    c->req = (CuReq){.cmd = cmds[r->op],
                     .ready = r->t,
                     .posted = r->posted || c->posted,
                     .kernel_hint = r->hint,
                     .vk = -1,
                     .ek = -1};
    if (r->nthreads && c->wavefront) {
        uint64_t sum = 0;
        for (size_t i = 0; i < r->nthreads; i++) {
            sum += r->threads[i].size;
        }
        c->req.addr = r->threads[0].addr;
        c->req.len = (uint32_t)sum;
        c->req.threads = r->threads;
        c->req.nthreads = r->nthreads;
        c->rec_pending = false;
        return;
    }
    if (r->nthreads) {
        size_t k = c->line_next++;
        c->req.addr = c->lines.addr[k];
        c->req.len = (uint32_t)c->line;
        if (r->op == CU_OP_WRITE) {
            c->req.be = c->lines.be + k * c->line;
        }
        return;
    }
    c->req.addr = r->addr;
    c->req.len = r->size;
    c->req.data = r->data;
    c->rec_pending = false;
}

/* Makes c->req the next request; false when there is none. */
static bool cu_fetch_trace(Cu *c)
{
    for (;;) {
        if (c->rec_pending ||
            (c->rec.nthreads && !c->wavefront && c->line_next < c->lines.n)) {
            cu_req_from_rec(c);
            return true;
        }
        SimError err;
        int r = cu_trace_next(&c->tr, &c->rec, &err);
        if (r <= 0) {
            if (r < 0) {
                cu_trace_failed(c, err.msg);
            }
            return false;
        }
        c->line_next = 0;
        c->lines.n = 0;
        if (c->rec.nthreads && !c->wavefront) {
            cu_coalesce(&c->lines, c->line, c->rec.threads, c->rec.nthreads);
        } else {
            c->rec_pending = true;
        }
    }
}

/* Makes c->req the next access of the current kernel (or of the run); false when
 * there is none left. */
static bool cu_fetch_access(Cu *c)
{
    if (c->pattern == CU_TRACE) {
        return cu_fetch_trace(c);
    }
    uint64_t addr;
    uint32_t len = (uint32_t)c->size;
    bool write;
    if (c->pattern == CU_SHARED) {
        if (!cu_shared_next(&c->sh, &c->rng, &addr, &len, &write)) {
            return false;
        }
    } else if (c->pattern == CU_HALO) {
        if (!cu_halo_next(&c->hl, &addr)) {
            return false;
        }
        write = true;
    } else {
        if (c->generated == c->count) {
            return false;
        }
        c->generated++;
        addr = cu_pattern_next(&c->pat, &c->rng);
        write = c->write_frac > 0.0 && rng_unit(&c->rng) < c->write_frac;
    }
    bool kernel_data = c->pattern == CU_SHARED || c->pattern == CU_HALO;
    c->req = (CuReq){.cmd = write ? TXN_WRITE : TXN_READ,
                     .addr = addr,
                     .len = len,
                     .posted = write && c->posted,
                     .vk = write && kernel_data ? (int64_t)c->kernel : -1,
                     .ek = !write && c->pattern == CU_SHARED ? (int64_t)c->kernel : -1};
    return true;
}

static void cu_control(Cu *c, TxnCmd cmd, SimTime ready, bool drain)
{
    c->req = (CuReq){.cmd = cmd,
                     .ready = ready,
                     .kernel_hint = cmd == TXN_KERNEL_BEGIN ? (uint32_t)c->hint : 0,
                     .vk = -1,
                     .ek = -1,
                     .drain = drain};
}

static bool cu_verifies(const Cu *c)
{
    return c->verify && !cu_written_empty(&c->written);
}

/* Makes c->req the next request (access or control); false when there is none. */
static bool cu_fetch(Cu *c)
{
    for (;;) {
        switch (c->phase) {
        case CU_PH_BEGIN:
            cu_control(c, TXN_KERNEL_BEGIN, (SimTime)c->kernel * c->kernel_time, false);
            c->generated = 0;
            if (c->sh_init) {
                cu_shared_begin(&c->sh, c->kernel);
            }
            if (c->pattern == CU_HALO) {
                cu_halo_restart(&c->hl);
            }
            c->phase = CU_PH_WORK;
            return true;
        case CU_PH_WORK:
            if (cu_fetch_access(c)) {
                return true;
            }
            if (c->phase == CU_PH_WORK) {
                c->phase = c->kernel_mode || cu_verifies(c) ? CU_PH_RELEASE : CU_PH_DONE;
            }
            break;
        case CU_PH_RELEASE:
            cu_control(c, TXN_RELEASE, 0, true);
            c->phase = c->kernel_mode ? CU_PH_END : CU_PH_VERIFY_START;
            return true;
        case CU_PH_END:
            cu_control(c, TXN_KERNEL_END, 0, false);
            c->kernel++;
            c->phase = c->kernel < c->kernels ? CU_PH_BEGIN
                       : cu_verifies(c)       ? CU_PH_VERIFY_START
                                              : CU_PH_DONE;
            return true;
        case CU_PH_VERIFY_START:
            /* The release or last kernel_end has been sent (a request is fetched only
             * after the previous one left), so last_ctl is its send time. */
            cu_written_sort(&c->written);
            c->verify_at = c->last_ctl + c->verify_delay;
            c->phase = CU_PH_VERIFY;
            break;
        case CU_PH_VERIFY: {
            uint64_t addr;
            uint32_t len;
            if (!cu_written_next(&c->written, &addr, &len)) {
                c->phase = CU_PH_DONE;
                break;
            }
            c->req = (CuReq){.cmd = TXN_READ,
                             .addr = addr,
                             .len = len,
                             .ready = c->verify_at,
                             .vk = -1,
                             .ek = -1,
                             .verify = true};
            return true;
        }
        default:
            return false;
        }
    }
}

static void cu_random_bytes(Cu *c, uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t r = rng_next(&c->rng);
        for (size_t k = 0; k < 8 && i + k < len; k++) {
            out[i + k] = (uint8_t)(r >> (8 * k));
        }
    }
}

/* A wavefront sent whole: gives t its thread list and applies the threads' bytes in
 * thread order: a write to the shadow (and the verify record), a read into expect
 * (len bytes, or NULL). */
static void cu_wave_apply(Cu *c, const CuReq *q, Txn *t, uint8_t *expect)
{
    TxnThread *th = xrealloc_array(NULL, q->nthreads, sizeof *th);
    uint32_t off = 0;
    for (size_t i = 0; i < q->nthreads; i++) {
        const CuThread *x = &q->threads[i];
        th[i] = (TxnThread){.addr = x->addr, .size = x->size};
        if (q->cmd == TXN_WRITE) {
            sparse_write(c->shadow, x->addr, t->data + off, NULL, x->size);
            if (c->verify) {
                cu_written_add(&c->written, x->addr, NULL, x->size);
            }
        } else if (expect) {
            sparse_read(c->shadow, x->addr, expect + off, x->size);
        }
        off += x->size;
    }
    txn_set_threads(t, th, (uint32_t)q->nthreads);
    free(th);
}

/* Builds the transaction for c->req, applies it to the shadow and takes a slot if
 * it needs a response. Ownership of the transaction goes to the caller. */
static Txn *cu_build(Cu *c, uint32_t *slot_out)
{
    const CuReq *q = &c->req;
    Txn *t = txn_new(c->base.sim, q->cmd, q->addr, q->len);
    bool control = q->cmd != TXN_READ && q->cmd != TXN_WRITE && q->cmd != TXN_ATOMIC;
    t->src = (int16_t)c->own;
    t->dst = (int16_t)(control ? c->own : block_home(&c->base, q->addr));
    t->unit = (int16_t)c->unit;
    t->posted = q->cmd == TXN_WRITE && q->posted;
    t->kernel_hint = q->kernel_hint;
    if (q->cmd == TXN_WRITE || q->cmd == TXN_ATOMIC) {
        uint8_t *d = txn_set_data(t, q->data);
        if (q->vk >= 0) {
            for (uint32_t i = 0; i < q->len; i++) {
                d[i] = cu_value(q->addr + i, (uint32_t)q->vk);
            }
        } else if (!q->data) {
            cu_random_bytes(c, d, q->len);
        }
        if (q->be) {
            memcpy(txn_alloc_be(t), q->be, q->len);
        }
        if (c->verify && !q->nthreads) {
            cu_written_add(&c->written, q->addr, t->be, q->len);
        }
    }
    if (q->verify) {
        (*c->verify_reads)++;
    }
    *slot_out = CU_NO_SLOT;
    if (txn_needs_response(t)) {
        uint32_t s = c->free_slots[--c->nfree];
        CuSlot *slot = &c->slots[s];
        slot->cmd = q->cmd;
        slot->addr = q->addr;
        slot->len = q->len;
        if (q->cmd != TXN_WRITE) {
            slot->expect = xmalloc(q->len);
            if (q->ek >= 0) {
                cu_shared_expect(&c->sh, (uint32_t)q->ek, q->addr, slot->expect, q->len);
            } else if (q->nthreads) {
                cu_wave_apply(c, q, t, slot->expect);
            } else {
                sparse_read(c->shadow, q->addr, slot->expect, q->len);
            }
        }
        idmap_insert(&c->ids, t->id, s);
        *slot_out = s;
    }
    if (q->nthreads && q->cmd == TXN_WRITE) {
        cu_wave_apply(c, q, t, NULL);
    } else if (q->cmd == TXN_WRITE) {
        sparse_write(c->shadow, q->addr, t->data, t->be, q->len);
    } else if (q->cmd == TXN_ATOMIC) {
        uint8_t *sum = c->scratch;
        sparse_read(c->shadow, q->addr, sum, q->len);
        amo_result(sum, t->data, q->len, sum);
        sparse_write(c->shadow, q->addr, sum, NULL, q->len);
    }
    return t;
}

/* With the barrier, kernel k ended here at now: tells the kbar when a kernel k + 1
 * exists (it waits for every cu's arrive before opening it). */
static void cu_arrive(Cu *c, uint64_t k)
{
    if (!c->bar || k + 1 >= c->kernels) {
        return;
    }
    Txn *t = txn_new_declared(c->base.sim, &kbar_cmd_arrive, k, 0);
    t->src = (int16_t)c->own;
    t->unit = (int16_t)c->unit;
    (void)egress_push(&c->bar_out, t, 0);
}

/* Bookkeeping after t left the port at now. */
static void cu_sent(Cu *c, const Txn *t, uint32_t slot, SimTime now)
{
    (*c->issued)++;
    switch (t->cmd) {
    case TXN_READ:
        (*c->reads)++;
        if (t->dst != c->own) {
            (*c->remote_reads)++;
        }
        break;
    case TXN_WRITE:
        (*c->writes)++;
        break;
    case TXN_ATOMIC:
        (*c->atomics)++;
        break;
    default:
        (*c->controls)++;
        if (t->cmd == TXN_RELEASE || t->cmd == TXN_KERNEL_END) {
            c->last_ctl = now;
        }
        if (t->cmd == TXN_KERNEL_END && c->kernel_mode) {
            /* Kernel k is late if kernel k + 1 cannot begin at (k + 1) * T. */
            uint64_t k = c->kends++;
            (*c->kernels_done)++;
            if (c->kernel_time > 0 && now + c->gap > (SimTime)(k + 1) * c->kernel_time) {
                (*c->overrun_errors)++;
            }
            cu_arrive(c, k);
        }
        break;
    }
    if (slot != CU_NO_SLOT) {
        c->slots[slot].issued = now;
    } else if (now > *c->finish_ps) {
        *c->finish_ps = now;
    }
    c->next_issue = now + c->gap;
}

static void cu_pump(Cu *c)
{
    SimTime now = sim_now(c->base.sim);
    for (;;) {
        if (c->held) {
            Txn *t = c->held;
            /* On success the reference moves to the peer; t stays readable here
             * because nothing runs before the bookkeeping. */
            if (!port_send(c->mem, t)) {
                return;
            }
            c->held = NULL;
            cu_sent(c, t, c->held_slot, now);
            continue;
        }
        if (!c->have_req) {
            if (!cu_fetch(c)) {
                return;
            }
            c->have_req = true;
        }
        SimTime ready = c->req.ready > c->next_issue ? c->req.ready : c->next_issue;
        if (ready > now) {
            sim_event_notify_at(&c->ev, ready);
            return;
        }
        bool needs_slot = c->req.cmd == TXN_READ || c->req.cmd == TXN_ATOMIC ||
                          (c->req.cmd == TXN_WRITE && !c->req.posted);
        if (needs_slot && c->nfree == 0) {
            return;
        }
        if (c->req.drain && c->nfree < c->outstanding) {
            return;
        }
        if (c->req.cmd == TXN_KERNEL_BEGIN && c->bar && c->kernel > c->opened) {
            return;
        }
        c->held = cu_build(c, &c->held_slot);
        c->have_req = false;
    }
}

static void cu_wake(void *subject, void *obj)
{
    (void)obj;
    cu_pump(subject);
}

/* Writes "0x" and up to 16 bytes of b in hex ("..." if longer) into out. */
static void cu_hex(char *out, size_t n, const uint8_t *b, uint32_t len)
{
    size_t k = (size_t)snprintf(out, n, "0x");
    for (uint32_t i = 0; b && i < len && i < 16 && k + 3 < n; i++) {
        k += (size_t)snprintf(out + k, n - k, "%02x", b[i]);
    }
    if (!b) {
        snprintf(out, n, "no data");
    } else if (len > 16) {
        snprintf(out + k, n - k, "...");
    }
}

/* Describes the cu's first data error on stderr (one line; later ones are only
 * counted), so that a failing run says which access went wrong. */
static void cu_report_data_error(Cu *c, const CuSlot *slot, const Txn *t, SimTime now)
{
    if (c->reported) {
        return;
    }
    c->reported = true;
    char want[64], got[64];
    cu_hex(want, sizeof want, slot->expect, slot->len);
    cu_hex(got, sizeof got, t->data, t->len);
    sim_report(
        c->base.sim,
        "mgtlm: %s: first data error: %s of %u B at 0x%llx (id %llu), sent at %llu "
        "ps, answered at %llu ps: expected %s, got %s (%u B)",
        c->base.name, txn_cmd_name(slot->cmd), slot->len, (unsigned long long)slot->addr,
        (unsigned long long)t->id, (unsigned long long)slot->issued,
        (unsigned long long)now, want, got, t->len);
}

static void cu_complete(Cu *c, Txn *t, SimTime now)
{
    uint64_t s;
    if (t->cmd != TXN_RESP || !idmap_remove(&c->ids, t->id, &s)) {
        (*c->resp_unmatched)++;
        return;
    }
    CuSlot *slot = &c->slots[s];
    if (t->status != TXN_STATUS_OK) {
        (*c->status_errors)++;
    } else if (slot->expect && (!t->data || t->len != slot->len ||
                                memcmp(t->data, slot->expect, slot->len) != 0)) {
        (*c->data_errors)++;
        cu_report_data_error(c, slot, t, now);
    }
    if (slot->cmd == TXN_READ) {
        stat_hist_add(c->read_latency, now - slot->issued);
    }
    free(slot->expect);
    slot->expect = NULL;
    c->free_slots[c->nfree++] = (uint32_t)s;
    (*c->completed)++;
    if (now > *c->finish_ps) {
        *c->finish_ps = now;
    }
}

/* An arrival on bar[0]: the kbar's open of the next kernel. */
static void cu_open(Cu *c, const Txn *t)
{
    if (txn_is(t, &kbar_cmd_open) && t->addr == c->opened + 1) {
        c->opened++;
    } else {
        (*c->resp_unmatched)++;
    }
}

static void cu_on_recv(Block *b, Port *p)
{
    Cu *c = (Cu *)b;
    SimTime now = sim_now(b->sim);
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (p == c->bar) {
            cu_open(c, t);
        } else {
            cu_complete(c, t, now);
        }
        txn_unref(t);
    }
    cu_pump(c);
}

static void cu_on_free(Block *b, Port *p)
{
    Cu *c = (Cu *)b;
    if (p == c->bar) {
        egress_pump(&c->bar_out);
    } else {
        cu_pump(c);
    }
}

static void cu_stats(Block *b)
{
    Cu *c = (Cu *)b;
    const StatHist *h = c->read_latency;
    *c->read_latency_mean = h->count ? (double)h->sum / (double)h->count : 0.0;
    *c->reads_skipped = c->sh.skipped;
    /* A run that ended idle can never answer what is still outstanding. */
    *c->unanswered = sim_idle(b->sim) ? idmap_count(&c->ids) : 0;
}

static void cu_finalize(Block *b)
{
    Cu *c = (Cu *)b;
    if (c->held) {
        txn_unref(c->held);
        c->held = NULL;
    }
    for (uint32_t i = 0; c->slots && i < c->outstanding; i++) {
        free(c->slots[i].expect);
    }
    free(c->slots);
    free(c->free_slots);
    free(c->scratch);
    if (c->bar) {
        egress_destroy(&c->bar_out);
    }
    c->slots = NULL;
    c->free_slots = NULL;
    c->scratch = NULL;
    if (c->tr_open) {
        cu_trace_close(&c->tr);
        c->tr_open = false;
    }
    cu_lines_free(&c->lines);
    cu_written_clear(&c->written);
    cu_shared_free(&c->sh);
    c->sh_init = false;
    idmap_destroy(&c->ids);
    sparse_free(c->shadow);
    c->shadow = NULL;
}

static const StatDef cu_stat_defs[] = {
    STAT(Cu, issued, "issued", STAT_COUNTER, "", "requests sent"),
    STAT(Cu, completed, "completed", STAT_COUNTER, "", "responses received and matched"),
    STAT(Cu, reads, "reads", STAT_COUNTER, "", "read requests sent"),
    STAT(Cu, writes, "writes", STAT_COUNTER, "", "write requests sent"),
    STAT(Cu, atomics, "atomics", STAT_COUNTER, "", "atomic requests sent"),
    STAT(Cu, controls, "controls", STAT_COUNTER, "",
         "release/kernel_begin/kernel_end sent"),
    STAT(Cu, remote_reads, "remote_reads", STAT_COUNTER, "",
         "reads to another GPU's memory"),
    STAT(Cu, data_errors, "data_errors", STAT_COUNTER, "",
         "model error: responses whose data differ from the expected bytes",
         .is_error = true),
    STAT(Cu, status_errors, "status_errors", STAT_COUNTER, "",
         "model error: responses with a status other than ok", .is_error = true),
    STAT(Cu, resp_unmatched, "resp_unmatched_errors", STAT_COUNTER, "",
         "model error: arrivals matching no outstanding request", .is_error = true),
    STAT(Cu, trace_errors, "trace_errors", STAT_COUNTER, "",
         "model error: trace unreadable during the run", .is_error = true),
    STAT(Cu, finish_ps, "finish_ps", STAT_TIME, "ps", "time of the last response (ps)"),
    STAT(Cu, kernels_done, "kernels_done", STAT_COUNTER, "",
         "kernels ended (kernel_end sent)"),
    STAT(Cu, verify_reads, "verify_reads", STAT_COUNTER, "", "verify-phase reads sent"),
    STAT(Cu, reads_skipped, "reads_skipped", STAT_COUNTER, "",
         "shared: reads dropped because every target line was written in the kernel"),
    STAT(Cu, overrun_errors, "kernel_overrun_errors", STAT_COUNTER, "",
         "model error: kernels not done within kernel_time (raise kernel_time)",
         .is_error = true),
    STAT(Cu, unanswered, "unanswered_errors", STAT_COUNTER, "",
         "model error: requests never answered in a run that ended idle",
         .is_error = true),
    STAT(Cu, read_latency, "read_latency", STAT_HIST, "ps",
         "read latency, send to response arrival (ps)", .width = 10 * SIM_NS,
         .buckets = 200),
    STAT(Cu, read_latency_mean, "read_latency_mean", STAT_TIME, "ps",
         "mean read latency (ps)"),
};

const BlockType cu_type = {
    .name = "cu",
    .doc = "compute unit: synthetic or trace traffic, outstanding limit, data check",
    .size = sizeof(Cu),
    .params = cu_params,
    .nparams = sizeof cu_params / sizeof cu_params[0],
    .ports = cu_ports,
    .nports = sizeof cu_ports / sizeof cu_ports[0],
    .stat_defs = cu_stat_defs,
    .nstat_defs = sizeof cu_stat_defs / sizeof cu_stat_defs[0],
    .realize = cu_realize,
    .reset = cu_reset,
    .on_recv = cu_on_recv,
    .on_free = cu_on_free,
    .stats = cu_stats,
    .finalize = cu_finalize,
    .agree = cu_agree,
};
