/* The class of an Accel-Sim trace opcode (SPEC.md 6.1): a table from the SASS mnemonic
 * (the opcode before its first '.') to an AtsClass, and the address windows that
 * resolve a generic LD or ST (and ATOM) to shared, local or global memory. */
#ifndef MGTLM_HW_CORE_ACCELSIM_OP_H
#define MGTLM_HW_CORE_ACCELSIM_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/accelsim.h"

/* Bytes of the local window above "-local mem base_addr" (GPGPU-sim 4's
 * LOCAL_MEM_SIZE_MAX, the window Accel-Sim resolves a generic access against). */
#define ATS_LOCAL_WINDOW ((uint64_t)8 * 1024)

/* How a mnemonic is classified. */
typedef enum AtsOpKind {
    ATS_OP_FIXED,   /* always its class */
    ATS_OP_LOAD,    /* generic load: LDS, LDL or LDG by the first active address */
    ATS_OP_STORE,   /* generic store: STS, STL or STG */
    ATS_OP_ATOMIC,  /* generic atomic: ATOMS in the shared window, else ATOMG */
    ATS_OP_UNKNOWN, /* not in the table: ATS_INT, counted by the reader */
} AtsOpKind;

/* Looks up the mnemonic of opcode (the text before the first '.', or all of it):
 * returns its kind and, for ATS_OP_FIXED, its class in *cls (ATS_INT otherwise). */
AtsOpKind ats_op_lookup(const char *opcode, AtsClass *cls);

/* The class of a generic access of kind (ATS_OP_LOAD, _STORE, _ATOMIC) whose first
 * active lane's address is addr, in the windows of the kernel header k:
 * shared [shmem_base, local_base), local [local_base, local_base + ATS_LOCAL_WINDOW),
 * global elsewhere; every access is shared when either base is 0 (Accel-Sim's rule for
 * a trace without the bases). An access with no active lane is global. */
AtsClass ats_op_resolve(AtsOpKind kind, const AtsKernelInfo *k, bool any_lane,
                        uint64_t addr);

/* True for the classes that access memory through addresses (all the memory classes
 * but ATS_LDC, whose addresses are optional). */
bool ats_class_needs_addrs(AtsClass cls);
/* True for ATS_LDG, ATS_STG, ATS_ATOMG and ATS_RED. */
bool ats_class_is_global(AtsClass cls);
/* True for the global and local accesses (ats_class_is_global, ATS_LDL, ATS_STL): the
 * classes whose accesses leave the SM, the only ones whose addresses the cores use
 * after the trace is read (the cta message, the scan's counts). */
bool ats_class_leaves_sm(AtsClass cls);
/* Lower-case name of a class ("int", "ldg", ...), as trace-info prints it. */
const char *ats_class_name(AtsClass cls);

#endif
