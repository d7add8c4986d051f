/* `mgtlm log FILE --format jsonl|perfetto|perfetto-gz|vcd --out DIR`: converts a binary
 * log (written by `--log-format binary`, DIR/trace.mgtlm) into the output of another log
 * format in DIR (created with its parents), byte-identical to the files that format
 * writes directly during the run (kernel/trace/trace_convert.c). Errors (a missing or
 * damaged file, a bad option): one line on stderr, exit 2. */
#include <stdio.h>

#include "cli_opt.h"
#include "commands.h"
#include "kernel/trace/trace.h"

static const CliOpt log_opts[] = {
    {'f', "format", "FORMAT", "jsonl, perfetto, perfetto-gz or vcd", false},
    {'o', "out", "DIR", "the folder to write into (made with its parents)", false},
    CLI_OPT_HELP,
};

static const CliSpec log_spec = {
    "mgtlm log", "FILE --format FORMAT --out DIR",
    "Converts a binary log (run or test with --log-format binary: DIR/trace.mgtlm)\n"
    "into another log format, byte-identical to that format written during the run.",
    log_opts, sizeof log_opts / sizeof log_opts[0]};

typedef struct LogArgs {
    const char *in, *out;
    const char *format;
} LogArgs;

/* Fills a from argv: CLI_END, CLI_HELP, or CLI_ERROR with err set. */
static int log_parse(int argc, char **argv, LogArgs *a, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &log_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        *(id == 'f' ? &a->format : &a->out) = val;
    }
    if (id != CLI_END || cli_parse_one(&cp, "log", &a->in, err) != CLI_END) {
        return id != CLI_END ? id : CLI_ERROR;
    }
    if (!a->format || !a->out) {
        sim_error_set(err, "mgtlm log: %s (try --help)",
                      !a->format ? "--format is required" : "--out is required");
        return CLI_ERROR;
    }
    return CLI_END;
}

int cmd_log(Registry *r, int argc, char **argv)
{
    (void)r;
    LogArgs a = {0};
    SimError err;
    TraceFormat fmt = TRACE_JSONL;
    int parsed = log_parse(argc, argv, &a, &err);
    if (parsed == CLI_HELP) {
        return 0;
    }
    if (parsed != CLI_END) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (!trace_format_parse(a.format, &fmt) || fmt == TRACE_BINARY) {
        sim_error_set(&err,
                      "mgtlm log: --format %s: expected jsonl, perfetto, "
                      "perfetto-gz or vcd",
                      a.format);
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (!trace_convert(a.in, a.out, fmt, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    return 0;
}
