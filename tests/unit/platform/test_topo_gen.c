/* Covers the topology generators mesh, torus (hw/fabric/topology_mesh.c) and chiplet
 * (topology_chiplet.c): their settings, generated instances, computed "ports" and
 * "routes", wires in order, and on the built platform the path of every GPU pair:
 * following the switches' routes from a GPU's uplink through the links must reach
 * the destination GPU after the number of switches worked out by hand (README.md,
 * "Mesh, torus and chiplet"). At 64 GPUs every pair is reached within the grid's or
 * the packages' bound. Setting errors name /fabric/params/<key>. */
#include "kernel/block.h"
#include "support.h"

/* The switches a transaction from GPU src to GPU dst crosses on the built platform,
 * or -1 if the routes do not lead to gpu<dst>.rdma.net. */
static int walk(Platform *p, uint32_t src, uint32_t dst)
{
    char name[128];
    snprintf(name, sizeof name, "gpu%u.rdma.net", src);
    Port *at = platform_port(p, name)->peer;
    int hops = 0;
    while (at && at->owner->gpu < 0 && hops <= 64) {
        Block *b = at->owner;
        if (strcmp(b->type->name, "link") == 0) {
            at = (at == &b->ports[0] ? &b->ports[1] : &b->ports[0])->peer;
            continue;
        }
        const PlatformInstance *in = platform_desc_find(&p->desc, b->name);
        json_t *routes = json_object_get(in->params, "routes");
        snprintf(name, sizeof name, "%s.port[%lld]", b->name,
                 (long long)json_integer_value(json_array_get(routes, dst)));
        at = platform_port(p, name)->peer;
        hops++;
    }
    snprintf(name, sizeof name, "gpu%u.rdma.net", dst);
    return at && strcmp(at->name, name) == 0 ? hops : -1;
}

/* Builds file (with the sets cli, JSON text or NULL) and checks every pair's switch
 * count against want[src * n + dst] (want NULL: reached in at most max switches). */
static void check_paths(const char *file, const char *cli, const int *want, int max)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load(file, cli, &d, &err));
    Sim *sim = sim_new();
    Platform *p = platform_build(&d, sim, &err);
    platform_desc_free(&d);
    CHECK(p != NULL);
    if (!p) {
        fprintf(stderr, "%s: %s\n", file, err.msg);
        sim_free(sim);
        return;
    }
    uint32_t n = p->desc.info.gpus, bad = 0;
    for (uint32_t s = 0; s < n; s++) {
        for (uint32_t t = 0; t < n; t++) {
            int hops = walk(p, s, t);
            if (want ? hops != want[s * n + t] : hops < 1 || hops > max) {
                fprintf(stderr, "%s: %u -> %u crosses %d switches\n", file, s, t, hops);
                bad++;
            }
        }
    }
    CHECK_EQ_U64(bad, 0);
    platform_free(p);
    sim_free(sim);
}

static void check_switch(const PlatformDesc *d, const char *name, const char *ports,
                         const char *routes)
{
    CHECK(platform_desc_find(d, name) != NULL);
    CHECK_STR(support_param(d, name, "ports"), ports);
    CHECK_STR(support_param(d, name, "routes"), routes);
}

