/* Opcode classes of the Accel-Sim trace format (see accelsim_op.h).
 *
 * Decisions:
 * - The table lists the SASS mnemonics (Pascal to Hopper) that NVBit reports and
 *   Accel-Sim's opcode maps classify, grouped by the unit that executes them:
 *   integer and uniform-datapath ALU, fp32 (with the packed half-precision ops, which
 *   share the fp32 pipe), fp64, SFU (MUFU and the conversions F2F, F2I, I2F, F2FP,
 *   RRO), tensor, and control (branches, moves, special-register reads, votes,
 *   convergence barriers, nops: the int latency unless set apart). SHFL is an int op
 *   (Accel-Sim's int latency list has its own "shfl" entry, which the int class
 *   stands for).
 * - Generic LD, ST and ATOM are resolved per instruction by the first active lane's
 *   address, as Accel-Sim does (ats_op_resolve).
 * - A mnemonic not in the table (texture and surface ops, a newer architecture's
 *   additions) is executed as an int op: it keeps the warp's instruction count and
 *   dependences right, costs the int latency, and the reader counts it so that
 *   trace-info shows how much of a trace it is (AtsReader's unknown count). Its
 *   addresses, if the line has any, are checked and dropped (no class accesses memory
 *   for it).
 * - The table is sorted in strcmp order and searched by bisection (the unit test reads
 *   every entry from this file and looks it up, which an entry out of order fails).
 * - A generic atomic in the local window is global: local memory has no atomics. */
#include "hw/core/accelsim_op.h"

#include <string.h>

typedef struct AtsOpEntry {
    const char *name;
    AtsOpKind kind;
    AtsClass cls;
} AtsOpEntry;

