/* bench/barrier: the cost of one window barrier of the partitioned engine
 * (kernel/engine.c) with 2 threads, pthread_barrier_wait against a spinning barrier
 * that yields after a bounded spin (the "spin then sleep" alternative), for the
 * choice documented in docs/parallel.md.
 *
 * usage: barrier ROUNDS WORK
 * Each of 2 threads runs ROUNDS rounds of WORK iterations of integer work and one
 * barrier. stdout: one line per kind, "<kind> rounds <n> wall_s <s> us_per_round <u>
 * cpu_s <c>" (cpu_s: user + system time of the process for that kind). Bad arguments:
 * a one-line usage error, exit 2. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>

#include "bench_util.h"

#define BARRIER_SPINS 2000

typedef struct SpinBarrier {
    atomic_uint count;
    atomic_uint gen;
} SpinBarrier;

typedef struct Shared {
    uint64_t rounds, work;
    int spin; /* 1: SpinBarrier, 0: pthread_barrier_t */
    pthread_barrier_t pb;
    SpinBarrier sb;
    volatile uint64_t sink[2];
} Shared;

static void spin_wait(SpinBarrier *b)
{
    unsigned gen = atomic_load(&b->gen);
    if (atomic_fetch_add(&b->count, 1) == 1) {
        atomic_store(&b->count, 0);
        atomic_fetch_add(&b->gen, 1);
        return;
    }
    for (unsigned i = 0; atomic_load(&b->gen) == gen; i++) {
        if (i >= BARRIER_SPINS) {
            sched_yield();
        }
    }
}

typedef struct Arg {
    Shared *s;
    int id;
} Arg;

static void *worker(void *p)
{
    Arg *a = p;
    Shared *s = a->s;
    uint64_t x = (uint64_t)a->id + 1;
    for (uint64_t r = 0; r < s->rounds; r++) {
        for (uint64_t i = 0; i < s->work; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        }
        if (s->spin) {
            spin_wait(&s->sb);
        } else {
            pthread_barrier_wait(&s->pb);
        }
    }
    s->sink[a->id] = x;
    return NULL;
}

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 +
           (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
    static Shared s;
    if (argc != 3 || !bench_parse_u64(argv[1], 1, 100000000, &s.rounds) ||
        !bench_parse_u64(argv[2], 0, 100000000, &s.work)) {
        fprintf(stderr, "usage: barrier ROUNDS WORK\n");
        return 2;
    }
    pthread_barrier_init(&s.pb, NULL, 2);
    for (s.spin = 0; s.spin < 2; s.spin++) {
        double t0 = bench_seconds(), c0 = cpu_seconds();
        pthread_t th;
        Arg a1 = {&s, 1}, a0 = {&s, 0};
        pthread_create(&th, NULL, worker, &a1);
        worker(&a0);
        pthread_join(th, NULL);
        double wall = bench_seconds() - t0;
        printf("%s rounds %llu wall_s %.3f us_per_round %.2f cpu_s %.3f\n",
               s.spin ? "spin" : "pthread", (unsigned long long)s.rounds, wall,
               wall * 1e6 / (double)s.rounds, cpu_seconds() - c0);
    }
    pthread_barrier_destroy(&s.pb);
    return 0;
}
