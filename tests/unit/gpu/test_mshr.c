/* Bitmask MSHR (SPEC.md 1.3): example M1, full, waiters, fill barring and closing,
 * ids. */
#include "hw/gpu/mshr.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"

static void test_m1(void)
{
    Mshr m;
    CHECK(mshr_init(&m, 32));
    CHECK_EQ_U64(mshr_alloc(&m, 0x100, 0x0002, 7), 0);
    CHECK_EQ_U64(mshr_match(&m, 0x100, 0x0002), 0);
    CHECK(mshr_match(&m, 0x100, 0x0006) < 0);
    CHECK_EQ_U64(mshr_alloc(&m, 0x100, 0x0006, 8), 1);
    CHECK(mshr_match(&m, 0x140, 0x0002) < 0);
    CHECK_EQ_U64(mshr_alloc(&m, 0x140, 0x0002, 9), 2);
    CHECK_EQ_U64(m.used, 3);
    /* Both (0x100, 0x2) entries now contain 0x0002: the lowest index wins. */
    CHECK_EQ_U64(mshr_match(&m, 0x100, 0x0002), 0);
    CHECK_EQ_U64(mshr_match(&m, 0x100, 0x0004), 1);
    CHECK_EQ_U64(mshr_find_id(&m, 9), 2);
    CHECK(mshr_find_id(&m, 10) < 0);
    mshr_destroy(&m);
}

static void test_full_and_release(void)
{
    Mshr m;
    CHECK(mshr_init(&m, 2));
    CHECK(!mshr_full(&m));
    CHECK_EQ_U64(mshr_alloc(&m, 0x0, 0xFFFF, 1), 0);
    CHECK_EQ_U64(mshr_alloc(&m, 0x40, 0xFFFF, 2), 1);
    CHECK(mshr_full(&m));
    CHECK(mshr_alloc(&m, 0x80, 0xFFFF, 3) < 0);
    mshr_release(&m, 0);
    CHECK(!mshr_full(&m));
    CHECK(mshr_match(&m, 0x0, 0x1) < 0);
    CHECK_EQ_U64(mshr_alloc(&m, 0x80, 0xFFFF, 3), 0);
    mshr_destroy(&m);
}

static void test_waiters_and_fill(void)
{
    Sim *sim = sim_new();
    Mshr m;
    CHECK(mshr_init(&m, 4));
    int i = mshr_alloc(&m, 0x100, 0xFFFF, 5);
    int j = mshr_alloc(&m, 0x140, 0xFFFF, 6);
    CHECK(m.e[i].fill && m.e[j].fill);
    for (int k = 0; k < 6; k++) {
        mshr_wait(&m, i, txn_new(sim, TXN_READ, 0x100, 64));
    }
    CHECK_EQ_U64(m.e[i].nwait, 6);
    CHECK_EQ_U64(mshr_match(&m, 0x100, 0x0001), i);
    mshr_no_fill(&m, 0x100, false);
    CHECK(!m.e[i].fill && m.e[j].fill);
    /* closed: a later request of the line no longer joins it */
    CHECK(!m.e[i].open && m.e[j].open);
    CHECK_EQ_U64(mshr_match(&m, 0x100, 0x0001), (uint64_t)-1);
    CHECK_EQ_U64(mshr_match(&m, 0x140, 0x0001), j);
    mshr_no_fill(&m, 0, true);
    CHECK(!m.e[j].fill && !m.e[j].open);
    CHECK_EQ_U64(mshr_match(&m, 0x140, 0x0001), (uint64_t)-1);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 6);
    mshr_destroy(&m);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    sim_free(sim);
}

int main(void)
{
    RUN(test_m1);
    RUN(test_full_and_release);
    RUN(test_waiters_and_fill);
    return harness_report();
}
