/* A barrier for the engine's threads that spins a while before it sleeps.
 *
 * A thread that arrives early polls the barrier's generation for up to its own spin
 * budget (a CPU pause between polls), then sleeps on a condition variable; the last
 * to arrive opens the barrier and wakes only sleepers. The budget adapts, per thread:
 * a wait that ended while spinning doubles it (up to the barrier's `spin_ns`), a wait
 * that had to sleep halves it (down to SPIN_BARRIER_MIN_NS). Decision: on a quiet
 * machine with a core per thread a window ends in microseconds to a few hundred, and
 * waking a thread from sleep costs tens of microseconds per window on a virtual
 * machine (measured in docs/performance.md "Parallel runs"), so early threads spin;
 * on a machine whose cores are busy with other work the partner is often not running,
 * spins time out, the budget shrinks and a waiting thread soon gives its core back.
 * Passing it orders memory like pthread_barrier_wait: what any thread wrote before it
 * is visible to every thread after it. */
#ifndef MGTLM_SPIN_BARRIER_H
#define MGTLM_SPIN_BARRIER_H

#include <pthread.h>
#include <stdatomic.h>

typedef struct SpinBarrier {
    unsigned threads;
    long spin_ns; /* polling time before sleeping */
    /* on lines of their own: arrivals write `arrived` while waiting threads poll `gen` */
    _Alignas(64) atomic_uint arrived; /* threads arrived in this generation */
    _Alignas(64) atomic_uint gen;     /* generation, counted up each time it opens */
    unsigned sleepers;                /* under mu */
    pthread_mutex_t mu;
    pthread_cond_t open;
} SpinBarrier;

void spin_barrier_init(SpinBarrier *b, unsigned threads, long spin_ns);
void spin_barrier_destroy(SpinBarrier *b);
/* The smallest spin budget (ns). */
#define SPIN_BARRIER_MIN_NS 1000L

/* Waits for every thread; *spin_ns is the calling thread's spin budget, updated. */
void spin_barrier_wait(SpinBarrier *b, long *spin_ns);

#endif
