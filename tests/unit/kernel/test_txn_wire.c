/* Unit tests of the transaction encoding (kernel/txn_wire.c): a round trip keeps
 * every field (generic ones, every extension field of txn_fields.def, a declared
 * command by name, data, byte enables, parents, threads) and does not take an id
 * from the receiving kernel; several transactions follow each other in one buffer;
 * a plain read encodes in 53 bytes (extension fields only when set); a truncated
 * buffer, an unknown declared command and an unknown extension field are refused. */
#include <stdlib.h>
#include <string.h>

#include "kernel/sim.h"
#include "kernel/txn.h"
#include "kernel/txn_wire.h"
#include "tests/unit/harness.h"

static const TxnCmdDecl wire_cmd_a = {"wire_a", "a declared command"};
static const TxnCmdDecl wire_cmd_b = {"wire_b", "another one"};
static const TxnCmdDecl *const wire_decls[] = {&wire_cmd_a, &wire_cmd_b, NULL};

/* A transaction with every field set to a value unlike its default. */
static Txn *wire_full(Sim *sim)
{
    Txn *t = txn_new_declared(sim, &wire_cmd_b, 0x123456789abcULL, 6);
    t->id = 0x0000abcd00000007ULL;
    t->cmd = TXN_RESP;
    t->req_cmd = TXN_DECLARED;
    t->status = TXN_STATUS_ADDRESS_ERROR;
    t->src = 3;
    t->dst = -2;
    t->unit = 17;
    t->posted = true;
    t->born = 987654321;
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        txn_field_set(t, &txn_fields[i], txn_fields[i].max - 11 * i);
    }
    const uint8_t data[6] = {1, 2, 3, 0xfe, 0, 0x80};
    txn_set_data(t, data);
    uint8_t *be = txn_alloc_be(t);
    be[1] = be[4] = 0xff;
    const uint64_t parents[3] = {5, UINT64_MAX, 1ULL << 40};
    txn_set_parents(t, parents, 3);
    const TxnThread threads[2] = {{0x1000, 4}, {UINT64_MAX - 3, UINT32_MAX}};
    txn_set_threads(t, threads, 2);
    return t;
}

static void wire_same(const Txn *a, const Txn *b)
{
    CHECK_EQ_U64(a->id, b->id);
    CHECK(a->cmd == b->cmd && a->req_cmd == b->req_cmd);
    CHECK(a->declared == b->declared);
    CHECK(a->status == b->status);
    CHECK_EQ_U64(a->addr, b->addr);
    CHECK_EQ_U64(a->len, b->len);
    CHECK(a->src == b->src && a->dst == b->dst && a->unit == b->unit);
    CHECK(a->posted == b->posted);
    CHECK_EQ_U64(a->born, b->born);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        CHECK_EQ_U64(txn_field_get(a, &txn_fields[i]), txn_field_get(b, &txn_fields[i]));
    }
    CHECK((a->data == NULL) == (b->data == NULL));
    CHECK(!a->data || memcmp(a->data, b->data, a->len) == 0);
    CHECK((a->be == NULL) == (b->be == NULL));
    CHECK(!a->be || memcmp(a->be, b->be, a->len) == 0);
    CHECK_EQ_U64(a->nparents, b->nparents);
    for (uint32_t i = 0; i < a->nparents && i < b->nparents; i++) {
        CHECK_EQ_U64(a->parents[i], b->parents[i]);
    }
    CHECK_EQ_U64(a->nthreads, b->nthreads);
    for (uint32_t i = 0; i < a->nthreads && i < b->nthreads; i++) {
        CHECK_EQ_U64(a->threads[i].addr, b->threads[i].addr);
        CHECK_EQ_U64(a->threads[i].size, b->threads[i].size);
    }
}