/* 6 GPUs: rows 2 (largest divisor of 6 not above its root), cols 3. */
static void test_mesh(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("mesh6.json", NULL, &d, &err));
    /* 6 x 4 GPU blocks, sw[0..5], link[0..6] */
    CHECK_EQ_U64(d.ninst, 37);
    check_switch(&d, "fabric.sw[0]", "3", "[0,1,1,2,1,1]");
    check_switch(&d, "fabric.sw[1]", "4", "[2,0,1,2,3,1]");
    check_switch(&d, "fabric.sw[2]", "3", "[1,1,0,1,1,2]");
    check_switch(&d, "fabric.sw[3]", "3", "[2,1,1,0,1,1]");
    check_switch(&d, "fabric.sw[4]", "4", "[2,3,1,2,0,1]");
    check_switch(&d, "fabric.sw[5]", "3", "[1,1,2,1,1,0]");
    CHECK(platform_desc_find(&d, "fabric.link[6]") != NULL);
    CHECK(platform_desc_find(&d, "fabric.link[7]") == NULL);
    CHECK_STR(support_param(&d, "fabric.link[3]", "bandwidth"), "\"64GB/s\"");
    /* 6 x 3 GPU wires, 6 uplinks, 7 links x 2 */
    CHECK_EQ_U64(d.nwires, 38);
    const char *want[] = {
        "fabric.sw[0].port[1] <-> fabric.link[0].a @2000",
        "fabric.link[0].b <-> fabric.sw[1].port[2] @2000",
        "fabric.sw[1].port[1] <-> fabric.link[1].a @2000",
        "fabric.link[1].b <-> fabric.sw[2].port[1] @2000",
        "fabric.sw[3].port[1] <-> fabric.link[2].a @2000",
        "fabric.link[2].b <-> fabric.sw[4].port[2] @2000",
        "fabric.sw[4].port[1] <-> fabric.link[3].a @2000",
        "fabric.link[3].b <-> fabric.sw[5].port[1] @2000",
        "fabric.sw[0].port[2] <-> fabric.link[4].a @2000",
        "fabric.link[4].b <-> fabric.sw[3].port[2] @2000",
        "fabric.sw[1].port[3] <-> fabric.link[5].a @2000",
        "fabric.link[5].b <-> fabric.sw[4].port[3] @2000",
        "fabric.sw[2].port[2] <-> fabric.link[6].a @2000",
        "fabric.link[6].b <-> fabric.sw[5].port[2] @2000",
    };
    CHECK_STR(support_wire(&d, 23), "fabric.sw[5].port[0] <-> gpu5.rdma.net @2000");
    for (size_t i = 0; i < 14; i++) {
        CHECK_STR(support_wire(&d, 24 + i), want[i]);
    }
    platform_desc_free(&d);
    /* switches crossed: |dr - r| + |dc - c| + 1 */
    static const int hops[] = {
        1, 2, 3, 2, 3, 4, /* from (0,0) */
        2, 1, 2, 3, 2, 3, /* from (0,1) */
        3, 2, 1, 4, 3, 2, /* from (0,2) */
        2, 3, 4, 1, 2, 3, /* from (1,0) */
        3, 2, 3, 2, 1, 2, /* from (1,1) */
        4, 3, 2, 3, 2, 1, /* from (1,2) */
    };
    check_paths("mesh6.json", NULL, hops, 0);
}

/* 9 GPUs: 3 x 3, every switch has its 4 neighbours (E 1, W 2, S 3, N 4). */
static void test_torus(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("torus9.json", NULL, &d, &err));
    check_switch(&d, "fabric.sw[0]", "5", "[0,1,2,3,1,2,4,1,2]");
    check_switch(&d, "fabric.sw[4]", "5", "[2,4,1,2,0,1,2,3,1]");
    check_switch(&d, "fabric.sw[8]", "5", "[1,2,3,1,2,4,1,2,0]");
    CHECK(platform_desc_find(&d, "fabric.link[17]") != NULL);
    CHECK(platform_desc_find(&d, "fabric.link[18]") == NULL);
    /* the east link of sw[2] wraps to sw[0]; the south link of sw[7] to sw[1] */
    CHECK_STR(support_wire(&d, 36 + 2 * 2),
              "fabric.sw[2].port[1] <-> fabric.link[2].a @2000");
    CHECK_STR(support_wire(&d, 36 + 2 * 2 + 1),
              "fabric.link[2].b <-> fabric.sw[0].port[2] @2000");
    CHECK_STR(support_wire(&d, 36 + 2 * 16 + 1),
              "fabric.link[16].b <-> fabric.sw[1].port[4] @2000");
    platform_desc_free(&d);
    /* switches crossed: 1 + (columns apart) + (rows apart), at most 1 each way */
    static const int hops[] = {
        1, 2, 2, 2, 3, 3, 2, 3, 3, /* from (0,0) */
        2, 1, 2, 3, 2, 3, 3, 2, 3, /* from (0,1) */
        2, 2, 1, 3, 3, 2, 3, 3, 2, /* from (0,2) */
        2, 3, 3, 1, 2, 2, 2, 3, 3, /* from (1,0) */
        3, 2, 3, 2, 1, 2, 3, 2, 3, /* from (1,1) */
        3, 3, 2, 2, 2, 1, 3, 3, 2, /* from (1,2) */
        2, 3, 3, 2, 3, 3, 1, 2, 2, /* from (2,0) */
        3, 2, 3, 3, 2, 3, 2, 1, 2, /* from (2,1) */
        3, 3, 2, 3, 3, 2, 2, 2, 1, /* from (2,2) */
    };
    check_paths("torus9.json", NULL, hops, 0);
}

