/* The serve endpoint block ("serve_endpoint", port "io"): the outside world's seat
 * on one platform port while `mgtlm serve` runs. Not hardware.
 * - endpoint_inject queues a transaction for a given simulated time; queued
 *   transactions leave "io" in (time, injection order) as credits allow, a refused
 *   send waiting for on_free (the same flow control every block sees).
 * - Everything arriving at "io" is shown to the listener (the HTTP log stream sees
 *   it through trace sinks instead) and taken, unless the listener holds it: then
 *   the endpoint stops taking until endpoint_resume, and the credits of its receive
 *   buffer push back on the platform. A request needing a response that no listener
 *   takes is answered with status command_error, so nothing in the platform waits
 *   forever.
 * Decision: the endpoint is a block type of the serve front end: endpoint_register adds
 * it to serve's registry (not to the other commands': it is meaningless outside a
 * serve session), and endpoint_add creates its instances by that name.
 * Stats: injected, sent, received, responses_in, unanswered (requests answered with
 * command_error), and the PCIe/IP bridge's counters (endpoint_count; zero on an
 * --attach endpoint). */
#include "endpoint.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/event.h"
#include "kernel/xalloc.h"

typedef struct EpItem {
    Txn *t;
    SimTime at;
    uint64_t seq;
} EpItem;

typedef struct Endpoint {
    Block base;
    Port *io;
    EpItem *q; /* sorted by (at, seq) */
    size_t n, cap;
    uint64_t seq;
    SimEvent kick;
    SimEvent resume;
    EndpointListener fn;
    void *ctx;
    uint64_t *injected, *sent, *received, *responses_in, *unanswered;
    uint64_t *pcie_ignored_bits, *pcie_cpl_timeouts, *pcie_cpl_unexpected,
        *pcie_cpl_no_data;
} Endpoint;

static void endpoint_pump(Endpoint *e)
{
    SimTime now = sim_now(e->base.sim);
    while (e->n > 0 && e->q[0].at <= now) {
        if (!port_send(e->io, e->q[0].t)) {
            return; /* on_free calls us again */
        }
        (*e->sent)++;
        memmove(e->q, e->q + 1, (e->n - 1) * sizeof e->q[0]);
        e->n--;
    }
    if (e->n > 0) {
        sim_event_notify_at(&e->kick, e->q[0].at);
    }
}

static void endpoint_wake(void *subject, void *obj)
{
    (void)obj;
    endpoint_pump(subject);
}

static void endpoint_enqueue(Endpoint *e, Txn *t, SimTime at)
{
    e->q = xgrow(e->q, &e->cap, e->n + 1, sizeof *e->q, 16);
    size_t i = e->n;
    while (i > 0 && e->q[i - 1].at > at) {
        e->q[i] = e->q[i - 1];
        i--;
    }
    e->q[i] = (EpItem){t, at, e->seq++};
    e->n++;
    if (i == 0) {
        sim_event_notify_at(&e->kick, at);
    }
}

void endpoint_inject(Block *ep, Txn *t, SimTime at)
{
    Endpoint *e = (Endpoint *)ep;
    (*e->injected)++;
    endpoint_enqueue(e, t, at);
}

void endpoint_answer(Block *ep, Txn *t)
{
    Endpoint *e = (Endpoint *)ep;
    endpoint_enqueue(e, t, sim_now(e->base.sim));
}

void endpoint_listen(Block *ep, EndpointListener fn, void *ctx)
{
    Endpoint *e = (Endpoint *)ep;
    e->fn = fn;
    e->ctx = ctx;
}

Port *endpoint_target(Block *ep)
{
    return ((Endpoint *)ep)->io->peer;
}

size_t endpoint_backlog(const Block *ep)
{
    return ((const Endpoint *)ep)->n;
}

static void endpoint_recv(Block *b, Port *p)
{
    Endpoint *e = (Endpoint *)b;
    Txn *t;
    while ((t = port_peek(p)) != NULL) {
        EndpointVerdict v = e->fn ? e->fn(e->ctx, b, t) : EP_DEFAULT;
        if (v == EP_HOLD) {
            return;
        }
        port_take(p);
        (*e->received)++;
        if (t->cmd == TXN_RESP) {
            (*e->responses_in)++;
        }
        if (v == EP_DEFAULT && t->cmd != TXN_RESP && txn_needs_response(t)) {
            Txn *r = txn_new_response(b->sim, t);
            r->status = TXN_STATUS_COMMAND_ERROR;
            (*e->unanswered)++;
            endpoint_answer(b, r);
        }
        txn_unref(t);
    }
}

