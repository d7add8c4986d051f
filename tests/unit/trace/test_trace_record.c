/* Record formatting: the mandatory fields, every optional field on and off, hex
 * forms (addr, be, mask, sharers, data), string escaping, and that the JSON object
 * (trace_record_json) and the streamed text (trace_record_write) agree. */
#include <stdlib.h>

#include "kernel/sim.h"
#include "kernel/trace/trace.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

/* The written record as a string (caller frees). */
static char *written(SimTime t, const char *port, const char *ev, const Txn *txn)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    CHECK(trace_record_write(f, t, port, ev, txn));
    fclose(f);
    return text;
}

static void check_record(SimTime t, const char *port, const char *ev, const Txn *txn,
                         const char *want)
{
    char *text = written(t, port, ev, txn);
    CHECK_STR(text, want);
    json_t *rec = trace_record_json(t, port, ev, txn);
    char *dumped = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    CHECK_STR(dumped, want);
    free(dumped);
    json_decref(rec);
    free(text);
}

static void test_minimal(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_READ, 0, 64);
    check_record(0, "gpu0.mem.in", "recv", t,
                 "{\"t\":0,\"port\":\"gpu0.mem.in\",\"ev\":\"recv\",\"id\":1,"
                 "\"cmd\":\"read\",\"addr\":\"0x0\",\"len\":64}");
    txn_unref(t);
    sim_free(sim);
}

static void test_every_field(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_WRITE, 0x100000040ULL, 5);
    static const uint8_t data[5] = {0xde, 0xad, 0xbe, 0xef, 0x01};
    txn_set_data(t, data);
    uint8_t *be = txn_alloc_be(t);
    be[0] = be[2] = be[4] = 0xff; /* bits 0, 2, 4 -> 0x15 */
    t->src = 1;
    t->dst = 2;
    t->unit = 3;
    t->posted = true;
    t->mask = 0x8001;
    t->epoch = 6;
    t->kernel_hint = 7;
    t->dualopt_mode = 2;
    t->dualopt_access = 5;
    t->codec_packet = 8;
    t->fp_run = 9;
    t->fp_packet = 10;
    t->wire = 48;
    t->sharers = 0xa;
    const uint64_t parents[3] = {12, 13, 14};
    txn_set_parents(t, parents, 3);
    check_record(32000, "gpu0.codec.out", "send", t,
                 "{\"t\":32000,\"port\":\"gpu0.codec.out\",\"ev\":\"send\",\"id\":1,"
                 "\"cmd\":\"write\",\"addr\":\"0x100000040\",\"len\":5,\"src\":1,"
                 "\"dst\":2,\"unit\":3,\"posted\":true,\"data\":\"0xdeadbeef01\","
                 "\"be\":\"0x15\",\"mask\":\"0x8001\",\"epoch\":6,\"kernel_hint\":7,"
                 "\"dualopt_mode\":2,\"dualopt_access\":5,\"codec_packet\":8,"
                 "\"fp_run\":9,\"fp_packet\":10,\"wire\":48,\"sharers\":\"0xa\","
                 "\"parent\":[12,13,14]}");
    txn_unref(t);
    sim_free(sim);
}

/* A wavefront (DualOpt BGU input): the thread list sits after sharers, before parent,
 * and survives txn_set_len. */
static void test_threads(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_READ, 0xc0, 64);
    const TxnThread threads[2] = {{0xc0, 4}, {0x200, 8}};
    txn_set_threads(t, threads, 2);
    const uint64_t parents[1] = {9};
    txn_set_parents(t, parents, 1);
    txn_set_len(t, 128);
    check_record(5, "gpu0.bgu.cu", "recv", t,
                 "{\"t\":5,\"port\":\"gpu0.bgu.cu\",\"ev\":\"recv\",\"id\":1,"
                 "\"cmd\":\"read\",\"addr\":\"0xc0\",\"len\":128,"
                 "\"threads\":[[\"0xc0\",4],[\"0x200\",8]],\"parent\":[9]}");
    txn_set_threads(t, NULL, 0);
    CHECK(t->threads == NULL && t->nthreads == 0);
    txn_unref(t);
    sim_free(sim);
}

