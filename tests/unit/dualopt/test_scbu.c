/* SCBU registers (SPEC.md 1.2): example S1 and the range edges. */
#include "hw/dualopt/scbu.h"
#include "tests/unit/harness.h"

#define GIB4 0x100000000ULL

static void test_s1(void)
{
    Scbu s = scbu_make(1, GIB4);
    CHECK_EQ_U64(s.start, 0x100000000ULL);
    CHECK_EQ_U64(s.end, 0x200000000ULL);
    CHECK(!scbu_is_remote(&s, 0x100000000ULL));
    CHECK(scbu_is_remote(&s, 0x0FFFFFFFCULL));
    CHECK(scbu_is_remote(&s, 0x200000000ULL));
}

static void test_edges(void)
{
    Scbu s = scbu_make(0, GIB4);
    CHECK(!scbu_is_remote(&s, 0));
    CHECK(!scbu_is_remote(&s, GIB4 - 1));
    CHECK(scbu_is_remote(&s, GIB4));
    Scbu t = scbu_make(3, 1024);
    CHECK(scbu_is_remote(&t, 3071));
    CHECK(!scbu_is_remote(&t, 3072));
    CHECK(!scbu_is_remote(&t, 4095));
    CHECK(scbu_is_remote(&t, 4096));
}

int main(void)
{
    RUN(test_s1);
    RUN(test_edges);
    return harness_report();
}
