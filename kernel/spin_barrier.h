/* A barrier for the engine's threads that spins a while before it sleeps.
 *
 * A thread that arrives early polls the barrier's generation for up to `spin_ns`
 * nanoseconds (a CPU pause between polls), then sleeps on a condition variable; the last
 * to arrive opens the barrier and wakes only sleepers. Decision: on a quiet machine with
 * a core per thread a window ends in microseconds, and waking a thread from a futex costs
 * tens of microseconds per window on a virtual machine (measured in
 * docs/performance.md "Parallel runs"), so early threads spin; on a shared machine
 * whose cores are busy with other work the spin is bounded, so a waiting thread soon
 * gives its core back. Passing it orders memory like pthread_barrier_wait: what any
 * thread wrote before it is visible to every thread after it. */
#ifndef MGTLM_SPIN_BARRIER_H
#define MGTLM_SPIN_BARRIER_H

#include <pthread.h>
#include <stdatomic.h>

typedef struct SpinBarrier {
    unsigned threads;
    long spin_ns;        /* polling time before sleeping */
    atomic_uint arrived; /* threads arrived in this generation */
    atomic_uint gen;     /* generation, counted up each time it opens */
    unsigned sleepers;   /* under mu */
    pthread_mutex_t mu;
    pthread_cond_t open;
} SpinBarrier;

void spin_barrier_init(SpinBarrier *b, unsigned threads, long spin_ns);
void spin_barrier_destroy(SpinBarrier *b);
void spin_barrier_wait(SpinBarrier *b);

#endif
