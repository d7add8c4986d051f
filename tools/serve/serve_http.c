/* HTTP front end of `mgtlm serve` on libevent's evhttp: routes GET / (the embedded
 * dashboard), GET /api/logs (serve_logs.c) and every other /api route to serve_api;
 * answers POST /api/run {"wait":true} when the run stops; bounds connections,
 * header and body sizes (413 above the body limit, answered by evhttp) and idle
 * time. Nothing here opens files: a client can reach only the served platform.
 * Every request passes serve_guard.c (Host, Origin, token) first.
 * Decisions: connections are counted from their first request (evhttp 2.1 has no
 * connection limit of its own); when every slot is taken, the connection idle for
 * longest (by request order; none of its requests pending) is closed for the new
 * one, and only when all are busy does the new one get 503 and close. A connection
 * that never sends a request is closed by the idle timeout. When accept() fails
 * (out of file descriptors), the listener pauses for SERVE_ACCEPT_PAUSE_MS instead
 * of failing again at once, and the failure is logged once. */
#include "serve_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "serve_api.h"
#include "serve_guard.h"
#include "serve_logs.h"

#define SERVE_ACCEPT_PAUSE_MS 500
#define SERVE_HEADERS_MAX 8192

struct ServeWaiter {
    struct evhttp_request *req;
    struct evhttp_connection *evcon;
    ServeWaiter *next;
};

static void send_json_text(struct evhttp_request *req, int status, json_t *body,
                           const char *text)
{
    static const struct {
        int code;
        const char *reason;
    } reasons[] = {{200, "OK"},
                   {400, "Bad Request"},
                   {401, "Unauthorized"},
                   {403, "Forbidden"},
                   {404, "Not Found"},
                   {405, "Method Not Allowed"},
                   {413, "Payload Too Large"},
                   {500, "Internal Server Error"},
                   {503, "Service Unavailable"}};
    const char *reason = "Error";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++) {
        if (reasons[i].code == status) {
            reason = reasons[i].reason;
        }
    }
    char *txt = text ? NULL : json_dumps(body, JSON_COMPACT);
    struct evbuffer *b = evbuffer_new();
    evbuffer_add_printf(b, "%s\n", text ? text : txt ? txt : "{}");
    free(txt);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "application/json");
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_send_reply(req, status, reason, b);
    evbuffer_free(b);
}

static void send_json(struct evhttp_request *req, int status, json_t *body)
{
    send_json_text(req, status, body, NULL);
}

static void drop_waiters(Server *s, struct evhttp_connection *evcon,
                         struct evhttp_request *req)
{
    ServeWaiter **pp = &s->waiters;
    while (*pp) {
        ServeWaiter *w = *pp;
        if ((evcon && w->evcon == evcon) || (req && w->req == req)) {
            *pp = w->next;
            if (evcon) {
                evhttp_send_reply(w->req, 500, "Gone", NULL);
            }
            free(w);
        } else {
            pp = &w->next;
        }
    }
}

void serve_http_answer_waiters(Server *s)
{
    while (s->waiters) {
        ServeWaiter *w = s->waiters;
        s->waiters = w->next;
        json_t *h = serve_health_json(s);
        send_json(w->req, 200, h);
        json_decref(h);
        free(w);
    }
}

struct ServeConn {
    struct evhttp_connection *evcon;
    uint64_t last; /* conn_seq at its latest request */
};

static void conn_closed(struct evhttp_connection *evcon, void *arg)
{
    Server *s = arg;
    for (size_t i = 0; i < s->nconns; i++) {
        if (s->conn_v[i].evcon == evcon) {
            s->conn_v[i] = s->conn_v[--s->nconns];
            break;
        }
    }
    drop_waiters(s, evcon, NULL);
    serve_logs_drop_conn(s, evcon);
}

static bool conn_has_waiter(const Server *s, const struct evhttp_connection *evcon)
{
    for (const ServeWaiter *w = s->waiters; w; w = w->next) {
        if (w->evcon == evcon) {
            return true;
        }
    }
    return false;
}

/* Closes the admitted connection idle for longest: no request of it is pending
 * (no waiting run, no log stream, no reply left to send). False if none is idle. */
static bool conn_evict_idle(Server *s)
{
    ServeConn *victim = NULL;
    for (size_t i = 0; i < s->nconns; i++) {
        ServeConn *c = &s->conn_v[i];
        struct bufferevent *bev = evhttp_connection_get_bufferevent(c->evcon);
        if ((!victim || c->last < victim->last) && !conn_has_waiter(s, c->evcon) &&
            !serve_logs_conn_streaming(s, c->evcon) &&
            evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
            victim = c;
        }
    }
    if (!victim) {
        return false;
    }
    evhttp_connection_free(victim->evcon); /* conn_closed unlists it */
    return true;
}

