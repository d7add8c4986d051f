/* Log streaming for `mgtlm serve` (GET /api/logs?ports=GLOB[,GLOB...]): one trace
 * sink per stream, attached with trace_attach to every matching port, renders each
 * record (docs/log-format.md schema) as one JSON line into a buffer that the loop
 * sends as one HTTP chunk after each slice of simulation.
 * Decisions: without `ports` every port is streamed; a glob matching no port is a
 * 404 naming it. Memory stays bounded: while a client has more than
 * SERVE_STREAM_BACKLOG bytes unsent, the kernel does not advance (records are never
 * dropped, the simulation waits for the reader). A stream has no read timeout (it
 * may stay silent for as long as the simulation is paused). */
#include "serve_logs.h"

#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "kernel/glob.h"
#include "kernel/trace/trace.h"
#include "serve_api.h"

#define SERVE_STREAM_BACKLOG (1u << 20)
#define SERVE_GLOBS_MAX 32

struct ServeStream {
    TraceSink sink; /* first member: the ports point here */
    Server *s;
    struct evhttp_request *req;
    struct evhttp_connection *evcon;
    Port **ports;
    size_t nports;
    struct evbuffer *buf;
    ServeStream *next;
};

static void stream_record(TraceSink *sink, const Port *port, const char *ev, const Txn *t)
{
    ServeStream *st = (ServeStream *)sink;
    json_t *j = trace_record_json(sim_now(st->s->sim), port->name, ev, t);
    char *txt = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (txt) {
        evbuffer_add(st->buf, txt, strlen(txt));
        evbuffer_add(st->buf, "\n", 1);
        free(txt);
    }
}

static void stream_detach(ServeStream *st)
{
    for (size_t i = 0; i < st->nports; i++) {
        trace_detach(st->ports[i], &st->sink);
    }
    st->nports = 0;
}

/* Unlinks st, ends its reply (which frees the request) and frees it. */
static void stream_end(Server *s, ServeStream *st)
{
    ServeStream **pp = &s->streams;
    while (*pp != st) {
        pp = &(*pp)->next;
    }
    *pp = st->next;
    s->nstreams--;
    stream_detach(st);
    if (evbuffer_get_length(st->buf) > 0) {
        evhttp_send_reply_chunk(st->req, st->buf);
    }
    evhttp_send_reply_end(st->req);
    evbuffer_free(st->buf);
    free(st->ports);
    free(st);
}

static void reply_json_error(struct evhttp_request *req, int status, const char *msg)
{
    json_t *e = serve_api_error(msg);
    char *txt = json_dumps(e, JSON_COMPACT);
    struct evbuffer *b = evbuffer_new();
    json_decref(e);
    evbuffer_add_printf(b, "%s\n", txt ? txt : "{}");
    free(txt);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "application/json");
    evhttp_send_reply(req, status, status == 404 ? "Not Found" : "Service Unavailable",
                      b);
    evbuffer_free(b);
}

/* Splits globs at commas into v (pointers into copy). Returns the count. */
static size_t split_globs(char *copy, char **v)
{
    size_t n = 0;
    for (char *tok = strtok(copy, ","); tok && n < SERVE_GLOBS_MAX;
         tok = strtok(NULL, ",")) {
        v[n++] = tok;
    }
    return n;
}

static bool any_match(char **globs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (glob_match(globs[i], name)) {
            return true;
        }
    }
    return false;
}

/* Fills st->ports with the ports matching globs; the message names a glob that
 * matches nothing. */
static bool stream_ports(ServeStream *st, const Platform *p, char **globs, size_t n,
                         char *msg, size_t msg_len)
{
    for (size_t g = 0; g < n; g++) {
        bool hit = false;
        for (size_t i = 0; i < p->nblocks && !hit; i++) {
            for (size_t k = 0; k < p->blocks[i]->nports && !hit; k++) {
                hit = glob_match(globs[g], p->blocks[i]->ports[k].name);
            }
        }
        if (!hit) {
            snprintf(msg, msg_len, "ports: %s matches no port", globs[g]);
            return false;
        }
    }
    size_t total = 0;
    for (size_t i = 0; i < p->nblocks; i++) {
        total += p->blocks[i]->nports;
    }
    st->ports = calloc(total ? total : 1, sizeof *st->ports);
    if (!st->ports) {
        snprintf(msg, msg_len, "out of memory");
        return false;
    }
    for (size_t i = 0; i < p->nblocks; i++) {
        for (size_t k = 0; k < p->blocks[i]->nports; k++) {
            Port *q = &p->blocks[i]->ports[k];
            if (n == 0 || any_match(globs, n, q->name)) {
                st->ports[st->nports++] = q;
            }
        }
    }
    return true;
}

