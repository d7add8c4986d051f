/* Command-line log options shared by the subcommands (`mgtlm run`, `mgtlm test`):
 *   --log-dir D          write logs into directory D (created with its parents)
 *   --log-ports GLOB     log only matching ports (repeatable; comma-separated lists
 *                        allowed); default all ports
 *   --log-format F       jsonl (default), binary, perfetto, perfetto-gz or vcd
 * Each option also accepts the "--opt=value" form. --log-ports and --log-format
 * without --log-dir are errors. */
#ifndef MGTLM_CLI_LOG_H
#define MGTLM_CLI_LOG_H

#include <stdbool.h>
#include <stddef.h>

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

/* If argv[*i] is a log option, consumes it (and its value), leaves *i on the last
 * argument consumed and sets *used; otherwise *used is false. Fails on a missing or
 * bad value ("--log-format xml: expected jsonl, binary, perfetto, perfetto-gz or
 * vcd"). */
bool cli_log_parse(CliLog *l, int argc, char **argv, int *i, bool *used, SimError *err);
/* Checks the combination after parsing (options that need --log-dir). */
bool cli_log_check(const CliLog *l, SimError *err);

/* Opens the log for p in dir (or dir/subdir when subdir is non-NULL). *out is NULL
 * when no --log-dir was given. */
bool cli_log_open(const CliLog *l, Platform *p, const char *subdir, TraceLog **out,
                  SimError *err);
/* Closes a log opened by cli_log_open (NULL is fine). */
bool cli_log_close(TraceLog *log, SimError *err);

#endif