static void test_round_trip(void)
{
    Sim *from = sim_new(), *to = sim_new();
    Txn *full = wire_full(from);
    Txn *plain = txn_new(from, TXN_READ, 0x40, 64);
    TxnWireBuf w = {0};
    txn_wire_put(&w, full);
    txn_wire_put(&w, plain);
    TxnWireIn in = {w.b, w.n, 0};
    SimError err;
    Txn *a = txn_wire_get(&in, to, wire_decls, &err);
    Txn *b = txn_wire_get(&in, to, wire_decls, &err);
    CHECK(a && b);
    CHECK_EQ_U64(in.pos, w.n);
    if (a && b) {
        wire_same(full, a);
        wire_same(plain, b);
        CHECK(a->data != full->data && a->parents != full->parents);
        CHECK_EQ_U64(a->refs, 1);
        Txn *fresh = txn_new(to, TXN_READ, 0, 4);
        CHECK_EQ_U64(fresh->id, 1);
        txn_unref(fresh);
        txn_unref(a);
        txn_unref(b);
    }
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(to)), 0);
    txn_unref(full);
    txn_unref(plain);
    txn_wire_free(&w);
    sim_free(from);
    sim_free(to);
}

static void test_refused(void)
{
    Sim *sim = sim_new();
    Txn *full = wire_full(sim);
    TxnWireBuf w = {0};
    txn_wire_put(&w, full);
    SimError err;
    for (size_t cut = 0; cut < w.n; cut++) {
        TxnWireIn in = {w.b, cut, 0};
        CHECK(txn_wire_get(&in, sim, wire_decls, &err) == NULL);
    }
    TxnWireIn in = {w.b, w.n, 0};
    const TxnCmdDecl *const only_a[] = {&wire_cmd_a, NULL};
    CHECK(txn_wire_get(&in, sim, only_a, &err) == NULL);
    CHECK(strstr(err.msg, "unknown command 'wire_b'") != NULL);
    txn_unref(full);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    txn_wire_free(&w);
    sim_free(sim);
}

/* A plain read without data encodes in 53 bytes: id 8, commands, status and posted 4,
 * src, dst and unit 6, addr 8, len 4, born 8, name length 2 (no name), the
 * extension-field mask 4 (none set, so no values), flags 1, nparents 4, nthreads 4.
 * One extension field set adds its 8 bytes. A mask naming a field that does not
 * exist is refused. */
static void test_compact(void)
{
    Sim *sim = sim_new();
    Txn *plain = txn_new(sim, TXN_READ, 0x40, 64);
    TxnWireBuf w = {0};
    txn_wire_put(&w, plain);
    CHECK_EQ_U64(w.n, 53);
    txn_field_set(plain, &txn_fields[TXN_FIELD_COUNT - 1], 9);
    txn_wire_put(&w, plain);
    CHECK_EQ_U64(w.n, 53 + 61);
    TxnWireIn in = {w.b, w.n, 0};
    SimError err;
    Txn *a = txn_wire_get(&in, sim, NULL, &err);
    Txn *b = txn_wire_get(&in, sim, NULL, &err);
    CHECK(a && b);
    if (a && b) {
        CHECK_EQ_U64(txn_field_get(a, &txn_fields[TXN_FIELD_COUNT - 1]), 0);
        CHECK_EQ_U64(txn_field_get(b, &txn_fields[TXN_FIELD_COUNT - 1]), 9);
        txn_unref(a);
        txn_unref(b);
    }
    if (TXN_FIELD_COUNT < 32) {
        uint32_t bad = (uint32_t)1 << TXN_FIELD_COUNT;
        memcpy(w.b + 40, &bad, sizeof bad);
        TxnWireIn in2 = {w.b, 53, 0};
        CHECK(txn_wire_get(&in2, sim, NULL, &err) == NULL);
        CHECK(strstr(err.msg, "unknown extension fields") != NULL);
    }
    txn_unref(plain);
    CHECK_EQ_U64(txn_pool_live(sim_txn_pool(sim)), 0);
    txn_wire_free(&w);
    sim_free(sim);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_compact);
    RUN(test_refused);
    return harness_report();
}