static const AtsOpEntry ats_ops[] = {
    {"ATOM", ATS_OP_ATOMIC, ATS_INT},
    {"ATOMG", ATS_OP_FIXED, ATS_ATOMG},
    {"ATOMS", ATS_OP_FIXED, ATS_ATOMS},
    {"B2R", ATS_OP_FIXED, ATS_CONTROL},
    {"BAR", ATS_OP_FIXED, ATS_BAR},
    {"BFE", ATS_OP_FIXED, ATS_INT},
    {"BFI", ATS_OP_FIXED, ATS_INT},
    {"BMMA", ATS_OP_FIXED, ATS_TENSOR},
    {"BMOV", ATS_OP_FIXED, ATS_CONTROL},
    {"BMSK", ATS_OP_FIXED, ATS_INT},
    {"BPT", ATS_OP_FIXED, ATS_CONTROL},
    {"BRA", ATS_OP_FIXED, ATS_CONTROL},
    {"BREAK", ATS_OP_FIXED, ATS_CONTROL},
    {"BREV", ATS_OP_FIXED, ATS_INT},
    {"BRK", ATS_OP_FIXED, ATS_CONTROL},
    {"BRX", ATS_OP_FIXED, ATS_CONTROL},
    {"BSSY", ATS_OP_FIXED, ATS_CONTROL},
    {"BSYNC", ATS_OP_FIXED, ATS_CONTROL},
    {"CALL", ATS_OP_FIXED, ATS_CONTROL},
    {"CCTL", ATS_OP_FIXED, ATS_CONTROL},
    {"CCTLL", ATS_OP_FIXED, ATS_CONTROL},
    {"CONT", ATS_OP_FIXED, ATS_CONTROL},
    {"CS2R", ATS_OP_FIXED, ATS_CONTROL},
    {"CSET", ATS_OP_FIXED, ATS_INT},
    {"CSETP", ATS_OP_FIXED, ATS_INT},
    {"DADD", ATS_OP_FIXED, ATS_FP64},
    {"DEPBAR", ATS_OP_FIXED, ATS_CONTROL},
    {"DFMA", ATS_OP_FIXED, ATS_FP64},
    {"DMMA", ATS_OP_FIXED, ATS_TENSOR},
    {"DMNMX", ATS_OP_FIXED, ATS_FP64},
    {"DMUL", ATS_OP_FIXED, ATS_FP64},
    {"DSET", ATS_OP_FIXED, ATS_FP64},
    {"DSETP", ATS_OP_FIXED, ATS_FP64},
    {"ERRBAR", ATS_OP_FIXED, ATS_CONTROL},
    {"EXIT", ATS_OP_FIXED, ATS_EXIT},
    {"F2F", ATS_OP_FIXED, ATS_SFU},
    {"F2FP", ATS_OP_FIXED, ATS_SFU},
    {"F2I", ATS_OP_FIXED, ATS_SFU},
    {"FADD", ATS_OP_FIXED, ATS_FP32},
    {"FADD32I", ATS_OP_FIXED, ATS_FP32},
    {"FCHK", ATS_OP_FIXED, ATS_FP32},
    {"FCMP", ATS_OP_FIXED, ATS_FP32},
    {"FENCE", ATS_OP_FIXED, ATS_MEMBAR},
    {"FFMA", ATS_OP_FIXED, ATS_FP32},
    {"FFMA32I", ATS_OP_FIXED, ATS_FP32},
    {"FLO", ATS_OP_FIXED, ATS_INT},
    {"FMNMX", ATS_OP_FIXED, ATS_FP32},
    {"FMUL", ATS_OP_FIXED, ATS_FP32},
    {"FMUL32I", ATS_OP_FIXED, ATS_FP32},
    {"FRND", ATS_OP_FIXED, ATS_FP32},
    {"FSEL", ATS_OP_FIXED, ATS_FP32},
    {"FSET", ATS_OP_FIXED, ATS_FP32},
    {"FSETP", ATS_OP_FIXED, ATS_FP32},
    {"FSWZADD", ATS_OP_FIXED, ATS_FP32},
    {"HADD2", ATS_OP_FIXED, ATS_FP32},
    {"HADD2_32I", ATS_OP_FIXED, ATS_FP32},
    {"HFMA2", ATS_OP_FIXED, ATS_FP32},
    {"HFMA2_32I", ATS_OP_FIXED, ATS_FP32},
    {"HGMMA", ATS_OP_FIXED, ATS_TENSOR},
    {"HMMA", ATS_OP_FIXED, ATS_TENSOR},
    {"HMNMX2", ATS_OP_FIXED, ATS_FP32},
    {"HMUL2", ATS_OP_FIXED, ATS_FP32},
    {"HMUL2_32I", ATS_OP_FIXED, ATS_FP32},
    {"HSET2", ATS_OP_FIXED, ATS_FP32},
    {"HSETP2", ATS_OP_FIXED, ATS_FP32},
    {"I2F", ATS_OP_FIXED, ATS_SFU},
    {"I2I", ATS_OP_FIXED, ATS_INT},
    {"I2IP", ATS_OP_FIXED, ATS_INT},
    {"IABS", ATS_OP_FIXED, ATS_INT},
    {"IADD", ATS_OP_FIXED, ATS_INT},
    {"IADD3", ATS_OP_FIXED, ATS_INT},
    {"IADD32I", ATS_OP_FIXED, ATS_INT},
    {"ICMP", ATS_OP_FIXED, ATS_INT},
    {"IDP", ATS_OP_FIXED, ATS_INT},
    {"IDP4A", ATS_OP_FIXED, ATS_INT},
    {"IMAD", ATS_OP_FIXED, ATS_INT},
    {"IMADSP", ATS_OP_FIXED, ATS_INT},
    {"IMMA", ATS_OP_FIXED, ATS_TENSOR},
    {"IMNMX", ATS_OP_FIXED, ATS_INT},
    {"IMUL", ATS_OP_FIXED, ATS_INT},
    {"IMUL32I", ATS_OP_FIXED, ATS_INT},
    {"ISCADD", ATS_OP_FIXED, ATS_INT},
    {"ISCADD32I", ATS_OP_FIXED, ATS_INT},
    {"ISET", ATS_OP_FIXED, ATS_INT},
    {"ISETP", ATS_OP_FIXED, ATS_INT},
    {"JMP", ATS_OP_FIXED, ATS_CONTROL},
    {"JMX", ATS_OP_FIXED, ATS_CONTROL},
    {"KILL", ATS_OP_FIXED, ATS_CONTROL},
    {"LD", ATS_OP_LOAD, ATS_INT},
    {"LDC", ATS_OP_FIXED, ATS_LDC},
    {"LDG", ATS_OP_FIXED, ATS_LDG},
    {"LDL", ATS_OP_FIXED, ATS_LDL},
    {"LDS", ATS_OP_FIXED, ATS_LDS},
    {"LDSM", ATS_OP_FIXED, ATS_LDS},
    {"LEA", ATS_OP_FIXED, ATS_INT},
    {"LEA_HI", ATS_OP_FIXED, ATS_INT},
    {"LOP", ATS_OP_FIXED, ATS_INT},
    {"LOP3", ATS_OP_FIXED, ATS_INT},
    {"LOP32I", ATS_OP_FIXED, ATS_INT},
    {"MATCH", ATS_OP_FIXED, ATS_INT},
    {"MEMBAR", ATS_OP_FIXED, ATS_MEMBAR},
    {"MOV", ATS_OP_FIXED, ATS_CONTROL},
    {"MOV32I", ATS_OP_FIXED, ATS_CONTROL},
    {"MUFU", ATS_OP_FIXED, ATS_SFU},
    {"NANOSLEEP", ATS_OP_FIXED, ATS_CONTROL},
    {"NOP", ATS_OP_FIXED, ATS_CONTROL},
    {"P2R", ATS_OP_FIXED, ATS_INT},
    {"PBK", ATS_OP_FIXED, ATS_CONTROL},
    {"PCNT", ATS_OP_FIXED, ATS_CONTROL},
    {"PEXIT", ATS_OP_FIXED, ATS_CONTROL},
    {"PLONGJMP", ATS_OP_FIXED, ATS_CONTROL},
    {"PLOP3", ATS_OP_FIXED, ATS_INT},
    {"PMTRAP", ATS_OP_FIXED, ATS_CONTROL},
    {"POPC", ATS_OP_FIXED, ATS_INT},
    {"PRET", ATS_OP_FIXED, ATS_CONTROL},
    {"PRMT", ATS_OP_FIXED, ATS_INT},
    {"PSET", ATS_OP_FIXED, ATS_INT},
    {"PSETP", ATS_OP_FIXED, ATS_INT},
    {"R2B", ATS_OP_FIXED, ATS_CONTROL},
    {"R2P", ATS_OP_FIXED, ATS_INT},
    {"R2UR", ATS_OP_FIXED, ATS_INT},
    {"RED", ATS_OP_FIXED, ATS_RED},
    {"REDUX", ATS_OP_FIXED, ATS_INT},
    {"RET", ATS_OP_FIXED, ATS_CONTROL},
    {"RRO", ATS_OP_FIXED, ATS_SFU},
    {"RTT", ATS_OP_FIXED, ATS_CONTROL},
    {"S2R", ATS_OP_FIXED, ATS_CONTROL},
    {"S2UR", ATS_OP_FIXED, ATS_CONTROL},
    {"SEL", ATS_OP_FIXED, ATS_INT},
    {"SGXT", ATS_OP_FIXED, ATS_INT},
    {"SHF", ATS_OP_FIXED, ATS_INT},
    {"SHFL", ATS_OP_FIXED, ATS_INT},
    {"SHL", ATS_OP_FIXED, ATS_INT},
    {"SHR", ATS_OP_FIXED, ATS_INT},
    {"SSY", ATS_OP_FIXED, ATS_CONTROL},
    {"ST", ATS_OP_STORE, ATS_INT},
    {"STG", ATS_OP_FIXED, ATS_STG},
    {"STL", ATS_OP_FIXED, ATS_STL},
    {"STS", ATS_OP_FIXED, ATS_STS},
    {"SYNC", ATS_OP_FIXED, ATS_CONTROL},
    {"UBMSK", ATS_OP_FIXED, ATS_INT},
    {"UBREV", ATS_OP_FIXED, ATS_INT},
    {"UFLO", ATS_OP_FIXED, ATS_INT},
    {"UIADD3", ATS_OP_FIXED, ATS_INT},
    {"UIMAD", ATS_OP_FIXED, ATS_INT},
    {"UISETP", ATS_OP_FIXED, ATS_INT},
    {"ULDC", ATS_OP_FIXED, ATS_LDC},
    {"ULEA", ATS_OP_FIXED, ATS_INT},
    {"ULOP3", ATS_OP_FIXED, ATS_INT},
    {"UMOV", ATS_OP_FIXED, ATS_INT},
    {"UP2UR", ATS_OP_FIXED, ATS_INT},
    {"UPOPC", ATS_OP_FIXED, ATS_INT},
    {"UPRMT", ATS_OP_FIXED, ATS_INT},
    {"UR2UP", ATS_OP_FIXED, ATS_INT},
    {"USEL", ATS_OP_FIXED, ATS_INT},
    {"USGXT", ATS_OP_FIXED, ATS_INT},
    {"USHF", ATS_OP_FIXED, ATS_INT},
    {"VABSDIFF", ATS_OP_FIXED, ATS_INT},
    {"VABSDIFF4", ATS_OP_FIXED, ATS_INT},
    {"VOTE", ATS_OP_FIXED, ATS_CONTROL},
    {"VOTEU", ATS_OP_FIXED, ATS_CONTROL},
    {"WARPSYNC", ATS_OP_FIXED, ATS_CONTROL},
    {"XMAD", ATS_OP_FIXED, ATS_INT},
    {"YIELD", ATS_OP_FIXED, ATS_CONTROL},
};

