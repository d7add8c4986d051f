/* The warp scheduler of one SM (SPEC.md 6.2). Each slot keeps a scoreboard of the
 * cycle at which each register becomes ready (UINT64_MAX while a load is pending), so
 * RAW and WAW are one comparison per register; writes to R255 are never recorded, so
 * it is never pending. The scoreboard costs 2 KiB per warp slot (128 KiB for 64
 * slots), the price of O(1) checks. Each scheduler keeps its occupied slots in
 * dispatch order (a CTA's slots are appended when it is dispatched), which is gto's
 * age order; lrr walks its slots by number. CTA records count live warps, warps at the
 * barrier and loads in flight.
 *
 * Speed (docs/performance.md, Executing traces): each slot also keeps `wake`, the first
 * cycle its next instruction may issue (UINT64_MAX while it waits for an event),
 * recomputed only when its inputs change: the warp issues, a load of it is answered,
 * its barrier releases. So whether a warp is ready, and the next cycle in which any
 * is, are one comparison per warp, not a walk over its registers every cycle. Each
 * scheduler keeps a lower bound of its slots' wakes (`min_wake`), so a cycle before
 * it costs no walk; the caller may hold a warp (a wake of UINT64_MAX until it releases
 * it) instead of refusing it every cycle; and the pipe's mem_open is asked once until
 * the pipe takes something, instead of mem_accept for every ready pipe instruction
 * (docs/performance.md, "Stop 33"). */
#include "hw/core/sm_sched.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

#define SM_REGS 256
#define SM_PENDING UINT64_MAX
/* How many instructions ahead of a warp's next one sched_wake prefetches. */
#define SCHED_AHEAD 3

typedef struct SmSlot {
    const CoreWarp *warp; /* NULL: free slot */
    size_t pc;            /* next instruction */
    uint32_t cta;         /* index of the CTA record */
    uint32_t warp_idx;
    uint32_t unit;        /* its scheduler: slot mod schedulers */
    uint32_t loads;       /* loads in flight */
    uint64_t bar_release; /* the warp may not issue before this cycle */
    uint64_t fence_ready; /* a fence may not issue before this cycle */
    bool at_bar, done;
    bool held; /* sm_sched_hold until sm_sched_release_all */
    uint64_t ready[SM_REGS];
} SmSlot;

typedef struct SmCtaRec {
    bool used;
    uint32_t tag;
    uint32_t live;   /* warps not ended */
    uint32_t at_bar; /* live warps waiting at the barrier */
    uint64_t loads;  /* loads in flight */
} SmCtaRec;

typedef struct SmSchedUnit {
    uint32_t *order; /* occupied slots in (dispatch, slot) order */
    uint32_t norder;
    uint32_t nslots; /* slots of this scheduler: k, k + S, ... */
    uint32_t last;   /* index (slot / S) of the slot issued last */
    bool has_last;
    /* No slot of this scheduler wakes before this cycle (a lower bound: lowered by
     * every sched_wake below it, set exact by a walk that found nothing ready), so a
     * cycle before it needs no walk. */
    uint64_t min_wake;
} SmSchedUnit;

struct SmSched {
    SmSchedConfig cfg;
    SmSlot *slots;
    /* wake[slot]: the first cycle the slot's next instruction may issue (sched_wake),
     * the memory pipe aside; UINT64_MAX for a free slot or a warp waiting for an
     * event. One array apart from the slots (2 KiB each), so that a scheduler's walk
     * over its warps reads a cache line or two rather than one line per warp. */
    uint64_t *wake;
    const AtsInst **next; /* next[slot]: its next instruction, while wake[slot] is not
                             UINT64_MAX (set with it) */
    SmCtaRec *ctas;       /* max_warps records: a CTA has at least one warp */
    SmSchedUnit *units;
    bool pipe_asked; /* mem_open was asked in this cycle since the pipe last took */
    bool pipe_open;  /* its answer */
    uint32_t held;   /* slots held */
    uint32_t free_slots;
    uint32_t *done; /* finished CTA tags not taken yet: done[done_head..done_end) */
    size_t done_head, done_end, done_cap;
};

