/* Unit tests of the cores' control messages (hw/core/core_msg.c, core_cta.c): a launch
 * and a CTA survive encoding byte for byte, the layout is the documented little-endian
 * one, a CTA's shared-memory and constant accesses go without width and addresses, its
 * equal instructions share a table entry, and malformed encodings are refused. */
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/core_msg.h"
#include "tests/unit/harness.h"

static void test_launch_round_trip(void)
{
    CoreLaunch l = {.kernel = 3,
                    .grid = {10, 2, 1},
                    .block = {256, 1, 1},
                    .nregs = 30,
                    .shmem = 8192,
                    .hint = 1,
                    .shmem_base = 0x7f0000000000ull,
                    .local_base = 0x7f0100000000ull};
    uint8_t buf[CORE_LAUNCH_BYTES];
    core_launch_encode(&l, buf);
    /* kernel is the first little-endian word; shmem_base starts at byte 40. */
    CHECK_EQ_U64(buf[0], 3);
    CHECK_EQ_U64(buf[1], 0);
    CHECK_EQ_U64(buf[45], 0x7f);
    CoreLaunch back;
    SimError err;
    CHECK(core_launch_decode(buf, sizeof buf, &back, &err));
    CHECK(memcmp(&l, &back, sizeof l) == 0);
    CHECK(!core_launch_decode(buf, sizeof buf - 1, &back, &err));
    CHECK_STR(err.msg, "launch: 55 data bytes, expected 56");
}

/* A CTA of two warps: an LDG of 2 lanes and an EXIT; an IADD only. */
static AtsCta sample(void)
{
    AtsCta c = {.x = 1, .y = 2, .z = 3, .nwarps = 2};
    c.warps = calloc(2, sizeof *c.warps);
    AtsWarp *w0 = &c.warps[0];
    w0->ninst = 2;
    w0->inst = calloc(2, sizeof *w0->inst);
    w0->inst[0] = (AtsInst){.pc = 0x10,
                            .mask = 0x3,
                            .cls = ATS_LDG,
                            .ndst = 1,
                            .dst = {4},
                            .nsrc = 1,
                            .src = {2},
                            .width = 4};
    w0->inst[1] = (AtsInst){.pc = 0x20, .mask = 0xffffffff, .cls = ATS_EXIT};
    w0->naddrs = 2;
    w0->addrs = calloc(2, sizeof *w0->addrs);
    w0->addrs[0] = 0x1000;
    w0->addrs[1] = 0x1004;
    AtsWarp *w1 = &c.warps[1];
    w1->ninst = 1;
    w1->inst = calloc(1, sizeof *w1->inst);
    w1->inst[0] = (AtsInst){
        .pc = 0x30, .mask = 1, .line = 7, .cls = ATS_INT, .ndst = 1, .dst = {255}};
    return c;
}

static void test_cta_round_trip(void)
{
    AtsCta c = sample();
    size_t n;
    uint8_t *buf = core_cta_message(&c, &n);
    /* 20 head + 2 x 16 warp heads + 3 x 48 instructions (all distinct) + 3 x 4
     * indices + 2 x 8 addresses. */
    CHECK_EQ_U64(n, 20 + 32 + 144 + 12 + 16);
    CoreCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    CHECK_EQ_U64(back.x, 1);
    CHECK_EQ_U64(back.z, 3);
    CHECK_EQ_U64(back.nwarps, 2);
    CHECK_EQ_U64(back.ntable, 3);
    CHECK_EQ_U64(back.warps[0].ninst, 2);
    CHECK(memcmp(core_warp_inst(&back.warps[0], 0), &c.warps[0].inst[0],
                 sizeof(AtsInst)) == 0);
    CHECK(memcmp(core_warp_inst(&back.warps[1], 0), &c.warps[1].inst[0],
                 sizeof(AtsInst)) == 0);
    CHECK_EQ_U64(back.warps[0].addrs[1], 0x1004);
    core_cta_free(&back);
    /* One byte short, one extra byte, a class out of range, an address range outside
     * the warp's addresses, an index outside the table: all refused. The table starts
     * at byte 52, the indices at 196. */
    CHECK(!core_cta_decode(buf, n - 1, &back, &err));
    uint8_t *longer = calloc(1, n + 1);
    memcpy(longer, buf, n);
    CHECK(!core_cta_decode(longer, n + 1, &back, &err));
    CHECK_STR(err.msg, "cta: 225 data bytes, the warps take 224");
    free(longer);
    buf[52 + 24] = ATS_CLASS_COUNT;
    CHECK(!core_cta_decode(buf, n, &back, &err));
    CHECK_STR(err.msg, "cta: instruction 0 is malformed");
    buf[52 + 24] = ATS_LDG;
    buf[52 + 20] = 1; /* addr_off 1 + 2 lanes > 2 addresses */
    CHECK(!core_cta_decode(buf, n, &back, &err));
    CHECK_STR(err.msg, "cta: warp 0 has a malformed instruction");
    buf[52 + 20] = 0;
    buf[196] = 3;
    CHECK(!core_cta_decode(buf, n, &back, &err));
    CHECK_STR(err.msg, "cta: warp 0 has a malformed instruction");
    buf[196] = 0;
    CHECK(core_cta_decode(buf, n, &back, &err));
    core_cta_free(&back);
    CHECK(!core_cta_decode(NULL, 0, &back, &err));
    free(buf);
    ats_cta_free(&c);
}

