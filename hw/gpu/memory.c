/* memory: one GPU's DRAM as a functional, timed target (SPEC.md section 0: "The memory
 * block keeps functional data (sparse), so data can be checked end to end").
 *
 * Modelled: the content of every byte (sparse store, pages allocated on first write;
 * untouched bytes read as the `fill` pattern, fill.h), reads, writes honouring byte
 * enables, atomics, a single serialised access pipe with a bandwidth and a fixed
 * latency, address checks against this GPU's range, and backpressure.
 * Not modelled: banks, rows, refresh, read/write turnaround, ECC, address
 * interleaving across channels.
 *
 * Timing (exact, hand-derivable): the memory takes the request at the head of its
 * input buffer only when it is idle (now >= busy_until) and not blocked. A request of
 * len bytes taken at time T occupies the pipe for
 *     service = ceil(len * 10^12 / bandwidth) ps,
 * so busy_until = T + service, and its response leaves the port at
 *     T + service + latency
 * (plus the wire latency to the peer). Since T = max(arrival, previous busy_until),
 * the response of a request arriving at A is sent at
 * max(A, busy_until) + service + latency.
 *
 * Decisions:
 * - Range: a memory inside GPU g serves [g*M, (g+1)*M), M = platform mem_bytes; one
 *   outside any GPU (gpu -1) serves [0, M). An access not wholly inside the range
 *   occupies no pipe time and is answered after `latency` with status address_error
 *   (counted in out_of_range). A posted write out of range cannot be answered: it is
 *   counted in out_of_range and in the model-error counter posted_addr_errors.
 * - Atomic = fetch-and-add, the rule of hw/lib/amo.h: len must be 4 or 8; data holds
 *   the addend as a little-endian integer; memory stores old + addend (wrapping) and
 *   the response carries the old bytes. Any other length or a missing operand is
 *   answered with status command_error (counted in cmd_errors) and, like an address
 *   error, occupies no pipe time. A good atomic occupies the pipe for len bytes once.
 * - A write without data (data == NULL) writes zeros to its enabled bytes.
 * - Reads ignore byte enables and return all len bytes.
 * - release, kernel_begin and kernel_end are taken in order, occupy no pipe time and
 *   are not answered (counted in controls): the memory is the end of the path and
 *   serves in order, so a fence needs no action here.
 * - invalidate and resp cannot be served by a memory: counted in the model-error
 *   counter cmd_errors and released (they expect no response).
 * - Backpressure: responses wait in an egress queue until their time; if the port
 *   refuses one, the memory stops taking requests until on_free, then sends the
 *   waiting responses (late) in order before taking requests again. */
#include <stddef.h>

#include "hw/lib/amo.h"
#include "hw/lib/fill.h"
#include "hw/lib/sparse.h"
#include "hw/lib/wire.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/event.h"

typedef struct Memory {
    Block base;
    int fill;
    SimTime latency;
    uint64_t bandwidth;

    Port *in;
    SparseStore *store;
    uint64_t lo, hi; /* served range [lo, hi) */
    SimTime busy_until;
    WireRate rate; /* the access pipe's service time per length */
    Egress out;    /* responses waiting for their time (woken by ev) */
    SimEvent ev;

    uint64_t *reads, *writes, *atomics, *bytes_read, *bytes_written;
    uint64_t *out_of_range, *posted_addr_errors, *cmd_errors, *controls, *busy_ps;
    uint64_t *pages;
} Memory;

static const char *const mem_fill_choices[] = FILL_CHOICES;

