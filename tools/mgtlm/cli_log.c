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

bool cli_log_option(CliLog *l, int id, const char *val, SimError *err)
{
    if (id == CLI_LOG_DIR) {
        l->dir = val;
        return *val || sim_error_set(err, "--log-dir: empty directory name");
    }
    if (id == CLI_LOG_PORTS) {
        return add_globs(l, val, err);
    }
    l->format_given = true;
    return trace_format_parse(val, &l->format) ||
           sim_error_set(
               err,
               "--log-format %s: expected jsonl, binary, perfetto, perfetto-gz or vcd",
               val);
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
