/* The engine's spin-then-sleep barrier (see spin_barrier.h). */
#include "spin_barrier.h"

#include <time.h>

static inline void spin_barrier_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long spin_barrier_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

void spin_barrier_init(SpinBarrier *b, unsigned threads, long spin_ns)
{
    b->threads = threads;
    b->spin_ns = spin_ns;
    atomic_init(&b->arrived, 0);
    atomic_init(&b->gen, 0);
    b->sleepers = 0;
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->open, NULL);
}

void spin_barrier_destroy(SpinBarrier *b)
{
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->open);
}

void spin_barrier_wait(SpinBarrier *b, long *spin_ns)
{
    unsigned gen = atomic_load_explicit(&b->gen, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) + 1 ==
        b->threads) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        pthread_mutex_lock(&b->mu);
        atomic_store_explicit(&b->gen, gen + 1, memory_order_release);
        if (b->sleepers > 0) {
            pthread_cond_broadcast(&b->open);
        }
        pthread_mutex_unlock(&b->mu);
        return;
    }
    long until = spin_barrier_ns() + *spin_ns;
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen) {
            *spin_ns = *spin_ns > b->spin_ns / 2 ? b->spin_ns : 2 * *spin_ns;
            return;
        }
        if (i % 64 == 0 && spin_barrier_ns() >= until) {
            break;
        }
        spin_barrier_pause();
    }
    long half = *spin_ns / 2 > SPIN_BARRIER_MIN_NS ? *spin_ns / 2 : SPIN_BARRIER_MIN_NS;
    *spin_ns = half < b->spin_ns ? half : b->spin_ns;
    pthread_mutex_lock(&b->mu);
    b->sleepers++;
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == gen) {
        pthread_cond_wait(&b->open, &b->mu);
    }
    b->sleepers--;
    pthread_mutex_unlock(&b->mu);
}
