/* Transactions (kernel/txn.h): the layout the fabric relies on for speed (the fields
 * every hop reads in the first 64 bytes, each transaction and each event node on a
 * line of its own), and txn_copy, which copies every field and buffer of a
 * transaction into a fresh one whatever the order of the members. */
#include <stddef.h>
#include <stdint.h>

#include "kernel/eventq.h"
#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

#define LINE 64
#define MANY 2049 /* transactions of several of the pool's slabs */

/* The members read by every block a transaction passes end within the first line. */
static void test_layout(void)
{
    CHECK_EQ_U64(_Alignof(Txn), LINE);
    CHECK_EQ_U64(sizeof(Txn) % LINE, 0);
    const size_t end[] = {
        offsetof(Txn, id) + sizeof(uint64_t),   offsetof(Txn, addr) + sizeof(uint64_t),
        offsetof(Txn, data) + sizeof(void *),   offsetof(Txn, be) + sizeof(void *),
        offsetof(Txn, cmd) + sizeof(TxnCmd),    offsetof(Txn, req_cmd) + sizeof(TxnCmd),
        offsetof(Txn, status) + sizeof(int),    offsetof(Txn, len) + sizeof(uint32_t),
        offsetof(Txn, src) + sizeof(int16_t),   offsetof(Txn, dst) + sizeof(int16_t),
        offsetof(Txn, unit) + sizeof(int16_t),  offsetof(Txn, posted) + sizeof(bool),
        offsetof(Txn, refs) + sizeof(uint32_t), offsetof(Txn, wire) + sizeof(uint32_t),
    };
    for (size_t i = 0; i < sizeof end / sizeof end[0]; i++) {
        CHECK(end[i] <= LINE);
    }
    CHECK_EQ_U64(_Alignof(SimNode), LINE);
    CHECK_EQ_U64(sizeof(SimNode), LINE);
    Sim *sim = sim_new();
    static Txn *t[MANY];
    size_t aligned = 0;
    for (size_t i = 0; i < MANY; i++) {
        t[i] = txn_new(sim, TXN_READ, 0x1000 * i, 128);
        /* through a volatile: the compiler takes any Txn pointer for aligned */
        void *volatile at = t[i];
        aligned += (uintptr_t)at % LINE == 0;
    }
    CHECK_EQ_U64(aligned, MANY);
    for (size_t i = 0; i < MANY; i++) {
        txn_unref(t[i]);
    }
    sim_free(sim);
}

/* A copy has the original's fields, its own copies of data, byte enables, parents
 * and threads, one reference, and leaves the original as it was. */
static void test_copy(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_WRITE, 0xabc0, 8);
    t->src = 2;
    t->dst = 3;
    t->unit = 5;
    t->posted = true;
    t->status = TXN_STATUS_OK;
    t->mask = 0xf0;
    t->wire = 40;
    t->uncached = 1;
    t->born = 77;
    const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    (void)txn_set_data(t, data);
    uint8_t *be = txn_alloc_be(t);
    be[3] = 0xff;
    const uint64_t parents[2] = {11, 12};
    txn_set_parents(t, parents, 2);
    const TxnThread threads[1] = {{0xabc4, 4}};
    txn_set_threads(t, threads, 1);
    txn_ref(t);
    Txn *c = txn_copy(sim, t);
    CHECK(c != t);
    CHECK_EQ_U64(c->id, t->id);
    CHECK_EQ_U64(c->cmd, TXN_WRITE);
    CHECK_EQ_U64(c->req_cmd, TXN_WRITE);
    CHECK_EQ_U64(c->addr, 0xabc0);
    CHECK_EQ_U64(c->len, 8);
    CHECK(c->src == 2 && c->dst == 3 && c->unit == 5 && c->posted);
    CHECK_EQ_U64(c->status, TXN_STATUS_OK);
    CHECK_EQ_U64(c->mask, 0xf0);
    CHECK_EQ_U64(c->wire, 40);
    CHECK_EQ_U64(c->uncached, 1);
    CHECK_EQ_U64(c->born, 77);
    CHECK_EQ_U64(c->refs, 1);
    CHECK_EQ_U64(t->refs, 2);
    CHECK(c->data && c->data != t->data && memcmp(c->data, data, 8) == 0);
    CHECK(c->be && c->be != t->be && c->be[3] == 0xff && c->be[0] == 0);
    CHECK(c->nparents == 2 && c->parents != t->parents && c->parents[1] == 12);
    CHECK(c->nthreads == 1 && c->threads != t->threads && c->threads[0].addr == 0xabc4);
    txn_unref(t);
    txn_unref(t);
    CHECK(c->data[7] == 8 && c->parents[0] == 11 && c->threads[0].size == 4);
    txn_unref(c);
    sim_free(sim);
}

int main(void)
{
    RUN(test_layout);
    RUN(test_copy);
    return harness_report();
}
