/* mgtlm: command-line front end. Fills the registry with the hardware models and
 * dispatches to the subcommands in commands.h. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "hw/blocks.h"

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
};

static void usage(FILE *f)
{
    fprintf(f, "usage: mgtlm <command> [arguments]   (mgtlm <command> --help)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(f, "\nExit status: 0 ok, 1 a failed check, 2 bad input.\n");
}

/* Runs cmd with a registry of the hardware models. */
static int main_dispatch(const Command *cmd, int argc, char **argv)
{
    Registry *r = registry_new();
    SimError err;
    if (!r || !hw_register(r, &err)) {
        fprintf(stderr, "mgtlm: %s\n", r ? err.msg : "out of memory");
        registry_free(r);
        return 2;
    }
    int status = cmd->fn(r, argc, argv);
    registry_free(r);
    return status;
}

int main(int argc, char **argv)
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
            return main_dispatch(&commands[i], argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "mgtlm: unknown command '%s' (try mgtlm --help)\n", argv[1]);
    return 2;
}
