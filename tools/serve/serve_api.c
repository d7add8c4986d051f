/* The JSON API of `mgtlm serve`: health, platform, stats, ports, run, pause, reset
 * and inject (routes in docs/serve.md). Nothing here touches files or sockets; the
 * only input is the request. Every error names the offending field.
 * Decisions:
 * - /api/inject reuses the testbench stimulus schema (hw/tb/driver_stimulus.h) for
 *   "txn": "t" is an absolute time that may not lie in the past, "gap" counts from
 *   the current simulated time, and with neither the transaction goes now.
 * - /api/stats first calls the blocks' stats callbacks (derived statistics are
 *   snapshots, so calling them mid-run is safe) and then returns the --stats JSON. */
#include "serve_api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endpoint.h"
#include "hw/tb/driver_stimulus.h"
#include "kernel/json_util.h"
#include "kernel/platform/platform_stats.h"
#include "kernel/units.h"

json_t *serve_api_error(const char *msg)
{
    char clean[SIM_ERROR_MAX];
    snprintf(clean, sizeof clean, "%s", msg);
    return json_pack("{s:b,s:s}", "ok", 0, "error", json_utf8_clean(clean));
}

static void reply_error(ServeReply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply_error(ServeReply *r, int status, const char *fmt, ...)
{
    char msg[SIM_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->status = status;
    r->body = serve_api_error(msg);
}

/* json_kind that also names a missing value. */
static const char *kind_of(const json_t *v)
{
    return v ? json_kind(v) : "nothing";
}

static void reply_ok(ServeReply *r, json_t *body)
{
    r->status = 200;
    r->body = body;
}

/* Parses the body as a JSON object (new reference) or replies 400. */
static json_t *body_object(const char *body, size_t len, ServeReply *r)
{
    json_error_t jerr;
    if (len == 0) {
        return json_object();
    }
    json_t *v = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!v) {
        reply_error(r, 400, "body: line %d column %d: %s", jerr.line, jerr.column,
                    jerr.text);
        return NULL;
    }
    if (!json_is_object(v)) {
        reply_error(r, 400, "body: expected an object, got %s", json_kind(v));
        json_decref(v);
        return NULL;
    }
    return v;
}

/* Replies 400 naming the first key of o that is not in keys. */
static bool only_keys(json_t *o, const char *const *keys, ServeReply *r)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        bool known = false;
        for (size_t i = 0; keys[i] && !known; i++) {
            known = strcmp(keys[i], k) == 0;
        }
        if (!known) {
            reply_error(r, 400, "%s: unknown field", k);
            return false;
        }
    }
    return true;
}

static bool field_time(json_t *o, const char *key, SimTime clock, SimTime *out,
                       ServeReply *r)
{
    json_t *v = json_object_get(o, key);
    SimError err;
    if (!json_is_string(v)) {
        reply_error(r, 400, "%s: expected a time string such as \"1us\", got %s", key,
                    kind_of(v));
        return false;
    }
    if (!units_parse_time(json_string_value(v), clock, out, &err)) {
        reply_error(r, 400, "%s: %s", key, err.msg);
        return false;
    }
    return true;
}

static void api_run(Server *s, json_t *o, ServeReply *r)
{
    static const char *const keys[] = {"until", "for", "events", "wait", NULL};
    if (!only_keys(o, keys, r)) {
        return;
    }
    int given = (json_object_get(o, "until") != NULL) +
                (json_object_get(o, "for") != NULL) +
                (json_object_get(o, "events") != NULL);
    if (given > 1) {
        reply_error(r, 400, "until/for/events: give at most one");
        return;
    }
    json_t *wait = json_object_get(o, "wait");
    if (wait && !json_is_boolean(wait)) {
        reply_error(r, 400, "wait: expected true or false, got %s", kind_of(wait));
        return;
    }
    SimTime now = sim_now(s->sim), clock = s->plat->desc.info.clock, t;
    SimTime until = SIM_TIME_MAX;
    uint64_t events = UINT64_MAX;
    if (json_object_get(o, "until")) {
        if (!field_time(o, "until", clock, &until, r)) {
            return;
        }
        if (until < now) {
            char a[UNITS_BUF], b[UNITS_BUF];
            reply_error(r, 400, "until: %s is before the current time %s",
                        units_format_time(until, a), units_format_time(now, b));
            return;
        }
    } else if (json_object_get(o, "for")) {
        if (!field_time(o, "for", clock, &t, r)) {
            return;
        }
        until = t > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + t;
    } else if (json_object_get(o, "events")) {
        json_t *v = json_object_get(o, "events");
        if (!json_is_integer(v) || json_integer_value(v) <= 0) {
            reply_error(r, 400, "events: expected a positive integer");
            return;
        }
        uint64_t n = (uint64_t)json_integer_value(v), done = sim_events_executed(s->sim);
        events = n > UINT64_MAX - done ? UINT64_MAX : done + n;
    }
    serve_run_start(s, until, events);
    r->wait = json_is_true(wait);
    json_t *h = serve_health_json(s);
    json_object_set_new(h, "until_ps",
                        until == SIM_TIME_MAX ? json_null()
                                              : json_integer((json_int_t)until));
    reply_ok(r, h);
}

