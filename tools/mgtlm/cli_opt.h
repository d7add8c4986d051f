/* Command-line options of the subcommands, parsed with getopt_long. Each subcommand
 * declares one CliSpec: its synopsis and a table of CliOpt (long name, optional short
 * letter, value placeholder, one line of help). The same table drives the parser and
 * the --help text, so the help cannot leave an option out (and docs/mgtlm.1 is checked
 * against the help by tests/tools/test_manpage.py).
 * Decisions: options and operands mix in any order and "--" ends the options (operands
 * are collected in command-line order, also with POSIXLY_CORRECT set); a value is given
 * as "--opt=value", "--opt value", "-o value" or "-ovalue";
 * an unambiguous prefix of a long name is accepted (getopt_long's rule). getopt's own
 * messages are off: every error is one line "<command>: ..." for exit status 2.
 * An option with a value that is not marked repeatable (a list, such as --set), given
 * twice, is an error ("<command>: --stats given twice (it takes one value)"): until
 * stop 44 the last one won and the first was dropped without a word, so `--trace A
 * --trace B` ran B alone. A flag given twice is the flag. */
#ifndef MGTLM_CLI_OPT_H
#define MGTLM_CLI_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kernel/error.h"

/* The id of an option without a short letter starts here (a short option's id is
 * its letter). */
#define CLI_LONG_ONLY 256
/* The most options one subcommand declares. */
#define CLI_OPT_MAX 24

typedef struct CliOpt {
    int id;           /* short letter, or CLI_LONG_ONLY + n */
    const char *name; /* long name without "--" */
    const char *arg;  /* value placeholder ("FILE"), NULL for a flag */
    const char *help; /* one line */
    bool repeat;      /* a value option that may be given more than once */
} CliOpt;

/* Every subcommand's -h/--help entry. */
#define CLI_OPT_HELP                                                                     \
    {                                                                                    \
        'h', "help", NULL, "print this help and exit", false                             \
    }

typedef struct CliSpec {
    const char *cmd;      /* "mgtlm run", the prefix of every message */
    const char *synopsis; /* "PLATFORM [options]" */
    const char *about;    /* one or more lines printed under the usage line */
    const CliOpt *opts;
    size_t nopts; /* at most CLI_OPT_MAX */
} CliSpec;

/* What cli_parse_next returns besides an option id. */
enum {
    CLI_END = -1,  /* every option read; operands from cli_parse_operands */
    CLI_ERROR = 0, /* bad command line; err holds the one-line message */
    CLI_HELP = -2, /* -h/--help: the help was printed on stdout; exit 0 */
};

typedef struct CliParse {
    const CliSpec *spec;
    int argc;
    char **argv; /* the operands are gathered into argv[1 .. noperands] */
    int noperands;
    bool seen[CLI_OPT_MAX]; /* the value options given so far, by table index */
    char shorts[2 * CLI_OPT_MAX + 2];
    struct option longs[CLI_OPT_MAX + 1];
} CliParse;

/* Prepares to parse argv[1..argc-1] (argv[0] is the subcommand name). */
void cli_parse_init(CliParse *p, const CliSpec *spec, int argc, char **argv);
/* Reads the next option: returns its id and sets *val to its value (NULL for a flag),
 * or CLI_END, CLI_HELP or CLI_ERROR (see above). */
int cli_parse_next(CliParse *p, const char **val, SimError *err);
/* After CLI_END: the operands (not options), in command-line order, and their count. */
char **cli_parse_operands(const CliParse *p, int *n);
/* After CLI_END, for a command that takes exactly one operand (a platform, a log, a
 * trace folder, named `what` in the messages): returns CLI_END with *operand set, or
 * CLI_ERROR with err set to "<cmd>: no <what> given (try --help)" or "<cmd>: more
 * than one <what> given". */
int cli_parse_one(const CliParse *p, const char *what, const char **operand,
                  SimError *err);

/* Prints "usage: <cmd> <synopsis>", the about text and one line per option. */
void cli_usage(FILE *f, const CliSpec *spec);

#endif