static const ParamDef mem_params[] = {
    {.key = "fill",
     .offset = offsetof(Memory, fill),
     .type = PT_ENUM,
     .def = "hash",
     .choices = mem_fill_choices,
     .doc = "initial content: zero, or hash (byte at a = low 8 bits of a fixed mix of "
            "a; must match the cu's fill)"},
    {.key = "latency",
     .offset = offsetof(Memory, latency),
     .type = PT_TIME,
     .def = "100ns",
     .doc = "fixed latency from the end of an access to its response"},
    {.key = "bandwidth",
     .offset = offsetof(Memory, bandwidth),
     .type = PT_BW,
     .def = "1TB/s",
     .min = 1,
     .doc = "access pipe bandwidth: an access of len bytes occupies "
            "ceil(len*1e12/bandwidth) ps"},
};

static const PortDef mem_ports[] = {
    {.name = "in",
     .required = true,
     .doc = "requests in, responses out (one access pipe, in order)"},
};

static void mem_wake(void *subject, void *obj);

static bool mem_realize(Block *b, SimError *err)
{
    Memory *m = (Memory *)b;
    m->in = block_port(b, "in", -1);
    uint64_t size = b->plat->mem_bytes;
    m->lo = b->gpu >= 0 ? (uint64_t)b->gpu * size : 0;
    m->hi = m->lo + size;
    wire_rate_init(&m->rate, m->bandwidth, 1, 1);
    m->store = sparse_new((FillKind)m->fill);
    if (!m->store) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    sim_event_init(&m->ev, b->sim, SIM_PRIO_DEFAULT, mem_wake, m, NULL);
    egress_init(&m->out, b, m->in, &(EgressOpts){.external_wake = true});
    return true;
}

static void mem_reset(Block *b)
{
    Memory *m = (Memory *)b;
    sparse_clear(m->store);
    m->busy_until = 0;
}

static bool mem_in_range(const Memory *m, const Txn *t)
{
    return t->addr >= m->lo && t->addr <= m->hi && t->len <= m->hi - t->addr;
}

/* Applies a fetch-and-add; false if the atomic is malformed. */
static bool mem_atomic(Memory *m, const Txn *t, Txn *resp)
{
    if (!amo_len_ok(t->len) || !t->data) {
        return false;
    }
    uint8_t old[AMO_MAX_LEN], sum[AMO_MAX_LEN];
    sparse_read(m->store, t->addr, old, t->len);
    amo_result(old, t->data, t->len, sum);
    sparse_write(m->store, t->addr, sum, NULL, t->len);
    txn_set_data(resp, old);
    return true;
}

/* Serves request t taken at now: applies it, occupies the pipe, queues the
 * response. Consumes t. */
static void mem_serve(Memory *m, Txn *t, SimTime now)
{
    SimTime service = 0;
    Txn *resp = txn_needs_response(t) ? txn_new_response(m->base.sim, t) : NULL;
    switch (t->cmd) {
    case TXN_READ:
    case TXN_WRITE:
    case TXN_ATOMIC:
        if (!mem_in_range(m, t)) {
            (*m->out_of_range)++;
            if (resp) {
                resp->status = TXN_STATUS_ADDRESS_ERROR;
            } else {
                (*m->posted_addr_errors)++;
            }
            break;
        }
        if (t->cmd == TXN_READ) {
            sparse_read(m->store, t->addr, txn_set_data(resp, NULL), t->len);
            (*m->reads)++;
            *m->bytes_read += t->len;
        } else if (t->cmd == TXN_WRITE) {
            sparse_write(m->store, t->addr, t->data, t->be, t->len);
            uint64_t n = t->len;
            if (t->be) {
                n = 0;
                for (uint32_t i = 0; i < t->len; i++) {
                    n += t->be[i] != 0;
                }
            }
            (*m->writes)++;
            *m->bytes_written += n;
        } else if (mem_atomic(m, t, resp)) {
            (*m->atomics)++;
            *m->bytes_read += t->len;
            *m->bytes_written += t->len;
        } else {
            (*m->cmd_errors)++;
            resp->status = TXN_STATUS_COMMAND_ERROR;
            break;
        }
        service = wire_rate_ser(&m->rate, t->len);
        break;
    case TXN_RELEASE:
    case TXN_KERNEL_BEGIN:
    case TXN_KERNEL_END:
        (*m->controls)++;
        break;
    default:
        (*m->cmd_errors)++;
        break;
    }
    m->busy_until = now + service;
    *m->busy_ps += service;
    if (resp) {
        egress_add(&m->out, resp, m->busy_until + m->latency);
    }
    txn_unref(t);
}

