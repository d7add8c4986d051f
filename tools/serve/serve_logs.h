/* GET /api/logs?ports=GLOB[,GLOB...]: per-port records as chunked JSONL. */
#ifndef MGTLM_SERVE_LOGS_H
#define MGTLM_SERVE_LOGS_H

#include <stdbool.h>

#include "serve.h"

struct evhttp_request;
struct evhttp_connection;

/* Starts a stream answering req for the ports matching globs (comma-separated);
 * replies with an error itself when the globs match nothing or too many streams
 * are open. */
void serve_logs_open(Server *s, struct evhttp_request *req, const char *globs);
/* Sends what the log streams collected since the last flush. */
void serve_logs_flush(Server *s);
/* True if a log stream's client is too slow: the kernel then waits for it. */
bool serve_logs_backlogged(const Server *s);
/* Ends every stream (detaching its sinks). */
void serve_logs_close_all(Server *s);
/* True if a log stream is being sent on evcon. */
bool serve_logs_conn_streaming(const Server *s, const struct evhttp_connection *evcon);
/* The client of evcon went away: drops its streams. */
void serve_logs_drop_conn(Server *s, struct evhttp_connection *evcon);

#endif
