/* epoch: CARVE's epoch counter EPCTR (paper 004 "Efficient RDC Invalidation",
 * Fig. 10; SPEC.md 4.2), one per GPU.
 *
 * A bump in the wire between the crossbar's remote port (`gpu`) and the RDC (`net`).
 * Modelled: a 20-bit register, initial value `initial_epoch`; every read, write,
 * atomic and control going towards the RDC is stamped with the current value in its
 * `epoch` field (the RDC stores it with an inserted line and hits only on equality);
 * in `swc` mode the register increments at every kernel boundary; on the wrap from
 * 2^20 - 1 to 0 the block asks the RDC to reset every line physically. Not modelled:
 * per-stream counters (one kernel stream per GPU).
 *
 * Egress (gpu -> net), in order: a kernel_end is counted; in `swc` mode, when
 * `kernel_ends` of them have arrived since the last increment (one per CU of the GPU,
 * so the counter moves once per kernel), EPCTR = (EPCTR + 1) mod 2^20 and the
 * kernel_end is forwarded stamped with the new value. On a wrap to 0 the block first
 * sends a reset request to the RDC: an invalidate with dst = src = own GPU, addr 0,
 * len 0, epoch 0 (a home-side invalidate always has dst != own, so the RDC can tell
 * them apart); the RDC clears every line and stalls for size / local bandwidth.
 * Everything else is forwarded unchanged except for the stamp on requests and
 * controls. Ingress (net -> gpu) passes unchanged. Forwarding takes no time.
 *
 * Decisions:
 * - The EPCTR is its own block (as in SPEC.md) and reaches the RDC only through
 *   transactions: the stamp on each request and the reset request on a wrap. A
 *   request stamped before a kernel boundary belongs to the old kernel even if the
 *   RDC looks it up later.
 * - `coherence` none and hwc never increment (hwc keeps lines across kernels; none
 *   is the never-invalidated upper bound), so no wrap occurs there.
 * - Responses and invalidates are not stamped (they are not RDC lookups). */
#include <stddef.h>

#include "kernel/block.h"
#include "kernel/egress.h"

#define EPOCH_BITS 20
#define EPOCH_MASK ((1u << EPOCH_BITS) - 1)

/* Indices of epoch_coherence_choices. */
enum { EPOCH_NONE, EPOCH_SWC, EPOCH_HWC };

typedef struct Epoch {
    Block base;
    int coherence;
    uint64_t initial_epoch;
    uint64_t kernel_ends;

    Port *gpu, *net;
    int own;
    uint32_t epctr;
    uint64_t ends_seen;
    Egress out; /* egress transactions waiting to leave `net`, in order */
    uint64_t *increments, *wraps, *kernel_end_count, *stamped, *value;
} Epoch;

static const char *const epoch_coherence_choices[] = {"none", "swc", "hwc", NULL};

static const ParamDef epoch_params[] = {
    {.key = "coherence",
     .offset = offsetof(Epoch, coherence),
     .type = PT_ENUM,
     .one_value = true,
     .def = "hwc",
     .choices = epoch_coherence_choices,
     .doc = "only swc increments the counter at kernel boundaries; one value for the "
            "platform's rdc, epoch and imst blocks (the loader checks)"},
    {.key = "initial_epoch",
     .offset = offsetof(Epoch, initial_epoch),
     .type = PT_U64,
     .def = "0",
     .max = EPOCH_MASK,
     .doc = "EPCTR value at reset (0 .. 2^20-1)"},
    {.key = "kernel_ends",
     .offset = offsetof(Epoch, kernel_ends),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = 65536,
     .doc = "kernel_end transactions that close one kernel (the GPU's CU count)"},
};

static const PortDef epoch_ports[] = {
    {.name = "gpu",
     .required = true,
     .doc = "crossbar side: remote requests and controls in, answers out"},
    {.name = "net", .required = true, .doc = "RDC side: stamped requests out"},
};

static bool epoch_realize(Block *b, SimError *err)
{
    (void)err;
    Epoch *e = (Epoch *)b;
    e->gpu = block_port(b, "gpu", -1);
    e->net = block_port(b, "net", -1);
    e->own = b->gpu >= 0 ? b->gpu : 0;
    egress_init(&e->out, b, e->net, NULL);
    return true;
}

