/* Request admission of `mgtlm serve` (docs/serve.md, "Security model"). A web page in
 * the user's browser can send requests to a loopback server (cross-site request
 * forgery) and, through a name that it makes resolve to 127.0.0.1 (DNS rebinding),
 * read the answers; neither can choose the Host header the browser sends, nor the
 * Origin of a cross-site request.
 * Decisions: a Host must be the listening address itself (numeric), `localhost` or
 * another loopback address for a loopback listener, any numeric address for a
 * wildcard listener (0.0.0.0, ::), and carry the bound port (none means 80): names
 * are refused, as a rebinding page can only use a name. An Origin, when present,
 * must be `http://` and such a Host; "null" and any other scheme are foreign. The
 * token is compared in time independent of where it differs. */
#include "serve_guard.h"

#include <arpa/inet.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GUARD_NAME_MAX 256

/* Splits "name[:port]" or "[v6][:port]" into name (NUL-terminated, brackets
 * removed; *bracketed says if they were there) and port (80 if absent). */
static bool split_host(const char *h, char *name, size_t n, bool *bracketed,
                       unsigned *port)
{
    const char *end;
    const char *rest;
    *bracketed = h[0] == '[';
    if (*bracketed) {
        end = strchr(h, ']');
        if (!end) {
            return false;
        }
        h++;
        rest = end + 1;
    } else {
        end = strchr(h, ':');
        if (!end) {
            end = h + strlen(h);
        }
        rest = end;
    }
    size_t len = (size_t)(end - h);
    if (len == 0 || len >= n) {
        return false;
    }
    memcpy(name, h, len);
    name[len] = '\0';
    *port = 80;
    if (*rest == '\0') {
        return true;
    }
    if (*rest != ':' || rest[1] == '\0' || strlen(rest + 1) > 5) {
        return false;
    }
    unsigned v = 0;
    for (const char *p = rest + 1; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        v = v * 10 + (unsigned)(*p - '0');
    }
    *port = v;
    return v <= 65535;
}

/* Address family and bytes of a numeric address; 0 if not numeric. */
static int parse_addr(const char *name, unsigned char a[16])
{
    if (inet_pton(AF_INET, name, a) == 1) {
        return AF_INET;
    }
    if (inet_pton(AF_INET6, name, a) == 1) {
        return AF_INET6;
    }
    return 0;
}

static bool is_loopback(int af, const unsigned char a[16])
{
    static const unsigned char one[16] = {[15] = 1};
    return af == AF_INET ? a[0] == 127 : af == AF_INET6 && memcmp(a, one, 16) == 0;
}

static bool is_wildcard(int af, const unsigned char a[16])
{
    static const unsigned char zero[16];
    return memcmp(a, zero, af == AF_INET ? 4 : 16) == 0;
}

bool serve_guard_host_ok(const char *listen_host, unsigned port, const char *host)
{
    char name[GUARD_NAME_MAX];
    bool bracketed;
    unsigned hport;
    unsigned char la[16];
    unsigned char ha[16];
    if (!split_host(host, name, sizeof name, &bracketed, &hport) || hport != port) {
        return false;
    }
    int laf = parse_addr(listen_host, la);
    int haf = parse_addr(name, ha);
    if (laf == 0 || (haf == AF_INET6) != bracketed) {
        return false;
    }
    if (haf == 0) {
        return strcasecmp(name, "localhost") == 0 &&
               (is_loopback(laf, la) || is_wildcard(laf, la));
    }
    if (is_wildcard(laf, la) || (is_loopback(laf, la) && is_loopback(haf, ha))) {
        return true;
    }
    return haf == laf && memcmp(ha, la, haf == AF_INET ? 4 : 16) == 0;
}

static bool token_equal(const char *token, const char *given)
{
    size_t n = strlen(token);
    if (strlen(given) != n) {
        return false;
    }
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++) {
        diff |= (unsigned char)(token[i] ^ given[i]);
    }
    return diff == 0;
}

static bool refuse(ServeRefusal *why, int status, const char *reason)
{
    why->status = status;
    why->reason = reason;
    return false;
}

bool serve_guard_check(const char *listen_host, unsigned port, const char *token,
                       const char *host, const char *origin, const char *authorization,
                       const char *query_token, ServeRefusal *why)
{
    static const char http[] = "http://";
    if (!host) {
        return refuse(why, 403, "Host: missing");
    }
    if (!serve_guard_host_ok(listen_host, port, host)) {
        return refuse(why, 403, "Host: not the listening address");
    }
    if (origin && (strncmp(origin, http, sizeof http - 1) != 0 ||
                   !serve_guard_host_ok(listen_host, port, origin + sizeof http - 1))) {
        return refuse(why, 403, "Origin: a foreign origin");
    }
    if (!token) {
        return true;
    }
    bool bearer = authorization && strncasecmp(authorization, "Bearer ", 7) == 0;
    if (bearer ? token_equal(token, authorization + 7)
               : query_token && token_equal(token, query_token)) {
        return true;
    }
    return refuse(why, 401,
                  authorization || query_token ? "token: wrong access token"
                                               : "token: an access token is required");
}
