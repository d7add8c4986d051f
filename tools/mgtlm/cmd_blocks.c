/* `mgtlm blocks [TYPE]`: without TYPE, one line per registered block type (name and
 * doc); with TYPE, its doc, its ports (name, "[count param]" for arrays, required or
 * optional, doc), its parameters (key, type, default, bounds, choices, doc) and its
 * stats (name, "<port>" before per-port ones, kind, unit, histogram geometry, enum
 * values, model error or not, doc), all read from the type's tables, so this output
 * cannot drift from the code. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli_opt.h"
#include "commands.h"
#include "kernel/platform/params.h"
#include "kernel/registry.h"

static const CliOpt blocks_opts[] = {
    CLI_OPT_HELP,
};

static const CliSpec blocks_spec = {
    "mgtlm blocks", "[TYPE]",
    "Without TYPE, lists the block types; with TYPE, prints its ports, parameters\n"
    "and stats.",
    blocks_opts, sizeof blocks_opts / sizeof blocks_opts[0]};

static void blocks_list(const Registry *r)
{
    size_t n;
    const BlockType *const *types = registry_types(r, &n);
    for (size_t i = 0; i < n; i++) {
        printf("%-14s %s\n", types[i]->name, types[i]->doc ? types[i]->doc : "");
    }
}

static void blocks_ports(const BlockType *t)
{
    printf("ports:\n");
    for (size_t i = 0; i < t->nports; i++) {
        const PortDef *pd = &t->ports[i];
        char name[128];
        if (pd->count_param) {
            snprintf(name, sizeof name, "%s[%s]", pd->name, pd->count_param);
        } else {
            snprintf(name, sizeof name, "%s", pd->name);
        }
        printf("  %-14s %-8s  %s\n", name, pd->required ? "required" : "optional",
               pd->doc ? pd->doc : "");
    }
    if (t->nports == 0) {
        printf("  (none)\n");
    }
}

/* Appends printf-style text to out (size n, *used bytes used), truncating. */
static void blocks_append(char *out, size_t n, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void blocks_append(char *out, size_t n, size_t *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out + *used, n - *used, fmt, ap);
    va_end(ap);
    if (w > 0) {
        *used = *used + (size_t)w < n ? *used + (size_t)w : n - 1;
    }
}

/* "type; default D; min X; max Y; choices a, b" for one parameter. */
static void blocks_param_facts(const ParamDef *d, char *out, size_t n)
{
    char b[32];
    size_t used = 0;
    out[0] = '\0';
    blocks_append(out, n, &used, "%s; ", params_type_name(d->type));
    if (d->def && d->type == PT_STRING) {
        blocks_append(out, n, &used, "default \"%s\"", d->def);
    } else if (d->def) {
        blocks_append(out, n, &used, "default %s", d->def);
    } else {
        blocks_append(out, n, &used, "required");
    }
    if (d->type == PT_DOUBLE && d->dmax > d->dmin) {
        blocks_append(out, n, &used, "; min %g; max %g", d->dmin, d->dmax);
    } else if (d->type != PT_DOUBLE && d->type != PT_BOOL && d->type != PT_ENUM &&
               d->type != PT_STRING) {
        const char *what = d->type == PT_U64_LIST ? " entries" : "";
        ParamType bt = d->type == PT_U64_LIST ? PT_U64 : d->type;
        if (d->min) {
            blocks_append(out, n, &used, "; min %s%s", params_format_base(bt, d->min, b),
                          what);
        }
        blocks_append(out, n, &used, "; max %s%s",
                      params_format_base(bt, params_max(d), b), what);
    }
    for (int i = 0; d->type == PT_ENUM && d->choices && d->choices[i]; i++) {
        blocks_append(out, n, &used, "%s%s", i ? ", " : "; choices ", d->choices[i]);
    }
}

static void blocks_params(const BlockType *t)
{
    printf("params:\n");
    for (size_t i = 0; i <= t->nparams; i++) {
        const ParamDef *d = i < t->nparams ? &t->params[i] : params_buffer_def();
        char facts[512];
        blocks_param_facts(d, facts, sizeof facts);
        printf("  %-14s (%s)\n  %-14s %s\n", d->key, facts, "", d->doc ? d->doc : "");
    }
}

/* "kind; unit U; width W; N buckets; values a, b; model error" for one stat. */
static void blocks_stat_facts(const StatDef *d, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    blocks_append(out, n, &used, "%s", stat_kind_name(d->kind));
    if (d->store == STAT_STORE_REAL) {
        blocks_append(out, n, &used, "; real");
    }
    if (d->unit[0]) {
        blocks_append(out, n, &used, "; unit %s", d->unit);
    }
    if (d->store == STAT_STORE_HIST) {
        blocks_append(out, n, &used, "; width %llu", (unsigned long long)d->width);
        if (d->buckets_of) {
            blocks_append(out, n, &used, "; buckets from the parameters");
        } else {
            blocks_append(out, n, &used, "; %u buckets", d->buckets);
        }
    }
    for (int i = 0; d->choices && d->choices[i]; i++) {
        blocks_append(out, n, &used, "%s%d %s", i ? ", " : "; values ", i, d->choices[i]);
    }
    if (d->is_error) {
        blocks_append(out, n, &used, "; model error");
    }
    if (d->host) {
        blocks_append(out, n, &used, "; decided by the host");
    }
}

static void blocks_stats(const BlockType *t)
{
    printf("stats:\n");
    for (size_t i = 0; i < t->nstat_defs; i++) {
        const StatDef *d = &t->stat_defs[i];
        char name[128], facts[512];
        snprintf(name, sizeof name, "%s%s", d->store == STAT_STORE_PORTS ? "<port>" : "",
                 d->name);
        blocks_stat_facts(d, facts, sizeof facts);
        printf("  %-14s (%s)\n  %-14s %s\n", name, facts, "", d->doc);
    }
    if (t->nstat_defs == 0) {
        printf("  (none)\n");
    }
}

int cmd_blocks(Registry *r, int argc, char **argv)
{
    CliParse cp;
    SimError err;
    const char *val;
    int n;
    cli_parse_init(&cp, &blocks_spec, argc, argv);
    /* --help is the only option: the first call ends the options */
    int id = cli_parse_next(&cp, &val, &err);
    char **operands = cli_parse_operands(&cp, &n);
    if (id == CLI_HELP) {
        return 0;
    }
    if (id == CLI_ERROR || n > 1) {
        fprintf(stderr, "%s\n",
                id == CLI_ERROR ? err.msg : "mgtlm blocks: more than one type given");
        return 2;
    }
    if (n == 0) {
        blocks_list(r);
        return 0;
    }
    const BlockType *t = registry_find(r, operands[0]);
    if (!t) {
        sim_error_set(&err, "mgtlm blocks: unknown block type \"%s\" (see mgtlm blocks)",
                      operands[0]);
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    printf("%s: %s\n", t->name, t->doc ? t->doc : "");
    blocks_ports(t);
    blocks_params(t);
    blocks_stats(t);
    return 0;
}
