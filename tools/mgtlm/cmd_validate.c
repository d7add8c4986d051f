/* `mgtlm validate PLATFORM [--dump] [--set inst.param=value]...`: loads the platform
 * (template or flat form), applies the sets, builds it (parameters, realize, wires,
 * required ports) and prints "<file>: ok (<n> instances, <m> wires)", or with --dump
 * the flat form: one top-level key per line, one instance or wire per line (this
 * output is itself a valid platform file). Errors: one line on stderr, exit 2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_set.h"
#include "commands.h"
#include "flat_print.h"
#include "kernel/platform/platform.h"

static void validate_usage(FILE *f)
{
    fprintf(f, "usage: mgtlm validate PLATFORM [--dump] [--set inst.param=value]...\n");
}

static bool validate_parse(int argc, char **argv, const char **path, bool *dump,
                           json_t *sets, SimError *err)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dump") == 0) {
            *dump = true;
        } else if (strcmp(argv[i], "--set") == 0) {
            if (i + 1 >= argc) {
                return sim_error_set(err, "mgtlm validate: --set needs inst.param=value");
            }
            if (!cli_set_add(sets, argv[++i], err)) {
                return false;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return sim_error_set(err, "mgtlm validate: unknown option '%s' (try --help)",
                                 argv[i]);
        } else if (*path) {
            return sim_error_set(err, "mgtlm validate: more than one platform given");
        } else {
            *path = argv[i];
        }
    }
    if (!*path) {
        return sim_error_set(err, "mgtlm validate: no platform given (try --help)");
    }
    return true;
}

int cmd_validate(Registry *r, int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        validate_usage(stdout);
        return 0;
    }
    const char *path = NULL;
    bool dump = false;
    SimError err;
    json_t *sets = json_object();
    PlatformDesc desc;
    if (!sets || !validate_parse(argc, argv, &path, &dump, sets, &err) ||
        !platform_load(r, path, sets, &desc, &err)) {
        json_decref(sets);
        fprintf(stderr, "%s\n", sets ? err.msg : "mgtlm validate: out of memory");
        return 2;
    }
    json_decref(sets);
    Sim *sim = sim_new();
    Platform *p = sim ? platform_build(&desc, sim, &err) : NULL;
    if (!p) {
        if (!sim) {
            platform_desc_free(&desc);
        }
        fprintf(stderr, "%s\n", sim ? err.msg : "mgtlm validate: out of memory");
        sim_free(sim);
        return 2;
    }
    if (dump) {
        json_t *flat = platform_dump(&p->desc);
        flat_print(stdout, flat);
        json_decref(flat);
    } else {
        printf("%s: ok (%zu instances, %zu wires)\n", path, p->desc.ninst,
               p->desc.nwires);
    }
    platform_free(p);
    sim_free(sim);
    return 0;
}