/* 5 GPUs: 1 x 5, a ring of 5 (E 1, W 2): the shorter way unless it passes through
 * column 0, so 1 -> 4 goes east over 3 links, not west over 0. */
static void test_torus_ring(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("torus5.json", NULL, &d, &err));
    check_switch(&d, "fabric.sw[1]", "3", "[2,0,1,1,1]");
    check_switch(&d, "fabric.sw[4]", "3", "[1,2,2,2,0]");
    platform_desc_free(&d);
    static const int hops[] = {
        1, 2, 3, 3, 2, /* from 0 */
        2, 1, 2, 3, 4, /* from 1 */
        3, 2, 1, 2, 3, /* from 2 */
        3, 3, 2, 1, 2, /* from 3 */
        2, 4, 3, 2, 1, /* from 4 */
    };
    check_paths("torus5.json", NULL, hops, 0);
}

/* 4 GPUs in 2 packages of 2 chiplets, packages joined by a switch. */
static void test_chiplet_switch(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("chiplet4.json", NULL, &d, &err));
    /* 16 GPU blocks, pkg[0..1], switch, clink[0..3], link[0..1] */
    CHECK_EQ_U64(d.ninst, 25);
    CHECK_STR(d.inst[16].name, "fabric.pkg[0]");
    CHECK_STR(d.inst[18].name, "fabric.switch");
    CHECK_STR(d.inst[19].name, "fabric.clink[0]");
    CHECK_STR(d.inst[24].name, "fabric.link[1]");
    check_switch(&d, "fabric.pkg[0]", "3", "[0,1,2,2]");
    check_switch(&d, "fabric.pkg[1]", "3", "[2,2,0,1]");
    check_switch(&d, "fabric.switch", "2", "[0,0,1,1]");
    CHECK_STR(support_param(&d, "fabric.pkg[1]", "latency"), "\"5ns\"");
    CHECK_STR(support_param(&d, "fabric.switch", "latency"), "(none)");
    CHECK_STR(support_param(&d, "fabric.clink[2]", "bandwidth"), "\"180GB/s\"");
    CHECK_STR(support_param(&d, "fabric.link[0]", "bandwidth"), "\"64GB/s\"");
    CHECK_STR(platform_desc_find(&d, "fabric.clink[2]")->origin,
              "chiplet4.json: /fabric/chiplet_link");
    CHECK_EQ_U64(d.nwires, 24);
    const char *want[] = {
        "fabric.clink[0].a <-> gpu0.rdma.net @2000",
        "fabric.clink[0].b <-> fabric.pkg[0].port[0] @2000",
        "fabric.clink[1].a <-> gpu1.rdma.net @2000",
        "fabric.clink[1].b <-> fabric.pkg[0].port[1] @2000",
        "fabric.clink[2].a <-> gpu2.rdma.net @2000",
        "fabric.clink[2].b <-> fabric.pkg[1].port[0] @2000",
        "fabric.clink[3].a <-> gpu3.rdma.net @2000",
        "fabric.clink[3].b <-> fabric.pkg[1].port[1] @2000",
        "fabric.pkg[0].port[2] <-> fabric.link[0].a @2000",
        "fabric.link[0].b <-> fabric.switch.port[0] @2000",
        "fabric.pkg[1].port[2] <-> fabric.link[1].a @2000",
        "fabric.link[1].b <-> fabric.switch.port[1] @2000",
    };
    for (size_t i = 0; i < 12; i++) {
        CHECK_STR(support_wire(&d, 12 + i), want[i]);
    }
    CHECK_STR(d.wires[12].origin, "ring.json: /gpu/uplink");
    CHECK_STR(d.wires[13].origin, "chiplet4.json: /fabric");
    platform_desc_free(&d);
    /* one package switch inside a package; package, switch, package between */
    static const int hops[] = {1, 1, 3, 3, 1, 1, 3, 3, 3, 3, 1, 1, 3, 3, 1, 1};
    check_paths("chiplet4.json", NULL, hops, 0);
}

