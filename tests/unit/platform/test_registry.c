/* The registry and every registered block type's tables: unique names, lookups,
 * state size, defaults that apply, enum choices, count parameters that are u64
 * parameters, no type redefining the common "buffer". */
#include <stdlib.h>

#include "kernel/platform/params.h"
#include "kernel/registry.h"
#include "tests/unit/harness.h"

static const PlatformInfo plat = {
    .gpus = 4, .mem_bytes = 1ULL << 32, .clock = 1000, .seed = 1};

static void check_type(const BlockType *t)
{
    CHECK(t->name && t->doc && t->size >= sizeof(Block));
    CHECK(registry_find(t->name) == t);
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
    const BlockType *const *types = registry_types(&n);
    CHECK(types[n] == NULL);
    for (size_t i = 0; i < n; i++) {
        check_type(types[i]);
        for (size_t j = 0; j < i; j++) {
            CHECK(strcmp(types[i]->name, types[j]->name) != 0);
        }
    }
    CHECK(registry_find("no-such-type") == NULL);
}

int main(void)
{
    RUN(test_types);
    return harness_report();
}
