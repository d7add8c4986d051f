/* Unit tests of the cores' control messages (hw/core/core_msg.c): a launch and a CTA
 * survive encoding byte for byte, the layout is the documented little-endian one, a
 * CTA's shared-memory and constant accesses go without width and addresses, and
 * malformed encodings are refused. */
#include <stdlib.h>
#include <string.h>

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
    size_t n = core_cta_size(&c);
    /* 16 head + 2 x 16 warp heads + 3 x 48 instructions + 2 x 8 addresses. */
    CHECK_EQ_U64(n, 16 + 32 + 144 + 16);
    uint8_t *buf = malloc(n);
    core_cta_encode(&c, buf);
    AtsCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    CHECK_EQ_U64(back.x, 1);
    CHECK_EQ_U64(back.z, 3);
    CHECK_EQ_U64(back.nwarps, 2);
    CHECK_EQ_U64(back.warps[0].ninst, 2);
    CHECK(memcmp(&back.warps[0].inst[0], &c.warps[0].inst[0], sizeof(AtsInst)) == 0);
    CHECK(memcmp(&back.warps[1].inst[0], &c.warps[1].inst[0], sizeof(AtsInst)) == 0);
    CHECK_EQ_U64(back.warps[0].addrs[1], 0x1004);
    ats_cta_free(&back);
    /* One byte short, one extra byte, a class out of range, an address range outside
     * the pool: all refused. */
    CHECK(!core_cta_decode(buf, n - 1, &back, &err));
    uint8_t *longer = calloc(1, n + 1);
    memcpy(longer, buf, n);
    CHECK(!core_cta_decode(longer, n + 1, &back, &err));
    CHECK_STR(err.msg, "cta: 209 data bytes, the warps take 208");
    free(longer);
    buf[48 + 24] = ATS_CLASS_COUNT;
    CHECK(!core_cta_decode(buf, n, &back, &err));
    buf[48 + 24] = ATS_LDG;
    buf[48 + 20] = 1; /* addr_off 1 + 2 lanes > 2 addresses */
    CHECK(!core_cta_decode(buf, n, &back, &err));
    CHECK_STR(err.msg, "cta: warp 0 instruction 0 is malformed");
    CHECK(!core_cta_decode(NULL, 0, &back, &err));
    free(buf);
    ats_cta_free(&c);
}

/* One warp: an LDS of 4 lanes, an LDC of 1, then an STG of 2 lanes. The message keeps
 * only the STG's 2 addresses (at offset 0 of its pool), the LDS and LDC go with width
 * 0: 16 head + 16 warp head + 3 x 48 instructions + 2 x 8 addresses = 192 bytes, not
 * the 232 that all 7 addresses would take. */
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
    size_t n = core_cta_size(&c);
    CHECK_EQ_U64(n, 192);
    uint8_t *buf = malloc(n);
    core_cta_encode(&c, buf);
    AtsCta back;
    SimError err;
    CHECK(core_cta_decode(buf, n, &back, &err));
    const AtsWarp *b = &back.warps[0];
    CHECK_EQ_U64(b->naddrs, 2);
    CHECK_EQ_U64(b->inst[0].width, 0);
    CHECK_EQ_U64(b->inst[0].mask, 0xf);
    CHECK_EQ_U64(b->inst[1].width, 0);
    CHECK_EQ_U64(b->inst[2].width, 8);
    CHECK_EQ_U64(b->inst[2].addr_off, 0);
    CHECK_EQ_U64(b->addrs[0], 0x1500);
    CHECK_EQ_U64(b->addrs[1], 0x1600);
    CHECK(core_cta_sends(ATS_LDL) && core_cta_sends(ATS_RED) && !core_cta_sends(ATS_STS));
    ats_cta_free(&back);
    free(buf);
    ats_cta_free(&c);
}

int main(void)
{
    RUN(test_launch_round_trip);
    RUN(test_cta_round_trip);
    RUN(test_cta_keeps_sent_addresses);
    return harness_report();
}
