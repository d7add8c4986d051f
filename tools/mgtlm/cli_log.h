/* Command-line log options shared by the subcommands (`mgtlm run`, `mgtlm test`):
 *   --log-dir D          write logs into directory D (created with its parents)
 *   --log-ports GLOB     log only matching ports (repeatable; comma-separated lists
 *                        allowed); default all ports
 *   --log-format F       jsonl (default), binary, perfetto, perfetto-gz or vcd
 * A subcommand puts CLI_LOG_OPTS in its option table (cli_opt.h) and hands their ids
 * to cli_log_option. --log-ports and --log-format without --log-dir are errors. */
#ifndef MGTLM_CLI_LOG_H
#define MGTLM_CLI_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_opt.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"

typedef struct CliLog {
    const char *dir; /* NULL = no log; borrowed from argv */
    TraceFormat format;
    bool format_given;
    char **globs; /* owned copies */
    size_t nglobs;
} CliLog;

void cli_log_init(CliLog *l);
void cli_log_free(CliLog *l);

/* The ids of the log options and their entries for a subcommand's option table. */
enum { CLI_LOG_DIR = CLI_LONG_ONLY + 100, CLI_LOG_PORTS, CLI_LOG_FORMAT };
#define CLI_LOG_OPTS                                                                     \
    {CLI_LOG_DIR, "log-dir", "DIR", "write per-port logs into DIR (made if missing)",    \
     false},                                                                             \
        {CLI_LOG_PORTS, "log-ports", "GLOB",                                             \
         "log only matching ports (repeatable; default all)", true},                     \
    {                                                                                    \
        CLI_LOG_FORMAT, "log-format", "FORMAT",                                          \
            "jsonl (default), binary, perfetto, perfetto-gz or vcd", false               \
    }

/* Applies log option id (one of CLI_LOG_*) with its value. Fails on a bad value
 * ("--log-format xml: expected jsonl, binary, perfetto,
 * perfetto-gz or vcd"). */
bool cli_log_option(CliLog *l, int id, const char *val, SimError *err);
/* Checks the combination after parsing (options that need --log-dir). */
bool cli_log_check(const CliLog *l, SimError *err);

/* Opens the log for p in dir (or dir/subdir when subdir is non-NULL). *out is NULL
 * when no --log-dir was given. */
bool cli_log_open(const CliLog *l, Platform *p, const char *subdir, TraceLog **out,
                  SimError *err);
/* Closes a log opened by cli_log_open (NULL is fine). */
bool cli_log_close(TraceLog *log, SimError *err);

#endif
