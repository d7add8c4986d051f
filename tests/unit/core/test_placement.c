/* Unit tests of page placement (hw/core/placement.c). Expected homes and frames are
 * worked by hand from SPEC.md 6.5: page number = address / page, interleave = page
 * number mod N, split part = floor(offset N / bytes), frames per home in first-use
 * order, physical address = frame x page + offset in the page. */
#include "hw/core/placement.h"
#include "tests/unit/harness.h"

static Placement *make(PlacePolicy p, uint32_t n, uint64_t page)
{
    SimError err;
    Placement *pl = placement_new(p, n, page, &err);
    CHECK(pl != NULL);
    return pl;
}

static void test_w7_interleave(void)
{
    /* W7: 0x7f0000003000 is page 0x7f0000003, 0x7f0000003 mod 4 = 3. */
    Placement *pl = make(PLACE_INTERLEAVE, 4, 4096);
    PlaceAddr a = placement_translate(pl, 0x7f0000003000ull, 0);
    CHECK_EQ_U64(a.home, 3);
    CHECK_EQ_U64(a.paddr, 0);
    /* Same page: same frame, offset 0xabc. */
    a = placement_translate(pl, 0x7f0000003abcull, 1);
    CHECK_EQ_U64(a.home, 3);
    CHECK_EQ_U64(a.paddr, 0xabc);
    /* Page 0x7f0000007 is also home 3, its second page: frame 1. */
    a = placement_translate(pl, 0x7f0000007010ull, 2);
    CHECK_EQ_U64(a.home, 3);
    CHECK_EQ_U64(a.paddr, 0x1010);
    /* Page 0x7f0000004: home 0, its first page. */
    a = placement_translate(pl, 0x7f0000004008ull, 3);
    CHECK_EQ_U64(a.home, 0);
    CHECK_EQ_U64(a.paddr, 0x8);
    CHECK_EQ_U64(placement_pages(pl, 3), 2);
    CHECK_EQ_U64(placement_pages(pl, 0), 1);
    CHECK_EQ_U64(placement_pages(pl, 1), 0);
    placement_free(pl);
}

static void test_frames_in_first_use_order(void)
{
    /* Pages 8, 4, 0 (all home 0 of 4) used in that order get frames 0, 1, 2;
     * 256 B pages: page 8 = 0x800. */
    Placement *pl = make(PLACE_INTERLEAVE, 4, 256);
    CHECK_EQ_U64(placement_translate(pl, 0x800, 0).paddr, 0x000);
    CHECK_EQ_U64(placement_translate(pl, 0x410, 0).paddr, 0x110);
    CHECK_EQ_U64(placement_translate(pl, 0x0ff, 0).paddr, 0x2ff);
    CHECK_EQ_U64(placement_translate(pl, 0x8ff, 0).paddr, 0x0ff);
    placement_free(pl);
}

static void test_split(void)
{
    /* 64 KiB at 0x10000 on 4 GPUs: 16 KiB parts. 0x1b000 is offset 0xb000,
     * floor(0xb000 * 4 / 0x10000) = 2. 0x5000 is outside: page 5 mod 4 = 1. */
    SimError err;
    Placement *pl = make(PLACE_SPLIT, 4, 4096);
    CHECK(placement_add_alloc(pl, 0x10000, 0x10000, &err));
    CHECK_EQ_U64(placement_translate(pl, 0x10000, 3).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x13fff, 3).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x14000, 0).home, 1);
    CHECK_EQ_U64(placement_translate(pl, 0x1b000, 0).home, 2);
    CHECK_EQ_U64(placement_translate(pl, 0x1fff8, 0).home, 3);
    CHECK_EQ_U64(placement_translate(pl, 0x5000, 0).home, 1);
    /* Home 0 got pages 0x10 (0x10000) then 0x13 (0x13fff): frames 0 and 1. */
    CHECK_EQ_U64(placement_translate(pl, 0x13004, 0).paddr, 0x1004);
    placement_free(pl);
}

static void test_split_page_straddles_parts(void)
{
    /* 12 KiB at 0x20800 on 4 GPUs: 3 KiB parts from 0x20800, 0x21400, 0x22000,
     * 0x22c00. Page 0x20000's lowest byte in the allocation is 0x20800 -> part 0; page
     * 0x21000's is 0x21000 (offset 0x800 -> floor(0x2000 / 0x3000) = 0), so 0x21f00,
     * in part 1 by bytes, is on GPU 0 with its page. Page 0x22000: offset 0x1800 ->
     * 2; page 0x23000: offset 0x2800 -> floor(0xa000 / 0x3000) = 3. */
    SimError err;
    Placement *pl = make(PLACE_SPLIT, 4, 4096);
    CHECK(placement_add_alloc(pl, 0x20800, 0x3000, &err));
    CHECK_EQ_U64(placement_translate(pl, 0x20000, 1).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x21f00, 1).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x22000, 1).home, 2);
    CHECK_EQ_U64(placement_translate(pl, 0x23000, 1).home, 3);
    placement_free(pl);
}

