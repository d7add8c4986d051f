/* Unit tests of the sm's data check (hw/core/core_check.c) on the hand-written trace
 * tests/unit/core/data/check (its README lists what each kernel stores): a read
 * response's bytes against core_value (core_value.h) of the kernels that wrote them
 * and the hash or zero fill (hw/lib/fill.h) of the physical address. Every expected
 * count follows from trace_scan.h's rule: a byte read in kernel k may hold the value
 * of the last kernel j < k that stored it (the fill if none did), or kernel k's own
 * value when k stores it too; a byte an atomic touches may hold anything. Where a test
 * needs two candidate values to differ, it checks that they do first. Runs in the
 * source root. */
#include "hw/core/core_check.h"
#include "hw/core/core_value.h"
#include "tests/unit/harness.h"

#define TRACE "tests/unit/core/data/check"
/* The physical address the tests' virtual line 0x10000 maps to: not the virtual one,
 * so a fill of the wrong address is told apart. */
#define PA 0x2340000ull

static const TraceScan *scan;

/* Wrong bytes of a one-byte response of value v at vaddr (physical PA + vaddr's offset
 * from 0x10000) in kernel k, hash fill. */
static uint32_t one(uint32_t k, uint64_t vaddr, uint8_t v)
{
    return core_check_read(scan, k, vaddr, PA + (vaddr - 0x10000), &v, 1, NULL,
                           FILL_HASH);
}

static uint8_t fill_at(uint64_t vaddr)
{
    return fill_byte(FILL_HASH, PA + (vaddr - 0x10000));
}

static void test_older_kernel(void)
{
    /* 0x10001 is stored in kernel 0 only; read in kernel 1. */
    uint64_t a = 0x10001;
    CHECK(core_value(a, 0) != fill_at(a) && core_value(a, 2) != core_value(a, 0));
    CHECK_EQ_U64(one(1, a, core_value(a, 0)), 0);
    CHECK_EQ_U64(one(1, a, fill_at(a)), 1);
    CHECK_EQ_U64(one(1, a, core_value(a, 2)), 1);
    /* In kernel 0 itself, before or after its store: fill or its own value. */
    CHECK_EQ_U64(one(0, a, fill_at(a)), 0);
    CHECK_EQ_U64(one(0, a, core_value(a, 0)), 0);
    CHECK_EQ_U64(one(0, a, core_value(a, 1)), 1);
}

static void test_last_writer(void)
{
    /* 0x10102 is stored in kernels 0 and 2; read in kernel 3 only kernel 2's value
     * is right, read in kernel 1 only kernel 0's. */
    uint64_t a = 0x10102;
    CHECK(core_value(a, 0) != core_value(a, 2) && core_value(a, 2) != fill_at(a));
    CHECK_EQ_U64(one(3, a, core_value(a, 2)), 0);
    CHECK_EQ_U64(one(3, a, core_value(a, 0)), 1);
    CHECK_EQ_U64(one(3, a, fill_at(a)), 1);
    CHECK_EQ_U64(one(1, a, core_value(a, 0)), 0);
    CHECK_EQ_U64(one(1, a, core_value(a, 2)), 1);
}

static void test_reading_kernel_writes(void)
{
    /* 0x10012 is stored in kernels 0 and 1: read in kernel 1 both values pass (the
     * CTAs of one kernel are not ordered), the fill does not. */
    uint64_t a = 0x10012;
    CHECK(core_value(a, 0) != core_value(a, 1) && fill_at(a) != core_value(a, 0) &&
          fill_at(a) != core_value(a, 1));
    CHECK_EQ_U64(one(1, a, core_value(a, 0)), 0);
    CHECK_EQ_U64(one(1, a, core_value(a, 1)), 0);
    CHECK_EQ_U64(one(1, a, fill_at(a)), 1);
    /* 0x10301 is stored in kernel 1 only: read in 1, the fill and kernel 1's value. */
    uint64_t b = 0x10301;
    CHECK(core_value(b, 1) != fill_at(b) && core_value(b, 0) != fill_at(b) &&
          core_value(b, 0) != core_value(b, 1));
    CHECK_EQ_U64(one(1, b, fill_at(b)), 0);
    CHECK_EQ_U64(one(1, b, core_value(b, 1)), 0);
    CHECK_EQ_U64(one(1, b, core_value(b, 0)), 1);
}

static void test_atomics_unchecked(void)
{
    /* RED at 0x10200 (kernel 0) and ATOMG at 0x10400 (kernel 2): any byte passes in
     * every kernel; 0x10204, beside the RED's 4 bytes, is checked. */
    for (uint32_t k = 0; k < 4; k++) {
        for (unsigned v = 0; v < 256; v += 51) {
            CHECK_EQ_U64(one(k, 0x10203, (uint8_t)v), 0);
            CHECK_EQ_U64(one(k, 0x10400, (uint8_t)v), 0);
        }
    }
    uint8_t wrong = (uint8_t)(fill_at(0x10204) + 1);
    CHECK_EQ_U64(one(3, 0x10204, wrong), 1);
}

