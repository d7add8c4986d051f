/* The registry as a value (adding, duplicates refused, lookups, order, two
 * registries side by side) and every block type hw_register adds: unique names,
 * lookups, state size, defaults that apply, enum choices, count parameters that are
 * u64 parameters, no type redefining the common "buffer"; every topology generator:
 * complete declarations, parts that are not the fabric object's own members, settings
 * whose defaults apply; declared commands: a NULL-terminated list in registration
 * order, duplicates and generic names refused, hw's monitor and mode found by name. */
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/params.h"
#include "kernel/registry.h"
#include "tests/unit/harness.h"
#include "tests/unit/hw_registry.h"

static const PlatformInfo plat = {
    .gpus = 4, .mem_bytes = 1ULL << 32, .clock = 1000, .seed = 1};

static void check_type(const BlockType *t)
{
    CHECK(t->name && t->doc && t->size >= sizeof(Block));
    CHECK(registry_find(hw_registry(), t->name) == t);
    void *state = calloc(1, t->size);
    for (size_t i = 0; i < t->nparams; i++) {
        const ParamDef *d = &t->params[i];
        SimError err;
        CHECK(strcmp(d->key, BLOCK_BUFFER_KEY) != 0);
        CHECK(params_find(t, d->key) == d);
        CHECK(d->type != PT_ENUM || (d->choices && d->choices[0]));
        if (d->def && !params_apply(state, d, NULL, &plat, &err)) {
            fprintf(stderr, "%s: %s\n", t->name, err.msg);
            CHECK(false);
        }
        for (size_t j = 0; j < i; j++) {
            CHECK(strcmp(t->params[j].key, d->key) != 0);
        }
    }
    params_release(state, t->params, t->nparams);
    free(state);
    for (size_t i = 0; i < t->nports; i++) {
        const PortDef *pd = &t->ports[i];
        if (pd->count_param) {
            const ParamDef *c = params_find(t, pd->count_param);
            CHECK(c && c->type == PT_U64 && c != params_buffer_def());
        }
    }
}

static void test_types(void)
{
    size_t n;
    const BlockType *const *types = registry_types(hw_registry(), &n);
    CHECK(n > 0);
    for (size_t i = 0; i < n; i++) {
        check_type(types[i]);
        for (size_t j = 0; j < i; j++) {
            CHECK(strcmp(types[i]->name, types[j]->name) != 0);
        }
    }
    CHECK(registry_find(hw_registry(), "no-such-type") == NULL);
}

/* A generator's settings: a struct for its table, every default applies, and a
 * setting's name is not a member the fabric object has for itself. */
static void check_settings(const TopologyType *t)
{
    CHECK((t->nparams == 0) == (t->size == 0));
    void *state = t->size ? calloc(1, t->size) : NULL;
    for (size_t i = 0; state && i < t->nparams; i++) {
        SimError err;
        CHECK(t->params[i].def != NULL);
        CHECK(params_apply(state, &t->params[i], NULL, &plat, &err));
    }
    if (state) {
        params_release(state, t->params, t->nparams);
    }
    free(state);
}

static void test_topologies(void)
{
    size_t n;
    const TopologyType *const *topo = registry_topologies(hw_registry(), &n);
    const char *const names[] = {"switch", "ring",  "fully_connected",
                                 "mesh",   "torus", "chiplet"};
    CHECK_EQ_U64(n, 6);
    for (size_t i = 0; i < n && i < 6; i++) {
        CHECK_STR(topo[i]->name, names[i]);
    }
    for (size_t i = 0; i < n; i++) {
        CHECK(topo[i]->doc && topo[i]->parts && topo[i]->parts[0]);
        CHECK(topo[i]->instances && topo[i]->wires && topo[i]->min_gpus >= 1);
        CHECK(registry_find_topology(hw_registry(), topo[i]->name) == topo[i]);
        for (size_t k = 0; topo[i]->parts[k]; k++) {
            const char *part = topo[i]->parts[k];
            CHECK(strcmp(part, "topology") != 0 && strcmp(part, "params") != 0 &&
                  strcmp(part, "latency") != 0 && strcmp(part, "doc") != 0);
        }
        check_settings(topo[i]);
    }
    CHECK(registry_find_topology(hw_registry(), TOPOLOGY_NONE) == NULL);
}

