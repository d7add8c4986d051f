/* The state of the sm block (hw/core/sm.c), shared by its files: sm.c (type,
 * parameters, stats, the cycle process), sm_mem.c (translation table, memory pipe,
 * requests and responses on mem) and sm_ctl.c (launch, cta, finish and the xlat
 * answers on ctl). Not a public interface: other blocks reach an sm only through its
 * ports. */
#ifndef MGTLM_HW_CORE_SM_PRIV_H
#define MGTLM_HW_CORE_SM_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/core_msg.h"
#include "hw/core/sm_coalesce.h"
#include "hw/core/sm_occupancy.h"
#include "hw/core/sm_sched.h"
#include "hw/core/trace_scan.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"
#include "kernel/idmap.h"

/* Latency parameters, in the order of the lat_* keys. */
enum {
    SM_LAT_INT,
    SM_LAT_FP32,
    SM_LAT_FP64,
    SM_LAT_SFU,
    SM_LAT_TENSOR,
    SM_LAT_CONTROL,
    SM_LAT_SHARED,
    SM_LAT_CONST,
    SM_LAT_COUNT
};

/* A translation-table value while the page's xlat is outstanding (a translated
 * page's value is its physical address, a multiple of the page size >= 128). */
#define SM_XLAT_PENDING 1u

/* One memory instruction with transactions outstanding. */
/* Which writes a finish flushes with a read (param `flush`). */
enum { SM_FLUSH_POSTED, SM_FLUSH_WRITES };

typedef struct SmMemRec {
    uint32_t slot;  /* warp slot (sm_sched) */
    size_t inst;    /* instruction index in the warp */
    uint32_t left;  /* transactions not answered yet */
    SimTime issued; /* issue time (read latency) */
    bool load;      /* report the last answer with sm_sched_load_done */
} SmMemRec;

/* A resident CTA: its instructions (owned) and the answer to its cta request, sent
 * when it ends (owned). */
typedef struct SmCtaRec {
    bool used;
    CoreCta cta;
    Txn *resp;
} SmCtaRec;

typedef struct Sm {
    Block base;
    /* parameters */
    uint64_t schedulers;
    int policy;
    uint64_t max_warps, max_ctas, regs, shmem;
    uint64_t lat[SM_LAT_COUNT];
    uint64_t line;
    bool wavefront, posted;
    uint64_t page;
    unsigned page_shift; /* log2(page) */
    bool check;          /* the data check (sm_check.c) */
    bool spool;          /* its scan spools the blocks' messages (trace_spool.h) */
    int flush;           /* SM_FLUSH_POSTED or SM_FLUSH_WRITES (sm_ctl.c) */
    int fill;            /* FillKind of the memories */
    /* ports and queues */
    Port *mem, *ctl;
    Egress memq;      /* requests and controls on mem, external wake (the tick) */
    Egress ctlq;      /* xlat requests and answers on ctl */
    bool mem_blocked; /* mem refused memq's head: wait for on_free */
    SimEvent tick;
    /* issue */
    SmSched *sched;
    SmIssue *issued; /* room for `schedulers` entries */
    bool ran;        /* a cycle has run: last_cycle is valid */
    uint64_t last_cycle;
    bool pipe_taken;    /* the memory pipe took an instruction this cycle */
    uint64_t pipe_next; /* first cycle a new transaction may leave */
    SmLineReq lines[SM_COALESCE_MAX_REQS];
    /* translation: key (page number << 1 | space) -> paddr or SM_XLAT_PENDING */
    IdMap pages;
    IdMap xlat_ids; /* xlat request id -> key */
    /* memory requests: id -> index in recs */
    IdMap reqs;
    SmMemRec *recs;
    uint32_t *rec_free;
    uint32_t nrecs, recs_cap, nfree_recs;
    /* CTAs and kernels */
    SmCtaRec *ctas; /* max_ctas records; a CTA's tag is its index */
    uint32_t resident;
    SimTime busy_since;
    bool in_kernel;
    CoreLaunch launch;
    uint64_t kernel_insts;
    Txn *finish_req; /* owned reference while the finish waits */
    /* writes of the kernel that the finish flushes (`flush`): bit g = some went to
     * GPU g (GPUs < 64, as the platform's), the last one's address per GPU; flushed:
     * the flush reads of the finish are out (sm_ctl.c) */
    uint64_t posted_gpus;
    uint64_t posted_last[64];
    bool flushed;
    /* data check (sm_check.c): the run's scan (borrowed until sm_check_stop; NULL
     * without a trace; the check is on with it and `check`, sm_checking), physical
     * page -> virtual page, read id -> the read's packed address and length, or the
     * read itself (an owned reference: a wavefront) */
    const TraceScan *scan;
    IdMap rpages;
    IdMap checks;
    /* stats */
    uint64_t *warp_insts, *ctas_done, *kernels, *line_reqs, *reads, *writes, *atomics;
    uint64_t *xlats, *busy_ps, *atomic_width, *flush_reads;
    uint64_t *status_errors, *resp_unmatched, *ctl_errors, *data_errors;
    StatHist *read_latency;
} Sm;

