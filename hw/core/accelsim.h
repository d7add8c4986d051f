/* Accel-Sim NVBit tracer format (SPEC.md 6.1): the parsed form of a trace that the
 * reader (accelsim_read.c) produces and the GPU cores consume.
 *
 * A trace folder holds kernelslist.g (allocations and kernel launches in program order)
 * and one kernel-<n>.traceg per launch (a .gz variant of any file is read through zlib).
 * A kernel file is a header and then thread blocks (CTAs); the reader streams it one CTA
 * at a time, so memory is bounded by the largest CTA, never by the trace.
 *
 * Decisions:
 * - The opcode's mnemonic (before the first '.') is classified by the reader
 *   (accelsim_op.c): the class is a property of the format's opcodes, the latency of a
 *   class is a parameter of the core that executes it.
 * - Register numbers are kept as written (R0..R255); R255 is the zero register and is
 *   never a dependence (ATS_ZERO_REG), which the consumer checks.
 * - The addresses of a memory instruction are expanded by the reader from whichever of
 *   the three address modes the line used, one per active lane in lane order, into the
 *   warp's address pool (AtsWarp.addrs), so consumers never see the modes. */
#ifndef MGTLM_HW_CORE_ACCELSIM_H
#define MGTLM_HW_CORE_ACCELSIM_H

#include <stddef.h>
#include <stdint.h>

#define ATS_LANES 32
/* Most destination or source registers one instruction lists. */
#define ATS_MAX_REGS 8
/* The zero register: reads as 0, writes are discarded, never a dependence. */
#define ATS_ZERO_REG 255
/* Most registers per thread a kernel header may give (-nregs): R0..R254. */
#define ATS_NREGS_MAX 255

typedef enum AtsClass {
    ATS_INT,     /* integer ALU (IADD, IMAD, LOP3, SHF, ISETP, ...) */
    ATS_FP32,    /* FADD, FFMA, FMUL, ... */
    ATS_FP64,    /* DADD, DFMA, DMUL, ... */
    ATS_SFU,     /* MUFU and other special functions */
    ATS_TENSOR,  /* HMMA, IMMA, ... */
    ATS_CONTROL, /* BRA, NOP, S2R, CS2R, MOV, ... (the int latency unless set apart) */
    ATS_LDG,     /* global load (also a generic LD resolved to global) */
    ATS_STG,     /* global store (posted) */
    ATS_ATOMG,   /* global atomic with a result */
    ATS_RED,     /* global reduction (posted) */
    ATS_LDS,     /* shared-memory load (LDS, LDSM, LD in the shared window) */
    ATS_STS,     /* shared-memory store */
    ATS_ATOMS,   /* shared-memory atomic */
    ATS_LDL,     /* local load (the SM's own GPU, private) */
    ATS_STL,     /* local store */
    ATS_LDC,     /* constant load (fixed latency) */
    ATS_BAR,     /* CTA barrier */
    ATS_MEMBAR,  /* memory fence */
    ATS_EXIT,    /* end of the warp */
    ATS_CLASS_COUNT
} AtsClass;

typedef struct AtsInst {
    uint64_t pc;
    uint32_t mask; /* active lanes, bit i = lane i */
    uint32_t line; /* source line with lineinfo, else 0 */
    AtsClass cls;
    uint8_t ndst, nsrc;
    uint8_t dst[ATS_MAX_REGS];
    uint8_t src[ATS_MAX_REGS];
    uint32_t width; /* bytes per active lane; 0: not a memory access */
    uint32_t
        addr_off; /* first of popcount(mask) addresses in AtsWarp.addrs (width > 0) */
} AtsInst;

typedef struct AtsWarp {
    size_t ninst;
    AtsInst *inst; /* program order */
    size_t naddrs;
    uint64_t *addrs; /* the memory instructions' lane addresses, in their order */
} AtsWarp;

/* One thread block as the trace lists it; owned by whoever holds it (ats_cta_free). */
typedef struct AtsCta {
    uint32_t x, y, z; /* "thread block = x,y,z" */
    size_t nwarps;
    AtsWarp *warps; /* warp w = warps[w] */
} AtsCta;

/* A kernel file's header (SPEC.md 6.1). */
typedef struct AtsKernelInfo {
    char name[256];   /* "-kernel name", truncated names are refused by the reader */
    uint32_t id;      /* "-kernel id" */
    uint32_t grid[3]; /* "-grid dim = (x,y,z)" */
    uint32_t block[3];
    uint32_t shmem; /* bytes of shared memory per CTA */
    uint32_t nregs; /* registers per thread */
    uint64_t shmem_base, local_base;
    uint32_t binary_version;
    uint32_t tracer_version; /* 3 or 4 */
    int lineinfo;            /* 1: instruction lines start with a source line */
} AtsKernelInfo;

#endif
