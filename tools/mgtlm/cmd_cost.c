/* `mgtlm cost PLATFORM [-j|--json] [-s|--set inst.param=value]...`: builds the platform
 * and prints the storage of every stateful block by formula from its parameters (each
 * block type's optional cost callback, kernel/cost.h): one row per storage item with
 * entries, bits per entry and total bytes, derived times, and the total. --json
 * prints the report as JSON instead. Errors: one line on stderr, exit 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_opt.h"
#include "cli_set.h"
#include "commands.h"
#include "kernel/platform/platform.h"

static const CliOpt cost_opts[] = {
    {'j', "json", NULL, "print the report as JSON", false},
    {'s', "set", "inst.param=value", "set a parameter (repeatable; globs allowed)", true},
    CLI_OPT_HELP,
};

static const CliSpec cost_spec = {
    "mgtlm cost", "PLATFORM [options]",
    "Prints the storage of every stateful block of PLATFORM: entries, bits per entry,\n"
    "total bytes, and the total.",
    cost_opts, sizeof cost_opts / sizeof cost_opts[0]};

/* Reads the command line; returns CLI_END when the platform can be costed,
 * CLI_HELP after printing the help, CLI_ERROR with err set. */
static int cost_parse(int argc, char **argv, const char **path, bool *as_json,
                      json_t *sets, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &cost_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        if (id == 'j') {
            *as_json = true;
        } else if (!cli_set_add(sets, val, err)) {
            return CLI_ERROR;
        }
    }
    return id == CLI_END ? cli_parse_one(&cp, "platform", path, err) : id;
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
    const char *path = NULL;
    bool as_json = false;
    SimError err;
    json_t *sets = json_object();
    PlatformDesc desc;
    int parsed = sets ? cost_parse(argc, argv, &path, &as_json, sets, &err) : CLI_ERROR;
    if (parsed == CLI_HELP) {
        json_decref(sets);
        return 0;
    }
    if (parsed != CLI_END || !platform_load(reg, path, sets, &desc, &err)) {
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
