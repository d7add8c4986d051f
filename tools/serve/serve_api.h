/* The JSON API of `mgtlm serve`, independent of the HTTP transport (the libFuzzer
 * target fuzz/fuzz_serve_api.c calls serve_api directly). Routes and bodies are
 * documented in docs/serve.md. */
#ifndef MGTLM_SERVE_API_H
#define MGTLM_SERVE_API_H

#include <stddef.h>

#include <jansson.h>

#include "serve.h"

typedef struct ServeReply {
    int status;   /* HTTP status */
    json_t *body; /* owned by the caller; NULL when text is set */
    char *text;   /* the body already serialized (owned by the caller), or NULL */
    bool wait;    /* POST /api/run with "wait": true: answer when the run stops */
} ServeReply;

/* Handles one request; method "GET"/"POST"/..., path without the query string,
 * body[0..len) (any bytes). Always fills *r; errors are {"ok":false,"error":"..."}
 * with 400 (malformed JSON or a bad field, named), 404 (unknown route, port or
 * instance), 405 (wrong method) or 503 (no platform after a failed reset). */
void serve_api(Server *s, const char *method, const char *path, const char *body,
               size_t len, ServeReply *r);

/* {"ok":false,"error":msg} (new reference); bytes of msg that are not well-formed
 * UTF-8 become '?' so that the reply always exists. */
json_t *serve_api_error(const char *msg);

#endif
