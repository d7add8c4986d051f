/* The partitioned engine: one platform run as several partitions, each with its own
 * kernel (Sim: event queue, time, transaction pool and ids), on 1..N threads, with
 * results that depend on the partition map and never on the thread count.
 *
 * Partitions talk only over cut wires (port.h), each with a latency of at least the
 * lookahead L (the smallest cut-wire latency). The run proceeds in conservative
 * windows [W, W + L): every partition executes its events with time < W + L; what it
 * sends over cut wires (transactions and credits) waits in its outboxes, which cannot
 * hold anything due before W + L. At the window's end (a barrier) every partition
 * schedules the messages sent to it, taken from the outboxes in sending-partition
 * order and each outbox in send order, so arrivals at one (time, priority) are ordered
 * by sending partition and then send order; the next W is the earliest pending time of
 * any partition (idle time is skipped). The windows and the insertion order are the
 * same for any thread count, and so is every partition's event order.
 *
 * Threads: in each window every partition is claimed by one thread, its home
 * partitions first, then any left (engine_threads.c; thread 0 is the caller's; the
 * others are started by the first run and kept for the next, until engine_free or a
 * run on another thread count); one thread
 * runs every partition in turn through the same window loop.
 *
 * Stop rules: a run stops after the window in which any partition called sim_stop,
 * or a window at whose end the watched flag was nonzero in any partition; every
 * partition finishes that window and its messages are delivered. */
#ifndef MGTLM_ENGINE_H
#define MGTLM_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "port.h"
#include "sim.h"

typedef struct Engine Engine;

/* Host seconds of a run split by what the threads did (summed over threads). */
typedef struct EngineTimes {
    double work_s; /* executing windows and delivering messages */
    double wait_s; /* waiting at the barrier */
    uint64_t windows;
} EngineTimes;

/* New engine of nparts (>= 1) partitions, kernel p from sim_new_partition(p). Owned
 * by the caller (engine_free). NULL on allocation failure. */
Engine *engine_new(uint32_t nparts);
/* Ends and joins the threads engine_run started, frees the kernels and outboxes
 * (free the platform built on them first). */
void engine_free(Engine *e);
uint32_t engine_parts(const Engine *e);
/* The kernel of partition p (borrowed). */
Sim *engine_sim(const Engine *e, uint32_t p);
/* Makes the connected wire of a (in partition pa) and b (in pb != pa) a cut wire;
 * the lookahead becomes at most its latency (which must be > 0). */
void engine_cut(Engine *e, Port *a, uint32_t pa, Port *b, uint32_t pb);
/* The partition whose kernel is sim (which must be one of e's). */
uint32_t engine_part_of(const Engine *e, const Sim *sim);
/* Smallest cut-wire latency, SIM_TIME_MAX without cut wires. */
SimTime engine_lookahead(const Engine *e);
/* Stops the run at the end of a window where *flag is nonzero (see sim_watch). */
void engine_watch(Engine *e, const volatile sig_atomic_t *flag);

/* Runs windows on `threads` threads (>= 1) until no event is left (SIM_RUN_IDLE),
 * the next event is later than until (SIM_RUN_UNTIL: every event with time <= until
 * ran), or a stop (SIM_RUN_STOPPED). Adds the host time split to *times (may be
 * NULL). False with err set if a thread cannot be started (nothing ran then). */
bool engine_run(Engine *e, SimTime until, unsigned threads, EngineTimes *times,
                SimRunResult *result, SimError *err);

/* The latest time any partition reached, and events executed by all of them. */
SimTime engine_now(const Engine *e);
uint64_t engine_events(const Engine *e);
/* The earliest pending event or undelivered message of any partition, SIM_TIME_MAX
 * if none. */
SimTime engine_next_time(const Engine *e);

#endif
