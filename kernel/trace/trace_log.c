/* The trace log: selects the ports of a platform by glob, creates the output
 * directory (and its parents), opens the writer of the chosen format and attaches
 * one sink per selected port. Ports are taken in platform order (blocks in
 * description order, ports in port-table order), so output is deterministic. On a
 * platform of several partitions the sinks are deferred ones (trace_defer.c) and
 * trace_log_flush writes what they buffered; without a directory (an MPI rank but 0)
 * no writer is opened and the buffers are drained by the MPI transport. */
#include "trace_defer.h"
#include "trace_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/block.h"
#include "kernel/glob.h"

struct TraceLog {
    TraceWriter *w;
    TraceDefer *defer; /* NULL: the writer's sinks are attached */
    Port **ports;
    const char **names; /* the ports' names, the writer's layout */
    size_t n;
};

static const char *const format_names[] = {"jsonl", "perfetto", "vcd", "binary",
                                           "perfetto-gz"};

const char *trace_format_name(TraceFormat fmt)
{
    return format_names[fmt];
}

bool trace_format_parse(const char *name, TraceFormat *out)
{
    for (int i = 0; i < TRACE_FORMAT_COUNT; i++) {
        if (strcmp(name, format_names[i]) == 0) {
            *out = (TraceFormat)i;
            return true;
        }
    }
    return false;
}

TraceWriter *trace_writer_open(TraceFormat fmt, const char *dir, const TraceLayout *lay,
                               SimError *err)
{
    static TraceWriter *(*const open_fn[TRACE_FORMAT_COUNT])(
        const char *, const TraceLayout *,
        SimError *) = {trace_jsonl_open, trace_perfetto_open, trace_vcd_open,
                       trace_binary_open, trace_perfetto_gz_open};
    return open_fn[fmt](dir, lay, err);
}

char *trace_path(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (path) {
        snprintf(path, len, "%s/%s", dir, name);
    }
    return path;
}

bool trace_make_dir(const char *dir, SimError *err)
{
    if (!*dir) {
        return sim_error_set(err, "empty log directory name");
    }
    char *path = strdup(dir);
    if (!path) {
        return sim_error_set(err, "%s: out of memory", dir);
    }
    bool ok = true;
    for (char *s = path + 1; ok; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            struct stat st;
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                ok = sim_error_set(err, "%s: cannot create directory: %s", path,
                                   strerror(errno));
            } else if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
                ok = sim_error_set(err, "%s: not a directory", path);
            }
            if (end) {
                break;
            }
            *s = '/';
        }
    }
    free(path);
    return ok;
}

static bool selected(const Port *p, const char *const *globs, size_t nglobs, bool *used)
{
    bool hit = nglobs == 0;
    for (size_t g = 0; g < nglobs; g++) {
        if (glob_match(globs[g], p->name)) {
            used[g] = true;
            hit = true;
        }
    }
    return hit;
}

/* The selected ports in platform order (new array in log->ports). */
static bool select_ports(TraceLog *log, Platform *p, const char *const *globs,
                         size_t nglobs, SimError *err)
{
    size_t total = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        total += p->blocks[b]->nports;
    }
    bool *used = calloc(nglobs ? nglobs : 1, sizeof *used);
    log->ports = calloc(total ? total : 1, sizeof *log->ports);
    log->names = calloc(total ? total : 1, sizeof *log->names);
    if (!used || !log->ports || !log->names) {
        free(used);
        return sim_error_set(err, "out of memory selecting logged ports");
    }
    for (size_t b = 0; b < p->nblocks; b++) {
        for (size_t k = 0; k < p->blocks[b]->nports; k++) {
            Port *port = &p->blocks[b]->ports[k];
            if (selected(port, globs, nglobs, used)) {
                log->names[log->n] = port->name;
                log->ports[log->n++] = port;
            }
        }
    }
    bool ok = true;
    for (size_t g = 0; g < nglobs && ok; g++) {
        if (!used[g]) {
            ok = sim_error_set(err, "log port pattern '%s' matches no port", globs[g]);
        }
    }
    free(used);
    return ok;
}

static void log_free(TraceLog *log)
{
    free(log->names);
    free(log->ports);
    free(log);
}

/* TraceDeferFn: a deferred record into the writer ctx. */
static void trace_log_write(void *ctx, size_t i, SimTime t, const char *ev,
                            const Txn *txn)
{
    TraceWriter *w = ctx;
    if (w) {
        w->record(w, i, t, ev, txn);
    }
}

/* The sink attached to port i. */
static TraceSink *trace_log_sink(TraceLog *log, size_t i)
{
    return log->defer ? trace_defer_sink(log->defer, i) : log->w->sink(log->w, i);
}

TraceLog *trace_log_open(Platform *p, const char *dir, TraceFormat fmt,
                         const char *const *globs, size_t nglobs, SimError *err)
{
    TraceLog *log = calloc(1, sizeof *log);
    if (!log) {
        sim_error_set(err, "out of memory opening the log");
        return NULL;
    }
    if (!select_ports(log, p, globs, nglobs, err) || (dir && !trace_make_dir(dir, err))) {
        log_free(log);
        return NULL;
    }
    const Block *owner = log->n ? log->ports[0]->owner : NULL;
    TraceLayout lay = {.names = log->names,
                       .n = log->n,
                       .cmds = owner && owner->plat ? owner->plat->cmds : NULL};
    log->w = dir ? trace_writer_open(fmt, dir, &lay, err) : NULL;
    if (dir && !log->w) {
        log_free(log);
        return NULL;
    }
    if (p->engine) {
        log->defer =
            trace_defer_new(trace_log_write, log->w, p->engine, log->ports, log->n);
    }
    for (size_t i = 0; i < log->n; i++) {
        if (!trace_attach(log->ports[i], trace_log_sink(log, i), err)) {
            log->n = i;
            trace_log_close(log, NULL);
            return NULL;
        }
    }
    return log;
}

bool trace_log_close(TraceLog *log, SimError *err)
{
    for (size_t i = 0; i < log->n; i++) {
        trace_detach(log->ports[i], trace_log_sink(log, i));
    }
    trace_defer_free(log->defer);
    bool ok = !log->w || log->w->close(log->w, err);
    log_free(log);
    return ok;
}

TraceDefer *trace_log_defer(TraceLog *log)
{
    return log ? log->defer : NULL;
}

void trace_log_flush(TraceLog *log)
{
    if (log && log->defer) {
        trace_defer_flush(log->defer);
    }
}