/* Registers the connection of req, closing the longest idle one when all slots are
 * taken; false if every slot is busy. */
static bool conn_admit(Server *s, struct evhttp_request *req)
{
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    s->conn_seq++;
    for (size_t i = 0; i < s->nconns; i++) {
        if (s->conn_v[i].evcon == evcon) {
            s->conn_v[i].last = s->conn_seq;
            return true;
        }
    }
    if (s->nconns >= s->cfg->max_conns && !conn_evict_idle(s)) {
        return false;
    }
    if (s->nconns == s->conn_cap) {
        size_t cap = s->conn_cap ? 2 * s->conn_cap : 16;
        ServeConn *v = realloc(s->conn_v, cap * sizeof *v);
        if (!v) {
            return false;
        }
        s->conn_v = v;
        s->conn_cap = cap;
    }
    s->conn_v[s->nconns++] = (ServeConn){evcon, s->conn_seq};
    s->accept_logged = false;
    /* replies are written in pieces: without TCP_NODELAY, Nagle's algorithm and the
       client's delayed ACK hold each reply back by tens of milliseconds */
    int one = 1;
    evutil_socket_t fd = bufferevent_getfd(evhttp_connection_get_bufferevent(evcon));
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    evhttp_connection_set_closecb(evcon, conn_closed, s);
    return true;
}

/* Host, Origin and token (serve_guard.c); false after answering a refusal, which
 * is logged and closes the connection (so it is logged once per connection). */
static bool request_allowed(Server *s, struct evhttp_request *req,
                            const struct evhttp_uri *uri)
{
    struct evkeyvalq *in = evhttp_request_get_input_headers(req);
    struct evkeyvalq q;
    const char *query = evhttp_uri_get_query(uri);
    memset(&q, 0, sizeof q);
    bool parsed = s->cfg->token && query && evhttp_parse_query_str(query, &q) == 0;
    ServeRefusal why;
    bool ok = serve_guard_check(
        s->cfg->host, s->http_port, s->cfg->token, evhttp_find_header(in, "Host"),
        evhttp_find_header(in, "Origin"), evhttp_find_header(in, "Authorization"),
        parsed ? evhttp_find_header(&q, "token") : NULL, &why);
    evhttp_clear_headers(&q);
    if (ok) {
        return true;
    }
    char *peer = NULL;
    ev_uint16_t peer_port = 0;
    evhttp_connection_get_peer(evhttp_request_get_connection(req), &peer, &peer_port);
    fprintf(stderr, "mgtlm serve: refused a request from %s:%u: %s\n", peer ? peer : "?",
            (unsigned)peer_port, why.reason);
    struct evkeyvalq *out = evhttp_request_get_output_headers(req);
    evhttp_add_header(out, "Connection", "close");
    if (why.status == 401) {
        evhttp_add_header(out, "WWW-Authenticate", "Bearer");
    }
    json_t *e = serve_api_error(why.reason);
    send_json(req, why.status, e);
    json_decref(e);
    return false;
}

static const char *method_name(enum evhttp_cmd_type c)
{
    switch (c) {
    case EVHTTP_REQ_GET:
        return "GET";
    case EVHTTP_REQ_POST:
        return "POST";
    case EVHTTP_REQ_HEAD:
        return "HEAD";
    case EVHTTP_REQ_PUT:
        return "PUT";
    case EVHTTP_REQ_DELETE:
        return "DELETE";
    default:
        return "OTHER";
    }
}

static void serve_dashboard(struct evhttp_request *req)
{
    struct evbuffer *b = evbuffer_new();
    evbuffer_add_reference(b, serve_dashboard_html, strlen(serve_dashboard_html), NULL,
                           NULL);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "text/html; charset=utf-8");
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_send_reply(req, 200, "OK", b);
    evbuffer_free(b);
}

static void serve_logs_route(Server *s, struct evhttp_request *req,
                             const struct evhttp_uri *uri)
{
    struct evkeyvalq q;
    const char *query = evhttp_uri_get_query(uri);
    memset(&q, 0, sizeof q); /* an empty queue; evhttp_parse_query_str refills it */
    if (query && evhttp_parse_query_str(query, &q) != 0) {
        json_t *e = serve_api_error("query: malformed query string");
        send_json(req, 400, e);
        json_decref(e);
        return;
    }
    serve_logs_open(s, req, evhttp_find_header(&q, "ports"));
    evhttp_clear_headers(&q);
}

