/* getopt_long behind the subcommands' option tables, and the --help text from the same
 * tables (see cli_opt.h). */
#include "cli_opt.h"

#include <string.h>

/* Width of the option column of the help. */
#define CLI_USAGE_COLUMN 28

void cli_parse_init(CliParse *p, const CliSpec *spec, int argc, char **argv)
{
    size_t n = spec->nopts < CLI_OPT_MAX ? spec->nopts : CLI_OPT_MAX;
    size_t k = 0;
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->argc = argc;
    p->argv = argv;
    p->shorts[k++] = '-'; /* operands come back in order as option 1 */
    p->shorts[k++] = ':'; /* a missing value returns ':' instead of '?' */
    for (size_t i = 0; i < n; i++) {
        const CliOpt *o = &spec->opts[i];
        p->longs[i] = (struct option){o->name, o->arg ? required_argument : no_argument,
                                      NULL, o->id};
        if (o->id < CLI_LONG_ONLY) {
            p->shorts[k++] = (char)o->id;
            if (o->arg) {
                p->shorts[k++] = ':';
            }
        }
    }
    opterr = 0;
    optind = 0; /* glibc: 0 restarts the scan from scratch */
}

static const CliOpt *cli_find(const CliSpec *spec, int id)
{
    for (size_t i = 0; i < spec->nopts; i++) {
        if (spec->opts[i].id == id) {
            return &spec->opts[i];
        }
    }
    return NULL;
}

int cli_parse_next(CliParse *p, const char **val, SimError *err)
{
    int c;
    /* an operand moves down to argv[1 + noperands]: never past what getopt has read */
    while ((c = getopt_long(p->argc, p->argv, p->shorts, p->longs, NULL)) == 1) {
        p->argv[1 + p->noperands++] = optarg;
    }
    const char *cmd = p->spec->cmd;
    *val = optarg;
    if (c == -1) {
        /* the operands after "--" */
        for (int i = optind; i < p->argc; i++) {
            p->argv[1 + p->noperands++] = p->argv[i];
        }
        return CLI_END;
    }
    const CliOpt *o = cli_find(p->spec, optopt);
    if (c == ':') {
        sim_error_set(err, "%s: --%s needs %s", cmd, o ? o->name : "?",
                      o ? o->arg : "a value");
        return CLI_ERROR;
    }
    if (c == '?') {
        const char *arg = p->argv[optind - 1];
        if (o && strncmp(arg, "--", 2) == 0) {
            sim_error_set(err, "%s: --%s takes no value", cmd, o->name);
        } else if (optopt) {
            sim_error_set(err, "%s: unknown option '-%c' (try --help)", cmd, optopt);
        } else {
            sim_error_set(err, "%s: unknown option '%s' (try --help)", cmd, arg);
        }
        return CLI_ERROR;
    }
    if (c == 'h') {
        cli_usage(stdout, p->spec);
        return CLI_HELP;
    }
    o = cli_find(p->spec, c);
    size_t i = o ? (size_t)(o - p->spec->opts) : CLI_OPT_MAX;
    if (i < CLI_OPT_MAX && o->arg && !o->repeat) {
        if (p->seen[i]) {
            sim_error_set(err, "%s: --%s given twice (it takes one value)", cmd, o->name);
            return CLI_ERROR;
        }
        p->seen[i] = true;
    }
    return c;
}

char **cli_parse_operands(const CliParse *p, int *n)
{
    *n = p->noperands;
    return p->argv + 1;
}

int cli_parse_one(const CliParse *p, const char *what, const char **operand,
                  SimError *err)
{
    if (p->noperands != 1) {
        sim_error_set(err,
                      p->noperands ? "%s: more than one %s given"
                                   : "%s: no %s given (try --help)",
                      p->spec->cmd, what);
        return CLI_ERROR;
    }
    *operand = p->argv[1];
    return CLI_END;
}

void cli_usage(FILE *f, const CliSpec *spec)
{
    fprintf(f, "usage: %s %s\n", spec->cmd, spec->synopsis);
    if (spec->about) {
        fprintf(f, "%s\n", spec->about);
    }
    fprintf(f, "\noptions:\n");
    for (size_t i = 0; i < spec->nopts; i++) {
        const CliOpt *o = &spec->opts[i];
        char left[96];
        if (o->id < CLI_LONG_ONLY) {
            snprintf(left, sizeof left, "  -%c, --%s%s%s", o->id, o->name,
                     o->arg ? " " : "", o->arg ? o->arg : "");
        } else {
            snprintf(left, sizeof left, "      --%s%s%s", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
        }
        if (strlen(left) >= CLI_USAGE_COLUMN) {
            fprintf(f, "%s\n%*s%s\n", left, CLI_USAGE_COLUMN, "", o->help);
        } else {
            fprintf(f, "%-*s%s\n", CLI_USAGE_COLUMN, left, o->help);
        }
    }
}
