/* Unit tests of plugin_load (kernel/plugin.c) inside one process: two registries load
 * the same plug-in (one copy of its code; each registry keeps it open, so freeing one
 * leaves the other's types valid), a refused plug-in leaves the registry as it was,
 * and the ABI messages carry this kernel's numbers. The executable exports the
 * kernel, as mgtlm does, so the plug-ins resolve against it.
 * usage: test_plugin MODULE_DIR  (holds probe.so and bad_plugin_N.so) */
#include "kernel/plugin.h"

#include <stdio.h>

#include "hw/blocks.h"
#include "kernel/registry.h"
#include "tests/unit/harness.h"

static const char *test_dir;

static const char *test_path(const char *file)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", test_dir, file);
    return path;
}

static void test_two_registries(void)
{
    SimError err;
    Registry *r1 = registry_new();
    Registry *r2 = registry_new();
    CHECK(plugin_load(r1, test_path("probe.so"), &err));
    CHECK(plugin_load(r2, test_path("probe.so"), &err));
    const BlockType *t1 = registry_find(r1, "probe");
    const BlockType *t2 = registry_find(r2, "probe");
    CHECK(t1 != NULL);
    CHECK(t1 == t2);
    registry_free(r1);
    CHECK(registry_find(r2, "probe") == t2);
    CHECK_STR(t2->name, "probe");
    CHECK_EQ_U64(t2->nports, 2);
    registry_free(r2);
}

static void test_refused_keeps_registry(void)
{
    SimError err;
    Registry *r = registry_new();
    CHECK(hw_register(r, &err));
    size_t before, after;
    const BlockType *last = registry_types(r, &before)[before - 1];
    const BlockType *sink = registry_find(r, "sink");
    CHECK(!plugin_load(r, test_path("bad_plugin_5.so"), &err));
    char want[4096 + SIM_ERROR_MAX]; /* room for test_path() whole */
    snprintf(want, sizeof want, "%s: block type sink is already registered",
             test_path("bad_plugin_5.so"));
    CHECK_STR(err.msg, want);
    CHECK(registry_types(r, &after)[after - 1] == last);
    CHECK_EQ_U64(after, before);
    CHECK(registry_find(r, "sink") == sink);
    registry_free(r);
}

static void test_abi_messages(void)
{
    SimError err;
    Registry *r = registry_new();
    char want[4096 + SIM_ERROR_MAX]; /* room for test_path() whole */
    CHECK(!plugin_load(r, test_path("bad_plugin_3.so"), &err));
    snprintf(want, sizeof want,
             "%s: plug-in ABI %d, this mgtlm has ABI %d: rebuild the plug-in against "
             "this mgtlm",
             test_path("bad_plugin_3.so"), MGTLM_PLUGIN_ABI_VERSION + 1,
             MGTLM_PLUGIN_ABI_VERSION);
    CHECK_STR(err.msg, want);
    CHECK(!plugin_load(r, test_path("bad_plugin_4.so"), &err));
    snprintf(want, sizeof want,
             "%s: plug-in built with a 1-byte Txn, this mgtlm's is %zu bytes: rebuild "
             "the plug-in against this mgtlm",
             test_path("bad_plugin_4.so"), sizeof(Txn));
    CHECK_STR(err.msg, want);
    size_t n;
    registry_types(r, &n);
    CHECK_EQ_U64(n, 0);
    registry_free(r);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_plugin MODULE_DIR\n");
        return 2;
    }
    test_dir = argv[1];
    RUN(test_two_registries);
    RUN(test_refused_keeps_registry);
    RUN(test_abi_messages);
    return harness_report();
}
