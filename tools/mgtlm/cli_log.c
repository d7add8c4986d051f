/* --log-dir / --log-ports / --log-format parsing and opening the trace log (see
 * cli_log.h). */
#include "cli_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_log_init(CliLog *l)
{
    memset(l, 0, sizeof *l);
    l->format = TRACE_JSONL;
}

void cli_log_free(CliLog *l)
{
    for (size_t k = 0; k < l->nglobs; k++) {
        free(l->globs[k]);
    }
    free(l->globs);
    cli_log_init(l);
}

static bool add_globs(CliLog *l, const char *list, SimError *err)
{
    const char *s = list;
    while (true) {
        size_t len = strcspn(s, ",");
        if (len == 0) {
            return sim_error_set(err, "--log-ports %s: empty pattern", list);
        }
        char **v = realloc(l->globs, (l->nglobs + 1) * sizeof *v);
        char *glob = v ? strndup(s, len) : NULL;
        if (v) {
            l->globs = v;
        }
        if (!glob) {
            return sim_error_set(err, "--log-ports: out of memory");
        }
        l->globs[l->nglobs++] = glob;
        if (!s[len]) {
            return true;
        }
        s += len + 1;
    }
}

/* The value of option name at argv[*i] ("--name V" or "--name=V"), or NULL if
 * argv[*i] is not that option; *missing is set when the value is absent. */
static const char *option_value(const char *name, int argc, char **argv, int *i,
                                bool *missing)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0) {
        return NULL;
    }
    if (arg[len] == '=') {
        return arg + len + 1;
    }
    if (arg[len] != '\0') {
        return NULL;
    }
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

bool cli_log_parse(CliLog *l, int argc, char **argv, int *i, bool *used, SimError *err)
{
    static const char *const names[] = {"--log-dir", "--log-ports", "--log-format"};
    *used = false;
    for (int k = 0; k < 3; k++) {
        bool missing = false;
        const char *v = option_value(names[k], argc, argv, i, &missing);
        if (missing) {
            return sim_error_set(err, "%s needs a value", names[k]);
        }
        if (!v) {
            continue;
        }
        *used = true;
        if (k == 0) {
            l->dir = v;
            return *v || sim_error_set(err, "--log-dir: empty directory name");
        }
        if (k == 1) {
            return add_globs(l, v, err);
        }
        l->format_given = true;
        return trace_format_parse(v, &l->format) ||
               sim_error_set(err,
                             "--log-format %s: expected jsonl, binary, perfetto, "
                             "perfetto-gz or vcd",
                             v);
    }
    return true;
}

bool cli_log_check(const CliLog *l, SimError *err)
{
    if (!l->dir && (l->nglobs > 0 || l->format_given)) {
        return sim_error_set(err, "%s needs --log-dir",
                             l->nglobs > 0 ? "--log-ports" : "--log-format");
    }
    return true;
}

bool cli_log_open(const CliLog *l, Platform *p, const char *subdir, TraceLog **out,
                  SimError *err)
{
    *out = NULL;
    if (!l->dir) {
        return true;
    }
    size_t len = strlen(l->dir) + (subdir ? strlen(subdir) + 1 : 0) + 1;
    char *dir = malloc(len);
    if (dir && subdir) {
        snprintf(dir, len, "%s/%s", l->dir, subdir);
    } else if (dir) {
        snprintf(dir, len, "%s", l->dir);
    }
    if (!dir) {
        return sim_error_set(err, "%s: out of memory", l->dir);
    }
    *out =
        trace_log_open(p, dir, l->format, (const char *const *)l->globs, l->nglobs, err);
    free(dir);
    return *out != NULL;
}

bool cli_log_close(TraceLog *log, SimError *err)
{
    return !log || trace_log_close(log, err);
}