void sm_sched_config_default(SmSchedConfig *cfg)
{
    *cfg = (SmSchedConfig){.schedulers = 4, .max_warps = 64, .policy = SM_POLICY_GTO};
    cfg->latency[ATS_INT] = 4;
    cfg->latency[ATS_FP32] = 4;
    cfg->latency[ATS_FP64] = 8;
    cfg->latency[ATS_SFU] = 100;
    cfg->latency[ATS_TENSOR] = 64;
    cfg->latency[ATS_CONTROL] = 4;
    cfg->latency[ATS_LDS] = 20;
    cfg->latency[ATS_STS] = 20;
    cfg->latency[ATS_ATOMS] = 20;
    cfg->latency[ATS_LDC] = 20;
}

static SmIssueKind sched_kind(AtsClass cls)
{
    switch (cls) {
    case ATS_LDG:
    case ATS_LDL:
    case ATS_ATOMG:
        return SM_ISSUE_LOAD;
    case ATS_STG:
    case ATS_STL:
    case ATS_RED:
        return SM_ISSUE_POSTED;
    case ATS_BAR:
        return SM_ISSUE_BAR;
    case ATS_MEMBAR:
        return SM_ISSUE_MEMBAR;
    case ATS_EXIT:
        return SM_ISSUE_EXIT;
    default:
        return SM_ISSUE_FIXED;
    }
}

SmSched *sm_sched_new(const SmSchedConfig *cfg, SimError *err)
{
    if (cfg->max_warps == 0 || cfg->max_warps > SM_SCHED_MAX_WARPS) {
        sim_error_set(err, "max_warps %u is out of range 1..%u", cfg->max_warps,
                      SM_SCHED_MAX_WARPS);
        return NULL;
    }
    if (cfg->schedulers == 0 || cfg->schedulers > cfg->max_warps) {
        sim_error_set(err, "schedulers %u is out of range 1..max_warps (%u)",
                      cfg->schedulers, cfg->max_warps);
        return NULL;
    }
    SmSched *s = xcalloc(1, sizeof *s);
    s->cfg = *cfg;
    s->slots = xcalloc(cfg->max_warps, sizeof *s->slots);
    s->wake = xcalloc(cfg->max_warps, sizeof *s->wake);
    s->next = xcalloc(cfg->max_warps, sizeof *s->next);
    for (uint32_t i = 0; i < cfg->max_warps; i++) {
        s->wake[i] = UINT64_MAX;
    }
    s->ctas = xcalloc(cfg->max_warps, sizeof *s->ctas);
    s->units = xcalloc(cfg->schedulers, sizeof *s->units);
    for (uint32_t k = 0; k < cfg->schedulers; k++) {
        SmSchedUnit *u = &s->units[k];
        u->nslots = (cfg->max_warps - k + cfg->schedulers - 1) / cfg->schedulers;
        u->order = xcalloc(u->nslots, sizeof *u->order);
        u->min_wake = UINT64_MAX;
    }
    s->free_slots = cfg->max_warps;
    return s;
}

void sm_sched_free(SmSched *s)
{
    if (!s) {
        return;
    }
    for (uint32_t k = 0; k < s->cfg.schedulers; k++) {
        free(s->units[k].order);
    }
    free(s->units);
    free(s->done);
    free(s->ctas);
    free(s->wake);
    free(s->next);
    free(s->slots);
    free(s);
}

uint32_t sm_sched_free_slots(const SmSched *s)
{
    return s->free_slots;
}

/* Recomputes the wake of slot w: the latest of the cycles its next instruction waits
 * for (the barrier's release, its registers, a fence's last load answer), UINT64_MAX
 * while it waits for an event (a free slot, an ended warp, the barrier, a load, a
 * fence's loads, a hold). The instruction SCHED_AHEAD after the next is fetched into the
 * cache here: a warp's instructions are read in order, one per issue, through its own
 * list of table indices (an SM interleaves 64), and where a CTA's instructions are
 * mostly distinct (accesses, each with its own addresses) their table entries are a
 * stream per warp too, each line of which would otherwise miss; one ahead came too late
 * when a warp issues again at once (GTO) (docs/performance.md, "Fetching further
 * ahead"). */
