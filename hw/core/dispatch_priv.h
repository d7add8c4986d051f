/* The dispatch block's state (dispatch.c) and the reading of a kernel's CTAs, from the
 * trace's text or the scan's spool (dispatch_read.c). Private to those two files. */
#ifndef MGTLM_HW_CORE_DISPATCH_PRIV_H
#define MGTLM_HW_CORE_DISPATCH_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim_read.h"
#include "hw/core/core_cta.h"
#include "hw/core/core_kernels.h"
#include "hw/core/cta_map.h"
#include "hw/core/ladm.h"
#include "hw/core/ladm_hints.h"
#include "hw/core/trace_scan.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"

/* What the dispatcher knows of one SM during a kernel. */
typedef struct DispSm {
    bool launched; /* answered the launch */
    bool finished; /* answered the finish */
    uint32_t room; /* CTAs it holds (its launch answer) */
    uint32_t busy; /* CTAs it runs now */
    Port *port;    /* borrowed */
    Egress out;    /* to the SM */
} DispSm;

typedef struct Disp {
    Block base;
    uint64_t sms;
    int cta_policy;
    SimTime interval;
    uint64_t page;
    CoreKernels ks;
    LadmAlloc *allocs; /* ks's allocations for ladm_plan_kernel (owned) */
    LadmClass *hints;  /* ladm: per launch, its ladm_hints class (owned) */
    DispSm *sm;        /* owned, sms entries */
    Port *host;
    Egress to_host;
    SimEvent round_ev;
    bool had_round;
    SimTime last_round;
    /* the running kernel */
    bool running, finishing;
    uint32_t kernel;
    Txn *launch; /* the host's launch request (owned reference) */
    AtsReader *rd;
    AtsKernelInfo info;
    CtaMap map;
    uint64_t want, got;      /* the GPU's CTAs; the rank after the last one taken */
    bool ready, eof;         /* next holds the next CTA; nothing more to read */
    const AtsCta *next;      /* the reader's view of it (borrowed while ready) */
    CoreCtaPlan *plan;       /* its message, interned (core_cta_plan) */
    const TraceScan *scan;   /* held while the kernel is read from its spool */
    const TraceSpool *sp;    /* that spool (NULL: the kernel is read as text) */
    uint64_t sp_at, sp_end;  /* the next record; the end of the kernel's records */
    uint32_t sp_len;         /* the message length of the record at sp_at */
    uint8_t *msg;            /* the next CTA's message read from the spool (owned), */
    size_t msg_len, msg_cap; /* of msg_len bytes */
    uint64_t cta_index;
    bool reported; /* a trace error of this kernel went to stderr */
    uint32_t launched, finished;
    uint64_t inflight, ran, insts;
    uint64_t *ctas, *kernels, *xlats, *absent, *fit_errors, *ctl_errors, *trace_errors;
    uint64_t *spooled;
} Disp;

/* Counts a trace error; the first of a kernel goes to stderr (dispatch.c). */
void disp_trace_error(Disp *d, const char *msg);

/* Ends the reading of the kernel: its reader closed, its spool let go. */
void disp_close(Disp *d);
/* With the run's scan of the trace folder dir held: reads the kernel from the scan's
 * spool when it holds the kernel, else moves the reader to the scan's seek point
 * before the GPU's first CTA. */
void disp_read_from_scan(Disp *d, const char *dir);
/* Reads ahead until the next CTA of the GPU is held (ready) or there is none left;
 * true if one is held. */
bool disp_peek(Disp *d);
/* The length of the held CTA's message, and the message written into out (which the
 * CTA then leaves). */
size_t disp_cta_len(const Disp *d);
void disp_cta_write(Disp *d, uint8_t *out);

#endif