static const BlockType fake_a = {.name = "fake", .doc = "a", .size = sizeof(Block)};
static const BlockType fake_b = {.name = "fake", .doc = "b", .size = sizeof(Block)};
static const TopologyType fake_none = {.name = TOPOLOGY_NONE};

static void test_value(void)
{
    Registry *r = registry_new(), *other = registry_new();
    SimError err;
    size_t n;
    CHECK(r && other);
    registry_types(r, &n);
    CHECK_EQ_U64(n, 0);
    CHECK(registry_find(r, "fake") == NULL);
    CHECK(registry_add(r, &fake_a, &err));
    CHECK(!registry_add(r, &fake_b, &err));
    CHECK_STR(err.msg, "block type fake is already registered");
    CHECK(registry_find(r, "fake") == &fake_a);
    CHECK(registry_add(other, &fake_b, &err));
    CHECK(registry_find(other, "fake") == &fake_b);
    CHECK(registry_find(r, "fake") == &fake_a);
    CHECK(!registry_add_topology(r, &fake_none, &err));
    CHECK_STR(err.msg, "topology none is already registered");
    CHECK(hw_register(r, &err));
    const BlockType *const *types = registry_types(r, &n);
    CHECK(types[0] == &fake_a && registry_find(r, "sink") != NULL);
    CHECK(!hw_register(r, &err));
    CHECK_STR(err.msg, "block type driver is already registered");
    registry_free(r);
    registry_free(other);
}

static void test_cmds(void)
{
    static const TxnCmdDecl poke = {.name = "poke", .doc = "a"};
    static const TxnCmdDecl poke2 = {.name = "poke", .doc = "b"};
    static const TxnCmdDecl read = {.name = "read", .doc = "c"};
    static const TxnCmdDecl declared = {.name = "declared", .doc = "d"};
    Registry *r = registry_new();
    SimError err;
    CHECK(r && registry_cmds(r)[0] == NULL);
    CHECK(registry_add_cmd(r, &poke, &err));
    CHECK(!registry_add_cmd(r, &poke2, &err));
    CHECK_STR(err.msg, "command poke is already registered");
    CHECK(!registry_add_cmd(r, &read, &err));
    CHECK_STR(err.msg, "command read is already registered");
    CHECK(!registry_add_cmd(r, &declared, &err));
    CHECK(hw_register(r, &err));
    const TxnCmdDecl *const *cmds = registry_cmds(r);
    /* poke, then hw/txn_cmds.def: monitor, mode, inv_ack, launch, cta, finish, xlat,
     * arrive, open. */
    size_t n = 0;
    while (cmds[n]) {
        n++;
    }
    CHECK(cmds[0] == &poke && n == 10);
    TxnCmd cmd;
    const TxnCmdDecl *d;
    CHECK(txn_cmd_parse("monitor", cmds, &cmd, &d) && cmd == TXN_DECLARED &&
          d == cmds[1]);
    CHECK(txn_cmd_parse("mode", cmds, &cmd, &d) && d == cmds[2]);
    CHECK(txn_cmd_parse("inv_ack", cmds, &cmd, &d) && d == cmds[3]);
    CHECK(txn_cmd_parse("launch", cmds, &cmd, &d) && d == cmds[4]);
    CHECK(txn_cmd_parse("xlat", cmds, &cmd, &d) && d == cmds[7]);
    CHECK(txn_cmd_parse("arrive", cmds, &cmd, &d) && d == cmds[8]);
    CHECK(txn_cmd_parse("open", cmds, &cmd, &d) && d == cmds[9]);
    CHECK(!txn_cmd_parse("monitor", NULL, &cmd, &d));
    registry_free(r);
}

int main(void)
{
    RUN(test_types);
    RUN(test_topologies);
    RUN(test_value);
    RUN(test_cmds);
    return harness_report();
}
