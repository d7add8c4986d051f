/* Chrome / Perfetto trace log: one JSON file DIR/trace.json (or, gzip-compressed
 * through trace_gz.c, DIR/trace.json.gz: format perfetto-gz) in the Trace Event
 * Format ({"traceEvents":[...],"displayTimeUnit":"ns"}), which ui.perfetto.dev and
 * the Chrome DevTools Performance panel open. Written as the run goes: the header
 * and the metadata at open, events as records arrive, the closing brackets at close.
 * Layout: one process per top-level name component ("gpu0", "fabric", "tb"), in
 * first-seen port order, named by process_name metadata; one thread (track) per
 * port, named by thread_name metadata with the full port name and sorted in port
 * order. Each record is an instant event ("ph":"i", thread scope) named
 * "<cmd> <id>" (responses "resp <id>"), category "send" or "recv", with the record
 * itself as args. "ts" is in microseconds, written exactly as an integer part and
 * six decimals (1 ps resolution, no floating point).
 * Slices: a request that expects a response (txn_needs_response) opens, at each
 * port it is recorded on, a slice that the response recorded on the same port with
 * the same id closes: a complete event ("ph":"X", category "txn", named
 * "<req> <id>", args id and status) written when the response arrives. Decision: a
 * track holds one open slice at a time, so a request that overlaps another at its
 * port takes the port's first free extra track ("<port> #2", ... sorted after the
 * port's own) and slices never have to nest; the track is chosen when the request
 * is recorded. Flows: when a slice opens, a flow event with its ts, pid, tid and
 * category (id = the transaction id) is written, so flow events are in time order
 * and viewers draw arrows from slice to slice of one transaction across ports: "s"
 * (start) on the slice that opened while no other slice of that id was open, "t"
 * (step) on the others. A slice still open at the end of the log ends at the time
 * of the last record. (Begin/end pairs would keep every event in time order, but
 * the Chrome DevTools trace engine pairs them per process, not per thread.) */
#include "trace_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/idmap.h"
#include "kernel/xalloc.h"

/* Thread sort index of track k of port i: (i + 1) * PERFETTO_SORT_STRIDE + k. */
#define PERFETTO_SORT_STRIDE 4096u

/* A track of a port: its thread id and the slice open on it, if any. */
typedef struct PerfettoLane {
    unsigned tid;
    bool busy;
    const char *cmd; /* the open slice's command, id and start */
    uint64_t id;
    SimTime start;
} PerfettoLane;

typedef struct PerfettoPort {
    TraceSink sink; /* first member: the port's sink */
    struct TracePerfetto *w;
    unsigned pid;
    IdMap open;          /* request id -> the track of its open slice */
    PerfettoLane *lanes; /* track 0: the port's thread */
    size_t nlanes, lanes_cap;
} PerfettoPort;

typedef struct TracePerfetto {
    TraceWriter base;
    FILE *f; /* write errors stay in its error flag until close */
    char *path;
    PerfettoPort *ports;
    const char *const *names; /* the layout's port names (borrowed) */
    size_t n;
    bool started;      /* an event was written: the next one needs a comma */
    IdMap flows;       /* transaction id -> slices of it open, over all ports */
    unsigned next_tid; /* thread id of the next extra track */
    SimTime last;      /* time of the last record */
} TracePerfetto;

/* Starts the next element of the traceEvents array. */
static void next_event(TracePerfetto *w)
{
    fputs(w->started ? ",\n" : "\n", w->f);
    w->started = true;
}

static void write_ts(FILE *f, const char *key, SimTime t)
{
    fprintf(f, ",\"%s\":%" PRIu64 ".%06" PRIu64, key, t / SIM_US, t % SIM_US);
}

static void write_thread(TracePerfetto *w, unsigned pid, unsigned tid, const char *name,
                         size_t lane, unsigned sort)
{
    next_event(w);
    fprintf(w->f,
            "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
            "\"args\":{\"name\":",
            pid, tid);
    if (lane == 0) {
        trace_json_string(w->f, name);
    } else {
        char label[1100];
        snprintf(label, sizeof label, "%s #%zu", name, lane + 1);
        trace_json_string(w->f, label);
    }
    fputs("}}", w->f);
    next_event(w);
    fprintf(w->f,
            "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%u,"
            "\"tid\":%u,\"args\":{\"sort_index\":%u}}",
            pid, tid, sort);
}

/* The first free track of port i (a new one, its metadata written now, if none);
 * marks it busy. */
static size_t slice_lane(TracePerfetto *w, size_t i)
{
    PerfettoPort *pp = &w->ports[i];
    size_t k = 0;
    while (k < pp->nlanes && pp->lanes[k].busy) {
        k++;
    }
    if (k == pp->nlanes) {
        pp->lanes = xgrow(pp->lanes, &pp->lanes_cap, k + 1, sizeof *pp->lanes, 4);
        pp->lanes[k].tid = w->next_tid++;
        pp->nlanes++;
        write_thread(w, pp->pid, pp->lanes[k].tid, w->names[i], k,
                     (unsigned)((i + 1) * PERFETTO_SORT_STRIDE + k));
    }
    pp->lanes[k].busy = true;
    return k;
}

/* Writes the slice open on track lane of pp, ending at time t (status NULL: never
 * answered), and frees the track. */
