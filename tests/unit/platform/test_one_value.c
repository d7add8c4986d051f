/* Covers kernel/platform/platform_one_value.c: parameters marked `one_value` hold one
 * value across a platform. Test types stand for the marking: ov_a and ov_b both mark
 * `mode` (default 1) and ov_a marks `width` (default 4) too; ov_c has a `mode` it does
 * not mark (default 7). data/one_value.json holds a, b, c and a2 in that order (b sets
 * mode 1, the default, explicitly). Expected messages follow the loader's format
 * (docs/platform-format.md, "Parameters that hold one value"): the first instance that
 * differs, at its own JSON path, against the first instance holding the key. The
 * shipped CARVE platform covers the marked hardware parameter (`coherence`). */
#include <stddef.h>

#include "support.h"

typedef struct OvState {
    Block b;
    uint64_t mode, width;
} OvState;

static const ParamDef ov_marked[] = {
    {.key = "mode",
     .offset = offsetof(OvState, mode),
     .type = PT_U64,
     .one_value = true,
     .def = "1",
     .doc = "marked"},
    {.key = "width",
     .offset = offsetof(OvState, width),
     .type = PT_U64,
     .one_value = true,
     .def = "4",
     .doc = "marked"},
};
static const ParamDef ov_unmarked[] = {
    {.key = "mode",
     .offset = offsetof(OvState, mode),
     .type = PT_U64,
     .def = "7",
     .doc = "not marked"},
};
static const BlockType ov_a = {.name = "ov_a",
                               .doc = "two marked",
                               .size = sizeof(OvState),
                               .params = ov_marked,
                               .nparams = 2};
static const BlockType ov_b = {.name = "ov_b",
                               .doc = "one marked",
                               .size = sizeof(OvState),
                               .params = ov_marked,
                               .nparams = 1};
static const BlockType ov_c = {.name = "ov_c",
                               .doc = "unmarked",
                               .size = sizeof(OvState),
                               .params = ov_unmarked,
                               .nparams = 1};

static Registry *reg;

static const char *ov_error(const char *path, const char *sets_json)
{
    return support_load_error_in(reg, path, sets_json);
}

/* Defaults and an explicit default agree; the unmarked mode 7 takes no part. */
static void test_agree(void)
{
    CHECK_STR(ov_error("one_value.json", NULL), "(loaded)");
    CHECK_STR(
        ov_error("one_value.json", "{\"a.mode\": 3, \"b.mode\": 3, \"a2.mode\": 3}"),
        "(loaded)");
    CHECK_STR(ov_error("one_value.json", "{\"c.mode\": 9}"), "(loaded)");
}

/* b differs from a (the first holder); a2 differs from a, b agreeing; width is
 * compared apart from mode. */
static void test_differ(void)
{
    CHECK_STR(ov_error("one_value.json", "{\"b.mode\": 2}"),
              "one_value.json: /blocks/b/params/mode: b: mode 2 differs from a's mode 1 "
              "(blocks of this parameter work together: set them alike)");
    CHECK_STR(
        ov_error("one_value.json", "{\"a2.mode\": 5}"),
        "one_value.json: /blocks/a2/params/mode: a2: mode 5 differs from a's mode 1 "
        "(blocks of this parameter work together: set them alike)");
    CHECK_STR(ov_error("one_value.json", "{\"a.mode\": 2}"),
              "one_value.json: /blocks/b/params/mode: b: mode 1 differs from a's mode 2 "
              "(blocks of this parameter work together: set them alike)");
    CHECK_STR(ov_error("one_value.json", "{\"a2.width\": 8}"),
              "one_value.json: /blocks/a2/params/width: a2: width 8 differs from a's "
              "width 4 (blocks of this parameter work together: set them alike)");
}

/* CARVE's three blocks on the shipped platform: all swc loads, one epoch apart fails
 * naming it. */
static void test_carve(void)
{
    const char *carve = "../../../../platforms/gpu4-carve.json";
    CHECK_STR(ov_error(carve,
                       "{\"gpu*.rdc.coherence\": \"swc\", \"gpu*.epoch.coherence\": "
                       "\"swc\", \"gpu*.imst.coherence\": \"swc\"}"),
              "(loaded)");
    const char *msg = ov_error(carve, "{\"gpu1.epoch.coherence\": \"swc\"}");
    CHECK(strstr(msg, "/gpu/blocks/epoch/params/coherence: gpu1.epoch: coherence swc "
                      "differs from gpu0.") != NULL);
    CHECK(strstr(msg, "'s coherence hwc (blocks of this parameter work together") !=
          NULL);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    const BlockType *const mine[] = {&ov_a, &ov_b, &ov_c};
    reg = support_registry(mine, 3);
    RUN(test_agree);
    RUN(test_differ);
    RUN(test_carve);
    registry_free(reg);
    return harness_report();
}
