/* Chrome / Perfetto trace log: one JSON file DIR/trace.json in the Trace Event
 * Format ({"traceEvents":[...],"displayTimeUnit":"ns"}), which ui.perfetto.dev and
 * chrome://tracing open. Written as the run goes: the header and the metadata at
 * open, one event per record, the closing brackets at close.
 * Layout: one process per top-level name component ("gpu0", "fabric", "tb"), in
 * first-seen port order, named by process_name metadata; one thread (track) per
 * port, named by thread_name metadata with the full port name and sorted in port
 * order. Each record is an instant event ("ph":"i", thread scope) named
 * "<cmd> <id>" (responses "resp <id>"), category "send" or "recv", with the record
 * itself as args. "ts" is in microseconds, written exactly as an integer part and
 * six decimals (1 ps resolution, no floating point). */
#include "trace_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct PerfettoPort {
    TraceSink sink; /* first member: the port's sink */
    struct TracePerfetto *w;
    unsigned pid, tid;
} PerfettoPort;

typedef struct TracePerfetto {
    TraceWriter base;
    FILE *f; /* write errors stay in its error flag until close */
    char *path;
    PerfettoPort *ports;
    const char *const *names; /* the layout's port names (borrowed) */
    size_t n;
    bool started; /* an event was written: the next one needs a comma */
} TracePerfetto;

/* Starts the next element of the traceEvents array. */
static void next_event(TracePerfetto *w)
{
    fputs(w->started ? ",\n" : "\n", w->f);
    w->started = true;
}

static void perfetto_record(TraceWriter *base, size_t i, SimTime now, const char *ev,
                            const Txn *t)
{
    TracePerfetto *w = (TracePerfetto *)base;
    PerfettoPort *pp = &w->ports[i];
    FILE *f = w->f;
    next_event(w);
    fprintf(f,
            "{\"name\":\"%s %" PRIu64 "\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\","
            "\"ts\":%" PRIu64 ".%06" PRIu64 ",\"pid\":%u,\"tid\":%u,\"args\":",
            txn_cmd_label(t), t->id, ev, now / SIM_US, now % SIM_US, pp->pid, pp->tid);
    trace_record_write(f, now, w->names[i], ev, t);
    fputc('}', f);
}

static void perfetto_sink_record(TraceSink *sink, const Port *port, const char *ev,
                                 const Txn *t)
{
    PerfettoPort *pp = (PerfettoPort *)sink;
    perfetto_record(&pp->w->base, (size_t)(pp - pp->w->ports), sim_now(port->owner->sim),
                    ev, t);
}

static TraceSink *perfetto_sink(TraceWriter *base, size_t i)
{
    return &((TracePerfetto *)base)->ports[i].sink;
}

static bool perfetto_close(TraceWriter *base, SimError *err)
{
    TracePerfetto *w = (TracePerfetto *)base;
    fputs("\n],\"displayTimeUnit\":\"ns\"}\n", w->f);
    int error = ferror(w->f) ? EIO : 0;
    if (fclose(w->f) != 0 && !error) {
        error = errno;
    }
    bool ok =
        !error || sim_error_set(err, "%s: write failed: %s", w->path, strerror(error));
    free(w->path);
    free(w->ports);
    free(w);
    return ok;
}

/* Length of the top-level component of a port name ("gpu0" in "gpu0.mem.in"). */
static size_t group_len(const char *name)
{
    return strcspn(name, ".");
}

static void write_process(TracePerfetto *w, unsigned pid, const char *name, size_t len)
{
    FILE *f = w->f;
    char group[256];
    snprintf(group, sizeof group, "%.*s", (int)len, name);
    next_event(w);
    fprintf(f,
            "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
            "\"args\":{\"name\":",
            pid);
    trace_json_string(f, group);
    fputs("}}", f);
    next_event(w);
    fprintf(f,
            "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,"
            "\"tid\":0,\"args\":{\"sort_index\":%u}}",
            pid, pid);
}

static void write_metadata(TracePerfetto *w)
{
    const char *const *names = w->names;
    fputs("{\"traceEvents\":[", w->f);
    unsigned npids = 0;
    for (size_t i = 0; i < w->n; i++) {
        const char *name = names[i];
        size_t len = group_len(name);
        unsigned pid = 0;
        for (size_t j = 0; j < i && !pid; j++) {
            const char *other = names[j];
            if (group_len(other) == len && strncmp(other, name, len) == 0) {
                pid = w->ports[j].pid;
            }
        }
        if (!pid) {
            pid = ++npids;
            write_process(w, pid, name, len);
        }
        w->ports[i].pid = pid;
        w->ports[i].tid = (unsigned)i + 1;
        next_event(w);
        fprintf(w->f,
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
                "\"args\":{\"name\":",
                pid, w->ports[i].tid);
        trace_json_string(w->f, name);
        fputs("}}", w->f);
        next_event(w);
        fprintf(w->f,
                "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%u,"
                "\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                pid, w->ports[i].tid, w->ports[i].tid);
    }
}

TraceWriter *trace_perfetto_open(const char *dir, const TraceLayout *lay, SimError *err)
{
    size_t n = lay->n;
    TracePerfetto *w = calloc(1, sizeof *w);
    if (w) {
        w->ports = calloc(n ? n : 1, sizeof *w->ports);
        w->path = trace_path(dir, "trace.json");
    }
    if (!w || !w->ports || !w->path) {
        if (w) {
            free(w->ports);
            free(w->path);
        }
        free(w);
        sim_error_set(err, "out of memory opening the Perfetto log");
        return NULL;
    }
    w->f = fopen(w->path, "w");
    if (!w->f) {
        sim_error_set(err, "%s: cannot create: %s", w->path, strerror(errno));
        free(w->path);
        free(w->ports);
        free(w);
        return NULL;
    }
    w->base.sink = perfetto_sink;
    w->base.record = perfetto_record;
    w->base.close = perfetto_close;
    w->names = lay->names;
    w->n = n;
    for (size_t i = 0; i < n; i++) {
        w->ports[i].sink.record = perfetto_sink_record;
        w->ports[i].w = w;
    }
    write_metadata(w);
    return &w->base;
}