static void serve_request(struct evhttp_request *req, void *arg)
{
    Server *s = arg;
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    if (!uri) {
        /* evhttp reports a broken connection by calling back without a URI */
        drop_waiters(s, NULL, req);
        evhttp_send_error(req, 400, NULL);
        return;
    }
    if (!request_allowed(s, req, uri)) {
        return;
    }
    if (!conn_admit(s, req)) {
        json_t *e = serve_api_error("too many connections");
        evhttp_add_header(evhttp_request_get_output_headers(req), "Connection", "close");
        send_json(req, 503, e);
        json_decref(e);
        return;
    }
    const char *path = evhttp_uri_get_path(uri);
    enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
    if (!path || strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) {
        if (cmd == EVHTTP_REQ_GET) {
            serve_dashboard(req);
        } else {
            json_t *e = serve_api_error("/ needs GET");
            send_json(req, 405, e);
            json_decref(e);
        }
        return;
    }
    if (strcmp(path, "/api/logs") == 0 && cmd == EVHTTP_REQ_GET) {
        serve_logs_route(s, req, uri);
        return;
    }
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t len = evbuffer_get_length(in);
    const char *body = len ? (const char *)evbuffer_pullup(in, -1) : "";
    ServeReply r;
    serve_api(s, method_name(cmd), path, body, len, &r);
    if (r.wait && s->running) {
        ServeWaiter *w = calloc(1, sizeof *w);
        if (w) {
            w->req = req;
            w->evcon = evhttp_request_get_connection(req);
            w->next = s->waiters;
            s->waiters = w;
            json_decref(r.body);
            return;
        }
    }
    send_json_text(req, r.status, r.body, r.text);
    json_decref(r.body);
    free(r.text);
}

/* The server whose listener reports accept() failures: libevent passes that
   callback evhttp's own argument, not ours (one HTTP server per process). */
static Server *http_owner;

static void accept_resume(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    Server *s = arg;
    evconnlistener_enable(s->listener);
}

/* accept() failed (out of file descriptors, most often): libevent would retry at
   once and forever; the listener pauses instead, and the failure is logged once
   until a connection is admitted again. */
static void accept_failed(struct evconnlistener *l, void *arg)
{
    (void)arg; /* the evhttp */
    Server *s = http_owner;
    int e = EVUTIL_SOCKET_ERROR();
    if (!s->accept_logged) {
        fprintf(stderr,
                "mgtlm serve: cannot accept connections (%s): pausing the listener, "
                "retrying every %d ms\n",
                evutil_socket_error_to_string(e), SERVE_ACCEPT_PAUSE_MS);
        s->accept_logged = true;
    }
    evconnlistener_disable(l);
    struct timeval tv = {0, SERVE_ACCEPT_PAUSE_MS * 1000};
    evtimer_add(s->accept_timer, &tv);
}

bool serve_http_start(Server *s, SimError *err)
{
    s->http = evhttp_new(s->base);
    if (!s->http) {
        return sim_error_set(err, "cannot create the HTTP server");
    }
    evhttp_set_max_body_size(s->http, (ev_ssize_t)s->cfg->max_body);
    evhttp_set_max_headers_size(s->http, SERVE_HEADERS_MAX);
    evhttp_set_timeout(s->http, (int)s->cfg->idle_timeout);
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
                                            EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
                                            EVHTTP_REQ_DELETE);
    evhttp_set_gencb(s->http, serve_request, s);
    struct evhttp_bound_socket *sock =
        evhttp_bind_socket_with_handle(s->http, s->cfg->host, s->cfg->port);
    s->accept_timer = evtimer_new(s->base, accept_resume, s);
    if (!sock || !s->accept_timer) {
        return sim_error_set(err,
                             "--listen %s:%u: cannot listen there (address in use or "
                             "not local)",
                             s->cfg->host, s->cfg->port);
    }
    s->listener = evhttp_bound_socket_get_listener(sock);
    http_owner = s;
    evconnlistener_set_error_cb(s->listener, accept_failed);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    s->http_port = s->cfg->port;
    if (getsockname(evhttp_bound_socket_get_fd(sock), (struct sockaddr *)&ss, &len) ==
        0) {
        s->http_port = ss.ss_family == AF_INET6
                           ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                           : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    }
    return true;
}

void serve_http_stop(Server *s)
{
    if (s->running) {
        serve_run_stop(s, "shutdown");
    }
    serve_logs_close_all(s);
    s->listener = NULL;
    http_owner = NULL;
    if (s->http) {
        evhttp_free(s->http);
        s->http = NULL;
    }
    if (s->accept_timer) {
        event_free(s->accept_timer);
        s->accept_timer = NULL;
    }
    free(s->conn_v);
    s->conn_v = NULL;
    s->nconns = s->conn_cap = 0;
}
