/* Covers kernel/platform/platform_fabric.c, topology.c and the topology generators
 * of hw/fabric/ (topology_switch.c, topology_ring.c, topology_full.c, fabric_gen.c).
 * Fabric expansion for 4 GPUs: generated switch and link instances, their computed
 * "ports" and "routes", the merged user params, and the wires in order. Expected
 * routing tables worked out by hand from the rules in docs/platform-format.md:
 * ring, switch i, destination d: 0 if d == i, else port 1 if (d - i) mod 4 <= 2 else 2,
 * except that a way through switch 0 is exchanged for the other (3 -> 1: back);
 * fully connected: 0 if d == i, else 1 + (d < i ? d : d - 1). */
#include "support.h"

static void check_switch(const PlatformDesc *d, const char *name, const char *ports,
                         const char *routes, const char *latency)
{
    CHECK(platform_desc_find(d, name) != NULL);
    CHECK_STR(support_param(d, name, "ports"), ports);
    CHECK_STR(support_param(d, name, "routes"), routes);
    CHECK_STR(support_param(d, name, "latency"), latency);
}

static void test_switch(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("base.json", NULL, &d, &err));
    check_switch(&d, "fabric.switch", "2", "[0,1]", "\"3ns\"");
    CHECK_STR(support_wire(&d, d.nwires - 2),
              "fabric.switch.port[0] <-> gpu0.rdma.net @0");
    CHECK_STR(support_wire(&d, d.nwires - 1),
              "fabric.switch.port[1] <-> gpu1.rdma.net @0");
    platform_desc_free(&d);
}

static void test_ring(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("ring.json", NULL, &d, &err));
    /* 4 x 4 GPU blocks, sw[0..3], link[0..3] */
    CHECK_EQ_U64(d.ninst, 24);
    CHECK_STR(d.inst[16].name, "fabric.sw[0]");
    CHECK_STR(d.inst[19].name, "fabric.sw[3]");
    CHECK_STR(d.inst[20].name, "fabric.link[0]");
    CHECK_STR(d.inst[23].name, "fabric.link[3]");
    check_switch(&d, "fabric.sw[0]", "3", "[0,1,1,2]", "(none)");
    check_switch(&d, "fabric.sw[1]", "3", "[2,0,1,1]", "(none)");
    check_switch(&d, "fabric.sw[2]", "3", "[1,2,0,1]", "(none)");
    check_switch(&d, "fabric.sw[3]", "3", "[1,2,2,0]", "(none)");
    CHECK_STR(support_param(&d, "fabric.link[2]", "bandwidth"), "\"64GB/s\"");
    CHECK_STR(platform_desc_find(&d, "fabric.link[2]")->origin,
              "ring.json: /fabric/link");
    /* 4 x 3 GPU wires, 4 uplinks, 2 per link */
    CHECK_EQ_U64(d.nwires, 24);
    const char *want[] = {
        "fabric.sw[0].port[0] <-> gpu0.rdma.net @2000",
        "fabric.sw[1].port[0] <-> gpu1.rdma.net @2000",
        "fabric.sw[2].port[0] <-> gpu2.rdma.net @2000",
        "fabric.sw[3].port[0] <-> gpu3.rdma.net @2000",
        "fabric.sw[0].port[1] <-> fabric.link[0].a @2000",
        "fabric.link[0].b <-> fabric.sw[1].port[2] @2000",
        "fabric.sw[1].port[1] <-> fabric.link[1].a @2000",
        "fabric.link[1].b <-> fabric.sw[2].port[2] @2000",
        "fabric.sw[2].port[1] <-> fabric.link[2].a @2000",
        "fabric.link[2].b <-> fabric.sw[3].port[2] @2000",
        "fabric.sw[3].port[1] <-> fabric.link[3].a @2000",
        "fabric.link[3].b <-> fabric.sw[0].port[2] @2000",
    };
    for (size_t i = 0; i < 12; i++) {
        CHECK_STR(support_wire(&d, 12 + i), want[i]);
    }
    CHECK_STR(d.wires[12].origin, "ring.json: /gpu/uplink");
    CHECK_STR(d.wires[16].origin, "ring.json: /fabric");
    platform_desc_free(&d);
}

