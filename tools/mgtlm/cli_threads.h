/* The --threads option of run and test (docs/parallel.md): how many threads run the
 * partitions of a platform's partition map. Outputs never depend on it. */
#ifndef MGTLM_CLI_THREADS_H
#define MGTLM_CLI_THREADS_H

#include <stdbool.h>

#include "cli_opt.h"
#include "kernel/error.h"

enum { CLI_THREADS = CLI_LONG_ONLY + 200 };
#define CLI_THREADS_MAX 1024
#define CLI_THREADS_OPT                                                                  \
    {                                                                                    \
        CLI_THREADS, "threads", "N",                                                     \
            "run the platform's partitions on N threads (default 1; same outputs for "   \
            "any N)",                                                                    \
            false                                                                        \
    }

/* *out = the value of --threads val, 1 to CLI_THREADS_MAX; else false with err
 * "--threads <val>: expected a number from 1 to 1024". */
bool cli_threads_parse(const char *val, unsigned *out, SimError *err);

#endif
