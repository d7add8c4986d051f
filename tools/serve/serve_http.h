/* The HTTP side of `mgtlm serve` (libevent evhttp): routing to the JSON API, the
 * embedded dashboard, deferred /api/run answers and connection accounting; the log
 * streams of GET /api/logs are in serve_logs.h. */
#ifndef MGTLM_SERVE_HTTP_H
#define MGTLM_SERVE_HTTP_H

#include <stdbool.h>

#include "serve.h"

/* Binds cfg->host:cfg->port on s->base. */
bool serve_http_start(Server *s, SimError *err);
/* Ends every stream and waiter, frees the evhttp (nothing left attached). */
void serve_http_stop(Server *s);
/* Answers every waiting POST /api/run with the health JSON and `stopped`. */
void serve_http_answer_waiters(Server *s);
/* The dashboard page (static, NUL-terminated). */
extern const char serve_dashboard_html[];

#endif
