/* `mgtlm validate PLATFORM [-d|--dump] [-s|--set inst.param=value]... [-t|--trace DIR]`:
 * loads the
 * platform (template or flat form), applies the sets, builds it (parameters, realize,
 * wires, required ports) and prints "<file>: ok (<n> instances, <m> wires, <k>
 * partitions, lookahead <time>)" (the partition map, docs/parallel.md; one partition
 * has no lookahead), or with
 * --dump the flat form: one top-level key per line, one instance or wire per line (this
 * output is itself a valid platform file). Errors: one line on stderr, exit 2. */
#include <stdio.h>
#include <stdlib.h>

#include "cli_opt.h"
#include "cli_set.h"
#include "commands.h"
#include "flat_print.h"
#include "kernel/platform/platform.h"
#include "kernel/units.h"

static const CliOpt validate_opts[] = {
    {'d', "dump", NULL, "print the flat platform (a valid platform file)", false},
    {'s', "set", "inst.param=value", "set a parameter (repeatable; globs allowed)", true},
    {'t', "trace", "DIR",
     "apply the platform's cores for the trace in DIR (--set trace=DIR)", false},
    CLI_OPT_HELP,
};

static const CliSpec validate_spec = {
    "mgtlm validate", "PLATFORM [options]",
    "Loads and builds PLATFORM and prints \"<file>: ok (<n> instances, <m> wires, <k>\n"
    "partitions, lookahead <time>)\".",
    validate_opts, sizeof validate_opts / sizeof validate_opts[0]};

/* Reads the command line; returns CLI_END when the platform can be validated,
 * CLI_HELP after printing the help, CLI_ERROR with err set. */
static int validate_parse(int argc, char **argv, const char **path, bool *dump,
                          json_t *sets, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &validate_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        if (id == 'd') {
            *dump = true;
        } else if (!(id == 't' ? cli_set_trace(sets, val, err)
                               : cli_set_add(sets, val, err))) {
            return CLI_ERROR;
        }
    }
    return id == CLI_END ? cli_parse_one(&cp, "platform", path, err) : id;
}

int cmd_validate(Registry *r, int argc, char **argv)
{
    const char *path = NULL;
    bool dump = false;
    SimError err;
    json_t *sets = json_object();
    PlatformDesc desc;
    int parsed = sets ? validate_parse(argc, argv, &path, &dump, sets, &err) : CLI_ERROR;
    if (parsed == CLI_HELP) {
        json_decref(sets);
        return 0;
    }
    if (parsed != CLI_END || !platform_load(r, path, sets, &desc, &err)) {
        json_decref(sets);
        fprintf(stderr, "%s\n", sets ? err.msg : "mgtlm validate: out of memory");
        return 2;
    }
    json_decref(sets);
    PlatformPartition parts;
    if (!platform_partition(&desc, &parts, &err)) {
        platform_desc_free(&desc);
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    Sim *sim = sim_new();
    Platform *p = sim ? platform_build(&desc, sim, &err) : NULL;
    if (!p) {
        if (!sim) {
            platform_desc_free(&desc);
        }
        fprintf(stderr, "%s\n", sim ? err.msg : "mgtlm validate: out of memory");
        sim_free(sim);
        platform_partition_free(&parts);
        return 2;
    }
    if (dump) {
        json_t *flat = platform_dump(&p->desc);
        flat_print(stdout, flat);
        json_decref(flat);
    } else {
        printf("%s: ok (%zu instances, %zu wires, %u partition%s", path, p->desc.ninst,
               p->desc.nwires, parts.n, parts.n == 1 ? "" : "s");
        if (parts.ncut > 0) {
            char la[UNITS_BUF];
            units_format_time(parts.lookahead, la);
            printf(", lookahead %s", la);
        }
        printf(")\n");
    }
    platform_partition_free(&parts);
    platform_free(p);
    sim_free(sim);
    return 0;
}