void endpoint_count(Block *ep, EndpointCount c)
{
    Endpoint *e = (Endpoint *)ep;
    uint64_t *const counters[] = {e->pcie_ignored_bits, e->pcie_cpl_timeouts,
                                  e->pcie_cpl_unexpected, e->pcie_cpl_no_data};
    (*counters[c])++;
}

static void endpoint_resumed(void *subject, void *obj)
{
    (void)obj;
    Endpoint *e = subject;
    endpoint_recv(&e->base, e->io);
}

void endpoint_resume(Block *ep)
{
    sim_event_notify(&((Endpoint *)ep)->resume, 0);
}

static void endpoint_free_slot(Block *b, Port *p)
{
    (void)p;
    endpoint_pump((Endpoint *)b);
}

static bool endpoint_realize(Block *b, SimError *err)
{
    (void)err;
    Endpoint *e = (Endpoint *)b;
    e->io = block_port(b, "io", -1);
    sim_event_init(&e->kick, b->sim, SIM_PRIO_DEFAULT, endpoint_wake, e, NULL);
    sim_event_init(&e->resume, b->sim, SIM_PRIO_DEFAULT, endpoint_resumed, e, NULL);
    return true;
}

static void endpoint_finalize(Block *b)
{
    Endpoint *e = (Endpoint *)b;
    for (size_t i = 0; i < e->n; i++) {
        txn_unref(e->q[i].t);
    }
    free(e->q);
}

static const PortDef endpoint_ports[] = {
    {.name = "io",
     .required = true,
     .doc = "wired to the platform port served to the outside"},
};

static const StatDef endpoint_stat_defs[] = {
    STAT(Endpoint, injected, "injected", STAT_COUNTER, "",
         "transactions injected from outside"),
    STAT(Endpoint, sent, "sent", STAT_COUNTER, "", "transactions sent out of io"),
    STAT(Endpoint, received, "received", STAT_COUNTER, "", "transactions received at io"),
    STAT(Endpoint, responses_in, "responses_in", STAT_COUNTER, "",
         "responses received at io"),
    STAT(Endpoint, unanswered, "unanswered", STAT_COUNTER, "",
         "requests from the platform answered with command_error (no outside listener)"),
    STAT(Endpoint, pcie_ignored_bits, "pcie_ignored_bits", STAT_COUNTER, "",
         "PCIe/IP TLPs received with reserved bits set (ignored)"),
    STAT(Endpoint, pcie_cpl_timeouts, "pcie_cpl_timeouts", STAT_COUNTER, "",
         "PCIe/IP platform reads ended by the completion timeout (generic_error)"),
    STAT(Endpoint, pcie_cpl_unexpected, "pcie_cpl_unexpected", STAT_COUNTER, "",
         "PCIe/IP completions matching no outstanding read (ignored)"),
    STAT(Endpoint, pcie_cpl_no_data, "pcie_cpl_no_data", STAT_COUNTER, "",
         "PCIe/IP platform reads ended by a completion with status SC and no data "
         "(generic_error)"),
};

const BlockType endpoint_type = {
    .name = "serve_endpoint",
    .doc = "mgtlm serve: injects outside transactions into a platform port",
    .size = sizeof(Endpoint),
    .ports = endpoint_ports,
    .nports = 1,
    .stat_defs = endpoint_stat_defs,
    .nstat_defs = sizeof endpoint_stat_defs / sizeof endpoint_stat_defs[0],
    .realize = endpoint_realize,
    .on_recv = endpoint_recv,
    .on_free = endpoint_free_slot,
    .finalize = endpoint_finalize,
};

bool endpoint_register(Registry *r, SimError *err)
{
    return registry_add(r, &endpoint_type, err);
}

bool endpoint_add(PlatformDesc *d, const char *name, const char *target, SimError *err)
{
    const PlatformWire *w = platform_desc_wire_of(d, target);
    if (w) {
        return sim_error_set(err, "%s is already wired to %s", target,
                             strcmp(w->a, target) == 0 ? w->b : w->a);
    }
    char port[256], origin[256];
    snprintf(port, sizeof port, "%s.io", name);
    snprintf(origin, sizeof origin, "serve endpoint %s", name);
    if (!platform_desc_add_instance(d, name, endpoint_type.name, -1, NULL, origin, err)) {
        return false;
    }
    return platform_desc_add_wire(d, port, target, 0, origin, err);
}
