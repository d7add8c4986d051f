/* `mgtlm sweep PLATFORM --vary KEY=V1,V2,... [--vary ...] [options]`: runs PLATFORM
 * once for every combination of the varied `--set` values and writes one tidy table:
 * one row per run and stat, columns the varied keys (as written), `stat` and `value`.
 * Decisions:
 * - A run is `mgtlm run` itself: the sweep forks, and the child calls cmd_run with the
 *   fixed options, the run's sets and `--stats` into a private folder, so a sweep
 *   accepts exactly what run accepts and each run gets a fresh process. -j N runs N
 *   children at a time (default: the online processors).
 * - Combinations are enumerated like nested loops, the first --vary outermost; rows
 *   follow that order and, within a run, the stats file's order (stats_flat.h), so the
 *   table is byte-identical whatever -j and whatever order the runs end in.
 * - A --vary value list splits at commas outside brackets, braces and double quotes,
 *   so JSON arrays are one value (`--vary 'sw.routes=[1,0],[0,1]'`). Each value is a
 *   `--set` value (JSON when it parses as JSON, else a string); the table shows it as
 *   written. A key may be varied once and not also be fixed by --set or --trace.
 * - --stat GLOB (repeatable) keeps the stats whose names match (kernel/glob.h, the
 *   dialect of `--set` keys); without it every numeric stat and the run's metadata
 *   (`run.simulated_ps`, `run.events`, ...) are written.
 * - A run that fails on its input (exit 2: a bad key or value) ends the sweep: no new
 *   runs start, and the message is the child's own line behind "mgtlm sweep: run K
 *   (key=value, ...)", for the first such run in table order (the same whatever -j:
 *   every run before the first failure seen was started). A run with a model error
 *   (exit 1) keeps its rows; the sweep names it on stderr and exits 1.
 * Exit status: 0, 1 (a run's model error), 2 (bad input, a run that failed). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_opt.h"
#include "cli_set.h"
#include "commands.h"
#include "kernel/csv.h"
#include "kernel/glob.h"
#include "kernel/xalloc.h"
#include "stats_flat.h"

/* The most runs one sweep may hold (the product of the value counts). */
#define SWEEP_MAX_RUNS 1000000
#define SWEEP_MAX_JOBS 256

enum { SWEEP_STAT = CLI_LONG_ONLY, SWEEP_SEP };

static const CliOpt sweep_opts[] = {
    {'v', "vary", "KEY=V1,V2,...", "run once per value of a --set key (repeatable)",
     true},
    {'s', "set", "inst.param=value", "a set every run gets (repeatable; globs allowed)",
     true},
    {'t', "trace", "DIR", "every run executes the trace in DIR (--set trace=DIR)", false},
    {'w', "workload", "FILE", "every run applies a workload file's sets and time limit",
     false},
    {'u', "until", "TIME", "every run stops at this simulated time", false},
    {SWEEP_STAT, "stat", "GLOB", "write only the stats matching GLOB (repeatable)", true},
    {'j', "jobs", "N", "run N processes at a time (default: the online processors)",
     false},
    {'o', "out", "FILE", "write the table into FILE (default: standard output)", false},
    {'f', "format", "FORMAT", "csv (default) or tsv", false},
    CLI_OPT_HELP,
};

static const CliSpec sweep_spec = {
    "mgtlm sweep", "PLATFORM --vary KEY=V1,V2,... [options]",
    "Runs PLATFORM once per combination of the --vary values (first --vary\n"
    "outermost) and writes one table: a row per run and stat, with the varied keys,\n"
    "stat and value as columns, in the same order whatever -j.",
    sweep_opts, sizeof sweep_opts / sizeof sweep_opts[0]};

typedef struct SweepVary {
    char *key;     /* owned */
    char **values; /* owned, each owned */
    size_t nvalues;
} SweepVary;

typedef struct SweepArgs {
    const char *platform;
    const char **fixed; /* "--set"/"--trace" and value pairs, borrowed from argv */
    int nfixed;         /* entries of fixed (two per option) */
    json_t *fixed_sets; /* the fixed sets' keys, to refuse a varied one */
    SweepVary *vary;
    size_t nvary;
    const char **stats; /* --stat globs, borrowed */
    int nstats;
    const char *workload, *until, *out;
    bool tsv;
    long jobs;
} SweepArgs;

