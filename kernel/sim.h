/* The simulation kernel: a value, never a global (two may live in one process).
 *
 * Events are ordered by (time, priority, sequence). The sequence is a per-kernel
 * insertion counter, so the same input always gives the same order. Processes are
 * callbacks `fn(subject, obj)` (SystemC SC_METHOD style). Event nodes are pooled.
 * Cancellation is lazy and O(1): a cancelled node is skipped when it surfaces. */
#ifndef MGTLM_SIM_H
#define MGTLM_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simtime.h"

typedef struct Sim Sim;
typedef struct SimNode SimNode;

typedef void (*SimProc)(void *subject, void *obj);

/* Priority levels at one time: lower runs first. */
enum {
    SIM_PRIO_DELIVER = 0, /* port arrivals */
    SIM_PRIO_DEFAULT = 1, /* block processes */
    SIM_PRIO_NOTIFY = 2,  /* on_free callbacks, after the arrivals of the same time */
    SIM_PRIO_LATE = 3,    /* end-of-time-step work (sampling, progress) */
    SIM_PRIO_LEVELS = 4
};

/* Names one scheduled event; stays safe to cancel after the event ran or was
 * cancelled (the generation no longer matches). A zeroed handle names nothing. */
typedef struct SimHandle {
    SimNode *node;
    uint64_t gen;
} SimHandle;

typedef enum SimRunResult {
    SIM_RUN_IDLE,    /* no event left */
    SIM_RUN_UNTIL,   /* next event is later than `until` */
    SIM_RUN_STOPPED, /* sim_stop() was called, or the watched flag is set */
} SimRunResult;

/* New kernel at time 0 (owned by the caller; free with sim_free). NULL on OOM. */
Sim *sim_new(void);
/* New kernel for partition part of the engine (engine.h): as sim_new, but its
 * transaction ids are (part << SIM_PART_SHIFT) + 1, + 2, ... (sim_new is part 0). */
Sim *sim_new_partition(uint32_t part);
#define SIM_PART_SHIFT 40
/* Frees the kernel, its pending events and its transaction pool. */
void sim_free(Sim *sim);

SimTime sim_now(const Sim *sim);
/* Events executed so far (cancelled ones are not counted). */
uint64_t sim_events_executed(const Sim *sim);
/* Events scheduled and not yet executed or cancelled. */
size_t sim_events_pending(const Sim *sim);
/* True when the whole run has nothing left: no pending event in sim and, when sim is
 * a partition of the partitioned engine (engine.h), none in any partition and no
 * message between partitions. What a block's end-of-run check ("still outstanding
 * at the end of a run that ended idle") must ask: another partition may still hold
 * the answer it waits for. */
bool sim_idle(const Sim *sim);
/* Time of the earliest pending event, SIM_TIME_MAX if none is due by SIM_TIME_LIMIT. */
SimTime sim_next_time(Sim *sim);

/* Schedules fn(subject, obj) at now + delay (saturating at SIM_TIME_MAX) or at `at`
 * (which must be >= now) with priority prio in [0, SIM_PRIO_LEVELS). The kernel does
 * not own subject or obj. */
SimHandle sim_schedule(Sim *sim, SimTime delay, int prio, SimProc fn, void *subject,
                       void *obj);
SimHandle sim_schedule_at(Sim *sim, SimTime at, int prio, SimProc fn, void *subject,
                          void *obj);
/* Cancels a pending event; a no-op for one that already ran or was cancelled. */
void sim_cancel(Sim *sim, SimHandle h);
bool sim_handle_pending(SimHandle h);

/* Executes events in order while their time is <= until (and <= SIM_TIME_LIMIT). */
SimRunResult sim_run(Sim *sim, SimTime until);
/* Executes exactly one event; false if none is pending by SIM_TIME_LIMIT. */
bool sim_step(Sim *sim);
/* Asks sim_run to return after the event now executing. */
void sim_stop(Sim *sim);
/* Makes sim_run return SIM_RUN_STOPPED after any event that leaves *flag nonzero,
 * and at once if it is nonzero when sim_run starts: the way a signal handler
 * (which may only write a volatile sig_atomic_t) stops a run at an event boundary.
 * The kernel only reads the flag; the caller clears it. flag is borrowed and must
 * stay valid while the kernel runs; NULL watches nothing (the default). */
void sim_watch(Sim *sim, const volatile sig_atomic_t *flag);

/* Writes one diagnostic line for the user (printf format fmt, without the newline)
 * to stderr: at once, or for a kernel of the partitioned engine (engine.h) at the end
 * of the engine_run, the lines of all partitions merged by (time, partition), so
 * that stderr does not depend on the thread count. */
void sim_report(Sim *sim, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), nonnull(2)));

/* Deterministic identifiers for new transactions (1, 2, 3, ... in partition 0). */
uint64_t sim_next_txn_id(Sim *sim);

/* The transaction pool of this kernel (see txn.h). */
struct TxnPool *sim_txn_pool(Sim *sim);

#endif