/* One warp: an LDS of 4 lanes, an LDC of 1, then an STG of 2 lanes. The message keeps
 * only the STG's 2 addresses (at offset 0 of its warp's addresses), the LDS and LDC go
 * with width 0: 20 head + 16 warp head + 3 x 48 instructions + 3 x 4 indices + 2 x 8
 * addresses = 208 bytes, not the 248 that all 7 addresses would take. */
static void test_cta_keeps_sent_addresses(void)
{
    AtsCta c = {.nwarps = 1};
    c.warps = calloc(1, sizeof *c.warps);
    AtsWarp *w = &c.warps[0];
    w->ninst = 3;
    w->inst = calloc(3, sizeof *w->inst);
    w->inst[0] = (AtsInst){.pc = 0, .mask = 0xf, .cls = ATS_LDS, .width = 4};
    w->inst[1] =
        (AtsInst){.pc = 16, .mask = 1, .cls = ATS_LDC, .width = 4, .addr_off = 4};
    w->inst[2] =
        (AtsInst){.pc = 32, .mask = 0x5, .cls = ATS_STG, .width = 8, .addr_off = 5};
    w->naddrs = 7;
    w->addrs = calloc(7, sizeof *w->addrs);
    for (size_t i = 0; i < 7; i++) {
        w->addrs[i] = 0x1000 + 0x100 * i;
    }
    size_t n;
    uint8_t *buf = core_cta_message(&c, &n);
    CHECK_EQ_U64(n, 208);
    CoreCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    const CoreWarp *b = &back.warps[0];
    CHECK_EQ_U64(b->naddrs, 2);
    CHECK_EQ_U64(core_warp_inst(b, 0)->width, 0);
    CHECK_EQ_U64(core_warp_inst(b, 0)->mask, 0xf);
    CHECK_EQ_U64(core_warp_inst(b, 1)->width, 0);
    CHECK_EQ_U64(core_warp_inst(b, 2)->width, 8);
    CHECK_EQ_U64(core_warp_inst(b, 2)->addr_off, 0);
    CHECK_EQ_U64(b->addrs[0], 0x1500);
    CHECK_EQ_U64(b->addrs[1], 0x1600);
    CHECK(ats_class_leaves_sm(ATS_LDL) && ats_class_leaves_sm(ATS_RED) &&
          !ats_class_leaves_sm(ATS_STS));
    core_cta_free(&back);
    free(buf);
    ats_cta_free(&c);
}

/* n warps, warp w: an IADD (pc 0x10) of mask[w], an LDG (pc 0x20) of lanes 0 and 1 at
 * 0x1000 + 0x100 w and 0x1004 + 0x100 w, an EXIT (pc 0x30). */
static AtsCta three_inst_warps(size_t n, const uint32_t *mask)
{
    AtsCta c = {.nwarps = n};
    c.warps = calloc(n, sizeof *c.warps);
    for (size_t k = 0; k < n; k++) {
        AtsWarp *w = &c.warps[k];
        w->ninst = 3;
        w->inst = calloc(3, sizeof *w->inst);
        w->inst[0] = (AtsInst){.pc = 0x10,
                               .mask = mask[k],
                               .cls = ATS_INT,
                               .ndst = 1,
                               .dst = {1},
                               .nsrc = 1,
                               .src = {2}};
        w->inst[1] = (AtsInst){
            .pc = 0x20, .mask = 3, .cls = ATS_LDG, .ndst = 1, .dst = {4}, .width = 4};
        w->inst[2] = (AtsInst){.pc = 0x30, .mask = 0xffffffff, .cls = ATS_EXIT};
        w->naddrs = 2;
        w->addrs = calloc(2, sizeof *w->addrs);
        w->addrs[0] = 0x1000 + 0x100 * k;
        w->addrs[1] = 0x1004 + 0x100 * k;
    }
    return c;
}

/* Three warps of the same three instructions but for the IADD's mask: all ones, 0xf,
 * all ones. The LDG and the EXIT are the same bytes in every warp (the LDG's addresses
 * start at 0 in each warp's own list): one entry each. The IADDs take two entries for
 * the first two warps, and the third warp's IADD a third: the memo keeps the last
 * entry of pc 0x10 (the 0xf one), so its equal first entry is not found; a duplicate,
 * not a wrong instruction. Table: IADD, LDG, EXIT, IADD 0xf, IADD again = 5 entries;
 * 20 + 3 x 16 + 5 x 48 + 9 x 4 + 6 x 8 = 392 bytes. */