static void test_split_two_allocations(void)
{
    /* 8 KiB at 0x0 and 16 KiB at 0x100000 on 2 GPUs: 4 KiB and 8 KiB parts. 0x1000 ->
     * GPU 1; 0x101000 -> GPU 0; 0x102000 -> GPU 1. An empty allocation is ignored. */
    SimError err;
    Placement *pl = make(PLACE_SPLIT, 2, 4096);
    CHECK(placement_add_alloc(pl, 0x0, 0x2000, &err));
    CHECK(placement_add_alloc(pl, 0x100000, 0x4000, &err));
    CHECK(placement_add_alloc(pl, 0x200000, 0, &err));
    CHECK_EQ_U64(placement_translate(pl, 0x1000, 0).home, 1);
    CHECK_EQ_U64(placement_translate(pl, 0x101000, 1).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x102000, 0).home, 1);
    /* 0x200000 is page 0x200: interleaves to 0x200 mod 2 = 0. */
    CHECK_EQ_U64(placement_translate(pl, 0x200000, 1).home, 0);
    placement_free(pl);
}

static void test_first_touch(void)
{
    /* GPU 2 asks first for page 0x40: home 2 for everyone after. */
    Placement *pl = make(PLACE_FIRST_TOUCH, 4, 4096);
    PlaceAddr a = placement_translate(pl, 0x40010, 2);
    CHECK_EQ_U64(a.home, 2);
    CHECK_EQ_U64(a.paddr, 0x10);
    a = placement_translate(pl, 0x40020, 0);
    CHECK_EQ_U64(a.home, 2);
    CHECK_EQ_U64(a.paddr, 0x20);
    /* GPU 0 then takes page 0x41 as its frame 0; GPU 2 page 0x99 as its frame 1. */
    CHECK_EQ_U64(placement_translate(pl, 0x41000, 0).home, 0);
    a = placement_translate(pl, 0x99000, 2);
    CHECK_EQ_U64(a.home, 2);
    CHECK_EQ_U64(a.paddr, 0x1000);
    placement_free(pl);
}

static void test_ladm_plans(void)
{
    /* ladm: a planned page goes to its planned home; the first plan wins; a page
     * without a plan is placed as under split (64 KiB at 0x10000 on 4 GPUs: 16 KiB
     * parts, 0x1b000 -> part 2; 0x6000 outside -> page 6 mod 4 = 2). */
    SimError err;
    Placement *pl = make(PLACE_LADM, 4, 4096);
    CHECK(placement_add_alloc(pl, 0x10000, 0x10000, &err));
    placement_plan(pl, 0x10fff, 3);
    placement_plan(pl, 0x10000, 1);
    placement_plan(pl, 0x5000, 2);
    PlaceAddr a = placement_translate(pl, 0x10010, 0);
    CHECK_EQ_U64(a.home, 3);
    CHECK_EQ_U64(a.paddr, 0x10);
    CHECK_EQ_U64(placement_translate(pl, 0x5000, 0).home, 2);
    CHECK_EQ_U64(placement_translate(pl, 0x1b000, 0).home, 2);
    CHECK_EQ_U64(placement_translate(pl, 0x6000, 0).home, 2);
    /* A page placed before its plan keeps its home: 0x1b000 stays on 2 (frame 1 of
     * home 2, after 0x5000), 0x10000 on 3. */
    placement_plan(pl, 0x1b000, 0);
    placement_plan(pl, 0x10000, 0);
    a = placement_translate(pl, 0x1b004, 1);
    CHECK_EQ_U64(a.home, 2);
    CHECK_EQ_U64(a.paddr, 0x1004);
    CHECK_EQ_U64(placement_translate(pl, 0x10000, 1).home, 3);
    placement_free(pl);
}

static void test_page_size(void)
{
    /* 2 MiB pages on 4 GPUs: 0x7f0000003000 is page 0x3f80000, mod 4 = 0; 0x600000 is
     * page 3 -> home 3. */
    Placement *pl = make(PLACE_INTERLEAVE, 4, 2u << 20);
    CHECK_EQ_U64(placement_translate(pl, 0x7f0000003000ull, 0).home, 0);
    CHECK_EQ_U64(placement_translate(pl, 0x600000, 0).home, 3);
    placement_free(pl);
}

static void test_bad_input(void)
{
    SimError err;
    CHECK(placement_new(PLACE_INTERLEAVE, 4, 3000, &err) == NULL);
    CHECK_STR(err.msg, "page size 3000 is not a power of two from 128 B to 1 GiB");
    CHECK(placement_new(PLACE_INTERLEAVE, 4, 64, &err) == NULL);
    CHECK(placement_new(PLACE_INTERLEAVE, 0, 4096, &err) == NULL);
    CHECK_STR(err.msg, "placement over 0 GPUs: the GPU count must be 1..4096");
    Placement *pl = make(PLACE_SPLIT, 4, 4096);
    CHECK(!placement_add_alloc(pl, UINT64_MAX - 4095, 8192, &err));
    CHECK_STR(err.msg, "allocation of 8192 bytes at 0xfffffffffffff000 runs past the end "
                       "of the address space");
    placement_free(pl);
    PlacePolicy p;
    CHECK(placement_parse_policy("first_touch", &p, &err));
    CHECK_EQ_U64(p, PLACE_FIRST_TOUCH);
    CHECK(placement_parse_policy("ladm", &p, &err));
    CHECK_EQ_U64(p, PLACE_LADM);
    CHECK(!placement_parse_policy("ladm2", &p, &err));
    CHECK_STR(err.msg,
              "unknown placement \"ladm2\" (interleave, split, first_touch, ladm)");
}

int main(void)
{
    RUN(test_w7_interleave);
    RUN(test_frames_in_first_use_order);
    RUN(test_split);
    RUN(test_split_page_straddles_parts);
    RUN(test_split_two_allocations);
    RUN(test_first_touch);
    RUN(test_ladm_plans);
    RUN(test_page_size);
    RUN(test_bad_input);
    return harness_report();
}
