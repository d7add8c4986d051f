/* JSON Lines log: one file DIR/<port name>.jsonl per observed port, one record per
 * line, appended as each event happens (stdio buffering only; flushed at close).
 * Every file is created (empty) at open, so an idle port still has its file.
 * Decision: at most TRACE_JSONL_MAX_OPEN files are kept open at once; beyond that the
 * least recently written one is closed and reopened for append when needed, so a
 * 16-GPU platform with every port logged stays under the descriptor limit. */
#include "trace_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_JSONL_MAX_OPEN 128

typedef struct TraceJsonl TraceJsonl;

typedef struct JsonlPort {
    TraceSink sink; /* first member: the port's sink */
    TraceJsonl *w;
    const char *name; /* the port's full name (borrowed from the layout) */
    char *path;
    FILE *f;       /* NULL while closed */
    uint64_t used; /* tick of the last write, for eviction */
    int error;     /* errno of the first failure, 0 if none */
} JsonlPort;

struct TraceJsonl {
    TraceWriter base;
    JsonlPort *ports;
    size_t n;
    size_t nopen;
    uint64_t tick;
};

static void port_fail(JsonlPort *jp, int error)
{
    if (!jp->error) {
        jp->error = error ? error : EIO;
    }
}

static void port_close(JsonlPort *jp)
{
    if (jp->f) {
        if (ferror(jp->f)) {
            port_fail(jp, EIO);
        }
        if (fclose(jp->f) != 0) {
            port_fail(jp, errno);
        }
        jp->f = NULL;
        jp->w->nopen--;
    }
}

static void evict_one(TraceJsonl *w)
{
    JsonlPort *victim = NULL;
    for (size_t i = 0; i < w->n; i++) {
        JsonlPort *jp = &w->ports[i];
        if (jp->f && (!victim || jp->used < victim->used)) {
            victim = jp;
        }
    }
    port_close(victim);
}

static bool port_open(JsonlPort *jp, const char *mode)
{
    if (jp->w->nopen == TRACE_JSONL_MAX_OPEN) {
        evict_one(jp->w);
    }
    jp->f = fopen(jp->path, mode);
    if (!jp->f) {
        port_fail(jp, errno);
        return false;
    }
    jp->w->nopen++;
    return true;
}

static void jsonl_record(TraceWriter *base, size_t i, SimTime t, const char *ev,
                         const Txn *txn)
{
    JsonlPort *jp = &((TraceJsonl *)base)->ports[i];
    if (jp->error || (!jp->f && !port_open(jp, "a"))) {
        return;
    }
    jp->used = ++jp->w->tick;
    if (!trace_record_write(jp->f, t, jp->name, ev, txn) || fputc('\n', jp->f) == EOF) {
        port_fail(jp, errno);
    }
}

static void jsonl_sink_record(TraceSink *sink, const Port *port, const char *ev,
                              const Txn *t)
{
    JsonlPort *jp = (JsonlPort *)sink;
    jsonl_record(&jp->w->base, (size_t)(jp - jp->w->ports), sim_now(port->owner->sim), ev,
                 t);
}

static TraceSink *jsonl_sink(TraceWriter *base, size_t i)
{
    return &((TraceJsonl *)base)->ports[i].sink;
}

static bool jsonl_close(TraceWriter *base, SimError *err)
{
    TraceJsonl *w = (TraceJsonl *)base;
    bool ok = true;
    for (size_t i = 0; i < w->n; i++) {
        JsonlPort *jp = &w->ports[i];
        port_close(jp);
        if (jp->error && ok) {
            ok =
                sim_error_set(err, "%s: write failed: %s", jp->path, strerror(jp->error));
        }
        free(jp->path);
    }
    free(w->ports);
    free(w);
    return ok;
}

TraceWriter *trace_jsonl_open(const char *dir, const TraceLayout *lay, SimError *err)
{
    size_t n = lay->n;
    TraceJsonl *w = calloc(1, sizeof *w);
    JsonlPort *v = calloc(n ? n : 1, sizeof *v);
    if (!w || !v) {
        free(w);
        free(v);
        sim_error_set(err, "out of memory opening the JSONL log");
        return NULL;
    }
    w->base.sink = jsonl_sink;
    w->base.record = jsonl_record;
    w->base.close = jsonl_close;
    w->ports = v;
    for (size_t i = 0; i < n; i++, w->n++) {
        JsonlPort *jp = &v[i];
        jp->sink.record = jsonl_sink_record;
        jp->w = w;
        jp->name = lay->names[i];
        char name[1024];
        snprintf(name, sizeof name, "%s.jsonl", jp->name);
        jp->path = trace_path(dir, name);
        if (!jp->path || !port_open(jp, "w")) {
            sim_error_set(err, "%s/%s: cannot create: %s", dir, name,
                          jp->path ? strerror(jp->error) : "out of memory");
            w->n += jp->path != NULL;
            jsonl_close(&w->base, NULL);
            return NULL;
        }
        if (i >= TRACE_JSONL_MAX_OPEN / 2) {
            port_close(jp);
        }
    }
    return &w->base;
}