static void test_cta_interns(void)
{
    const uint32_t mask[3] = {0xffffffff, 0xf, 0xffffffff};
    AtsCta c = three_inst_warps(3, mask);
    size_t n;
    uint8_t *buf = core_cta_message(&c, &n);
    CHECK_EQ_U64(n, 392);
    CoreCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    CHECK_EQ_U64(back.ntable, 5);
    const uint32_t want[3][3] = {{0, 1, 2}, {3, 1, 2}, {4, 1, 2}};
    for (size_t w = 0; w < 3; w++) {
        const CoreWarp *b = &back.warps[w];
        CHECK_EQ_U64(b->ninst, 3);
        for (size_t i = 0; i < 3; i++) {
            CHECK_EQ_U64(b->idx[i], want[w][i]);
            CHECK(memcmp(core_warp_inst(b, i), &c.warps[w].inst[i], sizeof(AtsInst)) ==
                  0);
        }
        CHECK_EQ_U64(b->addrs[core_warp_inst(b, 1)->addr_off + 1], 0x1004 + 0x100 * w);
    }
    core_cta_free(&back);
    free(buf);
    ats_cta_free(&c);
}

/* Two warps whose IADDs differ only in their last source register (byte 41 of the
 * encoding, in its last word): each byte of an entry counts, so the second IADD takes
 * an entry of its own (4 entries) and each warp decodes to its own instruction. */
static void test_cta_interns_whole_entry(void)
{
    const uint32_t mask[2] = {0xffffffff, 0xffffffff};
    AtsCta c = three_inst_warps(2, mask);
    for (size_t k = 0; k < 2; k++) {
        AtsInst *in = &c.warps[k].inst[0];
        in->nsrc = 6;
        memcpy(in->src, (const uint8_t[]){2, 3, 5, 6, 7, 8}, 6);
    }
    c.warps[1].inst[0].src[5] = 9;
    size_t n;
    uint8_t *buf = core_cta_message(&c, &n);
    CoreCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    CHECK_EQ_U64(back.ntable, 4);
    for (size_t w = 0; w < 2; w++) {
        CHECK(memcmp(core_warp_inst(&back.warps[w], 0), &c.warps[w].inst[0],
                     sizeof(AtsInst)) == 0);
    }
    core_cta_free(&back);
    free(buf);
    ats_cta_free(&c);
}

/* One plan, two CTAs: the second's IADD has the bytes of the first's, but the first's
 * table is forgotten, so the second's message has a table of its own (3 entries, index
 * 0 for the IADD) and decodes. */
static void test_cta_plan_reused(void)
{
    const uint32_t mask[1] = {0xffffffff};
    AtsCta c1 = three_inst_warps(1, mask), c2 = three_inst_warps(1, mask);
    c2.x = 9;
    CoreCtaPlan *p = malloc(sizeof *p);
    core_cta_plan_init(p);
    CHECK_EQ_U64(core_cta_plan(p, &c1), 20 + 16 + 3 * 48 + 3 * 4 + 2 * 8);
    size_t n = core_cta_plan(p, &c2);
    CHECK_EQ_U64(n, 20 + 16 + 3 * 48 + 3 * 4 + 2 * 8);
    uint8_t *buf = malloc(n);
    core_cta_encode(p, &c2, buf);
    CoreCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    CHECK_EQ_U64(back.x, 9);
    CHECK_EQ_U64(back.ntable, 3);
    CHECK_EQ_U64(back.warps[0].idx[0], 0);
    core_cta_free(&back);
    free(buf);
    core_cta_plan_free(p);
    free(p);
    ats_cta_free(&c1);
    ats_cta_free(&c2);
}

/* core_cta_from is the message's round trip. */
static void test_cta_from(void)
{
    AtsCta c = sample();
    CoreCta cc;
    core_cta_from(&c, &cc);
    CHECK_EQ_U64(cc.nwarps, 2);
    CHECK_EQ_U64(cc.ntable, 3);
    CHECK(memcmp(core_warp_inst(&cc.warps[0], 1), &c.warps[0].inst[1], sizeof(AtsInst)) ==
          0);
    CHECK_EQ_U64(cc.warps[0].addrs[0], 0x1000);
    core_cta_free(&cc);
    ats_cta_free(&c);
}

int main(void)
{
    RUN(test_launch_round_trip);
    RUN(test_cta_round_trip);
    RUN(test_cta_keeps_sent_addresses);
    RUN(test_cta_interns);
    RUN(test_cta_interns_whole_entry);
    RUN(test_cta_plan_reused);
    RUN(test_cta_from);
    return harness_report();
}
