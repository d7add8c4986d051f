/* The serve endpoint: a block that `mgtlm serve` wires to a platform port so that
 * transactions can be injected from outside (HTTP /api/inject, PCIe/IP peers) and
 * what comes back can be handed to the outside. See endpoint.c. */
#ifndef MGTLM_SERVE_ENDPOINT_H
#define MGTLM_SERVE_ENDPOINT_H

#include <stdbool.h>

#include "kernel/block.h"
#include "kernel/platform/platform.h"

/* What a listener did with a transaction that arrived at the endpoint. */
typedef enum EndpointVerdict {
    EP_DEFAULT, /* not handled: a request needing a response gets command_error */
    EP_TAKEN,   /* handled (the listener txn_ref()s it if it keeps it) */
    EP_HOLD     /* not now: the endpoint stops taking (backpressure) until
                   endpoint_resume */
} EndpointVerdict;

/* Sees every transaction arriving at an endpoint (responses and requests), at the
 * head of the receive buffer, borrowed for the duration of the call. */
typedef EndpointVerdict (*EndpointListener)(void *ctx, Block *ep, const Txn *t);

/* Block type "serve_endpoint" (port "io"), in serve's registry only
 * (endpoint_register);
 * serve creates its instances with endpoint_add. */
extern const BlockType endpoint_type;

/* Adds serve's own block type, the endpoint, to r (the registry serve loads its
 * platform with). Fails if r already holds a type of that name. */
bool endpoint_register(Registry *r, SimError *err);

/* Adds instance `name` of the endpoint type (which d->registry must hold) to d, wired to
 * `target` with latency 0. Fails if target is already wired or the name is taken. */
bool endpoint_add(PlatformDesc *d, const char *name, const char *target, SimError *err);

/* Queues t (ownership moves to the endpoint) to go out of "io" at time `at` (>= now);
 * transactions leave in (time, injection) order, waiting for credits as needed. */
void endpoint_inject(Block *ep, Txn *t, SimTime at);
/* Counters a PCIe/IP bridge keeps in its endpoint's statistics. */
typedef enum EndpointCount {
    EP_COUNT_IGNORED_BITS,   /* TLPs received with ignored reserved bits set */
    EP_COUNT_CPL_TIMEOUTS,   /* platform reads ended by the completion timeout */
    EP_COUNT_CPL_UNEXPECTED, /* completions matching no outstanding read */
    EP_COUNT_CPL_NO_DATA     /* platform reads ended by a completion without data */
} EndpointCount;
void endpoint_count(Block *ep, EndpointCount c);
/* Sets the listener (NULL = none). */
void endpoint_listen(Block *ep, EndpointListener fn, void *ctx);
/* Takes held transactions again (after EP_HOLD), at the current time. */
void endpoint_resume(Block *ep);
/* Sends an answer t (ownership moves) out of "io" as soon as credits allow. */
void endpoint_answer(Block *ep, Txn *t);
/* The port the endpoint is wired to (borrowed). */
Port *endpoint_target(Block *ep);
/* Transactions queued and not sent yet. */
size_t endpoint_backlog(const Block *ep);

#endif
