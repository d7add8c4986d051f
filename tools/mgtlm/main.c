/* mgtlm: command-line front end. Fills the registry with the hardware models and the
 * plug-ins named by --plugin, and dispatches to the subcommands in commands.h.
 *
 * Decision: `--plugin PATH` / `--plugin=PATH` (repeatable) is taken out of argv
 * wherever it stands before a `--`, before the command is dispatched, so every
 * subcommand (run, test, serve, blocks, ...) sees the plug-ins' block types without
 * knowing about plug-ins. Plug-ins load after the hardware models, in command-line
 * order, so a plug-in cannot replace a shipped type (kernel/plugin.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "hw/blocks.h"
#include "kernel/plugin.h"
#include "kernel/xalloc.h"

typedef struct Command {
    const char *name;
    int (*fn)(Registry *r, int argc, char **argv);
    const char *summary;
} Command;

static const Command commands[] = {
    {"run", cmd_run, "run a platform with its workload; print a summary"},
    {"test", cmd_test, "run directed testbenches against golden vectors"},
    {"validate", cmd_validate, "check a platform file; --dump prints the flat form"},
    {"blocks", cmd_blocks, "list block types, or one type's ports and parameters"},
    {"cost", cmd_cost, "storage of every stateful block (bits per entry, bytes)"},
    {"log", cmd_log, "convert a binary log to JSONL, Perfetto or VCD"},
    {"serve", cmd_serve, "HTTP API, live dashboard and PCIe/IP co-simulation"},
    {"compare", cmd_compare, "ratios of the stats of two or more runs (--stats files)"},
    {"trace-info", cmd_trace_info, "count what an Accel-Sim trace folder holds"},
    {"sweep", cmd_sweep, "run a platform over the cross product of --set values"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: mgtlm <command> [arguments]   (mgtlm <command> --help)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(f, "\nOptions of every command:\n"
               "  --plugin PATH.so  load the block types of a plug-in (repeatable)\n");
    fprintf(f, "\nExit status: 0 ok, 1 a failed check, 2 bad input.\n");
}

/* Moves the values of every --plugin option out of argv (up to a "--") into plugins
 * (room for argc entries), in order, and closes the gap; *argc shrinks. False with a
 * message on stderr for an option without a value. */
static bool main_take_plugins(int *argc, char **argv, const char **plugins, int *nplugins)
{
    int out = 1, i = 1;
    *nplugins = 0;
    for (; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        const char *path = NULL;
        if (strcmp(argv[i], "--plugin") == 0) {
            path = i + 1 < *argc ? argv[++i] : "";
        } else if (strncmp(argv[i], "--plugin=", 9) == 0) {
            path = argv[i] + 9;
        } else {
            argv[out++] = argv[i];
            continue;
        }
        if (path[0] == '\0') {
            fprintf(stderr, "mgtlm: --plugin needs a file (--plugin PATH.so)\n");
            return false;
        }
        plugins[(*nplugins)++] = path;
    }
    for (; i < *argc; i++) {
        argv[out++] = argv[i];
    }
    argv[out] = NULL;
    *argc = out;
    return true;
}

/* Runs cmd with a registry of the hardware models and the plug-ins. */
static int main_dispatch(const Command *cmd, const char *const *plugins, int nplugins,
                         int argc, char **argv)
{
    Registry *r = registry_new();
    SimError err;
    if (!r || !hw_register(r, &err)) {
        fprintf(stderr, "mgtlm: %s\n", r ? err.msg : "out of memory");
        registry_free(r);
        return 2;
    }
    for (int i = 0; i < nplugins; i++) {
        if (!plugin_load(r, plugins[i], &err)) {
            fprintf(stderr, "mgtlm: %s\n", err.msg);
            registry_free(r);
            return 2;
        }
    }
    int status = cmd->fn(r, argc, argv);
    registry_free(r);
    return status;
}

/* The command line without its --plugin options. */
static int main_command(const char *const *plugins, int nplugins, int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("mgtlm %s\n", MGTLM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0) {
            return main_dispatch(&commands[i], plugins, nplugins, argc - 1, argv + 1);
        }
    }
    SimError err;
    sim_error_set(&err, "mgtlm: unknown command '%s' (try mgtlm --help)", argv[1]);
    fprintf(stderr, "%s\n", err.msg);
    return 2;
}

int main(int argc, char **argv)
{
    const char **plugins = xcalloc((size_t)argc + 1, sizeof *plugins);
    int nplugins;
    int status = 2;
    if (main_take_plugins(&argc, argv, plugins, &nplugins)) {
        status = main_command(plugins, nplugins, argc, argv);
    }
    free(plugins);
    return status;
}
