/* HTTP front end of `mgtlm serve` on libevent's evhttp: routes GET / (the embedded
 * dashboard), GET /api/logs (serve_logs.c) and every other /api route to serve_api;
 * answers POST /api/run {"wait":true} when the run stops; bounds connections,
 * header and body sizes (413 above the body limit, answered by evhttp) and idle
 * time. Nothing here opens files: a client can reach only the served platform.
 * Decisions: connections are counted from their first request (evhttp 2.1 has no
 * connection limit of its own); a connection over the limit gets 503 and is closed.
 * A connection that never sends a request is closed by the idle timeout. */
#include "serve_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "serve_api.h"
#include "serve_logs.h"

#define SERVE_HTTP_TIMEOUT 60
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

static void conn_closed(struct evhttp_connection *evcon, void *arg)
{
    Server *s = arg;
    for (size_t i = 0; i < s->nconns; i++) {
        if (s->conn_v[i] == evcon) {
            s->conn_v[i] = s->conn_v[--s->nconns];
            break;
        }
    }
    drop_waiters(s, evcon, NULL);
    serve_logs_drop_conn(s, evcon);
}

/* Registers the connection of req; false if over the limit. */
static bool conn_admit(Server *s, struct evhttp_request *req)
{
    struct evhttp_connection *evcon = evhttp_request_get_connection(req);
    for (size_t i = 0; i < s->nconns; i++) {
        if (s->conn_v[i] == evcon) {
            return true;
        }
    }
    if (s->nconns >= s->cfg->max_conns) {
        return false;
    }
    if (s->nconns == s->conn_cap) {
        size_t cap = s->conn_cap ? 2 * s->conn_cap : 16;
        struct evhttp_connection **v = realloc(s->conn_v, cap * sizeof *v);
        if (!v) {
            return false;
        }
        s->conn_v = v;
        s->conn_cap = cap;
    }
    s->conn_v[s->nconns++] = evcon;
    /* replies are written in pieces: without TCP_NODELAY, Nagle's algorithm and the
       client's delayed ACK hold each reply back by tens of milliseconds */
    int one = 1;
    evutil_socket_t fd = bufferevent_getfd(evhttp_connection_get_bufferevent(evcon));
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    evhttp_connection_set_closecb(evcon, conn_closed, s);
    return true;
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

bool serve_http_start(Server *s, SimError *err)
{
    s->http = evhttp_new(s->base);
    if (!s->http) {
        return sim_error_set(err, "cannot create the HTTP server");
    }
    evhttp_set_max_body_size(s->http, (ev_ssize_t)s->cfg->max_body);
    evhttp_set_max_headers_size(s->http, SERVE_HEADERS_MAX);
    evhttp_set_timeout(s->http, SERVE_HTTP_TIMEOUT);
    evhttp_set_allowed_methods(s->http, EVHTTP_REQ_GET | EVHTTP_REQ_POST |
                                            EVHTTP_REQ_HEAD | EVHTTP_REQ_PUT |
                                            EVHTTP_REQ_DELETE);
    evhttp_set_gencb(s->http, serve_request, s);
    struct evhttp_bound_socket *sock =
        evhttp_bind_socket_with_handle(s->http, s->cfg->host, s->cfg->port);
    if (!sock) {
        return sim_error_set(err,
                             "--listen %s:%u: cannot listen there (address in use or "
                             "not local)",
                             s->cfg->host, s->cfg->port);
    }
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
    if (s->http) {
        evhttp_free(s->http);
        s->http = NULL;
    }
    free(s->conn_v);
    s->conn_v = NULL;
    s->nconns = s->conn_cap = 0;
}