/* Rewrites the stimulus parser's "body: /txn/0/key" into "txn/key". */
static void inject_error(ServeReply *r, const char *msg)
{
    static const char prefix[] = "body: /txn/0";
    if (strncmp(msg, prefix, sizeof prefix - 1) == 0) {
        const char *rest = msg + sizeof prefix - 1;
        reply_error(r, 400, "txn%s", rest);
    } else {
        reply_error(r, 400, "%s", msg);
    }
}

static void api_inject(Server *s, json_t *o, ServeReply *r)
{
    static const char *const keys[] = {"port", "txn", NULL};
    if (!only_keys(o, keys, r)) {
        return;
    }
    json_t *port = json_object_get(o, "port"), *txn = json_object_get(o, "txn");
    if (!json_is_string(port)) {
        reply_error(r, 400, "port: expected a port name, got %s", kind_of(port));
        return;
    }
    if (!json_is_object(txn)) {
        reply_error(r, 400, "txn: expected a transaction object, got %s", kind_of(txn));
        return;
    }
    Block *ep = serve_endpoint(s, json_string_value(port));
    if (!ep) {
        reply_error(r, 404,
                    "port: %s has no serve endpoint (start serve with --attach "
                    "NAME=%s)",
                    json_string_value(port), json_string_value(port));
        return;
    }
    json_t *arr = json_pack("[O]", txn);
    DriverEntry *e = NULL;
    size_t n = 0;
    SimError err;
    bool ok = driver_entries_parse(arr, "body: /txn", s->plat->desc.info.clock,
                                   s->plat->desc.info.cmds, &e, &n, &err);
    json_decref(arr);
    if (!ok) {
        inject_error(r, err.msg);
        return;
    }
    SimTime now = sim_now(s->sim), at = e[0].t;
    if (json_object_get(txn, "t")) {
        if (at < now) {
            char a[UNITS_BUF], b[UNITS_BUF];
            reply_error(r, 400, "txn/t: %s is before the current time %s",
                        units_format_time(at, a), units_format_time(now, b));
            driver_entries_free(e, n);
            return;
        }
    } else {
        at = at > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + at;
    }
    Txn *t = driver_entry_txn(s->sim, &e[0]);
    driver_entries_free(e, n);
    json_int_t id = (json_int_t)t->id;
    endpoint_inject(ep, t, at);
    reply_ok(r, json_pack("{s:b,s:s,s:I,s:I}", "ok", 1, "endpoint", ep->name, "id", id,
                          "t_ps", (json_int_t)at));
}

static json_t *ports_json(const Platform *p)
{
    json_t *a = json_array();
    for (size_t i = 0; i < p->nblocks; i++) {
        const Block *b = p->blocks[i];
        for (size_t k = 0; k < b->nports; k++) {
            const Port *q = &b->ports[k];
            json_array_append_new(a, json_pack("{s:s,s:s?,s:I,s:I,s:I}", "port", q->name,
                                               "peer", q->peer ? q->peer->name : NULL,
                                               "sent", (json_int_t)q->n_sent, "recv",
                                               (json_int_t)q->n_recv, "queued",
                                               (json_int_t)port_count(q)));
        }
    }
    return a;
}

/* One stat's {"kind", "unit", "type"} (type: the block type of b, "" without one: the
 * stats file's type column, platform_stats_owner). */
static json_t *statdef_json(const Block *b, const StatDef *d)
{
    return json_pack("{s:s,s:s,s:s}", "kind", stat_kind_name(d->kind), "unit", d->unit,
                     "type", b ? b->type->name : "");
}

/* {"<full name>": statdef_json} for every stat /api/stats answers: the registry's, in
 * its order, but those the host decides (StatDef.host), which the stats file keeps
 * in its host object. */
static json_t *statdefs_json(const Platform *p)
{
    json_t *o = json_object();
    for (size_t i = 0; i < stats_count(p->stats); i++) {
        StatView v = stats_at(p->stats, i);
        const char *stat;
        if (!v.def->host) {
            json_object_set_new(
                o, v.name, statdef_json(platform_stats_owner(p, v.name, &stat), v.def));
        }
    }
    return o;
}

