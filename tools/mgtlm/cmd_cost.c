/* `mgtlm cost PLATFORM [--json] [--set inst.param=value]...`: builds the platform and
 * prints the storage of every stateful block by formula from its parameters (each
 * block type's optional cost callback, kernel/cost.h): one row per storage item with
 * entries, bits per entry and total bytes, derived times, and the total. --json
 * prints the report as JSON instead. Errors: one line on stderr, exit 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_set.h"
#include "commands.h"
#include "kernel/platform/platform.h"

static void cost_usage(FILE *f)
{
    fprintf(f, "usage: mgtlm cost PLATFORM [--json] [--set inst.param=value]...\n");
}

static bool cost_parse(int argc, char **argv, const char **path, bool *as_json,
                       json_t *sets, SimError *err)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *as_json = true;
        } else if (strcmp(argv[i], "--set") == 0) {
            if (i + 1 >= argc) {
                return sim_error_set(err, "mgtlm cost: --set needs inst.param=value");
            }
            if (!cli_set_add(sets, argv[++i], err)) {
                return false;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return sim_error_set(err, "mgtlm cost: unknown option '%s' (try --help)",
                                 argv[i]);
        } else if (*path) {
            return sim_error_set(err, "mgtlm cost: more than one platform given");
        } else {
            *path = argv[i];
        }
    }
    if (!*path) {
        return sim_error_set(err, "mgtlm cost: no platform given (try --help)");
    }
    return true;
}

static json_int_t cost_int(json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

static void cost_print_table(json_t *report)
{
    printf("%-22s %-12s %10s %10s %14s  %s\n", "instance", "what", "entries",
           "bits/entry", "total bytes", "entry");
    size_t i;
    json_t *it;
    json_array_foreach(json_object_get(report, "items"), i, it) {
        const char *inst = json_string_value(json_object_get(it, "instance"));
        const char *what = json_string_value(json_object_get(it, "what"));
        const char *doc = json_string_value(json_object_get(it, "doc"));
        if (json_object_get(it, "time_ps")) {
            printf("%-22s %-12s %10s %10s %12" JSON_INTEGER_FORMAT "ps  %s\n", inst, what,
                   "", "", cost_int(it, "time_ps"), doc);
        } else {
            printf("%-22s %-12s %10" JSON_INTEGER_FORMAT " %10" JSON_INTEGER_FORMAT
                   " %14" JSON_INTEGER_FORMAT "  %s\n",
                   inst, what, cost_int(it, "entries"), cost_int(it, "bits_per_entry"),
                   cost_int(it, "total_bytes"), doc);
        }
    }
    printf("%-22s %-12s %10s %10s %14" JSON_INTEGER_FORMAT "\n", "total", "", "", "",
           cost_int(report, "total_bytes"));
}

int cmd_cost(Registry *reg, int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        cost_usage(stdout);
        return 0;
    }
    const char *path = NULL;
    bool as_json = false;
    SimError err;
    json_t *sets = json_object();
    PlatformDesc desc;
    if (!sets || !cost_parse(argc, argv, &path, &as_json, sets, &err) ||
        !platform_load(reg, path, sets, &desc, &err)) {
        json_decref(sets);
        fprintf(stderr, "%s\n", sets ? err.msg : "mgtlm cost: out of memory");
        return 2;
    }
    json_decref(sets);
    Sim *sim = sim_new();
    if (!sim) {
        platform_desc_free(&desc);
        fprintf(stderr, "mgtlm cost: out of memory\n");
        return 2;
    }
    Platform *p = platform_build(&desc, sim, &err);
    if (!p) {
        fprintf(stderr, "%s\n", err.msg);
        sim_free(sim);
        return 2;
    }
    CostReport *r = cost_report_new();
    if (!r) {
        fprintf(stderr, "mgtlm cost: out of memory\n");
        platform_free(p);
        sim_free(sim);
        return 2;
    }
    for (size_t i = 0; i < p->nblocks; i++) {
        if (p->blocks[i]->type->cost) {
            p->blocks[i]->type->cost(p->blocks[i], r);
        }
    }
    json_t *report = cost_report_json(r);
    if (as_json) {
        char *s = json_dumps(report, JSON_INDENT(2));
        puts(s ? s : "null");
        free(s);
    } else {
        cost_print_table(report);
    }
    json_decref(report);
    cost_report_free(r);
    platform_free(p);
    sim_free(sim);
    return 0;
}
