/* Transaction pools across threads (kernel/txn.h, txn_pool_claim): a transaction
 * released by a thread that claimed another pool goes back to its own pool through
 * the return stack, and its owner takes it from there before it grows the pool;
 * live counts stay exact. With 4 threads releasing 40,960 transactions of one pool
 * at once, none is lost or returned twice: the owner gets back exactly the
 * transactions it gave out, each once, and allocates nothing new. */
#include <pthread.h>
#include <stdlib.h>

#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

#define THREADS 4
#define EACH 10240 /* THREADS * EACH: whole slabs, so the free list is empty */
#define SLAB 256   /* TXN_SLAB in kernel/txn.c: the pool grows by this many */

typedef struct Releaser {
    Sim *own; /* the releasing thread's own partition */
    Txn **t;  /* EACH transactions of the shared pool to release */
} Releaser;

static void *releaser(void *arg)
{
    Releaser *r = arg;
    txn_pool_claim(sim_txn_pool(r->own));
    for (size_t i = 0; i < EACH; i++) {
        txn_unref(r->t[i]);
    }
    txn_pool_claim(NULL);
    return NULL;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (Txn *const *)a, y = (uintptr_t) * (Txn *const *)b;
    return x < y ? -1 : x > y;
}

/* A full slab, three of its transactions released by a thread that owns another
 * pool: they leave the live count at once, and the next three taken are those three
 * (the pool did not grow). */
static void test_remote_reuse(void)
{
    Sim *a = sim_new(), *b = sim_new();
    Txn *t[SLAB];
    for (size_t i = 0; i < SLAB; i++) {
        t[i] = txn_new(a, TXN_READ, i * 64, 4);
    }
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(a)), SLAB);
    txn_pool_claim(sim_txn_pool(b));
    txn_unref(t[7]);
    txn_unref(t[100]);
    txn_unref(t[200]);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(a)), SLAB - 3);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(b)), 0);
    txn_pool_claim(NULL);
    Txn *back[3];
    for (size_t i = 0; i < 3; i++) {
        back[i] = txn_new(a, TXN_WRITE, 0, 4);
        CHECK(back[i] == t[7] || back[i] == t[100] || back[i] == t[200]);
    }
    CHECK(back[0] != back[1] && back[1] != back[2] && back[0] != back[2]);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(a)), SLAB);
    t[7] = back[0];
    t[100] = back[1];
    t[200] = back[2];
    for (size_t i = 0; i < SLAB; i++) {
        txn_unref(t[i]);
    }
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(a)), 0);
    sim_free(a);
    sim_free(b);
}

/* THREADS threads release EACH transactions of one pool each, at once. */
static void test_remote_threads(void)
{
    Sim *shared = sim_new();
    Sim *own[THREADS];
    Releaser r[THREADS];
    pthread_t th[THREADS];
    Txn **given = malloc(THREADS * EACH * sizeof *given);
    for (size_t i = 0; i < THREADS * EACH; i++) {
        given[i] = txn_new(shared, TXN_READ, i * 64, 4);
    }
    for (unsigned k = 0; k < THREADS; k++) {
        own[k] = sim_new();
        r[k] = (Releaser){own[k], given + (size_t)k * EACH};
    }
    unsigned started = 0;
    while (started < THREADS &&
           pthread_create(&th[started], NULL, releaser, &r[started]) == 0) {
        started++;
    }
    CHECK_EQ_U64(started, THREADS);
    for (unsigned k = 0; k < started; k++) {
        pthread_join(th[k], NULL);
    }
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(shared)), 0);
    Txn **back = malloc(THREADS * EACH * sizeof *back);
    for (size_t i = 0; i < THREADS * EACH; i++) {
        back[i] = txn_new(shared, TXN_READ, 0, 4);
    }
    qsort(given, THREADS * EACH, sizeof *given, cmp_ptr);
    qsort(back, THREADS * EACH, sizeof *back, cmp_ptr);
    size_t same = 0;
    for (size_t i = 0; i < THREADS * EACH; i++) {
        same += back[i] == given[i];
    }
    CHECK_EQ_U64(same, THREADS * EACH);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(shared)), THREADS * EACH);
    for (size_t i = 0; i < THREADS * EACH; i++) {
        txn_unref(back[i]);
    }
    for (unsigned k = 0; k < THREADS; k++) {
        CHECK_EQ_U64(txn_pool_live(sim_txn_pool(own[k])), 0);
        sim_free(own[k]);
    }
    free(given);
    free(back);
    sim_free(shared);
}

int main(void)
{
    RUN(test_remote_reuse);
    RUN(test_remote_threads);
    return harness_report();
}
