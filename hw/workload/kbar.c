/* kbar: the kernel barrier of the cus of pattern shared, as transactions. It stands
 * for the host launching the next kernel only after the previous one ended
 * everywhere (SPEC.md 6.4), which no single cu sees; it replaces the list of peers
 * that the cus once shared (a state of several blocks, which a platform cut into
 * partitions cannot have).
 *
 * Ports cu[0] .. cu[cus - 1] (param cus), every one required, each wired to the
 * bar[0] port of one cu with barrier 1 (hw/workload/cu.c). Commands (kbar.h):
 * - a cu sends `arrive` k on bar[0] at the instant it sends kernel k's kernel_end,
 *   when it has a kernel k + 1; the kbar takes it on arrival;
 * - when every port has arrived for kernel k, the kbar sends `open` k + 1 out of
 *   every port, in port order, at the arrival of the last arrive; a cu begins kernel
 *   k + 1 only after its open arrived (and not before its slot (k + 1) x T).
 * Timing: with wires of latency L the barrier costs two wire latencies after the
 * last cu's kernel_end (2L, like a host launch: the end travels to the host, the
 * launch back); the kbar adds no time of its own.
 *
 * Credits (kernel/port.h): both commands are requests, so a full buffer could refuse
 * them, but neither side ever waits for anything before taking what arrived, and a
 * cu has at most one arrive in flight and waits for its open before the next, so a
 * port holds at most one of them and one slot (the minimum buffer) is enough: no
 * send is refused and nothing can deadlock. Both sides still send through an egress
 * queue, so a refusal would only delay.
 *
 * Decisions:
 * - The kbar gathers one kernel at a time, starting at 0. An arrive for another
 *   kernel, a second arrive of one port for the same kernel, or any other command
 *   breaks the protocol (a cu never does): it is counted in protocol_errors (a model
 *   error) and released.
 * - waiting_errors: ports that arrived for a kernel that never opened, in a run that
 *   ended idle (no event pending): some port never arrived, so its cus never began
 *   the next kernel. A run cut by --until counts none.
 * - open carries dst and unit of its port's arrive (src -1: the kbar is outside any
 *   GPU). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "hw/workload/kbar.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/xalloc.h"

const TxnCmdDecl kbar_cmd_arrive = {
    .name = "arrive",
    .doc = "kernel barrier: cu -> kbar, addr = k: the cu sent kernel k's kernel_end "
           "(not answered)",
};
const TxnCmdDecl kbar_cmd_open = {
    .name = "open",
    .doc = "kernel barrier: kbar -> cu, addr = k: every cu ended kernel k - 1, kernel k "
           "may begin (not answered)",
};

typedef struct Kbar {
    Block base;
    uint64_t cus;
    uint64_t kernel;   /* the kernel whose arrivals are gathered */
    uint64_t narrived; /* ports arrived for it */
    Txn **arrived;     /* per port: its arrive for kernel, owned, or NULL */
    Egress out;        /* every open, to the port it names */
    uint64_t *arrivals, *opens, *protocol_errors, *waiting_errors, *last_open_ps;
} Kbar;

static const ParamDef kbar_params[] = {
    {.key = "cus",
     .offset = offsetof(Kbar, cus),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 4096,
     .doc = "cus in the barrier: ports cu[0] .. cu[cus - 1], one per cu"},
};

static const PortDef kbar_ports[] = {
    {.name = "cu",
     .count_param = "cus",
     .required = true,
     .doc = "to one cu's bar[0]: arrive in, open out"},
};

static bool kbar_realize(Block *b, SimError *err)
{
    Kbar *k = (Kbar *)b;
    (void)err;
    k->arrived = xcalloc(b->nports, sizeof *k->arrived);
    egress_init(&k->out, b, &b->ports[0], NULL);
    return true;
}

/* Releases the arrivals held for the current kernel. */
static void kbar_drop_arrived(Kbar *k)
{
    for (size_t i = 0; k->arrived && i < k->base.nports; i++) {
        if (k->arrived[i]) {
            txn_unref(k->arrived[i]);
            k->arrived[i] = NULL;
        }
    }
    k->narrived = 0;
}

static void kbar_reset(Block *b)
{
    Kbar *k = (Kbar *)b;
    kbar_drop_arrived(k);
    egress_clear(&k->out);
    k->kernel = 0;
}

/* Every port arrived for k->kernel: sends open kernel + 1 out of every port. */
static void kbar_open(Kbar *k, SimTime now)
{
    Block *b = &k->base;
    for (size_t i = 0; i < b->nports; i++) {
        const Txn *a = k->arrived[i];
        Txn *o = txn_new_declared(b->sim, &kbar_cmd_open, k->kernel + 1, 0);
        o->src = -1;
        o->dst = a->src;
        o->unit = a->unit;
        egress_add_to(&k->out, &b->ports[i], o, now);
    }
    kbar_drop_arrived(k);
    k->kernel++;
    (*k->opens)++;
    *k->last_open_ps = now;
    egress_pump(&k->out);
}

static void kbar_on_recv(Block *b, Port *p)
{
    Kbar *k = (Kbar *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (!txn_is(t, &kbar_cmd_arrive) || t->addr != k->kernel ||
            k->arrived[p->index]) {
            (*k->protocol_errors)++;
            txn_unref(t);
            continue;
        }
        (*k->arrivals)++;
        k->arrived[p->index] = t;
        if (++k->narrived == b->nports) {
            kbar_open(k, sim_now(b->sim));
        }
    }
}

static void kbar_on_free(Block *b, Port *p)
{
    (void)p;
    egress_pump(&((Kbar *)b)->out);
}

static void kbar_stats(Block *b)
{
    Kbar *k = (Kbar *)b;
    /* A run that ended idle can never open what is still gathered. */
    *k->waiting_errors = sim_idle(b->sim) ? k->narrived : 0;
}

static void kbar_finalize(Block *b)
{
    Kbar *k = (Kbar *)b;
    kbar_drop_arrived(k);
    free(k->arrived);
    k->arrived = NULL;
    egress_destroy(&k->out);
}

static const StatDef kbar_stat_defs[] = {
    STAT(Kbar, arrivals, "arrivals", STAT_COUNTER, "", "arrive commands taken"),
    STAT(Kbar, opens, "opens", STAT_COUNTER, "",
         "kernels opened (open sent out of every port)"),
    STAT(Kbar, last_open_ps, "last_open_ps", STAT_TIME, "ps",
         "time of the last opening (ps)"),
    STAT(Kbar, protocol_errors, "protocol_errors", STAT_COUNTER, "",
         "model error: arrives for another kernel, twice per port, or other commands",
         .is_error = true),
    STAT(Kbar, waiting_errors, "waiting_errors", STAT_COUNTER, "",
         "model error: ports arrived for a kernel that never opened (run ended idle)",
         .is_error = true),
};

const BlockType kbar_type = {
    .name = "kbar",
    .doc = "kernel barrier of the cus of pattern shared: arrive from every cu, then open",
    .size = sizeof(Kbar),
    .params = kbar_params,
    .nparams = sizeof kbar_params / sizeof kbar_params[0],
    .ports = kbar_ports,
    .nports = sizeof kbar_ports / sizeof kbar_ports[0],
    .stat_defs = kbar_stat_defs,
    .nstat_defs = sizeof kbar_stat_defs / sizeof kbar_stat_defs[0],
    .realize = kbar_realize,
    .reset = kbar_reset,
    .on_recv = kbar_on_recv,
    .on_free = kbar_on_free,
    .stats = kbar_stats,
    .finalize = kbar_finalize,
};