static void test_unwritten_fill(void)
{
    /* 0x10800 is never stored: the fill of the physical address, not of the virtual
     * one; with the zero fill, 0. */
    uint64_t a = 0x10800;
    CHECK(fill_at(a) != fill_byte(FILL_HASH, a));
    CHECK_EQ_U64(one(3, a, fill_at(a)), 0);
    CHECK_EQ_U64(one(3, a, fill_byte(FILL_HASH, a)), 1);
    uint8_t zero = 0;
    CHECK_EQ_U64(core_check_read(scan, 3, a, PA + 0x800, &zero, 1, NULL, FILL_ZERO), 0);
    uint8_t one_byte = 1;
    CHECK_EQ_U64(core_check_read(scan, 3, a, PA + 0x800, &one_byte, 1, NULL, FILL_ZERO),
                 1);
}

static void test_response(void)
{
    /* 16 bytes from 0x10000 read in kernel 1: bytes 0..3 and 0x10..0x17 are outside;
     * 0..3 kernel 0's values, 4..15 the fill. */
    uint8_t data[16], be[16];
    for (uint32_t i = 0; i < 16; i++) {
        data[i] = i < 4 ? core_value(0x10000 + i, 0) : fill_at(0x10000 + i);
        be[i] = 0xff;
    }
    CHECK_EQ_U64(core_check_read(scan, 1, 0x10000, PA, data, 16, NULL, FILL_HASH), 0);
    data[2] ^= 0x5a;
    data[9] ^= 0x01;
    CHECK_EQ_U64(core_check_read(scan, 1, 0x10000, PA, data, 16, NULL, FILL_HASH), 2);
    CHECK_EQ_U64(core_check_read(scan, 1, 0x10000, PA, data, 16, be, FILL_HASH), 2);
    be[9] = 0;
    CHECK_EQ_U64(core_check_read(scan, 1, 0x10000, PA, data, 16, be, FILL_HASH), 1);
    /* 8 bytes from 0x1057c across two lines, stored in kernel 2, read in 3. */
    uint8_t cross[8];
    uint32_t differ = 0;
    for (uint32_t i = 0; i < 8; i++) {
        cross[i] = core_value(0x1057c + i, 2);
        differ += cross[i] != fill_at(0x1057c + i);
    }
    CHECK_EQ_U64(core_check_read(scan, 3, 0x1057c, PA + 0x57c, cross, 8, NULL, FILL_HASH),
                 0);
    for (uint32_t i = 0; i < 8; i++) {
        cross[i] = fill_at(0x1057c + i);
    }
    CHECK_EQ_U64(core_check_read(scan, 3, 0x1057c, PA + 0x57c, cross, 8, NULL, FILL_HASH),
                 differ);
    CHECK(differ > 0);
}

static void test_unwritten_lines(void)
{
    /* 256 bytes from 0x10800: lines 0x10800 and 0x10880, which no kernel stores to,
     * read in kernel 3: every byte the fill of its physical address. */
    uint8_t data[256], be[256];
    for (uint32_t i = 0; i < 256; i++) {
        data[i] = fill_at(0x10800 + i);
        be[i] = 0xff;
    }
    CHECK_EQ_U64(core_check_read(scan, 3, 0x10800, PA + 0x800, data, 256, be, FILL_HASH),
                 0);
    data[7] ^= 0x80;
    data[200] ^= 0x01;
    CHECK_EQ_U64(core_check_read(scan, 3, 0x10800, PA + 0x800, data, 256, be, FILL_HASH),
                 2);
    be[200] = 0;
    CHECK_EQ_U64(core_check_read(scan, 3, 0x10800, PA + 0x800, data, 256, be, FILL_HASH),
                 1);
    /* The fill of the virtual address is wrong in the second line too. */
    data[7] ^= 0x80;
    data[130] = fill_byte(FILL_HASH, 0x10800 + 130);
    CHECK(data[130] != fill_at(0x10800 + 130));
    CHECK_EQ_U64(core_check_read(scan, 3, 0x10800, PA + 0x800, data, 256, be, FILL_HASH),
                 1);
    /* 256 bytes from 0x10580: bytes 0..3 stored in kernel 2, the rest of that line and
     * all of line 0x10600 never stored; a wrong byte in the second line counts. */
    for (uint32_t i = 0; i < 256; i++) {
        data[i] = i < 4 ? core_value(0x10580 + i, 2) : fill_at(0x10580 + i);
    }
    CHECK_EQ_U64(
        core_check_read(scan, 3, 0x10580, PA + 0x580, data, 256, NULL, FILL_HASH), 0);
    data[129] ^= 0x10;
    CHECK_EQ_U64(
        core_check_read(scan, 3, 0x10580, PA + 0x580, data, 256, NULL, FILL_HASH), 1);
}

int main(void)
{
    SimError err;
    scan = trace_scan_get(TRACE, false, &err);
    if (!scan) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    RUN(test_older_kernel);
    RUN(test_last_writer);
    RUN(test_reading_kernel_writes);
    RUN(test_atomics_unchecked);
    RUN(test_unwritten_fill);
    RUN(test_response);
    RUN(test_unwritten_lines);
    trace_scan_put(scan);
    return harness_report();
}
