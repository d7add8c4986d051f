/* bgu: the DualOpt bitmask generation unit at a CU's wavefront coalescer (paper 000
 * section 4.1, SPEC.md 1.1).
 *
 * Modelled: a read or write from the CU, either a wavefront (a thread list, Txn
 * `threads`) or a plain request (one thread [addr, addr + len)), becomes one request
 * per distinct line in order of first appearance (bgu_lines), each line-aligned with
 * len = line and the 16-bit word mask in `mask`, parent = the CU's request. Line
 * writes carry the threads' bytes with byte enables. Line requests leave `latency`
 * after the CU's request was taken, in order. When every line of a request that
 * needs a response has been answered, the CU gets one response (same id) whose data
 * are the threads' bytes in thread order (a plain read: its bytes).
 * Not modelled: the OR/divider logic timing beyond `latency`, scalar caches.
 *
 * Decisions:
 * - The mask is generated in every mode; whether a transfer is fine-grained is
 *   decided at the SCBU (l1): only bypassed remote reads travel fine-grained,
 *   because a line that fills a cache needs all its words (SPEC 1.1, baseline mode).
 * - A wavefront's len must equal the sum of its thread sizes; otherwise the request
 *   is answered with command_error (counted in bad_requests) and nothing is sent.
 * - Atomics, invalidates, control commands and uncached reads (the sm's flush reads,
 *   which no cache may answer) pass through unchanged; so do responses the BGU did
 *   not split (answers to atomics and uncached reads).
 * - The response status is the first non-ok status among the line responses.
 * - At most `wavefronts` split requests wait for responses; further CU requests wait
 *   in the port buffer (backpressure), as they do while 64 line requests are queued. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hw/dualopt/bgu.h"
#include "kernel/bits.h"
#include "kernel/block.h"
#include "kernel/egress.h"
#include "kernel/idmap.h"
#include "kernel/xalloc.h"

#define BGU_QUEUE_LIMIT 64

typedef struct BguWave {
    Txn *orig; /* owned reference, NULL = free slot */
    uint32_t left;
    TxnStatus status;
    uint8_t *buf; /* orig->len bytes for reads, owned */
} BguWave;

typedef struct Bgu {
    Block base;
    uint64_t line;
    SimTime latency;
    uint64_t wavefronts;
    Port *cu, *l1;
    Egress down, up;
    BguWave *waves;
    IdMap ids; /* line request id -> wave index */
    BguLines lines;
    uint64_t *requests, *line_reads, *line_writes, *words, *passed, *bad, *unbound;
} Bgu;

static const ParamDef bgu_params[] = {
    {.key = "line",
     .offset = offsetof(Bgu, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 4,
     .max = 128,
     .doc = "line size (power of two; one mask bit per 4-byte word)"},
    {.key = "latency",
     .offset = offsetof(Bgu, latency),
     .type = PT_TIME,
     .def = "1cycles",
     .doc = "mask generation latency of each request"},
    {.key = "wavefronts",
     .offset = offsetof(Bgu, wavefronts),
     .type = PT_U64,
     .def = "64",
     .min = 1,
     .max = 4096,
     .doc = "split requests waiting for their line responses at most"},
};

static const PortDef bgu_ports[] = {
    {.name = "cu",
     .required = true,
     .doc = "from the CU: requests in, responses out",
     .wavefronts = true},
    {.name = "l1", .required = true, .doc = "to the L1: line requests out, responses in"},
};

static bool bgu_splits(const Txn *t)
{
    return (t->cmd == TXN_READ || t->cmd == TXN_WRITE) && !t->uncached;
}

static int bgu_free_wave(const Bgu *g)
{
    for (uint64_t i = 0; i < g->wavefronts; i++) {
        if (!g->waves[i].orig) {
            return (int)i;
        }
    }
    return -1;
}

/* Copies the bytes of the threads that fall into line `base` between the request
 * buffer `flat` (threads concatenated) and the line buffer `ln`. */
static void bgu_map(const Txn *orig, const TxnThread *th, size_t n, uint64_t base,
                    uint64_t line, uint8_t *flat, uint8_t *ln, uint8_t *be, bool to_line)
{
    uint32_t off = 0;
    for (size_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < th[i].size; j++) {
            uint64_t a = th[i].addr + j;
            if (a >= base && a < base + line) {
                if (!to_line) {
                    flat[off + j] = ln[a - base];
                } else if (!orig->be || orig->be[off + j]) {
                    ln[a - base] = flat[off + j];
                    be[a - base] = 0xff;
                }
            }
        }
        off += th[i].size;
    }
}

