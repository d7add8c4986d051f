/* Unit tests of the transaction FIFO (hw/rdma/txq.c): order across growth and
 * wrap-around, reference handling on destroy. */
#include "hw/rdma/txq.h"
#include "kernel/sim.h"
#include "tests/unit/harness.h"

static void test_order(void)
{
    Sim *sim = sim_new();
    TxnQueue q = {0};
    CHECK(txq_peek(&q) == NULL);
    CHECK(txq_pop(&q) == NULL);
    uint64_t next = 1, want = 1;
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < 13; i++) {
            Txn *t = txn_new(sim, TXN_READ, 0, 4);
            CHECK_EQ_U64(t->id, next);
            next++;
            txq_push(&q, t);
        }
        for (int i = 0; i < 9; i++) {
            Txn *t = txq_pop(&q);
            CHECK_EQ_U64(t->id, want);
            want++;
            txn_unref(t);
        }
    }
    CHECK_EQ_U64(q.count, 20);
    CHECK_EQ_U64(txq_peek(&q)->id, want);
    txq_destroy(&q);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    sim_free(sim);
}

int main(void)
{
    RUN(test_order);
    return harness_report();
}