static void epoch_reset(Block *b)
{
    Epoch *e = (Epoch *)b;
    egress_clear(&e->out);
    e->epctr = (uint32_t)e->initial_epoch;
    e->ends_seen = 0;
}

/* Takes the head of `gpu` into out, stamping it and counting kernel ends. */
static void epoch_take(Epoch *e)
{
    Txn *t = port_take(e->gpu);
    bool request = t->cmd == TXN_READ || t->cmd == TXN_WRITE || t->cmd == TXN_ATOMIC;
    bool control =
        t->cmd == TXN_RELEASE || t->cmd == TXN_KERNEL_BEGIN || t->cmd == TXN_KERNEL_END;
    if (t->cmd == TXN_KERNEL_END) {
        (*e->kernel_end_count)++;
        if (e->coherence == EPOCH_SWC && ++e->ends_seen == e->kernel_ends) {
            e->ends_seen = 0;
            e->epctr = (e->epctr + 1) & EPOCH_MASK;
            (*e->increments)++;
            if (e->epctr == 0) {
                (*e->wraps)++;
                Txn *reset = txn_new(e->base.sim, TXN_INVALIDATE, 0, 0);
                reset->src = (int16_t)e->own;
                reset->dst = (int16_t)e->own;
                egress_add(&e->out, reset, 0);
            }
        }
    }
    if (request) {
        (*e->stamped)++;
    }
    if (request || control) {
        t->epoch = e->epctr;
    }
    egress_add(&e->out, t, 0);
}

static void epoch_egress(Epoch *e)
{
    for (;;) {
        if (!egress_pump(&e->out)) {
            return;
        }
        if (!port_peek(e->gpu)) {
            return;
        }
        epoch_take(e);
    }
}

static void epoch_ingress(Epoch *e)
{
    (void)port_forward(e->net, e->gpu);
}

static void epoch_on_recv(Block *b, Port *p)
{
    Epoch *e = (Epoch *)b;
    if (p == e->gpu) {
        epoch_egress(e);
    } else {
        epoch_ingress(e);
    }
}

static void epoch_on_free(Block *b, Port *p)
{
    Epoch *e = (Epoch *)b;
    if (p == e->net) {
        epoch_egress(e);
    } else {
        epoch_ingress(e);
    }
}

static void epoch_stats(Block *b)
{
    Epoch *e = (Epoch *)b;
    *e->value = e->epctr;
}

static void epoch_finalize(Block *b)
{
    egress_destroy(&((Epoch *)b)->out);
}

static void epoch_cost(Block *b, CostReport *r)
{
    cost_add_storage(r, b->name, "epctr", 1, EPOCH_BITS,
                     "20-bit epoch counter register (one kernel stream)");
}

static const StatDef epoch_stat_defs[] = {
    STAT(Epoch, increments, "increments", STAT_COUNTER, "", "EPCTR increments"),
    STAT(Epoch, wraps, "wraps", STAT_COUNTER, "", "wraps to 0 (each resets the RDC)"),
    STAT(Epoch, kernel_end_count, "kernel_ends", STAT_COUNTER, "",
         "kernel_end transactions seen"),
    STAT(Epoch, stamped, "stamped", STAT_COUNTER, "", "requests stamped with the epoch"),
    STAT(Epoch, value, "epctr", STAT_GAUGE, "", "EPCTR value at the end"),
};

const BlockType epoch_type = {
    .name = "epoch",
    .doc = "CARVE epoch counter (20-bit EPCTR): stamps RDC lookups, resets on wrap",
    .size = sizeof(Epoch),
    .params = epoch_params,
    .nparams = sizeof epoch_params / sizeof epoch_params[0],
    .ports = epoch_ports,
    .nports = sizeof epoch_ports / sizeof epoch_ports[0],
    .stat_defs = epoch_stat_defs,
    .nstat_defs = sizeof epoch_stat_defs / sizeof epoch_stat_defs[0],
    .realize = epoch_realize,
    .reset = epoch_reset,
    .on_recv = epoch_on_recv,
    .on_free = epoch_on_free,
    .stats = epoch_stats,
    .finalize = epoch_finalize,
    .cost = epoch_cost,
};
