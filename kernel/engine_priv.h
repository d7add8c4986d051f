/* The partitioned engine's state, shared by its thread loop (engine.c) and its MPI
 * transport (kernel/mpi/engine_mpi.c), which runs the same windows with the barrier
 * replaced by an exchange between ranks. Not installed: nothing else may read it. */
#ifndef MGTLM_ENGINE_PRIV_H
#define MGTLM_ENGINE_PRIV_H

#include "engine.h"
#include "outbox.h"

typedef struct EnginePub {
    SimTime next; /* earliest pending event or message of the partition */
    bool stop;
    bool sent;     /* the partition sent messages in the window */
    uint64_t work; /* events it ran in the window (the threads claim the busiest first) */
} EnginePub;

/* The threads of engine_run, kept from one run to the next (engine_threads.c). */
typedef struct EngineCrew EngineCrew;

struct Engine {
    uint32_t n;
    Sim **sim;        /* n kernels, owned */
    Outbox *box;      /* n * n: box[s * n + d] from partition s to d */
    OutboxSide *side; /* n: each partition's side of its outboxes */
    EnginePub *pub;   /* 2 * n: pub[(k % 2) * n + p], written by the thread that ran p */
    SimTime lookahead;
    EngineCrew *crew; /* NULL until the first engine_run */
    const volatile sig_atomic_t *watch;
    /* MPI ranks: partition p runs on rank rank_of[p] (owned, n; NULL without MPI:
     * every partition here).
     * With far_now set, the time and events of the partitions of other ranks are
     * far_now[p] and far_events[p] (owned, n each), and once far_ran, the earliest
     * pending time of all is far_next, as the last exchange gave them. */
    uint32_t rank, ranks;
    uint32_t *rank_of;
    SimTime *far_now;
    uint64_t *far_events;
    SimTime far_next;
    bool far_ran;
};

/* The values the partitions published for window k (n of them). */
static inline EnginePub *engine_pub(const Engine *e, unsigned k)
{
    return &e->pub[(k & 1u) * e->n];
}

/* Seconds of the monotonic clock (the engines' work and wait times). */
double engine_clock(void);

/* Ends the crew's helper threads and frees it (NULL: nothing). */
void engine_crew_free(EngineCrew *crew);
/* Schedules in partition d the messages sent to it in window k, in sending-partition
 * order (pub: the values published for window k), and empties their buffers. */
void engine_deliver(Engine *e, uint32_t d, unsigned k, const EnginePub *pub);
/* Writes the partitions' report lines to stderr merged by (time, partition), each
 * partition's in its own order (single-threaded). */
void engine_reports(Engine *e);
/* Runs window k ([w, end)) for partition p and publishes its next time and stop. */
void engine_window(Engine *e, uint32_t p, unsigned k, SimTime end);
/* Single-threaded, between runs: delivers what was sent outside a window (by the
 * blocks' reset) and empties every outbox. */
void engine_flush(Engine *e);
/* Releases every outbox buffer and starts window 0 (single-threaded). */
void engine_empty(Engine *e);
/* Fills order with 0..n-1 by weight, heaviest first (ties by index; n is small:
 * insertion sort). */
void engine_order(uint32_t *order, uint32_t n, const uint64_t *weight);
/* Longest processing time first: deals order[0], order[1], ... (n of them) each to
 * the bin with the least weight so far (ties by lowest bin), writing bin_of[item];
 * load is bins entries of scratch. The threads' homes and the MPI ranks' partitions
 * are dealt this way. */
void engine_deal(const uint32_t *order, uint32_t n, const uint64_t *weight, uint32_t bins,
                 uint64_t *load, uint32_t *bin_of);

#endif
