/* Covers kernel/platform/platform_overlay.c and the extends lists of
 * platform_source.c through platform_load(): overlays applied to a base
 * (tests/unit/platform/data/ovl: one GPU whose wires are named cu, local and remote),
 * splice positions and latencies, the origins of spliced wires, order independence of
 * overlays on different wires, order dependence on the same wire, and a splice
 * skipped because an earlier overlay placed the block. Expected values are read off
 * the data files by hand (docs/composition.md). */
#include "kernel/platform/platform_priv.h"
#include "support.h"

static bool load(const char *path, PlatformDesc *d)
{
    SimError err;
    if (!support_load(path, NULL, d, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(false);
        return false;
    }
    return true;
}

/* [base, rwq]: rwq between the crossbar and the RDMA engine; the new first hop has
 * the splice's 2ns, the hop into rdma keeps the wire's 5ns. */
static void test_splice(void)
{
    PlatformDesc d;
    if (!load("ovl/s-rwq.json", &d)) {
        return;
    }
    const char *want[] = {
        "gpu0.cu[0].mem <-> gpu0.xbar.cu[0] @1000",
        "gpu0.cu[1].mem <-> gpu0.xbar.cu[1] @1000",
        "gpu0.xbar.local <-> gpu0.mem.in @0",
        "gpu0.xbar.remote <-> gpu0.rwq.up @2000",
        "gpu0.rwq.down <-> gpu0.rdma.gpu @5000",
        "gpu0.rdma.net <-> gpu0.link.a @0",
    };
    CHECK_EQ_U64(d.nwires, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK_STR(support_wire(&d, i), want[i]);
    }
    CHECK_STR(d.wires[3].origin, "ovl/rwq.json: /gpu/splice/0");
    CHECK_STR(d.wires[4].origin, "ovl/rwq.json: /gpu/splice/0");
    CHECK_STR(d.wires[2].origin, "ovl/base.json: /gpu/wires/1");
    CHECK_STR(platform_desc_find(&d, "gpu0.rwq")->origin,
              "ovl/rwq.json: /gpu/blocks/rwq");
    CHECK_STR(d.inst[d.ninst - 1].name, "gpu0.rwq");
    platform_desc_free(&d);
}

/* rwq (remote) and l2 (local, plus two blocks and a wire of its own) in either order:
 * the same instances and wires; added blocks and wires grouped by overlay name (l2
 * before rwq). */
static void test_order_independent(void)
{
    PlatformDesc a, b;
    if (!load("ovl/s-rwq-l2.json", &a)) {
        return;
    }
    if (!load("ovl/s-l2-rwq.json", &b)) {
        platform_desc_free(&a);
        return;
    }
    const char *names[] = {"gpu0.cu[0]", "gpu0.cu[1]", "gpu0.xbar", "gpu0.mem",
                           "gpu0.rdma",  "gpu0.link",  "gpu0.l2",   "gpu0.gen",
                           "gpu0.m2",    "gpu0.rwq"};
    CHECK_EQ_U64(a.ninst, sizeof names / sizeof names[0]);
    CHECK_EQ_U64(b.ninst, a.ninst);
    for (size_t i = 0; i < a.ninst && i < b.ninst; i++) {
        CHECK_STR(a.inst[i].name, names[i]);
        CHECK_STR(b.inst[i].name, names[i]);
    }
    CHECK_EQ_U64(a.nwires, 8);
    CHECK_EQ_U64(b.nwires, a.nwires);
    for (size_t i = 0; i < a.nwires && i < b.nwires; i++) {
        char wa[512];
        snprintf(wa, sizeof wa, "%s", support_wire(&a, i));
        CHECK_STR(support_wire(&b, i), wa);
    }
    CHECK_STR(support_wire(&a, 2), "gpu0.xbar.local <-> gpu0.l2.up @0");
    CHECK_STR(support_wire(&a, 3), "gpu0.l2.mem <-> gpu0.mem.in @0");
    CHECK_STR(support_wire(&a, 7), "gpu0.gen.mem <-> gpu0.m2.in @3000");
    CHECK_STR(a.wires[7].origin, "ovl/l2.json: /gpu/wires/0");
    platform_desc_free(&a);
    platform_desc_free(&b);
}

/* rwq and packetizer both splice into remote: the one listed later is nearer rdma. */
static void test_same_wire(void)
{
    PlatformDesc a, b;
    if (!load("ovl/s-rwq-pk.json", &a)) {
        return;
    }
    if (!load("ovl/s-pk-rwq.json", &b)) {
        platform_desc_free(&a);
        return;
    }
    CHECK_STR(support_wire(&a, 3), "gpu0.xbar.remote <-> gpu0.rwq.up @2000");
    CHECK_STR(support_wire(&a, 4), "gpu0.rwq.down <-> gpu0.packetizer.up @0");
    CHECK_STR(support_wire(&a, 5), "gpu0.packetizer.down <-> gpu0.rdma.gpu @5000");
    CHECK_STR(support_wire(&b, 3), "gpu0.xbar.remote <-> gpu0.packetizer.up @0");
    CHECK_STR(support_wire(&b, 4), "gpu0.packetizer.down <-> gpu0.rwq.up @2000");
    CHECK_STR(support_wire(&b, 5), "gpu0.rwq.down <-> gpu0.rdma.gpu @5000");
    platform_desc_free(&a);
    platform_desc_free(&b);
}

/* l2again splices the l2 that l2.json placed: skipped, its parameter merged. */
static void test_shared_block(void)
{
    PlatformDesc d;
    if (!load("ovl/s-l2-l2again.json", &d)) {
        return;
    }
    CHECK_EQ_U64(d.nwires, 7);
    CHECK_STR(support_wire(&d, 2), "gpu0.xbar.local <-> gpu0.l2.up @0");
    CHECK_STR(support_wire(&d, 3), "gpu0.l2.mem <-> gpu0.mem.in @0");
    CHECK_STR(support_param(&d, "gpu0.l2", "size"), "\"1MiB\"");
    CHECK_STR(support_param(&d, "gpu0.l2", "remote"), "false");
    platform_desc_free(&d);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_splice);
    RUN(test_order_independent);
    RUN(test_same_wire);
    RUN(test_shared_block);
    return harness_report();
}
