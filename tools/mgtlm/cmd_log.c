/* `mgtlm log FILE --format jsonl|perfetto|perfetto-gz|vcd --out DIR`: converts a binary
 * log (written by `--log-format binary`, DIR/trace.mgtlm) into the output of another log
 * format in DIR (created with its parents), byte-identical to the files that format
 * writes directly during the run (kernel/trace/trace_convert.c). Errors (a missing or
 * damaged file, a bad option): one line on stderr, exit 2. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "kernel/trace/trace.h"

static void log_usage(FILE *f)
{
    fprintf(f, "usage: mgtlm log FILE --format jsonl|perfetto|perfetto-gz|vcd --out DIR\n"
               "  converts a binary log (--log-format binary) into DIR\n");
}

typedef struct LogArgs {
    const char *in, *out;
    const char *format;
} LogArgs;

static bool log_parse(int argc, char **argv, LogArgs *a, SimError *err)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc) {
                return sim_error_set(err, "mgtlm log: %s needs a value", argv[i]);
            }
            *(argv[i][2] == 'f' ? &a->format : &a->out) = argv[i + 1];
            i++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return sim_error_set(err, "mgtlm log: unknown option '%s' (try --help)",
                                 argv[i]);
        } else if (a->in) {
            return sim_error_set(err, "mgtlm log: more than one log given");
        } else {
            a->in = argv[i];
        }
    }
    if (!a->in || !a->format || !a->out) {
        return sim_error_set(err, "mgtlm log: %s (try --help)",
                             !a->in       ? "no log given"
                             : !a->format ? "--format is required"
                                          : "--out is required");
    }
    return true;
}

int cmd_log(Registry *r, int argc, char **argv)
{
    (void)r;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        log_usage(stdout);
        return 0;
    }
    LogArgs a = {0};
    SimError err;
    TraceFormat fmt = TRACE_JSONL;
    if (!log_parse(argc, argv, &a, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (!trace_format_parse(a.format, &fmt) || fmt == TRACE_BINARY) {
        fprintf(stderr,
                "mgtlm log: --format %s: expected jsonl, perfetto, perfetto-gz or vcd\n",
                a.format);
        return 2;
    }
    if (!trace_convert(a.in, a.out, fmt, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    return 0;
}