static void slice_end(TracePerfetto *w, PerfettoPort *pp, size_t lane, SimTime t,
                      const char *status)
{
    PerfettoLane *l = &pp->lanes[lane];
    FILE *f = w->f;
    next_event(w);
    fprintf(f, "{\"name\":\"%s %" PRIu64 "\",\"cat\":\"txn\",\"ph\":\"X\"", l->cmd,
            l->id);
    write_ts(f, "ts", l->start);
    write_ts(f, "dur", t - l->start);
    fprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"id\":%" PRIu64 ",\"status\":\"%s\"}}",
            pp->pid, l->tid, l->id, status ? status : "unanswered");
    l->busy = false;
}

/* Ends the slice of response t's request at port i, if the port recorded it. */
static void close_slice(TracePerfetto *w, size_t i, SimTime now, const Txn *t)
{
    PerfettoPort *pp = &w->ports[i];
    uint64_t lane, open = 0;
    if (!idmap_remove(&pp->open, t->id, &lane)) {
        return;
    }
    slice_end(w, pp, (size_t)lane, now, txn_status_name(t->status));
    if (idmap_remove(&w->flows, t->id, &open) && open > 1) {
        idmap_insert(&w->flows, t->id, open - 1);
    }
}

/* Opens the slice of request t at port i on a free track and writes its flow event
 * (the first record of an id at a port counts). */
static void open_slice(TracePerfetto *w, size_t i, SimTime now, const Txn *t)
{
    PerfettoPort *pp = &w->ports[i];
    if (idmap_get(&pp->open, t->id, NULL)) {
        return;
    }
    uint64_t open = 0;
    idmap_remove(&w->flows, t->id, &open);
    idmap_insert(&w->flows, t->id, open + 1);
    size_t lane = slice_lane(w, i);
    idmap_insert(&pp->open, t->id, lane);
    PerfettoLane *l = &pp->lanes[lane];
    l->cmd = txn_cmd_label(t);
    l->id = t->id;
    l->start = now;
    FILE *f = w->f;
    next_event(w);
    fprintf(
        f, "{\"name\":\"txn\",\"cat\":\"txn\",\"ph\":\"%s\",\"bp\":\"e\",\"id\":%" PRIu64,
        open == 0 ? "s" : "t", t->id);
    write_ts(f, "ts", now);
    fprintf(f, ",\"pid\":%u,\"tid\":%u}", pp->pid, l->tid);
}

static void perfetto_record(TraceWriter *base, size_t i, SimTime now, const char *ev,
                            const Txn *t)
{
    TracePerfetto *w = (TracePerfetto *)base;
    PerfettoPort *pp = &w->ports[i];
    FILE *f = w->f;
    next_event(w);
    fprintf(f, "{\"name\":\"%s %" PRIu64 "\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\"",
            txn_cmd_label(t), t->id, ev);
    write_ts(f, "ts", now);
    fprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":", pp->pid, pp->lanes[0].tid);
    trace_record_write(f, now, w->names[i], ev, t);
    fputc('}', f);
    w->last = now;
    if (t->cmd == TXN_RESP) {
        close_slice(w, i, now, t);
    } else if (txn_needs_response(t)) {
        open_slice(w, i, now, t);
    }
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

static void perfetto_free(TracePerfetto *w)
{
    for (size_t i = 0; i < w->n; i++) {
        idmap_destroy(&w->ports[i].open);
        free(w->ports[i].lanes);
    }
    idmap_destroy(&w->flows);
    free(w->path);
    free(w->ports);
    free(w);
}

static bool perfetto_close(TraceWriter *base, SimError *err)
{
    TracePerfetto *w = (TracePerfetto *)base;
    for (size_t i = 0; i < w->n; i++) {
        for (size_t k = 0; k < w->ports[i].nlanes; k++) {
            if (w->ports[i].lanes[k].busy) {
                slice_end(w, &w->ports[i], k, w->last, NULL);
            }
        }
    }
    fputs("\n],\"displayTimeUnit\":\"ns\"}\n", w->f);
    int error = ferror(w->f) ? EIO : 0;
    if (fclose(w->f) != 0 && !error) {
        error = errno;
    }
    bool ok =
        !error || sim_error_set(err, "%s: write failed: %s", w->path, strerror(error));
    perfetto_free(w);
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
        PerfettoPort *pp = &w->ports[i];
        pp->pid = pid;
        pp->lanes = xcalloc(1, sizeof *pp->lanes);
        pp->lanes_cap = pp->nlanes = 1;
        pp->lanes[0].tid = (unsigned)i + 1;
        write_thread(w, pid, pp->lanes[0].tid, name, 0,
                     (unsigned)((i + 1) * PERFETTO_SORT_STRIDE));
    }
    w->next_tid = (unsigned)w->n + 1;
}

/* The writer for DIR/name, through gzip when gz is set. */
static TraceWriter *perfetto_open(const char *dir, const char *name, bool gz,
                                  const TraceLayout *lay, SimError *err)
{
    size_t n = lay->n;
    TracePerfetto *w = calloc(1, sizeof *w);
    if (w) {
        w->ports = calloc(n ? n : 1, sizeof *w->ports);
        w->path = trace_path(dir, name);
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
    errno = 0;
    w->f = gz ? trace_gz_open(w->path) : fopen(w->path, "w");
    if (!w->f) {
        sim_error_set(err, "%s: cannot create: %s", w->path,
                      strerror(errno ? errno : ENOMEM));
        perfetto_free(w);
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

TraceWriter *trace_perfetto_open(const char *dir, const TraceLayout *lay, SimError *err)
{
    return perfetto_open(dir, "trace.json", false, lay, err);
}

TraceWriter *trace_perfetto_gz_open(const char *dir, const TraceLayout *lay,
                                    SimError *err)
{
    return perfetto_open(dir, "trace.json.gz", true, lay, err);
}
