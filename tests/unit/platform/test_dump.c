/* Covers kernel/platform/platform_dump.c, platform_flat.c and platform.c.
 * The flat dump: canonical values of every parameter, and the round trip
 * dump -> load -> dump giving the same bytes (for every data platform, with sets). */
#include <stdlib.h>
#include <unistd.h>

#include "support.h"

/* Dump text of a description (caller frees). */
static char *dump_text(const PlatformDesc *d)
{
    json_t *j = platform_dump(d);
    char *s = json_dumps(j, JSON_INDENT(1));
    json_decref(j);
    return s;
}

static void round_trip(const char *file, const char *sets)
{
    PlatformDesc d;
    SimError err;
    if (!support_load(file, sets, &d, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        CHECK(false);
        return;
    }
    char *first = dump_text(&d);
    platform_desc_free(&d);
    char tmp[] = "/tmp/mgtlm-dump-XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    if (fd < 0) {
        free(first);
        return;
    }
    CHECK(write(fd, first, strlen(first)) == (ssize_t)strlen(first));
    close(fd);
    bool ok = support_load(tmp, NULL, &d, &err);
    unlink(tmp);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s\n", err.msg);
        free(first);
        return;
    }
    char *second = dump_text(&d);
    CHECK_STR(second, first);
    platform_desc_free(&d);
    free(first);
    free(second);
}

static void test_round_trip(void)
{
    round_trip("base.json", NULL);
    round_trip("sub/child.json", "{\"gpu2.cu[*].write_frac\": 0.1}");
    round_trip("ring.json", NULL);
    round_trip("full.json", "{\"fabric.link[*].latency\": \"7cycles\"}");
    round_trip("toplevel.json", NULL);
}

static void test_canonical(void)
{
    PlatformDesc d;
    SimError err;
    CHECK(support_load("toplevel.json", "{\"drv[1].buffer\": 3}", &d, &err));
    json_t *j = platform_dump(&d);
    CHECK_STR(support_json(json_object_get(j, "format")), "\"mgtlm-flat\"");
    CHECK_STR(support_json(json_object_get(j, "clock")), "\"2GHz\"");
    CHECK_STR(support_json(json_object_get(j, "mem_bytes")), "\"4GiB\"");
    CHECK_STR(support_json(json_object_get(j, "seed")), "42");
    json_t *inst = json_object_get(j, "instances");
    CHECK_STR(support_json(json_array_get(inst, 1)),
              "{\"name\":\"drv[1]\",\"type\":\"driver\",\"gpu\":-1,\"index\":1,"
              "\"params\":{\"buffer\":3}}");
    CHECK_STR(support_json(json_object_get(json_array_get(inst, 3), "params")),
              "{\"ports\":2,\"routes\":[1],\"latency\":\"10ns\",\"buffer\":8}");
    /* 3cycles at 2GHz */
    CHECK_STR(support_json(json_object_get(
                  json_object_get(json_array_get(inst, 2), "params"), "latency")),
              "\"1500ps\"");
    CHECK_STR(support_json(json_array_get(json_object_get(j, "wires"), 0)),
              "{\"a\":\"drv[0].out\",\"b\":\"sw.port[0]\",\"latency\":\"0ns\"}");
    json_decref(j);
    platform_desc_free(&d);
}

/* A hand-written flat file: index must agree with the name; gpu within range. */
static void test_flat_checks(void)
{
    const char *head = "{\"format\": \"mgtlm-flat\", \"name\": \"f\", \"gpus\": 1, "
                       "\"instances\": [";
    struct {
        const char *body, *want;
    } cases[] = {
        {"{\"name\": \"a[1]\", \"type\": \"sink\", \"index\": 0}]}",
         "f.json: /instances/0/index: 0 does not match the name a[1] (index 1)"},
        {"{\"name\": \"a\", \"type\": \"sink\", \"gpu\": 1}]}",
         "f.json: /instances/0/gpu: 1 is not -1 or a GPU index below 1"},
        {"{\"name\": \"a\", \"type\": \"sink\"}, {\"name\": \"a\", \"type\": \"sink\"}]}",
         "f.json: /instances/1: duplicate instance name a"},
        {"{\"name\": \"a\", \"type\": \"sink\", \"params\": {\"respond\": 1}}]}",
         "f.json: /instances/0/params/respond: expected true or false, got integer"},
        {"{\"name\": \"a\", \"type\": \"sink\"}], \"wires\": [{\"a\": \"a.in\"}]}",
         "f.json: /wires/0: missing key \"b\""},
    };
    char tmpdir[] = "/tmp/mgtlm-flat-XXXXXX";
    CHECK(mkdtemp(tmpdir) != NULL);
    char cwd[512];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(tmpdir) == 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen("f.json", "w");
        fprintf(f, "%s%s\n", head, cases[i].body);
        fclose(f);
        CHECK_STR(support_load_error("f.json", NULL), cases[i].want);
    }
    unlink("f.json");
    CHECK(chdir(cwd) == 0);
    rmdir(tmpdir);
}

int main(int argc, char **argv)
{
    if (support_enter_data(argc, argv) != 0) {
        return 1;
    }
    RUN(test_round_trip);
    RUN(test_canonical);
    RUN(test_flat_checks);
    return harness_report();
}
