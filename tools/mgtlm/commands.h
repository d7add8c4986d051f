/* The mgtlm subcommands. Each takes the registry (the hardware block types and
 * topology generators; a command may add its own types) and the arguments after the
 * subcommand name (argv[0] is the subcommand), and returns the process exit status:
 * 0 success, 1 a failed check (testbench mismatch, data check), 2 bad input. */
#ifndef MGTLM_COMMANDS_H
#define MGTLM_COMMANDS_H

#include "kernel/registry.h"

int cmd_run(Registry *r, int argc, char **argv);
int cmd_test(Registry *r, int argc, char **argv);
int cmd_validate(Registry *r, int argc, char **argv);
int cmd_blocks(Registry *r, int argc, char **argv);
int cmd_cost(Registry *r, int argc, char **argv);
int cmd_serve(Registry *r, int argc, char **argv);
int cmd_compare(Registry *r, int argc, char **argv);
int cmd_log(Registry *r, int argc, char **argv);
int cmd_trace_info(Registry *r, int argc, char **argv);
int cmd_sweep(Registry *r, int argc, char **argv);

#endif
