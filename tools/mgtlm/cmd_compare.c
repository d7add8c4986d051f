/* `mgtlm compare A.json B.json... [options]`: compares stats files written by
 * `mgtlm run --stats`. Prints, for every stat present in all files, its value in each
 * file and its ratio to the first file (the reference); --csv writes the same table
 * in tidy form for tools/plot/compare.py, which draws the largest changes.
 * Decisions:
 * - A stat is a numeric leaf of the file (stats_flat.h: histogram members as
 *   "name.member", the run's metadata as "run.<key>"); strings, booleans and arrays
 *   are not compared. Rows keep the order of the first file.
 * - The ratio is value / reference value; 1 when both are 0, undefined ("-" in the
 *   table, empty in the CSV) when only the reference is 0.
 * - mgtlm draws no plot itself: the binary needs no Python, and the table is the
 *   plot's whole input (docs/mgtlm.1, tools/plot/compare.py).
 * Errors (exit 2, one line): unreadable or malformed files as
 * "<file>:<line>:<column>: <message>", a file that is not a JSON object as
 * "<file>: /: ...", fewer than two files. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli_opt.h"
#include "commands.h"
#include "kernel/csv.h"
#include "stats_flat.h"

enum { COMPARE_CSV = CLI_LONG_ONLY };

static const CliOpt compare_opts[] = {
    {'m', "match", "GLOB", "compare only the stats matching GLOB (repeatable)", true},
    {COMPARE_CSV, "csv", "FILE", "write the table as CSV (stat,file,value,ratio)", false},
    CLI_OPT_HELP,
};

static const CliSpec compare_spec = {
    "mgtlm compare", "STATS.json STATS.json... [options]",
    "Prints every stat the stats files have in common, its value in each file and\n"
    "its ratio to the first file. tools/plot/compare.py TABLE.csv OUT.svg plots the\n"
    "table that --csv writes.",
    compare_opts, sizeof compare_opts / sizeof compare_opts[0]};

typedef struct CompareArgs {
    char **files;
    int nfiles;
    const char **globs; /* borrowed from argv */
    int nglobs;
    const char *csv;
} CompareArgs;

static bool compare_selected(const CompareArgs *a, const char *stat)
{
    for (int i = 0; i < a->nglobs; i++) {
        if (fnmatch(a->globs[i], stat, 0) == 0) {
            return true;
        }
    }
    return a->nglobs == 0;
}

/* value / reference into *ratio; false when undefined (reference 0, value not). */
static bool compare_ratio(double value, double ref, double *ratio)
{
    if (ref == 0) {
        *ratio = 1.0;
        return value == 0;
    }
    *ratio = value / ref;
    return true;
}

/* The stats every file has (and --match selects), in the first file's order, as
 * a new array of stat names. */
static json_t *compare_common(const CompareArgs *a, json_t **flat)
{
    json_t *rows = json_array();
    const char *stat;
    json_t *v;
    json_object_foreach(flat[0], stat, v) {
        bool everywhere = compare_selected(a, stat);
        for (int k = 1; k < a->nfiles && everywhere; k++) {
            everywhere = json_object_get(flat[k], stat) != NULL;
        }
        if (everywhere) {
            json_array_append_new(rows, json_string(stat));
        }
    }
    return rows;
}

static void compare_print(const CompareArgs *a, json_t **flat, json_t *rows)
{
    size_t width = 4, i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        size_t len = strlen(json_string_value(row));
        width = len > width ? len : width;
    }
    for (int k = 0; k < a->nfiles; k++) {
        printf("[%d] %s%s\n", k + 1, a->files[k], k ? "" : " (reference)");
    }
    printf("%-*s", (int)width, "stat");
    for (int k = 0; k < a->nfiles; k++) {
        char head[32];
        snprintf(head, sizeof head, "[%d]", k + 1);
        printf(" %15s", head);
        if (k > 0) {
            snprintf(head, sizeof head, "[%d]/[1]", k + 1);
            printf(" %9s", head);
        }
    }
    putchar('\n');
    json_array_foreach(rows, i, row) {
        const char *stat = json_string_value(row);
        double ref = json_number_value(json_object_get(flat[0], stat));
        printf("%-*s", (int)width, stat);
        for (int k = 0; k < a->nfiles; k++) {
            double v = json_number_value(json_object_get(flat[k], stat)), r;
            printf(" %15.6g", v);
            if (k > 0 && compare_ratio(v, ref, &r)) {
                printf(" %9.3f", r);
            } else if (k > 0) {
                printf(" %9s", "-");
            }
        }
        putchar('\n');
    }
}

static bool compare_write_csv(const CompareArgs *a, json_t **flat, json_t *rows,
                              SimError *err)
{
    FILE *f = fopen(a->csv, "w");
    if (!f) {
        return sim_error_set(err, "%s: cannot write", a->csv);
    }
    fputs("stat,file,value,ratio\n", f);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const char *stat = json_string_value(row);
        double ref = json_number_value(json_object_get(flat[0], stat));
        for (int k = 0; k < a->nfiles; k++) {
            double v = json_number_value(json_object_get(flat[k], stat)), r;
            csv_field(f, stat);
            fputc(',', f);
            csv_field(f, a->files[k]);
            fprintf(f, ",%.17g,", v);
            if (compare_ratio(v, ref, &r)) {
                fprintf(f, "%.17g", r);
            }
            fputc('\n', f);
        }
    }
    return fclose(f) == 0 || sim_error_set(err, "%s: cannot write", a->csv);
}

/* Reads the command line; returns CLI_END, CLI_HELP or CLI_ERROR (err set). */
static int compare_parse(int argc, char **argv, CompareArgs *a, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    a->globs = calloc((size_t)argc, sizeof *a->globs);
    if (!a->globs) {
        sim_error_set(err, "mgtlm compare: out of memory");
        return CLI_ERROR;
    }
    cli_parse_init(&cp, &compare_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        if (id == 'm') {
            a->globs[a->nglobs++] = val;
        } else {
            a->csv = val;
        }
    }
    a->files = cli_parse_operands(&cp, &a->nfiles);
    if (id == CLI_END && a->nfiles < 2) {
        sim_error_set(err, "mgtlm compare: needs two or more stats files (try --help)");
        return CLI_ERROR;
    }
    return id;
}

int cmd_compare(Registry *r, int argc, char **argv)
{
    (void)r;
    CompareArgs a = {0};
    SimError err;
    int status = 2, loaded = 0;
    int parsed = compare_parse(argc, argv, &a, &err);
    json_t **flat = parsed == CLI_END ? calloc((size_t)a.nfiles, sizeof *flat) : NULL;
    json_t *rows = NULL;
    if (parsed == CLI_HELP) {
        status = 0;
        goto out;
    }
    if (parsed != CLI_END || !flat) {
        fprintf(stderr, "%s\n",
                parsed != CLI_END ? err.msg : "mgtlm compare: out of memory");
        goto out;
    }
    for (; loaded < a.nfiles; loaded++) {
        flat[loaded] = stats_flat_load(a.files[loaded], &err);
        if (!flat[loaded]) {
            fprintf(stderr, "%s\n", err.msg);
            goto out;
        }
    }
    rows = compare_common(&a, flat);
    compare_print(&a, flat, rows);
    if (a.csv && !compare_write_csv(&a, flat, rows, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    status = 0;
out:
    json_decref(rows);
    for (int k = 0; flat && k < loaded; k++) {
        json_decref(flat[k]);
    }
    free(flat);
    free(a.globs);
    return status;
}
