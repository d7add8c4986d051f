/* The engine's spin-then-sleep barrier (kernel/spin_barrier.h): no thread passes
 * round r before every thread wrote its round-r slot, and every thread sees every
 * other thread's writes after it, whether early threads stay spinning (a long spin,
 * 2 threads), sleep at once (spin 0) or mix both (4 threads); one thread never
 * blocks. */
#include <pthread.h>
#include <time.h>

#include "kernel/spin_barrier.h"
#include "tests/unit/harness.h"

#define THREADS 4
#define ROUNDS 100

typedef struct Shared {
    SpinBarrier b;
    unsigned threads;
    unsigned slot[THREADS]; /* plain memory: the barrier alone orders it */
    unsigned bad[THREADS];
} Shared;

typedef struct Arg {
    Shared *s;
    unsigned id;
    long budget; /* the thread's spin budget */
} Arg;

static void *worker(void *p)
{
    Arg *a = p;
    Shared *s = a->s;
    for (unsigned r = 1; r <= ROUNDS; r++) {
        s->slot[a->id] = r;
        spin_barrier_wait(&s->b, &a->budget);
        for (unsigned t = 0; t < s->threads; t++) {
            s->bad[a->id] += s->slot[t] != r;
        }
        spin_barrier_wait(&s->b, &a->budget);
    }
    return NULL;
}

/* The partner of test_budget: arrives 50 ms late at each of 4 barriers. */
static void *sleeper_then_fast(void *p)
{
    Arg *a = p;
    for (unsigned i = 0; i < 4; i++) {
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        spin_barrier_wait(&a->s->b, &a->budget);
    }
    return NULL;
}

static void run_rounds(unsigned threads, long spin_ns)
{
    Shared s = {.threads = threads};
    spin_barrier_init(&s.b, threads, spin_ns);
    pthread_t th[THREADS];
    Arg arg[THREADS];
    for (unsigned t = 0; t < threads; t++) {
        arg[t] = (Arg){&s, t, spin_ns};
        CHECK(pthread_create(&th[t], NULL, worker, &arg[t]) == 0);
    }
    for (unsigned t = 0; t < threads; t++) {
        pthread_join(th[t], NULL);
    }
    for (unsigned t = 0; t < threads; t++) {
        CHECK_EQ_U64(s.bad[t], 0);
        CHECK_EQ_U64(s.slot[t], ROUNDS);
        CHECK(arg[t].budget <= spin_ns);
        CHECK(arg[t].budget >=
              (spin_ns < SPIN_BARRIER_MIN_NS ? spin_ns : SPIN_BARRIER_MIN_NS));
    }
    spin_barrier_destroy(&s.b);
}

static void test_spinning(void)
{
    run_rounds(2, 1000000000L); /* no more threads than the test machine's 2 cores */
}

static void test_sleeping(void)
{
    run_rounds(THREADS, 0);
}

static void test_mixed(void)
{
    run_rounds(THREADS, 2000);
}

/* The budget: halved by a wait that sleeps (not below the minimum), doubled by one
 * that ends while spinning (not above the barrier's largest). */
static void test_budget(void)
{
    Shared s = {.threads = 2};
    spin_barrier_init(&s.b, 2, 8000);
    long budget = 8000;
    pthread_t th;
    Arg other = {&s, 1, 0};
    CHECK(pthread_create(&th, NULL, sleeper_then_fast, &other) == 0);
    spin_barrier_wait(&s.b, &budget); /* the other thread sleeps 50 ms first */
    CHECK_EQ_U64(budget, 4000);
    spin_barrier_wait(&s.b, &budget);
    spin_barrier_wait(&s.b, &budget);
    spin_barrier_wait(&s.b, &budget);
    CHECK_EQ_U64(budget, SPIN_BARRIER_MIN_NS);
    pthread_join(th, NULL);
    spin_barrier_destroy(&s.b);
}

static void test_one_thread(void)
{
    SpinBarrier b;
    long budget = 0;
    spin_barrier_init(&b, 1, 0);
    for (unsigned i = 0; i < 3; i++) {
        spin_barrier_wait(&b, &budget);
    }
    CHECK_EQ_U64(atomic_load(&b.gen), 3);
    spin_barrier_destroy(&b);
}

int main(void)
{
    RUN(test_spinning);
    RUN(test_sleeping);
    RUN(test_mixed);
    RUN(test_budget);
    RUN(test_one_thread);
    return harness_report();
}
