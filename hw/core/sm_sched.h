/* The warp scheduler of one SM (SPEC.md 6.2): which instruction of which warp issues
 * in each cycle, with the scoreboard, barriers, fences and the end of warps and CTAs.
 * It times issue only; the caller (the sm block) executes what issues: it sends the
 * memory instructions, answers loads with sm_sched_load_done, sends the release of a
 * fence, and hands out finished CTAs' slots to new CTAs.
 *
 * Model:
 * - `schedulers` schedulers; warp slot s belongs to scheduler s mod schedulers. Each
 *   cycle each scheduler issues at most one instruction, the next in program order of
 *   the first ready warp in policy order: gto (the warp it issued last if ready, else
 *   the oldest by dispatch, then slot) or lrr (round robin over its slots, starting
 *   after the slot it issued last).
 * - Ready: no source or destination register pending (RAW and WAW on a scoreboard of
 *   ready cycles; R255 is never a dependence), not waiting at a barrier, a fence's
 *   loads answered, and for a global or local memory instruction or a fence the memory
 *   pipe accepts it (the mem_accept callback; its true answer commits the issue).
 * - Fixed-latency classes (ALU, shared memory, constant loads) issued at cycle c make
 *   their destinations ready at c + latency(class). Global and local loads and atomics
 *   with a result (LDG, LDL, ATOMG) make their destinations ready the cycle after the
 *   caller reports the last response (sm_sched_load_done). Stores and reductions (STG,
 *   STL, RED) are posted: nothing waits for them here.
 * - BAR: the warp waits until every unfinished warp of its CTA has reached it; all
 *   leave together and may issue again from the next cycle. MEMBAR issues once the
 *   warp's loads are answered, from the cycle after the last response (like a load's
 *   destinations); the caller sends the release.
 * - A CTA ends when all its warps have ended and its loads are answered; its slots
 *   then free and its tag is queued for sm_sched_take_done.
 *
 * Decisions:
 * - A warp ends when its last trace instruction issues, as in Accel-Sim
 *   (trace_shd_warp_t::trace_done): a predicated EXIT of some lanes may be followed by
 *   more instructions of the others; a well-formed warp ends with an EXIT.
 * - Latencies are per class, one value each (the ADD column of Accel-Sim's tables for
 *   int, fp32 and fp64; see sm_sched_config_default for the source).
 * - A CTA takes the lowest free slots, in warp order; every warp of a CTA shares the
 *   CTA's dispatch number, so gto's "oldest" is the earliest CTA, then the lowest slot.
 * - gto forgets its last warp when that warp's slot frees; lrr keeps its position.
 * - Global and local memory instructions and fences go through the memory pipe;
 *   shared-memory and constant accesses are served inside the SM at a fixed latency.
 * - The caller keeps each CTA (a CoreCta, core_cta.h) alive until the CTA is reported
 *   done. */
#ifndef MGTLM_HW_CORE_SM_SCHED_H
#define MGTLM_HW_CORE_SM_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/core_cta.h"
#include "kernel/error.h"

#define SM_SCHED_MAX_WARPS 1024

typedef enum SmPolicy { SM_POLICY_GTO, SM_POLICY_LRR } SmPolicy;

typedef struct SmSchedConfig {
    uint32_t schedulers; /* 1..max_warps */
    uint32_t max_warps;  /* warp slots, 1..SM_SCHED_MAX_WARPS */
    SmPolicy policy;
    /* Cycles from issue until the destinations are ready, for the fixed-latency
     * classes (ALU classes, LDS, STS, ATOMS, LDC); the other entries are not used. */
    uint32_t latency[ATS_CLASS_COUNT];
    /* The memory pipe, asked before a global or local memory instruction or a fence
     * issues: true takes the instruction (it issues this cycle), false leaves the warp
     * not ready this cycle. NULL: the pipe takes everything. */
    bool (*mem_accept)(void *ctx, uint32_t slot, const AtsInst *in);
    /* Whether the pipe may take anything in this cycle: false means mem_accept would
     * refuse every instruction, with no other effect, so it is not asked. Asked before
     * the cycle's first offer and again after each instruction it takes. NULL: only
     * mem_accept decides. */
    bool (*mem_open)(void *ctx);
    void *mem_ctx;
} SmSchedConfig;

