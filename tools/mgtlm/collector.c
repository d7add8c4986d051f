/* Testbench collector: records every event of the observed ports as a record of the
 * log schema (trace_record_json), in event order. */
#include "collector.h"

#include <stdlib.h>

#include "kernel/glob.h"
#include "kernel/json_util.h"

static void collector_store(Collector *c, SimTime now, const Port *port, const char *ev,
                            const Txn *t)
{
    json_t *rec = trace_record_json(now, port->name, ev, t);
    if (!rec || json_array_append_new(c->records, rec) != 0) {
        c->oom = true;
    }
}

static void collector_record(TraceSink *sink, const Port *port, const char *ev,
                             const Txn *t)
{
    collector_store((Collector *)sink, sim_now(port->owner->sim), port, ev, t);
}

/* TraceDeferFn: a deferred record of port i. */
static void collector_deferred(void *ctx, size_t i, SimTime now, const char *ev,
                               const Txn *t)
{
    Collector *c = ctx;
    collector_store(c, now, c->ports[i], ev, t);
}

static bool glob_list_check(json_t *globs, const char *origin, SimError *err)
{
    if (!json_is_array(globs) || json_array_size(globs) == 0) {
        return sim_error_set(
            err, "%s: expected a non-empty array of port patterns, got %s", origin,
            !globs                 ? "nothing"
            : json_is_array(globs) ? "an empty array"
                                   : json_kind(globs));
    }
    for (size_t k = 0; k < json_array_size(globs); k++) {
        if (!json_is_string(json_array_get(globs, k))) {
            return sim_error_set(err, "%s/%zu: expected a port pattern string, got %s",
                                 origin, k, json_kind(json_array_get(globs, k)));
        }
    }
    return true;
}

static bool port_selected(const Port *port, json_t *globs, bool *used)
{
    bool hit = false;
    for (size_t k = 0; k < json_array_size(globs); k++) {
        if (glob_match(json_string_value(json_array_get(globs, k)), port->name)) {
            used[k] = hit = true;
        }
    }
    return hit;
}

static bool collector_select(Collector *c, Platform *p, json_t *globs, const char *origin,
                             SimError *err)
{
    size_t total = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        total += p->blocks[b]->nports;
    }
    bool *used = calloc(json_array_size(globs), sizeof *used);
    c->ports = calloc(total ? total : 1, sizeof *c->ports);
    if (!used || !c->ports) {
        free(used);
        return sim_error_set(err, "%s: out of memory", origin);
    }
    for (size_t b = 0; b < p->nblocks; b++) {
        for (size_t k = 0; k < p->blocks[b]->nports; k++) {
            Port *port = &p->blocks[b]->ports[k];
            if (port_selected(port, globs, used)) {
                c->ports[c->n++] = port;
            }
        }
    }
    bool ok = true;
    for (size_t k = 0; k < json_array_size(globs) && ok; k++) {
        if (!used[k]) {
            ok = sim_error_set(err, "%s/%zu: pattern '%s' matches no port", origin, k,
                               json_string_value(json_array_get(globs, k)));
        }
    }
    free(used);
    return ok;
}

/* The sink attached to observed port i. */
static TraceSink *collector_sink(Collector *c, size_t i)
{
    return c->defer ? trace_defer_sink(c->defer, i) : &c->sink;
}

bool collector_attach(Collector *c, Platform *p, json_t *globs, const char *origin,
                      SimError *err)
{
    c->sink.record = collector_record;
    c->records = json_array();
    if (!c->records) {
        return sim_error_set(err, "%s: out of memory", origin);
    }
    if (!glob_list_check(globs, origin, err) ||
        !collector_select(c, p, globs, origin, err)) {
        c->n = 0;
        return false;
    }
    if (p->engine) {
        c->defer = trace_defer_new(collector_deferred, c, p->engine, c->ports, c->n);
    }
    for (size_t i = 0; i < c->n; i++) {
        if (!trace_attach(c->ports[i], collector_sink(c, i), err)) {
            c->n = i;
            return false;
        }
    }
    return true;
}

void collector_flush(Collector *c)
{
    if (c->defer) {
        trace_defer_flush(c->defer);
    }
}

void collector_detach(Collector *c)
{
    for (size_t i = 0; i < c->n; i++) {
        trace_detach(c->ports[i], collector_sink(c, i));
    }
    c->n = 0;
    trace_defer_free(c->defer);
    c->defer = NULL;
}

void collector_free(Collector *c)
{
    collector_detach(c);
    free(c->ports);
    json_decref(c->records);
    c->ports = NULL;
    c->records = NULL;
}