static void sched_wake(SmSched *s, SmSlot *w)
{
    uint64_t *wake = &s->wake[w - s->slots];
    if (!w->warp || w->done || w->at_bar || w->held) {
        *wake = UINT64_MAX;
        return;
    }
    const AtsInst *in = core_warp_inst(w->warp, w->pc);
    s->next[w - s->slots] = in;
    if (w->pc + SCHED_AHEAD < w->warp->ninst) {
        __builtin_prefetch(core_warp_inst(w->warp, w->pc + SCHED_AHEAD));
    }
    uint64_t t = w->bar_release;
    if (in->cls == ATS_MEMBAR) {
        if (w->loads != 0) {
            *wake = UINT64_MAX;
            return;
        }
        t = w->fence_ready > t ? w->fence_ready : t;
    }
    for (uint8_t k = 0; k < in->nsrc; k++) {
        t = w->ready[in->src[k]] > t ? w->ready[in->src[k]] : t;
    }
    for (uint8_t k = 0; k < in->ndst; k++) {
        t = w->ready[in->dst[k]] > t ? w->ready[in->dst[k]] : t;
    }
    *wake = t;
    SmSchedUnit *u = &s->units[w->unit];
    if (t < u->min_wake) {
        u->min_wake = t;
    }
}

/* Frees the CTA's slots and queues its tag once its warps ended and loads are in. */
static void sched_check_cta_done(SmSched *s, uint32_t ci)
{
    SmCtaRec *c = &s->ctas[ci];
    if (c->live != 0 || c->loads != 0) {
        return;
    }
    uint32_t S = s->cfg.schedulers;
    for (uint32_t slot = 0; slot < s->cfg.max_warps; slot++) {
        SmSlot *w = &s->slots[slot];
        if (!w->warp || w->cta != ci) {
            continue;
        }
        assert(!w->held); /* a held warp has not ended, so its CTA is not done */
        w->warp = NULL;
        s->wake[slot] = UINT64_MAX;
        s->free_slots++;
        SmSchedUnit *u = &s->units[slot % S];
        uint32_t n = 0;
        for (uint32_t k = 0; k < u->norder; k++) {
            if (u->order[k] != slot) {
                u->order[n++] = u->order[k];
            }
        }
        u->norder = n;
        if (s->cfg.policy == SM_POLICY_GTO && u->has_last && u->last == slot / S) {
            u->has_last = false;
        }
    }
    if (s->done_end == s->done_cap) {
        if (s->done_head > 0) {
            memmove(s->done, s->done + s->done_head,
                    (s->done_end - s->done_head) * sizeof *s->done);
            s->done_end -= s->done_head;
            s->done_head = 0;
        } else {
            s->done_cap = s->done_cap ? 2 * s->done_cap : 16;
            s->done = xrealloc_array(s->done, s->done_cap, sizeof *s->done);
        }
    }
    s->done[s->done_end++] = c->tag;
    c->used = false;
}

/* Releases the CTA's barrier at `cycle` when every live warp has reached it. */
static void sched_check_barrier(SmSched *s, uint32_t ci, uint64_t cycle)
{
    SmCtaRec *c = &s->ctas[ci];
    if (c->at_bar == 0 || c->at_bar != c->live) {
        return;
    }
    for (uint32_t slot = 0; slot < s->cfg.max_warps; slot++) {
        SmSlot *w = &s->slots[slot];
        if (w->warp && w->cta == ci && w->at_bar) {
            w->at_bar = false;
            w->bar_release = cycle + 1;
            sched_wake(s, w);
        }
    }
    c->at_bar = 0;
}

static void sched_warp_ended(SmSched *s, SmSlot *w, uint64_t cycle)
{
    w->done = true;
    s->wake[w - s->slots] = UINT64_MAX;
    s->ctas[w->cta].live--;
    sched_check_barrier(s, w->cta, cycle);
    sched_check_cta_done(s, w->cta);
}

