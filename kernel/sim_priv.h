/* Kernel-internal: the Sim structure and inline fast paths shared by sim.c and event.c
 * (the hot path of SimEvent notification). Blocks use sim.h only. */
#ifndef MGTLM_SIM_PRIV_H
#define MGTLM_SIM_PRIV_H

#include "eventq.h"
#include "sim.h"
#include "txn.h"

typedef struct Engine Engine;

/* The diagnostic lines of a kernel of the engine, kept until engine_run ends. */
typedef struct SimReportLine {
    SimTime t;
    char *line; /* owned, with its newline */
} SimReportLine;

typedef struct SimReports {
    SimReportLine *r; /* owned */
    size_t n, cap, next;
} SimReports;

struct Sim {
    SimTime now;
    uint64_t executed;
    uint64_t next_txn_id;
    bool stop;
    const volatile sig_atomic_t *watch; /* never NULL: sim_watch(NULL) sets sim_unset */
    EventQueue q;
    TxnPool *pool;
    SimReports *reports;  /* NULL: sim_report writes to stderr at once (owned) */
    const Engine *engine; /* the engine sim is a partition of (borrowed), NULL alone */
};

/* Keeps sim's report lines until taken (engine.c); called once. */
void sim_keep_reports(Sim *sim);

/* Reports an event scheduled in the past or with a bad priority, and aborts. */
void sim_schedule_fail(const Sim *sim, SimTime at, int prio)
    __attribute__((noreturn, cold));

static inline SimHandle sim_priv_schedule_at(Sim *sim, SimTime at, int prio, SimProc fn,
                                             void *subject, void *obj)
{
    if (at < sim->now || (unsigned)prio >= SIM_PRIO_LEVELS) {
        sim_schedule_fail(sim, at, prio);
    }
    SimNode *n = eventq_push(&sim->q, at, prio, fn, subject, obj);
    return (SimHandle){.node = n, .gen = n->gen};
}

static inline bool sim_priv_pending(SimHandle h)
{
    return h.node && h.node->gen == h.gen && !h.node->cancelled;
}

#endif
