/* xbar: the GPU-internal crossbar between the CUs, the local memory and the RDMA
 * engine (the path every DualOpt/FinePack/CARVE block later sits on; DESIGN.md
 * "Blocks").
 *
 * Modelled: routing of requests and responses between cu[k], local (memory side)
 * and remote (RDMA / egress side); per-input FIFOs with head-of-line blocking,
 * round-robin arbitration per output, one transaction per output and per input per
 * platform clock cycle, a fixed latency, backpressure (rules and timing in arb.h).
 * Not modelled: internal buffering beyond the port buffers, crossbar bandwidth in
 * bytes (a transaction of any size takes one cycle).
 *
 * Routing (own = this GPU; unit = the transaction's unit field):
 *   from cu[k]:  read/write/atomic/invalidate with dst == own -> local, else remote;
 *                release/kernel_begin/kernel_end -> remote (egress blocks such as a
 *                remote write queue act on them; the rdma block is the end of that
 *                path); a response from a CU is a route error.
 *   from local:  response with dst == own -> cu[unit]; response with dst != own ->
 *                remote (the answer to a remote GPU's request); a read/write/atomic/
 *                invalidate with dst != own -> remote (home-side blocks such as a
 *                coherence directory or sharing tracker send invalidates and
 *                write-backs this way); anything else is a route error.
 *   from remote: read/write/atomic/invalidate with dst == own -> local;
 *                response with dst == own -> cu[unit]; control commands arriving from
 *                the network are consumed (counted in controls).
 * Decisions:
 * - `remote` is optional (a 1-GPU platform has no RDMA): controls that would go there
 *   are consumed (counted in controls); requests or responses that would go there
 *   are route errors.
 * - Route errors (a wrong dst, a unit that names no CU, an unexpected command on a
 *   port) are counted in the model-error counter route_errors and the transaction
 *   is released: the run is reported as failed instead of aborting.
 * - Control commands are not answered (no command needs a response but read,
 *   non-posted write and atomic, txn.h). */
#include <stddef.h>

#include "hw/lib/arb.h"
#include "kernel/block.h"

typedef struct Xbar {
    Block base;
    uint64_t cus;
    SimTime latency;
    int own;
    int local, remote; /* port indices */
    Arb arb;
    uint64_t *controls, *route_errors;
} Xbar;

/* Classification results besides an output port index. */
enum { XBAR_CONSUME = -2, XBAR_ERROR = -3 };

static const ParamDef xbar_params[] = {
    {.key = "cus",
     .offset = offsetof(Xbar, cus),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 4096,
     .doc = "number of CU ports (cu[0] .. cu[cus-1])"},
    {.key = "latency",
     .offset = offsetof(Xbar, latency),
     .type = PT_TIME,
     .def = "10ns",
     .doc = "traversal latency from grant to the output"},
};

static const PortDef xbar_ports[] = {
    {.name = "cu",
     .count_param = "cus",
     .required = true,
     .doc = "to CU k: its requests in, responses for unit k out"},
    {.name = "local",
     .required = true,
     .doc = "to the local memory side: requests for this GPU out, responses in"},
    {.name = "remote",
     .required = false,
     .doc = "to the RDMA engine: remote requests and controls out, remote traffic in"},
};

static bool xbar_is_control(TxnCmd c)
{
    return c == TXN_RELEASE || c == TXN_KERNEL_BEGIN || c == TXN_KERNEL_END;
}

static int xbar_remote_or(const Xbar *x, int otherwise)
{
    return x->base.ports[x->remote].peer ? x->remote : otherwise;
}

static int xbar_to_cu(const Xbar *x, const Txn *t)
{
    if (t->dst != x->own || t->unit < 0 || (uint64_t)t->unit >= x->cus) {
        return XBAR_ERROR;
    }
    return t->unit;
}

static int xbar_classify(const Xbar *x, uint32_t in, const Txn *t)
{
    bool resp = t->cmd == TXN_RESP;
    bool control = xbar_is_control(t->cmd);
    if (in < x->cus) {
        if (resp) {
            return XBAR_ERROR;
        }
        if (control) {
            return xbar_remote_or(x, XBAR_CONSUME);
        }
        return t->dst == x->own ? x->local : xbar_remote_or(x, XBAR_ERROR);
    }
    if ((int)in == x->local) {
        if (!resp) {
            return (control || t->dst == x->own) ? XBAR_ERROR
                                                 : xbar_remote_or(x, XBAR_ERROR);
        }
        return t->dst == x->own ? xbar_to_cu(x, t) : xbar_remote_or(x, XBAR_ERROR);
    }
    if (resp) {
        return xbar_to_cu(x, t);
    }
    if (control) {
        return XBAR_CONSUME;
    }
    return t->dst == x->own ? x->local : XBAR_ERROR;
}

static int xbar_route(Block *b, uint32_t in, const Txn *t)
{
    int o = xbar_classify((const Xbar *)b, in, t);
    return o >= 0 ? o : ARB_ABSORB;
}

static void xbar_absorb(Block *b, uint32_t in, Txn *t)
{
    Xbar *x = (Xbar *)b;
    if (xbar_classify(x, in, t) == XBAR_CONSUME) {
        (*x->controls)++;
    } else {
        (*x->route_errors)++;
    }
    txn_unref(t);
}

static bool xbar_realize(Block *b, SimError *err)
{
    Xbar *x = (Xbar *)b;
    x->own = b->gpu >= 0 ? b->gpu : 0;
    x->local = (int)block_port(b, "local", -1)->index;
    x->remote = (int)block_port(b, "remote", -1)->index;
    return arb_init(&x->arb, b, x->latency, xbar_route, xbar_absorb, err);
}

static void xbar_reset(Block *b)
{
    arb_reset(&((Xbar *)b)->arb);
}

static void xbar_on_recv(Block *b, Port *p)
{
    arb_on_recv(&((Xbar *)b)->arb, p);
}

static void xbar_on_free(Block *b, Port *p)
{
    arb_on_free(&((Xbar *)b)->arb, p);
}

static void xbar_finalize(Block *b)
{
    arb_destroy(&((Xbar *)b)->arb);
}

static const StatDef xbar_stat_defs[] = {
    STAT(Xbar, controls, "controls", STAT_COUNTER, "", "control commands consumed here"),
    STAT(Xbar, route_errors, "route_errors", STAT_COUNTER, "",
         "model error: transactions that could not be routed", .is_error = true),
    ARB_STAT(Xbar, arb),
};

const BlockType xbar_type = {
    .name = "xbar",
    .doc =
        "GPU crossbar: CUs <-> local memory / remote (RDMA), round-robin, one per cycle",
    .size = sizeof(Xbar),
    .params = xbar_params,
    .nparams = sizeof xbar_params / sizeof xbar_params[0],
    .ports = xbar_ports,
    .nports = sizeof xbar_ports / sizeof xbar_ports[0],
    .stat_defs = xbar_stat_defs,
    .nstat_defs = sizeof xbar_stat_defs / sizeof xbar_stat_defs[0],
    .realize = xbar_realize,
    .reset = xbar_reset,
    .on_recv = xbar_on_recv,
    .on_free = xbar_on_free,
    .finalize = xbar_finalize,
};