bool sm_sched_add_cta(SmSched *s, uint32_t tag, const CoreCta *c)
{
    if (c->nwarps == 0 || c->nwarps > s->free_slots) {
        return false;
    }
    uint32_t ci = 0;
    while (s->ctas[ci].used) {
        ci++;
    }
    s->ctas[ci] = (SmCtaRec){.used = true, .tag = tag, .live = (uint32_t)c->nwarps};
    uint32_t slot = 0;
    for (size_t k = 0; k < c->nwarps; k++) {
        while (s->slots[slot].warp) {
            slot++;
        }
        SmSlot *w = &s->slots[slot];
        *w = (SmSlot){.warp = &c->warps[k],
                      .cta = ci,
                      .warp_idx = (uint32_t)k,
                      .unit = slot % s->cfg.schedulers};
        if (c->warps[k].ninst > 0) {
            sched_wake(s, w);
        }
        s->free_slots--;
        SmSchedUnit *u = &s->units[slot % s->cfg.schedulers];
        u->order[u->norder++] = slot;
    }
    for (slot = 0; slot < s->cfg.max_warps; slot++) {
        SmSlot *w = &s->slots[slot];
        if (w->warp && w->cta == ci && w->warp->ninst == 0) {
            sched_warp_ended(s, w, 0);
        }
    }
    return true;
}

static bool sched_uses_pipe(AtsClass cls)
{
    SmIssueKind k = sched_kind(cls);
    return k == SM_ISSUE_LOAD || k == SM_ISSUE_POSTED || k == SM_ISSUE_MEMBAR;
}

/* The memory pipe's answer for a ready warp's pipe instruction: mem_open once until
 * it takes something, then mem_accept. */
static bool sched_offer(SmSched *s, uint32_t slot, const AtsInst *in)
{
    if (s->cfg.mem_open) {
        if (!s->pipe_asked) {
            s->pipe_open = s->cfg.mem_open(s->cfg.mem_ctx);
            s->pipe_asked = true;
        }
        if (!s->pipe_open) {
            return false;
        }
    }
    bool took = s->cfg.mem_accept(s->cfg.mem_ctx, slot, in);
    s->pipe_asked = s->pipe_asked && !took;
    return took;
}

/* Ready, the memory pipe asked last. */
static inline bool sched_try(SmSched *s, uint32_t slot, uint64_t cycle)
{
    if (s->wake[slot] > cycle) {
        return false;
    }
    const AtsInst *in = s->next[slot];
    return !s->cfg.mem_accept || !sched_uses_pipe(in->cls) || sched_offer(s, slot, in);
}

static uint64_t sched_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static void sched_issue(SmSched *s, uint32_t slot, uint64_t cycle, SmIssue *out)
{
    SmSlot *w = &s->slots[slot];
    const AtsInst *in = s->next[slot]; /* the slot is ready, so sched_wake set it */
    SmIssueKind kind = sched_kind(in->cls);
    *out = (SmIssue){.slot = slot,
                     .cta = s->ctas[w->cta].tag,
                     .warp = w->warp_idx,
                     .inst = w->pc,
                     .in = in,
                     .kind = kind};
    if (kind == SM_ISSUE_FIXED || kind == SM_ISSUE_LOAD) {
        uint64_t at =
            kind == SM_ISSUE_LOAD ? SM_PENDING : cycle + s->cfg.latency[in->cls];
        for (uint8_t k = 0; k < in->ndst; k++) {
            if (in->dst[k] != ATS_ZERO_REG) {
                w->ready[in->dst[k]] = at;
            }
        }
    }
    if (kind == SM_ISSUE_LOAD) {
        w->loads++;
        s->ctas[w->cta].loads++;
    }
    w->pc++;
    if (w->pc == w->warp->ninst) {
        out->warp_done = true;
        sched_warp_ended(s, w, cycle);
        return;
    }
    if (kind == SM_ISSUE_BAR) {
        w->at_bar = true;
        s->ctas[w->cta].at_bar++;
        sched_check_barrier(s, w->cta, cycle);
    }
    sched_wake(s, w);
}

/* The slot scheduler u issues from this cycle, or -1. A walk that finds none has
 * seen every slot of the scheduler, so it sets min_wake to their earliest wake. */