/* sm.c: runs the cycle process at `cycle` or the first cycle after it that can
 * still run (never one that ran, never one in the past). */
void sm_wake(Sm *s, uint64_t cycle);
/* The cycle that contains `now` (floor). */
uint64_t sm_cycle_of(const Sm *s, SimTime now);

/* sm_mem.c: the scheduler's memory pipe (SmSchedConfig: mem_open, mem_accept). */
bool sm_mem_open(void *ctx);
bool sm_mem_accept(void *ctx, uint32_t slot, const AtsInst *in);
/* Sends what an issued memory instruction (load, posted, fence) makes. */
void sm_mem_issue(Sm *s, const SmIssue *is, uint64_t cycle);
/* Queues a control transaction (release, kernel_begin, kernel_end) on mem now. */
void sm_mem_control(Sm *s, TxnCmd cmd, uint32_t hint);
/* Sends a one-byte read of paddr (a finish's flush read); it holds no warp. */
void sm_mem_flush_read(Sm *s, uint64_t paddr);
/* Sends what is due in memq; records whether mem refused. */
void sm_mem_pump(Sm *s);
void sm_mem_recv(Sm *s);
/* Stores an xlat answer: page key -> paddr; false if id names no xlat. */
bool sm_mem_translated(Sm *s, uint64_t id, uint64_t paddr);
void sm_mem_clear(Sm *s);

/* sm_check.c */
/* Takes the trace's scan when the check is on (false: err says why). */
bool sm_check_start(Sm *s, SimError *err);
/* Records the xlat answer paddr of page key (sm_mem.c's key) for the check. */
void sm_check_translated(Sm *s, uint64_t key, uint64_t paddr);
/* Keeps a read the sm is about to send until its response. */
void sm_check_sent(Sm *s, Txn *t);
/* Checks the bytes of a response to a kept read. */
void sm_check_resp(Sm *s, const Txn *resp);
/* Drops the kept reads and translations (reset); stop also gives the scan back. */
void sm_check_clear(Sm *s);
void sm_check_stop(Sm *s);

/* sm_ctl.c */
void sm_ctl_recv(Sm *s);
/* Answers the CTAs the scheduler reports ended and a finish that can be answered. */
void sm_ctl_progress(Sm *s);
void sm_ctl_clear(Sm *s);

/* The sm's parameters max_ctas, max_warps, regs and shmem (sm_occupancy.h). */
static inline SmResources sm_resources(const Sm *s)
{
    return (SmResources){.max_ctas = (uint32_t)s->max_ctas,
                         .max_warps = (uint32_t)s->max_warps,
                         .regs = (uint32_t)s->regs,
                         .shmem = (uint32_t)s->shmem};
}

#endif