typedef struct SweepRun {
    pid_t pid;
    int status; /* exit status; -1 not run */
} SweepRun;

/* A new copy of the first n characters of s. */
static char *sweep_strndup(const char *s, size_t n)
{
    char *copy = xmalloc(n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

/* Splits list at the commas outside brackets, braces and double quotes into v. */
static bool sweep_split(SweepVary *v, const char *list, SimError *err)
{
    size_t len = strlen(list);
    v->values = xcalloc(len + 1, sizeof *v->values);
    int depth = 0;
    bool quoted = false;
    const char *start = list;
    for (const char *c = list;; c++) {
        if (*c == '"' && (c == list || c[-1] != '\\')) {
            quoted = !quoted;
        } else if (!quoted && (*c == '[' || *c == '{')) {
            depth++;
        } else if (!quoted && (*c == ']' || *c == '}')) {
            depth--;
        } else if (*c == '\0' || (*c == ',' && !quoted && depth == 0)) {
            if (c == start) {
                return sim_error_set(err, "--vary %s=%s: an empty value", v->key, list);
            }
            v->values[v->nvalues++] = sweep_strndup(start, (size_t)(c - start));
            start = c + 1;
        }
        if (*c == '\0') {
            return true;
        }
    }
}

/* Adds one --vary KEY=V1,V2,... to a. */
static bool sweep_add_vary(SweepArgs *a, const char *arg, SimError *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || eq[1] == '\0') {
        return sim_error_set(err, "--vary %s: expected KEY=V1,V2,...", arg);
    }
    SweepVary *v = &a->vary[a->nvary];
    v->key = sweep_strndup(arg, (size_t)(eq - arg));
    a->nvary++;
    for (size_t i = 0; i + 1 < a->nvary; i++) {
        if (strcmp(a->vary[i].key, v->key) == 0) {
            return sim_error_set(err, "--vary %s: the key is varied twice", v->key);
        }
    }
    return sweep_split(v, eq + 1, err);
}

/* The checks that need every option: keys both fixed and varied, the run count,
 * values TSV cannot hold. */
static bool sweep_check(const SweepArgs *a, size_t *nruns, SimError *err)
{
    if (a->nvary == 0) {
        return sim_error_set(err, "no --vary given (try --help)");
    }
    *nruns = 1;
    for (size_t i = 0; i < a->nvary; i++) {
        const SweepVary *v = &a->vary[i];
        if (json_object_get(a->fixed_sets, v->key)) {
            return sim_error_set(err, "%s is both set and varied", v->key);
        }
        if (*nruns > SWEEP_MAX_RUNS / v->nvalues) {
            return sim_error_set(err, "more than %d runs", SWEEP_MAX_RUNS);
        }
        *nruns *= v->nvalues;
        for (size_t k = 0; a->tsv && k < v->nvalues; k++) {
            if (strpbrk(v->values[k], "\t\n\r")) {
                return sim_error_set(err,
                                     "--vary %s: a TSV field cannot hold a tab "
                                     "or a line break",
                                     v->key);
            }
        }
    }
    return true;
}

static bool sweep_option(SweepArgs *a, int id, const char *val, SimError *err)
{
    char *end;
    switch (id) {
    case 'v':
        return sweep_add_vary(a, val, err);
    case 's':
    case 't':
        a->fixed[a->nfixed++] = id == 's' ? "--set" : "--trace";
        a->fixed[a->nfixed++] = val;
        return id == 's' ? cli_set_add(a->fixed_sets, val, err)
                         : cli_set_trace(a->fixed_sets, val, err);
    case 'w':
        a->workload = val;
        return true;
    case 'u':
        a->until = val;
        return true;
    case SWEEP_STAT:
        a->stats[a->nstats++] = val;
        return true;
    case 'j':
        errno = 0;
        a->jobs = strtol(val, &end, 10);
        return (end != val && !*end && errno == 0 && a->jobs >= 1 &&
                a->jobs <= SWEEP_MAX_JOBS) ||
               sim_error_set(err, "--jobs %s: expected 1 to %d", val, SWEEP_MAX_JOBS);
    case 'o':
        a->out = val;
        return true;
    default:
        a->tsv = strcmp(val, "tsv") == 0;
        return a->tsv || strcmp(val, "csv") == 0 ||
               sim_error_set(err, "--format %s: expected csv or tsv", val);
    }
}

/* Fills a from argv: CLI_END, CLI_HELP, or CLI_ERROR with err set (one line). */
static int sweep_parse(int argc, char **argv, SweepArgs *a, size_t *nruns, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    bool ok = true;
    a->fixed = xcalloc((size_t)argc * 2, sizeof *a->fixed);
    a->stats = xcalloc((size_t)argc, sizeof *a->stats);
    a->vary = xcalloc((size_t)argc, sizeof *a->vary);
    a->fixed_sets = json_object();
    cli_parse_init(&cp, &sweep_spec, argc, argv);
    while (ok && (id = cli_parse_next(&cp, &val, err)) > 0) {
        ok = sweep_option(a, id, val, err);
    }
    if (!ok) {
        sim_error_prefix(err, "mgtlm sweep");
        return CLI_ERROR;
    }
    if (id != CLI_END) {
        return id;
    }
    if (cli_parse_one(&cp, "platform", &a->platform, err) != CLI_END) {
        return CLI_ERROR;
    }
    if (!sweep_check(a, nruns, err)) {
        sim_error_prefix(err, "mgtlm sweep");
        return CLI_ERROR;
    }
    return CLI_END;
}

/* The value index of every varied key in run k (the first key outermost). */
static void sweep_pick(const SweepArgs *a, size_t k, size_t *pick)
{
    for (size_t i = a->nvary; i-- > 0;) {
        pick[i] = k % a->vary[i].nvalues;
        k /= a->vary[i].nvalues;
    }
}

/* "<dir>/run<k>.json" or ".err" (new). */
static char *sweep_path(const char *dir, size_t k, const char *ext)
{
    size_t len = strlen(dir) + 48;
    char *path = xmalloc(len);
    snprintf(path, len, "%s/run%zu.%s", dir, k, ext);
    return path;
}

/* In the child: stdout to /dev/null, stderr to the run's .err file, then cmd_run with
 * the fixed options and run k's sets. Never returns. */
static void sweep_child(Registry *r, const SweepArgs *a, size_t k, const char *dir)
{
    char *stats = sweep_path(dir, k, "json");
    char *errs = sweep_path(dir, k, "err");
    if (!freopen("/dev/null", "w", stdout) || !freopen(errs, "w", stderr)) {
        _exit(2);
    }
    size_t n = 0, cap = 8 + (size_t)a->nfixed + 2 * a->nvary;
    char **argv = xcalloc(cap + 1, sizeof *argv);
    size_t *pick = xcalloc(a->nvary, sizeof *pick);
    argv[n++] = "run";
    argv[n++] = (char *)a->platform;
    argv[n++] = "--quiet";
    argv[n++] = "--stats";
    argv[n++] = stats;
    if (a->workload) {
        argv[n++] = "--workload";
        argv[n++] = (char *)a->workload;
    }
    if (a->until) {
        argv[n++] = "--until";
        argv[n++] = (char *)a->until;
    }
    for (int i = 0; i < a->nfixed; i++) {
        argv[n++] = (char *)a->fixed[i];
    }
    sweep_pick(a, k, pick);
    for (size_t i = 0; i < a->nvary; i++) {
        size_t len = strlen(a->vary[i].key) + strlen(a->vary[i].values[pick[i]]) + 2;
        char *set = xmalloc(len);
        set[0] = '\0';
        strcat(strcat(strcat(set, a->vary[i].key), "="), a->vary[i].values[pick[i]]);
        argv[n++] = "--set";
        argv[n++] = set;
    }
    int status = cmd_run(r, (int)n, argv);
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

/* Runs every combination, at most a->jobs at a time; stops starting runs after one
 * that failed on its input. False (err set) when a child cannot be started. */
static bool sweep_run_all(Registry *r, const SweepArgs *a, SweepRun *runs, size_t nruns,
                          const char *dir, SimError *err)
{
    size_t next = 0, running = 0;
    bool failed = false, forked = true;
    while (running > 0 || (next < nruns && !failed)) {
        if (next < nruns && !failed && running < (size_t)a->jobs) {
            fflush(stdout);
            fflush(stderr);
            pid_t pid = fork();
            if (pid == 0) {
                sweep_child(r, a, next, dir);
            }
            if (pid < 0) {
                forked = sim_error_set(err, "mgtlm sweep: cannot start a run: %s",
                                       strerror(errno));
                failed = true;
                continue;
            }
            runs[next++].pid = pid;
            running++;
            continue;
        }
        int ws;
        pid_t pid = wait(&ws);
        if (pid < 0) {
            break;
        }
        for (size_t k = 0; k < next; k++) {
            if (runs[k].pid == pid) {
                runs[k].status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
                failed = failed || runs[k].status > 1;
                running--;
            }
        }
    }
    return forked;
}

/* "key=value, key=value" of run k (new). */
static char *sweep_label(const SweepArgs *a, size_t k)
{
    size_t *pick = xcalloc(a->nvary, sizeof *pick), len = 1;
    sweep_pick(a, k, pick);
    for (size_t i = 0; i < a->nvary; i++) {
        len += strlen(a->vary[i].key) + strlen(a->vary[i].values[pick[i]]) + 3;
    }
    char *label = xmalloc(len);
    label[0] = '\0';
    for (size_t i = 0; i < a->nvary; i++) {
        strcat(strcat(strcat(strcat(label, i ? ", " : ""), a->vary[i].key), "="),
               a->vary[i].values[pick[i]]);
    }
    free(pick);
    return label;
}

/* The first line of run k's stderr into err, behind the run's label. */
static void sweep_run_error(const SweepArgs *a, size_t k, int status, const char *dir,
                            SimError *err)
{
    char line[SIM_ERROR_MAX] = "";
    char *label = sweep_label(a, k);
    char *path = sweep_path(dir, k, "err");
    FILE *f = fopen(path, "r");
    if (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
    }
    if (f) {
        fclose(f);
    }
    free(path);
    if (line[0]) {
        sim_error_set(err, "mgtlm sweep: run %zu (%s): %s", k, label, line);
    } else {
        sim_error_set(err, "mgtlm sweep: run %zu (%s): exit status %d", k, label, status);
    }
    free(label);
}

static void sweep_field(FILE *f, const SweepArgs *a, const char *s)
{
    if (a->tsv) {
        fputs(s, f);
    } else {
        csv_field(f, s);
    }
}

static bool sweep_selected(const SweepArgs *a, const char *stat)
{
    for (int i = 0; i < a->nstats; i++) {
        if (glob_match(a->stats[i], stat)) {
            return true;
        }
    }
    return a->nstats == 0;
}

/* Writes the rows of run k (its stats file in dir) to f. */
static bool sweep_write_run(FILE *f, const SweepArgs *a, size_t k, const char *dir,
                            SimError *err)
{
    char *path = sweep_path(dir, k, "json");
    json_t *flat = stats_flat_load(path, err);
    free(path);
    if (!flat) {
        return sim_error_prefix(err, "mgtlm sweep");
    }
    size_t *pick = xcalloc(a->nvary, sizeof *pick);
    sweep_pick(a, k, pick);
    char sep = a->tsv ? '\t' : ',';
    const char *stat;
    json_t *v;
    json_object_foreach(flat, stat, v) {
        if (!sweep_selected(a, stat)) {
            continue;
        }
        for (size_t i = 0; i < a->nvary; i++) {
            sweep_field(f, a, a->vary[i].values[pick[i]]);
            fputc(sep, f);
        }
        sweep_field(f, a, stat);
        if (json_is_integer(v)) {
            fprintf(f, "%c%lld\n", sep, (long long)json_integer_value(v));
        } else {
            fprintf(f, "%c%.17g\n", sep, json_real_value(v));
        }
    }
    json_decref(flat);
    free(pick);
    return true;
}

static bool sweep_write(const SweepArgs *a, size_t nruns, const char *dir, SimError *err)
{
    FILE *f = a->out ? fopen(a->out, "w") : stdout;
    if (!f) {
        return sim_error_set(err, "mgtlm sweep: %s: cannot write: %s", a->out,
                             strerror(errno));
    }
    char sep = a->tsv ? '\t' : ',';
    for (size_t i = 0; i < a->nvary; i++) {
        sweep_field(f, a, a->vary[i].key);
        fputc(sep, f);
    }
    fprintf(f, "stat%cvalue\n", sep);
    bool ok = true;
    for (size_t k = 0; k < nruns && ok; k++) {
        ok = sweep_write_run(f, a, k, dir, err);
    }
    bool written = !ferror(f) && (a->out ? fclose(f) == 0 : fflush(f) == 0);
    if (ok && !written) {
        ok = sim_error_set(err, "mgtlm sweep: %s: cannot write",
                           a->out ? a->out : "standard output");
    }
    return ok;
}

/* Removes the files the runs left in dir, and dir. */
static void sweep_clean(const char *dir, size_t nruns)
{
    static const char *const exts[] = {"json", "json.platform.json", "err"};
    for (size_t k = 0; k < nruns; k++) {
        for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++) {
            char *path = sweep_path(dir, k, exts[e]);
            unlink(path);
            free(path);
        }
    }
    rmdir(dir);
}

/* Runs the sweep of a parsed command line; returns the exit status. */
static int sweep_main(Registry *r, const SweepArgs *a, size_t nruns)
{
    SimError err;
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mgtlm-sweep-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mgtlm sweep: %s: cannot make a folder: %s\n", dir,
                strerror(errno));
        return 2;
    }
    SweepRun *runs = xcalloc(nruns, sizeof *runs);
    for (size_t k = 0; k < nruns; k++) {
        runs[k].status = -1;
    }
    int status = 0;
    if (!sweep_run_all(r, a, runs, nruns, dir, &err)) {
        status = 2;
    }
    for (size_t k = 0; k < nruns && status != 2; k++) {
        if (runs[k].status > 1 || runs[k].status == -1) {
            sweep_run_error(a, k, runs[k].status, dir, &err);
            status = 2;
        }
    }
    for (size_t k = 0; k < nruns && status != 2; k++) {
        if (runs[k].status == 1) {
            char *label = sweep_label(a, k);
            fprintf(stderr, "mgtlm sweep: run %zu (%s): model errors (exit 1)\n", k,
                    label);
            free(label);
            status = 1;
        }
    }
    if (status != 2 && !sweep_write(a, nruns, dir, &err)) {
        status = 2;
    }
    if (status == 2) {
        fprintf(stderr, "%s\n", err.msg);
    }
    sweep_clean(dir, nruns);
    free(runs);
    return status;
}

static void sweep_free(SweepArgs *a)
{
    for (size_t i = 0; a->vary && i < a->nvary; i++) {
        for (size_t k = 0; k < a->vary[i].nvalues; k++) {
            free(a->vary[i].values[k]);
        }
        free(a->vary[i].values);
        free(a->vary[i].key);
    }
    free(a->vary);
    free(a->fixed);
    free(a->stats);
    json_decref(a->fixed_sets);
}

int cmd_sweep(Registry *r, int argc, char **argv)
{
    SweepArgs a = {.jobs = sysconf(_SC_NPROCESSORS_ONLN)};
    if (a.jobs < 1 || a.jobs > SWEEP_MAX_JOBS) {
        a.jobs = 1;
    }
    SimError err;
    size_t nruns = 0;
    int status = 2;
    int parsed = sweep_parse(argc, argv, &a, &nruns, &err);
    if (parsed == CLI_HELP) {
        status = 0;
    } else if (parsed != CLI_END) {
        fprintf(stderr, "%s\n", err.msg);
    } else {
        status = sweep_main(r, &a, nruns);
    }
    sweep_free(&a);
    return status;
}
