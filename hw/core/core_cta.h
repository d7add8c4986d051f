/* A CTA on its way from the dispatcher to an SM, and as the SM holds it (the `cta`
 * message of core_msg.h; docs/cores.md, "Kernels"): each distinct instruction of the
 * thread block once, in a table its warps index.
 *
 * A trace repeats an instruction in every warp that runs it: the copies differ at most
 * in their active masks and, for accesses that leave the SM, in where their addresses
 * start. So the message and the SM keep each distinct instruction once (CORE_INST_BYTES)
 * and each warp a list of 4-byte table indices: a twelfth of the bytes of a copy per
 * repeated instruction, in messages, in resident CTAs and in what the warp scheduler
 * reads per issue; 4 bytes more where every instruction is distinct
 * (docs/performance.md, "Stop 34: each distinct instruction of a CTA once").
 *
 * Message layout (little-endian, fixed-width, the same on every host):
 *   u32 x, y, z, nwarps, ntable;
 *   per warp: u64 ninst, u64 naddrs;
 *   ntable instructions, CORE_INST_BYTES each: u64 pc, u32 mask, u32 line, u32 width,
 *   u32 addr_off, u8 cls, u8 ndst, u8 nsrc, u8 0, u8 dst[8], u8 src[8], u8 0[4];
 *   then per warp: ninst u32 table indices (program order), then its naddrs u64
 *   addresses.
 *
 * Decisions:
 * - Only the accesses that leave the SM (ats_class_leaves_sm) keep their width and
 *   addresses; every other instruction goes with width 0 and no address: the SM serves
 *   shared-memory and constant accesses at a fixed latency, and their addresses were
 *   most of a message's bytes (docs/performance.md, "Executing traces").
 * - An instruction's addr_off counts in the addresses of the warp that runs it, so an
 *   entry serves every warp whose copy has the same bytes, addr_off included.
 * - Two instructions share an entry only if all their CORE_INST_BYTES encoded bytes
 *   are equal: the SM sees exactly the instructions the trace gave. The encoder finds
 *   an earlier equal instruction through a memo of CORE_CTA_MEMO slots chosen by the
 *   PC, each the last entry made for a PC of that slot; a miss only costs a duplicate
 *   entry, never a wrong one, and the memo is the same for the same CTA, so a message
 *   is a function of its CTA. */
#ifndef MGTLM_HW_CORE_CORE_CTA_H
#define MGTLM_HW_CORE_CORE_CTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

#define CORE_INST_BYTES 48
#define CORE_CTA_MEMO 1024

/* One warp of a CoreCta; everything borrowed from the CTA. */
typedef struct CoreWarp {
    const AtsInst *table; /* the CTA's instructions */
    const uint32_t *idx;  /* ninst indices into table, program order */
    size_t ninst;
    const uint64_t *addrs; /* the addresses of its accesses that leave the SM */
    size_t naddrs;
} CoreWarp;

/* Instruction i (< ninst) of w. */
static inline const AtsInst *core_warp_inst(const CoreWarp *w, size_t i)
{
    return &w->table[w->idx[i]];
}

/* A CTA as an SM holds it; freed with core_cta_free. */
typedef struct CoreCta {
    uint32_t x, y, z;
    size_t nwarps;
    CoreWarp *warps;
    size_t ntable;
    const AtsInst *table;
    void *mem; /* the one allocation behind warps, table, indices and addresses */
} CoreCta;

/* The encoder's work space for one CTA after another (a dispatcher keeps one). */
typedef struct CoreCtaPlan {
    uint8_t *table; /* ntable encoded instructions */
    size_t ntable, table_cap;
    uint32_t *idx; /* every instruction's entry, warp after warp */
    size_t idx_cap;
    uint64_t *naddrs; /* per warp: the addresses its message carries */
    size_t naddrs_cap;
    size_t bytes; /* of the message */
    uint32_t gen; /* memo slots of other generations are empty */
    struct {
        uint64_t pc;
        uint32_t entry, gen;
    } memo[CORE_CTA_MEMO];
} CoreCtaPlan;

/* An empty plan, not allocated until used. */
void core_cta_plan_init(CoreCtaPlan *p);
void core_cta_plan_free(CoreCtaPlan *p);
/* Interns cta's instructions into p (cta's previous plan is forgotten) and returns
 * the bytes of its message. */
size_t core_cta_plan(CoreCtaPlan *p, const AtsCta *cta);
/* Writes cta, planned by the last core_cta_plan(p, cta), into out[p->bytes]. */
void core_cta_encode(const CoreCtaPlan *p, const AtsCta *cta, uint8_t *out);
/* Reads a CTA from data[len] into *cta (the caller frees it with core_cta_free); false
 * (err says why, *cta untouched) if data is not a well-formed encoding: sizes that do
 * not add up, a class out of range, more than ATS_MAX_REGS registers, an index outside
 * the table, or an address range outside its warp's addresses. */
bool core_cta_decode(const uint8_t *data, size_t len, CoreCta *cta, SimError *err);
void core_cta_free(CoreCta *cta);
/* The message of cta, planned on its own, in a new buffer (the caller frees it) of
 * *len bytes (tests and benchmarks; a dispatcher keeps one plan for all its CTAs). */
uint8_t *core_cta_message(const AtsCta *cta, size_t *len);
/* cta as an SM would hold it after its message (tests and benchmarks). */
void core_cta_from(const AtsCta *cta, CoreCta *out);

#endif