static const char *const ats_class_names[ATS_CLASS_COUNT] = {
    [ATS_INT] = "int",     [ATS_FP32] = "fp32",     [ATS_FP64] = "fp64",
    [ATS_SFU] = "sfu",     [ATS_TENSOR] = "tensor", [ATS_CONTROL] = "control",
    [ATS_LDG] = "ldg",     [ATS_STG] = "stg",       [ATS_ATOMG] = "atomg",
    [ATS_RED] = "red",     [ATS_LDS] = "lds",       [ATS_STS] = "sts",
    [ATS_ATOMS] = "atoms", [ATS_LDL] = "ldl",       [ATS_STL] = "stl",
    [ATS_LDC] = "ldc",     [ATS_BAR] = "bar",       [ATS_MEMBAR] = "membar",
    [ATS_EXIT] = "exit",
};

AtsOpKind ats_op_lookup(const char *opcode, AtsClass *cls)
{
    char mnemonic[32];
    size_t len = strcspn(opcode, ".");
    *cls = ATS_INT;
    if (len >= sizeof mnemonic) {
        return ATS_OP_UNKNOWN;
    }
    memcpy(mnemonic, opcode, len);
    mnemonic[len] = '\0';
    size_t lo = 0, hi = sizeof ats_ops / sizeof ats_ops[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(mnemonic, ats_ops[mid].name);
        if (c == 0) {
            *cls = ats_ops[mid].cls;
            return ats_ops[mid].kind;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return ATS_OP_UNKNOWN;
}

AtsClass ats_op_resolve(AtsOpKind kind, const AtsKernelInfo *k, bool any_lane,
                        uint64_t addr)
{
    static const AtsClass by_space[3][3] = {
        /* shared, local, global */
        [0] = {ATS_LDS, ATS_LDL, ATS_LDG},
        [1] = {ATS_STS, ATS_STL, ATS_STG},
        [2] = {ATS_ATOMS, ATS_ATOMG, ATS_ATOMG},
    };
    int row = kind == ATS_OP_LOAD ? 0 : kind == ATS_OP_STORE ? 1 : 2;
    int space = 2;
    if (any_lane) {
        if (k->shmem_base == 0 || k->local_base == 0) {
            space = 0;
        } else if (addr >= k->shmem_base && addr < k->local_base) {
            space = 0;
        } else if (addr >= k->local_base && addr - k->local_base < ATS_LOCAL_WINDOW) {
            space = 1;
        }
    }
    return by_space[row][space];
}

bool ats_class_needs_addrs(AtsClass cls)
{
    return cls >= ATS_LDG && cls <= ATS_STL;
}

bool ats_class_is_global(AtsClass cls)
{
    return cls == ATS_LDG || cls == ATS_STG || cls == ATS_ATOMG || cls == ATS_RED;
}

bool ats_class_leaves_sm(AtsClass cls)
{
    return ats_class_is_global(cls) || cls == ATS_LDL || cls == ATS_STL;
}

const char *ats_class_name(AtsClass cls)
{
    return cls < ATS_CLASS_COUNT ? ats_class_names[cls] : "?";
}