static void test_fully_connected(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("full.json", NULL, &d, &err));
    /* 16 GPU blocks, sw[0..3], link[0..5] */
    CHECK_EQ_U64(d.ninst, 26);
    check_switch(&d, "fabric.sw[0]", "4", "[0,1,2,3]", "\"1ns\"");
    check_switch(&d, "fabric.sw[1]", "4", "[1,0,2,3]", "\"1ns\"");
    check_switch(&d, "fabric.sw[2]", "4", "[1,2,0,3]", "\"1ns\"");
    check_switch(&d, "fabric.sw[3]", "4", "[1,2,3,0]", "\"1ns\"");
    CHECK(platform_desc_find(&d, "fabric.link[5]") != NULL);
    CHECK(platform_desc_find(&d, "fabric.link[6]") == NULL);
    /* the ring's link params are inherited through extends */
    CHECK_STR(support_param(&d, "fabric.link[5]", "bandwidth"), "\"64GB/s\"");
    /* 12 GPU wires, 4 uplinks, 6 links x 2 */
    CHECK_EQ_U64(d.nwires, 28);
    const char *want[] = {
        /* pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) */
        "fabric.sw[0].port[1] <-> fabric.link[0].a @2000",
        "fabric.link[0].b <-> fabric.sw[1].port[1] @2000",
        "fabric.sw[0].port[2] <-> fabric.link[1].a @2000",
        "fabric.link[1].b <-> fabric.sw[2].port[1] @2000",
        "fabric.sw[0].port[3] <-> fabric.link[2].a @2000",
        "fabric.link[2].b <-> fabric.sw[3].port[1] @2000",
        "fabric.sw[1].port[2] <-> fabric.link[3].a @2000",
        "fabric.link[3].b <-> fabric.sw[2].port[2] @2000",
        "fabric.sw[1].port[3] <-> fabric.link[4].a @2000",
        "fabric.link[4].b <-> fabric.sw[3].port[2] @2000",
        "fabric.sw[2].port[3] <-> fabric.link[5].a @2000",
        "fabric.link[5].b <-> fabric.sw[3].port[3] @2000",
    };
    CHECK_STR(support_wire(&d, 15), "fabric.sw[3].port[0] <-> gpu3.rdma.net @2000");
    for (size_t i = 0; i < 12; i++) {
        CHECK_STR(support_wire(&d, 16 + i), want[i]);
    }
    platform_desc_free(&d);
}

/* The routes agree with the wires: following routes[d] from every switch, through the
 * links, always reaches the switch of GPU d (checked on the built ring and full mesh). */
static void check_reaches(const char *file)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load(file, NULL, &d, &err));
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    CHECK(p != NULL);
    if (!p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        return;
    }
    for (uint32_t src = 0; src < 4; src++) {
        for (uint32_t dst = 0; dst < 4; dst++) {
            char name[64];
            uint32_t at = src;
            int hops = 0;
            for (;;) {
                snprintf(name, sizeof name, "fabric.sw[%u]", at);
                const PlatformInstance *in = platform_desc_find(&p->desc, name);
                json_t *routes = json_object_get(in->params, "routes");
                uint64_t out = (uint64_t)json_integer_value(json_array_get(routes, dst));
                snprintf(name, sizeof name, "fabric.sw[%u].port[%llu]", at,
                         (unsigned long long)out);
                Port *pt = platform_port(p, name);
                if (out == 0) {
                    char gpu[64];
                    snprintf(gpu, sizeof gpu, "gpu%u.rdma.net", dst);
                    CHECK_STR(pt->peer->name, gpu);
                    break;
                }
                /* through the link to the switch at its far end */
                Block *link = pt->peer->owner;
                Port *far =
                    pt->peer == &link->ports[0] ? &link->ports[1] : &link->ports[0];
                at = (uint32_t)far->peer->owner->index;
                if (++hops > 4) {
                    CHECK(false);
                    break;
                }
            }
            CHECK(hops <= 2);
        }
    }
    platform_free(p);
    sim_free(sim);
}

static void test_routes_reach(void)
{
    check_reaches("ring.json");
    check_reaches("full.json");
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_switch);
    RUN(test_ring);
    RUN(test_fully_connected);
    RUN(test_routes_reach);
    return harness_report();
}
