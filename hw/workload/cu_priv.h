/* Private to the cu block (cu.c) and its cross-instance check (cu_agree.c): the
 * state struct and its enums. Nothing outside hw/workload/cu*.c includes this. */
#ifndef MGTLM_HW_WORKLOAD_CU_PRIV_H
#define MGTLM_HW_WORKLOAD_CU_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/lib/rng.h"
#include "hw/lib/sparse.h"
#include "hw/workload/cu_halo.h"
#include "hw/workload/cu_pattern.h"
#include "hw/workload/cu_shared.h"
#include "hw/workload/cu_trace.h"
#include "hw/workload/cu_written.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"
#include "kernel/idmap.h"

enum {
    CU_NONE,
    CU_TRACE,
    CU_UNIFORM,
    CU_STRIDED,
    CU_STREAM,
    CU_TILED,
    CU_SCATTER,
    CU_SHARED,
    CU_HALO
};

/* What the cu issues next (see the header comment for the sequence). */
enum {
    CU_PH_BEGIN,        /* kernel_begin of the current kernel */
    CU_PH_WORK,         /* the accesses of the current kernel (or of the whole run) */
    CU_PH_RELEASE,      /* release, after every response has arrived */
    CU_PH_END,          /* kernel_end */
    CU_PH_VERIFY_START, /* sort the record of written bytes */
    CU_PH_VERIFY,       /* read back every written byte */
    CU_PH_DONE
};

typedef struct CuSlot {
    TxnCmd cmd;
    uint64_t addr;
    uint32_t len;
    SimTime issued;
    uint8_t *expect; /* len bytes expected in the response (reads, atomics) */
} CuSlot;

typedef struct CuReq {
    TxnCmd cmd;
    uint64_t addr;
    uint32_t len;
    bool posted;
    uint32_t kernel_hint;
    SimTime ready;
    const uint8_t *data;     /* NULL = PRNG data (writes, atomics) */
    const uint8_t *be;       /* NULL = all bytes */
    int64_t vk;              /* >= 0: write data v(addr, vk) */
    int64_t ek;              /* >= 0: a shared read expecting the bytes of kernel ek */
    bool drain;              /* send only when no response is outstanding */
    bool verify;             /* a verify-phase read */
    const CuThread *threads; /* wavefront sent whole (param wavefront), or NULL */
    size_t nthreads;
} CuReq;

typedef struct Cu {
    Block base;
    /* parameters */
    int pattern;
    char *trace;
    uint64_t count, outstanding, size;
    SimTime gap;
    uint64_t seed, footprint;
    int target;
    uint64_t stride, tile, reuse;
    double write_frac;
    uint64_t line;
    int fill;
    uint64_t cus;
    bool posted;
    uint64_t kernels;
    SimTime kernel_time;
    uint64_t hint;
    double read_only_frac;
    uint64_t halo;
    bool verify;
    SimTime verify_delay;
    bool wavefront;
    uint64_t barrier; /* 1: port bar[0] to a kbar (pattern shared) */

    Port *mem;
    Port *bar;       /* bar[0], NULL without barrier */
    Egress bar_out;  /* arrive commands (barrier only) */
    uint64_t opened; /* the last kernel a kbar opened (0: only kernel 0) */
    int own, unit;
    uint32_t max_len; /* largest request */
    Rng rng;
    CuPattern pat;
    CuShared sh;
    bool sh_init;
    CuHalo hl;
    CuWritten written; /* bytes written, for the verify phase */
    bool kernel_mode;
    int phase;
    uint32_t kernel;   /* current kernel */
    uint64_t kends;    /* kernel_end sent so far */
    SimTime last_ctl;  /* send time of the last release or kernel_end */
    SimTime verify_at; /* earliest send of the verify reads */
    CuTrace tr;
    bool tr_open;
    CuTraceRec rec;
    bool rec_pending; /* rec holds a plain (non-wavefront) request not yet issued */
    CuLines lines;
    size_t line_next;   /* next line of the current wavefront */
    uint64_t generated; /* synthetic accesses of the current kernel */
    bool have_req;
    CuReq req;
    Txn *held; /* built, refused by the port, waiting for on_free */
    uint32_t held_slot;
    SimTime next_issue;
    SparseStore *shadow;
    CuSlot *slots;
    uint32_t *free_slots;
    uint32_t nfree;
    IdMap ids;        /* txn id -> slot */
    uint8_t *scratch; /* max_len bytes */
    SimEvent ev;

    uint64_t *issued, *completed, *reads, *writes, *atomics, *controls, *remote_reads;
    bool reported; /* the first data error was described on stderr */
    uint64_t *data_errors, *status_errors, *resp_unmatched, *trace_errors, *finish_ps;
    uint64_t *kernels_done, *verify_reads, *reads_skipped, *overrun_errors, *unanswered;
    StatHist *read_latency;
    double *read_latency_mean;
} Cu;

#define CU_NO_SLOT UINT32_MAX

/* Names of the patterns, indexed by the enum above (NULL-terminated). */
extern const char *const cu_patterns[];

/* BlockType.agree of the cu: every cu of pattern shared agrees with the others
 * (cu_agree.c; reads only). */
bool cu_agree(Block *const *cus, size_t n, size_t *bad, SimError *err);

#endif
