/* BGU mask generation (SPEC.md 1.1): example B1, ORing, line crossing, order. */
#include "hw/dualopt/bgu.h"
#include "tests/unit/harness.h"

static void test_b1(void)
{
    TxnThread th[] = {{0x0C0, 4}, {0x200, 4}, {0x100, 4}, {0x104, 4}};
    BguLines l = {0};
    bgu_lines(&l, 64, th, 4);
    CHECK_EQ_U64(l.n, 3);
    CHECK_EQ_U64(l.v[0].addr, 0x0C0);
    CHECK_EQ_U64(l.v[0].mask, 0x0001);
    CHECK_EQ_U64(l.v[1].addr, 0x200);
    CHECK_EQ_U64(l.v[1].mask, 0x0001);
    CHECK_EQ_U64(l.v[2].addr, 0x100);
    CHECK_EQ_U64(l.v[2].mask, 0x0003);
    bgu_lines_free(&l);
}

/* 8 B at 0x13C: word 15 of line 0x100 and word 0 of line 0x140. */
static void test_line_crossing(void)
{
    TxnThread th[] = {{0x13C, 8}};
    BguLines l = {0};
    bgu_lines(&l, 64, th, 1);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.v[0].addr, 0x100);
    CHECK_EQ_U64(l.v[0].mask, 0x8000);
    CHECK_EQ_U64(l.v[1].addr, 0x140);
    CHECK_EQ_U64(l.v[1].mask, 0x0001);
    bgu_lines_free(&l);
}

/* Unaligned 2 B at 0x103 touches words 0 and 1; a 1 B access one word; a whole line
 * every word; content is replaced on the next call. */
static void test_partial_words(void)
{
    TxnThread th[] = {{0x103, 2}, {0x13F, 1}};
    BguLines l = {0};
    bgu_lines(&l, 64, th, 2);
    CHECK_EQ_U64(l.n, 1);
    CHECK_EQ_U64(l.v[0].mask, 0x8003);
    TxnThread whole[] = {{0x40, 64}};
    bgu_lines(&l, 64, whole, 1);
    CHECK_EQ_U64(l.n, 1);
    CHECK_EQ_U64(l.v[0].addr, 0x40);
    CHECK_EQ_U64(l.v[0].mask, 0xFFFF);
    bgu_lines_free(&l);
}

/* 64 threads of 4 B, stride 4: one line per 16 threads, all words. */
static void test_full_wavefront(void)
{
    TxnThread th[64];
    for (int i = 0; i < 64; i++) {
        th[i] = (TxnThread){0x1000 + 4 * (uint64_t)i, 4};
    }
    BguLines l = {0};
    bgu_lines(&l, 64, th, 64);
    CHECK_EQ_U64(l.n, 4);
    for (size_t k = 0; k < l.n; k++) {
        CHECK_EQ_U64(l.v[k].addr, 0x1000 + 64 * k);
        CHECK_EQ_U64(l.v[k].mask, 0xFFFF);
    }
    bgu_lines_free(&l);
}

int main(void)
{
    RUN(test_b1);
    RUN(test_line_crossing);
    RUN(test_partial_words);
    RUN(test_full_wavefront);
    return harness_report();
}
