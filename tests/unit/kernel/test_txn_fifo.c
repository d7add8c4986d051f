/* Unit tests of the transaction FIFO (kernel/txn_fifo.c): order across growth and
 * wrap-around, reference handling on destroy. */
#include "kernel/sim.h"
#include "kernel/txn_fifo.h"
#include "tests/unit/harness.h"

static void test_order(void)
{
    Sim *sim = sim_new();
    TxnFifo q = {0};
    CHECK(txn_fifo_peek(&q) == NULL);
    CHECK(txn_fifo_pop(&q) == NULL);
    uint64_t next = 1, want = 1;
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 13; i++) {
            Txn *t = txn_new(sim, TXN_READ, 0, 4);
            CHECK_EQ_U64(t->id, next);
            next++;
            txn_fifo_push(&q, t);
        }
        for (int i = 0; i < 9; i++) {
            Txn *t = txn_fifo_pop(&q);
            CHECK_EQ_U64(t->id, want);
            want++;
            txn_unref(t);
        }
    }
    CHECK_EQ_U64(q.count, 20);
    CHECK_EQ_U64(txn_fifo_peek(&q)->id, want);
    txn_fifo_free(&q);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    sim_free(sim);
}

int main(void)
{
    RUN(test_order);
    return harness_report();
}