static void bgu_answer(Bgu *g, Txn *orig, TxnStatus status, const uint8_t *data)
{
    Txn *r = txn_new_response(g->base.sim, orig);
    r->status = status;
    if (data) {
        txn_set_data(r, data);
    }
    egress_push(&g->up, r, 0);
}

/* Takes orig, the head of the cu port, and splits it into line requests (a wave
 * slot must be free if it needs a response). */
static void bgu_split(Bgu *g, Txn *orig)
{
    TxnThread one = {orig->addr, orig->len};
    const TxnThread *th = orig->nthreads ? orig->threads : &one;
    size_t n = orig->nthreads ? orig->nthreads : 1;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += th[i].size;
    }
    bool answered = txn_needs_response(orig);
    (void)port_take(g->cu);
    if (sum != orig->len || (orig->cmd == TXN_WRITE && !orig->data)) {
        (*g->bad)++;
        if (answered) {
            bgu_answer(g, orig, TXN_STATUS_COMMAND_ERROR, NULL);
        }
        txn_unref(orig);
        return;
    }
    int w = answered ? bgu_free_wave(g) : -1;
    bgu_lines(&g->lines, g->line, th, n);
    (*g->requests)++;
    for (size_t k = 0; k < g->lines.n; k++) {
        const BguLine *ln = &g->lines.v[k];
        Txn *t = txn_new(g->base.sim, orig->cmd, ln->addr, (uint32_t)g->line);
        t->src = orig->src;
        t->dst = (int16_t)block_home(&g->base, ln->addr);
        t->unit = orig->unit;
        t->posted = orig->posted;
        t->mask = ln->mask;
        txn_set_parents(t, &orig->id, 1);
        if (orig->cmd == TXN_WRITE) {
            uint8_t *d = txn_set_data(t, NULL);
            uint8_t *be = txn_alloc_be(t);
            bgu_map(orig, th, n, ln->addr, g->line, orig->data, d, be, true);
            (*g->line_writes)++;
        } else {
            (*g->line_reads)++;
        }
        *g->words += (uint64_t)bits_popcount32(ln->mask);
        if (w >= 0) {
            idmap_insert(&g->ids, t->id, (uint64_t)w);
        }
        egress_push(&g->down, t, g->latency);
    }
    if (w < 0) {
        txn_unref(orig);
        return;
    }
    BguWave *wv = &g->waves[w];
    wv->orig = orig;
    wv->left = (uint32_t)g->lines.n;
    wv->status = TXN_STATUS_OK;
    free(wv->buf);
    wv->buf = orig->cmd == TXN_READ ? xcalloc(orig->len, 1) : NULL;
}

/* Takes CU requests while there is room (again after a queue drained or a wave
 * finished). */
static void bgu_pump_in(Bgu *g)
{
    Txn *t;
    while ((t = port_peek(g->cu)) != NULL && egress_len(&g->down) < BGU_QUEUE_LIMIT) {
        if (!bgu_splits(t)) {
            (*g->passed)++;
            egress_push(&g->down, port_take(g->cu), g->latency);
            continue;
        }
        if (txn_needs_response(t) && bgu_free_wave(g) < 0) {
            break;
        }
        bgu_split(g, t);
    }
}

static void bgu_line_done(Bgu *g, Txn *r, uint64_t w)
{
    BguWave *wv = &g->waves[w];
    Txn *orig = wv->orig;
    if (r->status != TXN_STATUS_OK && wv->status == TXN_STATUS_OK) {
        wv->status = r->status;
    }
    if (wv->buf && r->data && r->len == g->line) {
        TxnThread one = {orig->addr, orig->len};
        const TxnThread *th = orig->nthreads ? orig->threads : &one;
        size_t n = orig->nthreads ? orig->nthreads : 1;
        bgu_map(orig, th, n, r->addr, g->line, wv->buf, r->data, NULL, false);
    }
    if (--wv->left > 0) {
        return;
    }
    bgu_answer(g, orig, wv->status, wv->buf);
    txn_unref(orig);
    wv->orig = NULL;
    free(wv->buf);
    wv->buf = NULL;
    bgu_pump_in(g);
}