static void test_response(void)
{
    Sim *sim = sim_new();
    Txn *req = txn_new(sim, TXN_ATOMIC, 0x40, 4);
    req->src = 0;
    req->unit = 2;
    Txn *r = txn_new_response(sim, req);
    r->status = TXN_STATUS_ADDRESS_ERROR;
    check_record(5, "tb.d0.out", "recv", r,
                 "{\"t\":5,\"port\":\"tb.d0.out\",\"ev\":\"recv\",\"id\":1,"
                 "\"cmd\":\"resp\",\"req\":\"atomic\",\"status\":\"address_error\","
                 "\"addr\":\"0x40\",\"len\":4,\"src\":0,\"dst\":0,\"unit\":2}");
    txn_unref(r);
    txn_unref(req);
    sim_free(sim);
}

static void test_be_forms(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_WRITE, 0x80, 12);
    uint8_t *be = txn_alloc_be(t);
    check_record(1, "p", "send", t,
                 "{\"t\":1,\"port\":\"p\",\"ev\":\"send\",\"id\":1,\"cmd\":\"write\","
                 "\"addr\":\"0x80\",\"len\":12,\"be\":\"0x0\"}");
    be[11] = 0xff; /* bit 11 only: no leading zero nibbles */
    be[0] = 0xff;
    check_record(1, "p", "send", t,
                 "{\"t\":1,\"port\":\"p\",\"ev\":\"send\",\"id\":1,\"cmd\":\"write\","
                 "\"addr\":\"0x80\",\"len\":12,\"be\":\"0x801\"}");
    txn_set_len(t, 0);
    txn_set_data(t, NULL);
    check_record(1, "p", "send", t,
                 "{\"t\":1,\"port\":\"p\",\"ev\":\"send\",\"id\":1,\"cmd\":\"write\","
                 "\"addr\":\"0x80\",\"len\":0,\"data\":\"0x\"}");
    txn_unref(t);
    sim_free(sim);
}

static void test_control_and_escape(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_KERNEL_BEGIN, 0, 0);
    t->kernel_hint = 1;
    check_record(
        SIM_US, "a\"b\\c", "send", t,
        "{\"t\":1000000,\"port\":\"a\\\"b\\\\c\",\"ev\":\"send\",\"id\":1,"
        "\"cmd\":\"kernel_begin\",\"addr\":\"0x0\",\"len\":0,\"kernel_hint\":1}");
    txn_unref(t);
    sim_free(sim);
}

static void test_hex_parsers(void)
{
    uint64_t v = 0;
    CHECK(trace_hex_u64("0x0", &v) && v == 0);
    CHECK(trace_hex_u64("0XfFfF", &v) && v == 0xffff);
    CHECK(trace_hex_u64("0x000000000000000000001", &v) && v == 1);
    CHECK(trace_hex_u64("0xffffffffffffffff", &v) && v == UINT64_MAX);
    CHECK(!trace_hex_u64("0x10000000000000000", &v));
    CHECK(!trace_hex_u64("0x", &v));
    CHECK(!trace_hex_u64("12", &v));
    CHECK(!trace_hex_u64("0x1g", &v));
    uint8_t *bytes = NULL;
    size_t n = 9;
    CHECK(trace_hex_bytes("0xDEad01", &bytes, &n));
    CHECK_EQ_U64(n, 3);
    CHECK(bytes && bytes[0] == 0xde && bytes[1] == 0xad && bytes[2] == 0x01);
    free(bytes);
    CHECK(trace_hex_bytes("0x", &bytes, &n) && n == 0);
    free(bytes);
    CHECK(!trace_hex_bytes("0xabc", &bytes, &n));
    CHECK(!trace_hex_bytes("abcd", &bytes, &n));
}

int main(void)
{
    RUN(test_minimal);
    RUN(test_every_field);
    RUN(test_threads);
    RUN(test_response);
    RUN(test_be_forms);
    RUN(test_control_and_escape);
    RUN(test_hex_parsers);
    return harness_report();
}