void serve_logs_open(Server *s, struct evhttp_request *req, const char *globs)
{
    char msg[SIM_ERROR_MAX];
    if (!s->plat) {
        reply_json_error(req, 503, "no platform: the last reset failed");
        return;
    }
    if (s->nstreams >= s->cfg->max_streams) {
        snprintf(msg, sizeof msg, "too many log streams (at most %u)",
                 s->cfg->max_streams);
        reply_json_error(req, 503, msg);
        return;
    }
    char *copy = strdup(globs ? globs : "");
    char *v[SERVE_GLOBS_MAX];
    size_t n = copy ? split_globs(copy, v) : 0;
    ServeStream *st = calloc(1, sizeof *st);
    if (!copy || !st || !(st->buf = evbuffer_new())) {
        free(copy);
        free(st);
        reply_json_error(req, 503, "out of memory");
        return;
    }
    st->sink.record = stream_record;
    st->s = s;
    st->req = req;
    st->evcon = evhttp_request_get_connection(req);
    bool ok = stream_ports(st, s->plat, v, n, msg, sizeof msg);
    free(copy);
    SimError err;
    for (size_t i = 0; ok && i < st->nports; i++) {
        if (!trace_attach(st->ports[i], &st->sink, &err)) {
            st->nports = i;
            snprintf(msg, sizeof msg, "%s", err.msg);
            ok = false;
        }
    }
    if (!ok) {
        stream_detach(st);
        evbuffer_free(st->buf);
        free(st->ports);
        free(st);
        reply_json_error(req, 404, msg);
        return;
    }
    st->next = s->streams;
    s->streams = st;
    s->nstreams++;
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "application/x-ndjson");
    evhttp_send_reply_start(req, 200, "OK");
    /* a stream stays silent while the simulation is paused: no read timeout (a client
       that hangs up is still noticed); a client that stops reading is dropped after
       the idle timeout */
    struct timeval wt = {(time_t)s->cfg->idle_timeout, 0};
    bufferevent_set_timeouts(evhttp_connection_get_bufferevent(st->evcon), NULL, &wt);
}

void serve_logs_flush(Server *s)
{
    for (ServeStream *st = s->streams; st; st = st->next) {
        if (evbuffer_get_length(st->buf) > 0) {
            evhttp_send_reply_chunk(st->req, st->buf);
        }
    }
}

bool serve_logs_backlogged(const Server *s)
{
    for (const ServeStream *st = s->streams; st; st = st->next) {
        size_t pending = evbuffer_get_length(st->buf);
        if (st->evcon) {
            struct bufferevent *bev = evhttp_connection_get_bufferevent(st->evcon);
            pending += evbuffer_get_length(bufferevent_get_output(bev));
        }
        if (pending > SERVE_STREAM_BACKLOG) {
            return true;
        }
    }
    return false;
}

void serve_logs_close_all(Server *s)
{
    while (s->streams) {
        stream_end(s, s->streams);
    }
}

bool serve_logs_conn_streaming(const Server *s, const struct evhttp_connection *evcon)
{
    for (const ServeStream *st = s->streams; st; st = st->next) {
        if (st->evcon == evcon) {
            return true;
        }
    }
    return false;
}

void serve_logs_drop_conn(Server *s, struct evhttp_connection *evcon)
{
    ServeStream *st = s->streams;
    while (st) {
        ServeStream *next = st->next;
        if (st->evcon == evcon) {
            st->evcon = NULL;
            evbuffer_drain(st->buf, evbuffer_get_length(st->buf));
            stream_end(s, st);
        }
        st = next;
    }
}