/* 6 GPUs in 3 packages of 2 chiplets on a ring (port 2 forward, port 3 back). */
static void test_chiplet_ring(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("chiplet6.json", NULL, &d, &err));
    check_switch(&d, "fabric.pkg[0]", "4", "[0,1,2,2,3,3]");
    check_switch(&d, "fabric.pkg[1]", "4", "[3,3,0,1,2,2]");
    check_switch(&d, "fabric.pkg[2]", "4", "[2,2,3,3,0,1]");
    CHECK(platform_desc_find(&d, "fabric.switch") == NULL);
    CHECK_STR(support_wire(&d, 18 + 12 + 4),
              "fabric.pkg[2].port[2] <-> fabric.link[2].a @2000");
    CHECK_STR(support_wire(&d, 18 + 12 + 5),
              "fabric.link[2].b <-> fabric.pkg[0].port[3] @2000");
    platform_desc_free(&d);
    /* 1 + ring distance (at most 1 of 3 packages) */
    static const int hops[] = {
        1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2,
        2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 1, 1,
    };
    check_paths("chiplet6.json", NULL, hops, 0);
    /* 4 packages: from 3 to 1 the tie would go forward through package 0: back */
    CHECK(support_load("chiplet6.json", "{\"gpus\": 8}", &d, &err));
    check_switch(&d, "fabric.pkg[1]", "4", "[3,3,0,1,2,2,2,2]");
    check_switch(&d, "fabric.pkg[2]", "4", "[2,2,3,3,0,1,2,2]");
    check_switch(&d, "fabric.pkg[3]", "4", "[2,2,3,3,3,3,0,1]");
    platform_desc_free(&d);
}

/* 64 GPUs: every pair reached within the longest path + 1 switches: mesh 8 x 8:
 * 7 + 7 + 1; torus 8 x 8: a ring of 8 avoiding position 0 in between goes at most
 * 8 - 2 links (positions 1 .. 7), 6 + 6 + 1; 32 packages of 2 on such a ring: 1 + 30;
 * on a switch: 3. */
static void test_64(void)
{
    check_paths("mesh6.json", "{\"gpus\": 64}", NULL, 15);
    check_paths("torus9.json", "{\"gpus\": 64}", NULL, 13);
    check_paths("chiplet6.json", "{\"gpus\": 64}", NULL, 31);
    check_paths("chiplet4.json", "{\"gpus\": 64}", NULL, 3);
}

/* Given rows: the columns follow (6 GPUs in 3 rows of 2); settings that do not fit
 * the GPU count name the setting. */
static void test_settings(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("mesh3rows.json", NULL, &d, &err));
    /* (0,0) has east and south neighbours; (1,1) west, south and north */
    check_switch(&d, "fabric.sw[0]", "3", "[0,1,2,1,2,1]");
    check_switch(&d, "fabric.sw[3]", "4", "[1,3,1,0,1,2]");
    platform_desc_free(&d);
    CHECK(!support_load("mesh3rows.json", "{\"gpus\": 8}", &d, &err));
    CHECK_STR(err.msg, "mesh3rows.json: /fabric/params/rows: 8 GPUs do not divide into 3 "
                       "rows");
    CHECK(!support_load("chiplet6.json", "{\"gpus\": 7}", &d, &err));
    CHECK_STR(err.msg, "chiplet6.json: /fabric/params/chiplets: 7 GPUs are not a whole "
                       "number of packages of 2 chiplets");
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_mesh);
    RUN(test_torus);
    RUN(test_torus_ring);
    RUN(test_chiplet_switch);
    RUN(test_chiplet_ring);
    RUN(test_64);
    RUN(test_settings);
    return harness_report();
}