static void mem_pump(Memory *m)
{
    SimTime now = sim_now(m->base.sim);
    for (;;) {
        if (!egress_pump(&m->out)) {
            return;
        }
        if (m->busy_until > now || !port_peek(m->in)) {
            break;
        }
        mem_serve(m, port_take(m->in), now);
    }
    SimTime wake = egress_next(&m->out);
    if (port_peek(m->in) && m->busy_until < wake) {
        wake = m->busy_until;
    }
    if (wake != SIM_TIME_MAX) {
        sim_event_notify_at(&m->ev, wake);
    }
}

static void mem_wake(void *subject, void *obj)
{
    (void)obj;
    mem_pump(subject);
}

static void mem_on_recv(Block *b, Port *p)
{
    (void)p;
    mem_pump((Memory *)b);
}

static void mem_on_free(Block *b, Port *p)
{
    (void)p;
    mem_pump((Memory *)b);
}

static void mem_stats(Block *b)
{
    Memory *m = (Memory *)b;
    *m->pages = sparse_pages(m->store);
}

static void mem_finalize(Block *b)
{
    Memory *m = (Memory *)b;
    egress_destroy(&m->out);
    sparse_free(m->store);
    m->store = NULL;
}

static const StatDef memory_stat_defs[] = {
    STAT(Memory, reads, "reads", STAT_COUNTER, "", "read requests served"),
    STAT(Memory, writes, "writes", STAT_COUNTER, "",
         "write requests served (posted or not)"),
    STAT(Memory, atomics, "atomics", STAT_COUNTER, "", "fetch-and-add atomics served"),
    STAT(Memory, bytes_read, "bytes_read", STAT_COUNTER, "B",
         "bytes returned by reads and atomics"),
    STAT(Memory, bytes_written, "bytes_written", STAT_COUNTER, "B",
         "bytes written (enabled bytes of writes, atomics)"),
    STAT(Memory, out_of_range, "out_of_range", STAT_COUNTER, "",
         "accesses outside this GPU's range (address_error)"),
    STAT(Memory, posted_addr_errors, "posted_addr_errors", STAT_COUNTER, "",
         "model error: posted writes outside the range (unanswerable)", .is_error = true),
    STAT(Memory, cmd_errors, "cmd_errors", STAT_COUNTER, "",
         "model error: commands a memory cannot serve, and malformed atomics",
         .is_error = true),
    STAT(Memory, controls, "controls", STAT_COUNTER, "",
         "release/kernel_begin/kernel_end taken"),
    STAT(Memory, busy_ps, "busy_ps", STAT_TIME, "ps",
         "time the access pipe was busy (ps)"),
    STAT(Memory, pages, "pages", STAT_GAUGE, "",
         "sparse store pages allocated at the end"),
};

const BlockType memory_type = {
    .name = "memory",
    .doc = "one GPU's DRAM: sparse functional data, serialised access pipe, latency",
    .size = sizeof(Memory),
    .params = mem_params,
    .nparams = sizeof mem_params / sizeof mem_params[0],
    .ports = mem_ports,
    .nports = sizeof mem_ports / sizeof mem_ports[0],
    .stat_defs = memory_stat_defs,
    .nstat_defs = sizeof memory_stat_defs / sizeof memory_stat_defs[0],
    .realize = mem_realize,
    .reset = mem_reset,
    .on_recv = mem_on_recv,
    .on_free = mem_on_free,
    .stats = mem_stats,
    .finalize = mem_finalize,
};
