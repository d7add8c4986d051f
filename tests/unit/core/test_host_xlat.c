/* Unit tests of the host's translation service (hw/core/host_xlat.c): every expected
 * address is worked by hand below from SPEC.md 6.5 and host_xlat.h. M = 1 MiB
 * (0x100000) per GPU and 4 KiB pages, so each GPU holds F = 256 frames. */
#include "hw/core/host_xlat.h"
#include "tests/unit/harness.h"

#define MIB 0x100000ull

static void init(HostXlat *x, PlacePolicy p, uint32_t n, uint64_t mem)
{
    SimError err;
    CHECK(host_xlat_init(x, p, n, 4096, mem, &err));
}

/* W7: N = 4, interleave: 0x7f0000003abc is page 0x7f0000003, home 3 (mod 4), its
 * first frame: 3 M + 0xabc. Page 0x7f0000007 is home 3's second page: frame 1. */
static void test_interleave(void)
{
    HostXlat x;
    init(&x, PLACE_INTERLEAVE, 4, MIB);
    HostXlatAddr a = host_xlat_translate(&x, 0x7f0000003abc, false, 0);
    CHECK_EQ_U64(a.paddr, 3 * MIB + 0xabc);
    CHECK(a.fresh && !a.oom);
    a = host_xlat_translate(&x, 0x7f0000007000, false, 1);
    CHECK_EQ_U64(a.paddr, 3 * MIB + 0x1000);
    a = host_xlat_translate(&x, 0x7f0000003000, false, 2);
    CHECK_EQ_U64(a.paddr, 3 * MIB);
    CHECK(!a.fresh);
    host_xlat_free(&x);
}

/* split: allocation [0x10000, 0x18000) on 4 GPUs is cut in parts of 0x2000 bytes, part
 * k on GPU k. 0x16000 is in part 3 (first on 3: frame 0), 0x10000 part 0, 0x12000
 * part 1, 0x17000 part 3 again (frame 1); 0x20000 is outside: page 0x20 mod 4 = 0,
 * GPU 0's second page (frame 1). */
static void test_split(void)
{
    HostXlat x;
    SimError err;
    init(&x, PLACE_SPLIT, 4, MIB);
    CHECK(host_xlat_add_alloc(&x, 0x10000, 0x8000, &err));
    CHECK_EQ_U64(host_xlat_translate(&x, 0x16004, false, 0).paddr, 3 * MIB + 4);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x10000, false, 0).paddr, 0);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x12000, false, 0).paddr, MIB);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x17000, false, 0).paddr, 3 * MIB + 0x1000);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x20000, false, 0).paddr, 0x1000);
    host_xlat_free(&x);
}

/* first_touch: frames in first-use order per home: GPU 2 asks 0x5000 (home 2, frame
 * 0), GPU 1 asks 0x9000 (home 1, frame 0), GPU 2 asks 0x1000 (home 2, frame 1); GPU 0
 * asking 0x5000 later gets GPU 2's page. */
static void test_first_touch(void)
{
    HostXlat x;
    init(&x, PLACE_FIRST_TOUCH, 4, MIB);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x5000, false, 2).paddr, 2 * MIB);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x9000, false, 1).paddr, MIB);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x1000, false, 2).paddr, 2 * MIB + 0x1000);
    HostXlatAddr a = host_xlat_translate(&x, 0x5010, false, 0);
    CHECK_EQ_U64(a.paddr, 2 * MIB + 0x10);
    CHECK(!a.fresh);
    host_xlat_free(&x);
}

/* local pages: from the top of the asking GPU's memory down, private per GPU. GPU 1's
 * first local page is frame F - 1 = 255 (offset 0xff000), its second 254 (0xfe000);
 * GPU 2 asking the same virtual page gets its own frame 255. */
static void test_local(void)
{
    HostXlat x;
    init(&x, PLACE_INTERLEAVE, 4, MIB);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x7f1002000040, true, 1).paddr,
                 MIB + 0xff000 + 0x40);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x7f1002001000, true, 1).paddr, MIB + 0xfe000);
    CHECK_EQ_U64(host_xlat_translate(&x, 0x7f1002000000, true, 2).paddr,
                 2 * MIB + 0xff000);
    HostXlatAddr a = host_xlat_translate(&x, 0x7f1002000008, true, 1);
    CHECK_EQ_U64(a.paddr, MIB + 0xff008);
    CHECK(!a.fresh);
    /* a global page of the same number is another page: home 0x7f1002000 mod 4 = 0 */
    CHECK_EQ_U64(host_xlat_translate(&x, 0x7f1002000000, false, 1).paddr, 0);
    host_xlat_free(&x);
}

/* oom: 8 KiB per GPU holds F = 2 frames. On 2 GPUs, interleave: page 0 (home 0) frame
 * 0; GPU 0's local page frame F - 1 = 1; page 2 (home 0) is global frame 1: 2 + 1 > 2,
 * oom, wrapped to 1 mod 2 = 1 (0x1000); page 4 (home 0, whoever asks) is frame 2,
 * wrapped to 0. Page 1 is home 1's first page: no oom, 1 x 0x2000 + frame 0. */
static void test_oom(void)
{
    HostXlat x;
    init(&x, PLACE_INTERLEAVE, 2, 0x2000);
    HostXlatAddr a = host_xlat_translate(&x, 0x0, false, 0);
    CHECK(!a.oom && a.paddr == 0);
    a = host_xlat_translate(&x, 0x7000, true, 0);
    CHECK(!a.oom && a.paddr == 0x1000);
    a = host_xlat_translate(&x, 0x2000, false, 0);
    CHECK(a.oom);
    CHECK_EQ_U64(a.paddr, 0x1000);
    a = host_xlat_translate(&x, 0x4010, false, 1);
    CHECK(a.oom);
    CHECK_EQ_U64(a.paddr, 0x10);
    a = host_xlat_translate(&x, 0x1000, false, 1);
    CHECK(!a.oom);
    CHECK_EQ_U64(a.paddr, 0x2000);
    /* a page already placed is never counted again */
    CHECK(!host_xlat_translate(&x, 0x2000, false, 0).oom);
    host_xlat_free(&x);
}

static void test_errors(void)
{
    HostXlat x;
    SimError err;
    CHECK(!host_xlat_init(&x, PLACE_INTERLEAVE, 4, 4096, 2048, &err));
    CHECK(strstr(err.msg, "holds no 4096-byte page") != NULL);
    CHECK(!host_xlat_init(&x, PLACE_INTERLEAVE, 4, 3000, MIB, &err));
    CHECK(strstr(err.msg, "page size 3000") != NULL);
}

int main(void)
{
    RUN(test_interleave);
    RUN(test_split);
    RUN(test_first_touch);
    RUN(test_local);
    RUN(test_oom);
    RUN(test_errors);
    return harness_report();
}
