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
 * - Backpressure: responses wait in an internal queue until their time; if the port
 *   refuses one, the memory stops taking requests until on_free, then sends the
 *   waiting responses (late) in order before taking requests again. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw/lib/amo.h"
#include "hw/lib/fill.h"
#include "hw/lib/sparse.h"
#include "hw/lib/wire.h"
#include "kernel/block.h"
#include "kernel/event.h"

typedef struct MemPending {
    Txn *resp;
    SimTime ready;
} MemPending;

typedef struct Memory {
    Block base;
    int fill;
    SimTime latency;
    uint64_t bandwidth;

    Port *in;
    SparseStore *store;
    uint64_t lo, hi; /* served range [lo, hi) */
    SimTime busy_until;
    bool blocked;
    MemPending *q; /* ring of responses waiting for their time */
    size_t qcap, qhead, qcount;
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
    m->store = sparse_new((FillKind)m->fill);
    if (!m->store) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    sim_event_init(&m->ev, b->sim, SIM_PRIO_DEFAULT, mem_wake, m, NULL);
    m->reads = block_counter(b, "reads", "read requests served");
    m->writes = block_counter(b, "writes", "write requests served (posted or not)");
    m->atomics = block_counter(b, "atomics", "fetch-and-add atomics served");
    m->bytes_read = block_counter(b, "bytes_read", "bytes returned by reads and atomics");
    m->bytes_written = block_counter(b, "bytes_written",
                                     "bytes written (enabled bytes of writes, atomics)");
    m->out_of_range = block_counter(b, "out_of_range",
                                    "accesses outside this GPU's range (address_error)");
    m->posted_addr_errors =
        block_counter(b, "posted_addr_errors",
                      "model error: posted writes outside the range (unanswerable)");
    m->cmd_errors = block_counter(b, "cmd_errors",
                                  "model error: commands a memory cannot serve, and "
                                  "malformed atomics");
    m->controls = block_counter(b, "controls", "release/kernel_begin/kernel_end taken");
    m->busy_ps = block_counter(b, "busy_ps", "time the access pipe was busy (ps)");
    m->pages = block_counter(b, "pages", "sparse store pages allocated at the end");
    return true;
}

static void mem_reset(Block *b)
{
    Memory *m = (Memory *)b;
    sparse_clear(m->store);
    m->busy_until = 0;
    m->blocked = false;
}

static void mem_push(Memory *m, Txn *resp, SimTime ready)
{
    if (m->qcount == m->qcap) {
        size_t cap = m->qcap ? 2 * m->qcap : 16;
        MemPending *q = malloc(cap * sizeof *q);
        if (!q) {
            fprintf(stderr, "mgtlm: %s: out of host memory\n", m->base.name);
            abort();
        }
        for (size_t i = 0; i < m->qcount; i++) {
            q[i] = m->q[(m->qhead + i) % m->qcap];
        }
        free(m->q);
        m->q = q;
        m->qcap = cap;
        m->qhead = 0;
    }
    m->q[(m->qhead + m->qcount) % m->qcap] = (MemPending){resp, ready};
    m->qcount++;
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
        service = wire_ser_time(t->len, m->bandwidth, 1, 1);
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
        mem_push(m, resp, m->busy_until + m->latency);
    }
    txn_unref(t);
}

static void mem_pump(Memory *m)
{
    SimTime now = sim_now(m->base.sim);
    for (;;) {
        while (m->qcount > 0 && m->q[m->qhead].ready <= now) {
            if (!port_send(m->in, m->q[m->qhead].resp)) {
                m->blocked = true;
                return;
            }
            m->qhead = (m->qhead + 1) % m->qcap;
            m->qcount--;
        }
        m->blocked = false;
        if (m->busy_until > now || !port_peek(m->in)) {
            break;
        }
        mem_serve(m, port_take(m->in), now);
    }
    SimTime wake = SIM_TIME_MAX;
    if (m->qcount > 0) {
        wake = m->q[m->qhead].ready;
    }
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
    for (size_t i = 0; i < m->qcount; i++) {
        txn_unref(m->q[(m->qhead + i) % m->qcap].resp);
    }
    free(m->q);
    m->q = NULL;
    m->qcount = 0;
    sparse_free(m->store);
    m->store = NULL;
}

const BlockType memory_type = {
    .name = "memory",
    .doc = "one GPU's DRAM: sparse functional data, serialised access pipe, latency",
    .size = sizeof(Memory),
    .params = mem_params,
    .nparams = sizeof mem_params / sizeof mem_params[0],
    .ports = mem_ports,
    .nports = sizeof mem_ports / sizeof mem_ports[0],
    .realize = mem_realize,
    .reset = mem_reset,
    .on_recv = mem_on_recv,
    .on_free = mem_on_free,
    .stats = mem_stats,
    .finalize = mem_finalize,
};