/* What the caller must do with an issued instruction. */
typedef enum SmIssueKind {
    SM_ISSUE_FIXED,  /* fixed latency (ALU, shared, constant): nothing */
    SM_ISSUE_LOAD,   /* send it; call sm_sched_load_done when the last response is in */
    SM_ISSUE_POSTED, /* store or reduction: send it */
    SM_ISSUE_BAR,    /* barrier: nothing */
    SM_ISSUE_MEMBAR, /* fence, loads answered: send the release */
    SM_ISSUE_EXIT    /* exit of the instruction's lanes: nothing */
} SmIssueKind;

typedef struct SmIssue {
    uint32_t slot;
    uint32_t cta;      /* the tag given to sm_sched_add_cta */
    uint32_t warp;     /* index of the warp in its CTA */
    size_t inst;       /* index of the instruction in its warp */
    const AtsInst *in; /* borrowed from the CTA */
    SmIssueKind kind;
    bool warp_done; /* it was the warp's last instruction */
} SmIssue;

typedef struct SmSched SmSched;

/* Fills cfg with the defaults: 4 schedulers, 64 warps, gto, and the latencies SPEC.md
 * 6.1 names from Accel-Sim's tested Volta configuration (accel-sim/accel-sim-framework,
 * gpu-simulator/gpgpu-sim/configs/tested-cfgs/SM7_QV100/gpgpusim.config at commit
 * 7697f3fb9abc3a88005d993caaa088a1c025511a): ptx_opcode_latency_int 4,13,4,5,145,21,
 * _fp 4,13,4,5,39, _dp 8,19,8,8,330, _sfu 100, _tesnor 64, gpgpu_smem_latency 20,
 * gpgpu_l1_latency 20, gpgpu_num_sched_per_core 4, gpgpu_scheduler gto,
 * gpgpu_shader_core_pipeline 2048:32 (64 warps). */
void sm_sched_config_default(SmSchedConfig *cfg);

/* New scheduler with every slot free. Owned by the caller (free with sm_sched_free).
 * NULL (err says which) if schedulers or max_warps is out of range. */
SmSched *sm_sched_new(const SmSchedConfig *cfg, SimError *err);
void sm_sched_free(SmSched *s);

/* Free warp slots. */
uint32_t sm_sched_free_slots(const SmSched *s);

/* Dispatches CTA c (borrowed until reported done) under the caller's tag: its warps
 * take the lowest free slots. False, and nothing changes, if it has no warp or more
 * warps than sm_sched_free_slots(s). */
bool sm_sched_add_cta(SmSched *s, uint32_t tag, const CoreCta *c);

/* Runs cycle `cycle` (increasing from call to call): writes what issues to out (room
 * for `schedulers` entries, in scheduler order) and returns how many issued. */
size_t sm_sched_cycle(SmSched *s, uint64_t cycle, SmIssue *out);

/* The last response of load `inst` of the warp in `slot` (an SM_ISSUE_LOAD) arrived
 * at `cycle`: its destinations are ready at cycle + 1. */
void sm_sched_load_done(SmSched *s, uint32_t slot, size_t inst, uint64_t cycle);

/* Takes the tag of the earliest finished CTA not taken yet; false if none. */
bool sm_sched_take_done(SmSched *s, uint32_t *tag);

/* The earliest cycle >= from at which a warp could issue without any further
 * load_done (the memory pipe aside); UINT64_MAX if none can. Lets an event-driven
 * caller skip idle cycles. */
uint64_t sm_sched_next_cycle(const SmSched *s, uint64_t from);

/* As sm_sched_next_cycle, leaving out every warp whose next instruction uses the
 * memory pipe (a global or local memory instruction or a fence) and for which
 * waits(ctx, slot, in) is true: the caller knows the pipe will not take it before
 * some event of its own (the pipe busy, a translation outstanding), so it waits for
 * that event rather than for a cycle. */
uint64_t sm_sched_next_cycle_if(const SmSched *s, uint64_t from,
                                bool (*waits)(void *ctx, uint32_t slot,
                                              const AtsInst *in),
                                void *ctx);

/* The warp in `slot` waits for an event of the caller's (its pages' translations):
 * not ready, and left out of sm_sched_next_cycle, until sm_sched_release_all. May be
 * called from mem_accept. */
void sm_sched_hold(SmSched *s, uint32_t slot);

/* Ends every hold: those warps are ready again as their registers allow. */
void sm_sched_release_all(SmSched *s);

/* The warp in `slot` (borrowed from its CTA), NULL for a free slot. */
const CoreWarp *sm_sched_warp(const SmSched *s, uint32_t slot);

#endif