static int64_t sched_pick(SmSched *s, uint32_t k, uint64_t cycle)
{
    SmSchedUnit *u = &s->units[k];
    if (cycle < u->min_wake) {
        return -1;
    }
    uint32_t S = s->cfg.schedulers;
    uint64_t lo = UINT64_MAX;
    if (s->cfg.policy == SM_POLICY_GTO) {
        uint32_t last = k + u->last * S;
        if (u->has_last) {
            if (sched_try(s, last, cycle)) {
                return last;
            }
            lo = s->wake[last];
        }
        for (uint32_t i = 0; i < u->norder; i++) {
            uint32_t slot = u->order[i];
            if (!(u->has_last && slot == last)) {
                if (sched_try(s, slot, cycle)) {
                    return slot;
                }
                lo = sched_min(lo, s->wake[slot]);
            }
        }
    } else {
        uint32_t start = u->has_last ? u->last + 1 : 0;
        for (uint32_t i = 0; i < u->nslots; i++) {
            uint32_t slot = k + ((start + i) % u->nslots) * S;
            if (sched_try(s, slot, cycle)) {
                return slot;
            }
            lo = sched_min(lo, s->wake[slot]);
        }
    }
    u->min_wake = lo;
    return -1;
}

size_t sm_sched_cycle(SmSched *s, uint64_t cycle, SmIssue *out)
{
    size_t n = 0;
    s->pipe_asked = false;
    for (uint32_t k = 0; k < s->cfg.schedulers; k++) {
        int64_t slot = sched_pick(s, k, cycle);
        if (slot < 0) {
            continue;
        }
        SmSchedUnit *u = &s->units[k];
        u->last = (uint32_t)slot / s->cfg.schedulers;
        u->has_last = true;
        sched_issue(s, (uint32_t)slot, cycle, &out[n++]);
    }
    return n;
}

void sm_sched_load_done(SmSched *s, uint32_t slot, size_t inst, uint64_t cycle)
{
    SmSlot *w = &s->slots[slot];
    assert(w->warp && inst < w->pc && w->loads > 0);
    const AtsInst *in = core_warp_inst(w->warp, inst);
    for (uint8_t k = 0; k < in->ndst; k++) {
        if (in->dst[k] != ATS_ZERO_REG) {
            w->ready[in->dst[k]] = cycle + 1;
        }
    }
    w->loads--;
    w->fence_ready = cycle + 1;
    sched_wake(s, w);
    s->ctas[w->cta].loads--;
    sched_check_cta_done(s, w->cta);
}

bool sm_sched_take_done(SmSched *s, uint32_t *tag)
{
    if (s->done_head == s->done_end) {
        return false;
    }
    *tag = s->done[s->done_head++];
    return true;
}

uint64_t sm_sched_next_cycle_if(const SmSched *s, uint64_t from,
                                bool (*waits)(void *ctx, uint32_t slot,
                                              const AtsInst *in),
                                void *ctx)
{
    uint64_t best = UINT64_MAX;
    uint32_t S = s->cfg.schedulers;
    for (uint32_t k = 0; k < S; k++) {
        if (s->units[k].min_wake >= best) {
            continue; /* no slot of it wakes earlier */
        }
        for (uint32_t slot = k; slot < s->cfg.max_warps; slot += S) {
            uint64_t wake = s->wake[slot];
            if (wake >= best) {
                continue;
            }
            const AtsInst *in = s->next[slot];
            if (waits && sched_uses_pipe(in->cls) && waits(ctx, slot, in)) {
                continue;
            }
            uint64_t t = wake > from ? wake : from;
            if (t < best) {
                best = t;
                if (best == from) {
                    return best; /* nothing can be earlier */
                }
            }
        }
    }
    return best;
}

uint64_t sm_sched_next_cycle(const SmSched *s, uint64_t from)
{
    return sm_sched_next_cycle_if(s, from, NULL, NULL);
}

void sm_sched_hold(SmSched *s, uint32_t slot)
{
    SmSlot *w = &s->slots[slot];
    assert(w->warp && !w->held);
    w->held = true;
    s->held++;
    s->wake[slot] = UINT64_MAX;
}

void sm_sched_release_all(SmSched *s)
{
    for (uint32_t slot = 0; s->held > 0 && slot < s->cfg.max_warps; slot++) {
        SmSlot *w = &s->slots[slot];
        if (w->held) {
            w->held = false;
            s->held--;
            sched_wake(s, w);
        }
    }
}

const CoreWarp *sm_sched_warp(const SmSched *s, uint32_t slot)
{
    return slot < s->cfg.max_warps ? s->slots[slot].warp : NULL;
}
