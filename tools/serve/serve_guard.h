/* Admission of the HTTP requests of `mgtlm serve` (docs/serve.md, "Security model"):
 * the Host and Origin checks against DNS rebinding and cross-site requests, and the
 * optional access token. */
#ifndef MGTLM_SERVE_GUARD_H
#define MGTLM_SERVE_GUARD_H

#include <stdbool.h>

/* A refusal: the HTTP status (403 or 401) and the reason (a static string). */
typedef struct ServeRefusal {
    int status;
    const char *reason;
} ServeRefusal;

/* True if the Host header value `host` names the listener at listen_host (numeric,
 * as given to --listen) and port: that address, a loopback name for a loopback
 * listener, any numeric address for a wildcard one; without a port, port 80. */
bool serve_guard_host_ok(const char *listen_host, unsigned port, const char *host);

/* Checks one request: Host (required), Origin (optional, must be http:// and a Host
 * that passes), then, when token is not NULL, the token from authorization
 * ("Bearer T", may be NULL) or from query_token (the "token" query parameter, may be
 * NULL). Returns true if the request may proceed, else fills *why. */
bool serve_guard_check(const char *listen_host, unsigned port, const char *token,
                       const char *host, const char *origin, const char *authorization,
                       const char *query_token, ServeRefusal *why);

#endif