static void bgu_from_l1(Bgu *g)
{
    Txn *t;
    while ((t = port_take(g->l1)) != NULL) {
        uint64_t w;
        if (t->cmd == TXN_RESP && idmap_remove(&g->ids, t->id, &w)) {
            bgu_line_done(g, t, w);
            txn_unref(t);
        } else {
            egress_push(&g->up, t, 0);
        }
    }
}

static void bgu_drained(Block *b)
{
    bgu_pump_in((Bgu *)b);
}

static bool bgu_realize(Block *b, SimError *err)
{
    Bgu *g = (Bgu *)b;
    if (!bits_is_pow2(g->line)) {
        return sim_error_set(err, "%s: line %llu is not a power of two", b->name,
                             (unsigned long long)g->line);
    }
    g->cu = block_port(b, "cu", -1);
    g->l1 = block_port(b, "l1", -1);
    g->waves = calloc(g->wavefronts, sizeof *g->waves);
    if (!g->waves) {
        return sim_error_set(err, "%s: out of memory", b->name);
    }
    idmap_init(&g->ids);
    EgressOpts opt = {.drained = bgu_drained, .unbound = g->unbound};
    egress_init(&g->down, b, g->l1, &opt);
    egress_init(&g->up, b, g->cu, &opt);
    return true;
}

static void bgu_on_recv(Block *b, Port *p)
{
    Bgu *g = (Bgu *)b;
    if (p == g->cu) {
        bgu_pump_in(g);
    } else {
        bgu_from_l1(g);
    }
}

static void bgu_on_free(Block *b, Port *p)
{
    Bgu *g = (Bgu *)b;
    (void)egress_pump(p == g->cu ? &g->up : &g->down);
}

static void bgu_finalize(Block *b)
{
    Bgu *g = (Bgu *)b;
    for (uint64_t i = 0; g->waves && i < g->wavefronts; i++) {
        if (g->waves[i].orig) {
            txn_unref(g->waves[i].orig);
        }
        free(g->waves[i].buf);
    }
    free(g->waves);
    g->waves = NULL;
    idmap_destroy(&g->ids);
    bgu_lines_free(&g->lines);
    egress_destroy(&g->down);
    egress_destroy(&g->up);
}

static const StatDef bgu_stat_defs[] = {
    STAT(Bgu, requests, "requests", STAT_COUNTER, "",
         "reads and writes split into lines"),
    STAT(Bgu, line_reads, "line_reads", STAT_COUNTER, "", "line read requests sent"),
    STAT(Bgu, line_writes, "line_writes", STAT_COUNTER, "", "line write requests sent"),
    STAT(Bgu, words, "words", STAT_COUNTER, "", "mask bits set over all line requests"),
    STAT(Bgu, passed, "passed", STAT_COUNTER, "",
         "atomics, invalidates and controls passed on"),
    STAT(Bgu, bad, "bad_requests", STAT_COUNTER, "",
         "wavefronts whose len differs from their thread bytes"),
    STAT(Bgu, unbound, "unbound_errors", STAT_COUNTER, "",
         "model error: sends to no peer", .is_error = true),
};

const BlockType bgu_type = {
    .name = "bgu",
    .doc = "DualOpt BGU: wavefront -> one request per line with a 16-bit word mask",
    .size = sizeof(Bgu),
    .params = bgu_params,
    .nparams = sizeof bgu_params / sizeof bgu_params[0],
    .ports = bgu_ports,
    .nports = sizeof bgu_ports / sizeof bgu_ports[0],
    .stat_defs = bgu_stat_defs,
    .nstat_defs = sizeof bgu_stat_defs / sizeof bgu_stat_defs[0],
    .realize = bgu_realize,
    .on_recv = bgu_on_recv,
    .on_free = bgu_on_free,
    .finalize = bgu_finalize,
};
