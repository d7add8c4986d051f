/* The mgtlm subcommands. Each takes the arguments after the subcommand name
 * (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 a failed check (testbench mismatch, data check), 2 bad input. */
#ifndef MGTLM_COMMANDS_H
#define MGTLM_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_blocks(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_serve(int argc, char **argv);

#endif