static json_t *platform_json(const Platform *p)
{
    json_t *d = platform_dump(&p->desc);
    json_object_set_new(d, "ports", ports_json(p));
    return d;
}

/* The --stats JSON, serialized once per kernel state: requests answered between two
 * slices of simulation share one rendering (16 GPUs: ~90 KB). */
static void api_stats(Server *s, ServeReply *r)
{
    uint64_t events = sim_events_executed(s->sim);
    if (!s->stats_text || s->stats_events != events || s->stats_gen != s->state_gen) {
        platform_finish_stats(s->plat);
        json_t *j = stats_json_where(s->plat->stats, false);
        free(s->stats_text);
        s->stats_text = json_dumps(j, JSON_COMPACT);
        json_decref(j);
        s->stats_events = events;
        s->stats_gen = s->state_gen;
    }
    r->text = s->stats_text ? strdup(s->stats_text) : NULL;
    if (!r->text) {
        reply_error(r, 500, "out of memory");
        return;
    }
    r->status = 200;
}

static void api_get(Server *s, const char *path, ServeReply *r)
{
    if (strcmp(path, "/api/platform") == 0) {
        reply_ok(r, platform_json(s->plat));
    } else if (strcmp(path, "/api/stats") == 0) {
        api_stats(s, r);
    } else if (strcmp(path, "/api/statdefs") == 0) {
        reply_ok(r, statdefs_json(s->plat));
    } else if (strcmp(path, "/api/ports") == 0) {
        json_t *h = serve_health_json(s);
        json_object_set_new(h, "ports", ports_json(s->plat));
        reply_ok(r, h);
    } else {
        reply_error(r, 404, "no route GET %s", path);
    }
}

static void api_post(Server *s, const char *path, const char *body, size_t len,
                     ServeReply *r)
{
    json_t *o = body_object(body, len, r);
    if (!o) {
        return;
    }
    static const char *const none[] = {NULL};
    if (strcmp(path, "/api/run") == 0) {
        api_run(s, o, r);
    } else if (strcmp(path, "/api/inject") == 0) {
        api_inject(s, o, r);
    } else if (strcmp(path, "/api/pause") == 0) {
        if (only_keys(o, none, r)) {
            if (s->running) {
                serve_run_stop(s, "paused");
            }
            reply_ok(r, serve_health_json(s));
        }
    } else {
        reply_error(r, 404, "no route POST %s", path);
    }
    json_decref(o);
}

static void api_reset(Server *s, const char *body, size_t len, ServeReply *r)
{
    static const char *const none[] = {NULL};
    json_t *o = body_object(body, len, r);
    if (!o) {
        return;
    }
    if (!only_keys(o, none, r)) {
        json_decref(o);
        return;
    }
    json_decref(o);
    SimError err;
    serve_reset_prepare(s);
    if (!serve_build(s, &err)) {
        snprintf(s->reset_error, sizeof s->reset_error, "%s", err.msg);
        reply_error(r, 500, "reset: %s", err.msg);
        return;
    }
    reply_ok(r, serve_health_json(s));
}

static bool is_route(const char *path)
{
    static const char *const routes[] = {
        "/api/health", "/api/platform", "/api/stats", "/api/statdefs", "/api/ports",
        "/api/run",    "/api/pause",    "/api/reset", "/api/inject",   NULL};
    for (size_t i = 0; routes[i]; i++) {
        if (strcmp(routes[i], path) == 0) {
            return true;
        }
    }
    return false;
}

void serve_api(Server *s, const char *method, const char *path, const char *body,
               size_t len, ServeReply *r)
{
    r->status = 500;
    r->body = NULL;
    r->text = NULL;
    r->wait = false;
    bool get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    if (!is_route(path)) {
        reply_error(r, 404, "no route %s %s", method, path);
        return;
    }
    bool post_route = strcmp(path, "/api/run") == 0 || strcmp(path, "/api/pause") == 0 ||
                      strcmp(path, "/api/reset") == 0 || strcmp(path, "/api/inject") == 0;
    if ((post_route && !post) || (!post_route && !get)) {
        reply_error(r, 405, "%s needs %s, not %s", path, post_route ? "POST" : "GET",
                    method);
        return;
    }
    if (strcmp(path, "/api/health") == 0) {
        reply_ok(r, serve_health_json(s));
    } else if (strcmp(path, "/api/reset") == 0) {
        api_reset(s, body, len, r);
    } else if (!s->plat) {
        reply_error(r, 503, "no platform: the last reset failed: %s", s->reset_error);
    } else if (get) {
        api_get(s, path, r);
    } else {
        s->state_gen++; /* an injection changes statistics without an event */
        api_post(s, path, body, len, r);
    }
}
