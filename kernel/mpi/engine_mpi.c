/* MPI ranks for the partitioned engine (see engine_mpi.h): the window loop of one
 * rank and the exchange that replaces the threads' barrier.
 *
 * Decisions:
 * - The window loop is engine.c's with one thread per rank: W, the window end and the
 *   stop rule are computed from the same values (the earliest next time of every
 *   partition, its minimum over the ranks; a stop or the watched flag of any), so the
 *   window sequence is the threaded engine's.
 * - One exchange per window, one message from each rank to each other rank
 *   (MPI_Isend; received in rank order after MPI_Probe gives its size): its next time
 *   and stop flag, then its groups for the receiver's partitions. Every rank hears
 *   every other's next time and stop, so no reduction is needed. History: an
 *   MPI_Alltoall of sizes then an MPI_Alltoallv of the messages, two collective rounds
 *   per window, was 12 to 16 % slower on 4 ranks (docs/performance.md "MPI ranks").
 *   The sender writes, per destination rank, groups (source s, destination d, message
 *   count) ordered by d then s, and each message as arrival time, port index, kind
 *   and, for a transaction, its encoding (txn_wire.h). The receiver delivers to each
 *   of its partitions d the groups of s = 0, 1, ... in order, taking a local s from
 *   its outbox and a remote one from the next group of s's rank: the threads'
 *   sending-partition order, hence the same event order.
 * - Placement: partitions are dealt to ranks by a load known before the run
 *   (mpi_place), not p % R, which gave the fabric's rank of gpu16 on 4 ranks the
 *   fabric and 4 GPUs where the deal gives it 3 (the fabric's partition weighs 1.5 to
 *   3 GPUs; the two ran within noise of each other on a 16-core machine,
 *   docs/performance.md "MPI ranks"). Threads balance by measured events instead,
 *   since a partition can move between threads but not between ranks.
 * - Ports travel by their index in the platform (blocks in description order, each
 *   block's ports in order), the same on every rank, which built the same platform;
 *   a sorted table of port addresses gives a port's index.
 * - A received transaction is decoded into the receiving partition's pool and
 *   delivered through port_cut_deliver, which moves it, as it moves a transaction
 *   from a partition of the same rank (no copy).
 * - With a single rank's buffers sent at each window end, a window's outboxes are
 *   released right after the exchange (no double buffering is needed). */
#include "engine_mpi.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/block.h"
#include "kernel/engine_priv.h"
#include "kernel/trace/trace_defer.h"
#include "kernel/txn_wire.h"
#include "kernel/xalloc.h"

/* The tag of the window-end messages between ranks. */
enum { MPI_TAG_WINDOW = 1 };

typedef struct MpiPortRef {
    const Port *port;
    uint32_t index;
} MpiPortRef;

struct EngineMpi {
    Engine *e;
    Platform *p; /* borrowed */
    const TxnCmdDecl *const *decls;
    int rank, ranks;
    Port **port_at;     /* index -> port (owned array) */
    MpiPortRef *sorted; /* by address */
    size_t nports;
    int32_t *stat_part; /* partition of each statistic's block (0 if none) */
    TxnWireBuf out;
    int *scount, *sdispl, *rcount, *rdispl; /* ranks each */
    uint8_t *in;
    size_t incap;
    size_t *cursor;   /* ranks: read position in in */
    MPI_Request *req; /* ranks: the window-end sends */
    uint64_t nrec;    /* records packed for the partition being drained */
    char **evs;       /* rank 0: the log event names received (owned) */
    size_t nevs, evcap;
};

static int mpi_port_cmp(const void *a, const void *b)
{
    const MpiPortRef *x = a, *y = b;
    return x->port < y->port ? -1 : x->port > y->port;
}

static uint32_t mpi_port_index(const EngineMpi *m, const Port *port)
{
    MpiPortRef key = {port, 0};
    const MpiPortRef *r = bsearch(&key, m->sorted, m->nports, sizeof key, mpi_port_cmp);
    return r->index;
}

/* The partition of the block that registered statistic name, 0 if none does. */
static int32_t mpi_stat_part(const Platform *p, const char *name)
{
    char buf[512];
    size_t len = strlen(name);
    for (size_t i = len; i > 0; i--) {
        if (name[i - 1] != '.' || i - 1 >= sizeof buf) {
            continue;
        }
        memcpy(buf, name, i - 1);
        buf[i - 1] = '\0';
        Block *b = platform_block(p, buf);
        if (b) {
            return (int32_t)engine_part_of(p->engine, b->sim);
        }
    }
    return 0;
}

/* Deals the partitions to the ranks (rank_of, n): longest processing time first, by a
 * load known before the run and the same on every rank, each partition's blocks plus
 * its ports on cut wires (on gpu16, 9 for a GPU and 17 for the fabric, whose switch
 * meets every GPU's link); heaviest first (ties by index), each to the rank with the
 * least so far (ties by rank). */
static void mpi_place(const Platform *p, uint32_t *rank_of, uint32_t ranks)
{
    uint32_t n = engine_parts(p->engine);
    uint64_t *weight = xcalloc(n, sizeof *weight);
    uint64_t *load = xcalloc(ranks, sizeof *load);
    uint32_t *order = xcalloc(n, sizeof *order);
    for (size_t i = 0; i < p->nblocks; i++) {
        const Block *b = p->blocks[i];
        uint64_t w = 1;
        for (size_t j = 0; j < b->nports; j++) {
            w += b->ports[j].cut != NULL;
        }
        weight[engine_part_of(p->engine, b->sim)] += w;
    }
    engine_order(order, n, weight);
    engine_deal(order, n, weight, ranks, load, rank_of);
    free(weight);
    free(load);
    free(order);
}

EngineMpi *engine_mpi_new(Platform *p, const TxnCmdDecl *const *decls)
{
    EngineMpi *m = xcalloc(1, sizeof *m);
    m->e = p->engine;
    m->p = p;
    m->decls = decls;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->ranks);
    for (size_t i = 0; i < p->nblocks; i++) {
        m->nports += p->blocks[i]->nports;
    }
    m->port_at = xcalloc(m->nports ? m->nports : 1, sizeof *m->port_at);
    m->sorted = xcalloc(m->nports ? m->nports : 1, sizeof *m->sorted);
    size_t k = 0;
    for (size_t i = 0; i < p->nblocks; i++) {
        for (size_t j = 0; j < p->blocks[i]->nports; j++, k++) {
            m->port_at[k] = &p->blocks[i]->ports[j];
            m->sorted[k] = (MpiPortRef){m->port_at[k], (uint32_t)k};
        }
    }
    qsort(m->sorted, m->nports, sizeof *m->sorted, mpi_port_cmp);
    size_t nstats = stats_count(p->stats);
    m->stat_part = xcalloc(nstats ? nstats : 1, sizeof *m->stat_part);
    for (size_t i = 0; i < nstats; i++) {
        m->stat_part[i] = mpi_stat_part(p, stats_at(p->stats, i).name);
    }
    size_t r = (size_t)m->ranks;
    m->scount = xcalloc(r, sizeof *m->scount);
    m->sdispl = xcalloc(r, sizeof *m->sdispl);
    m->rcount = xcalloc(r, sizeof *m->rcount);
    m->rdispl = xcalloc(r, sizeof *m->rdispl);
    m->cursor = xcalloc(r, sizeof *m->cursor);
    m->req = xcalloc(r, sizeof *m->req);
    Engine *e = m->e;
    e->rank = (uint32_t)m->rank;
    e->ranks = (uint32_t)m->ranks;
    e->rank_of = xcalloc(e->n, sizeof *e->rank_of);
    mpi_place(p, e->rank_of, (uint32_t)m->ranks);
    e->far_now = xcalloc(e->n, sizeof *e->far_now);
    e->far_events = xcalloc(e->n, sizeof *e->far_events);
    e->far_ran = false;
    return m;
}

void engine_mpi_free(EngineMpi *m)
{
    if (!m) {
        return;
    }
    free(m->port_at);
    free(m->sorted);
    free(m->stat_part);
    txn_wire_free(&m->out);
    free(m->scount);
    free(m->sdispl);
    free(m->rcount);
    free(m->rdispl);
    free(m->in);
    free(m->cursor);
    free(m->req);
    for (size_t i = 0; i < m->nevs; i++) {
        free(m->evs[i]);
    }
    free(m->evs);
    free(m);
}

int engine_mpi_rank(const EngineMpi *m)
{
    return m->rank;
}

int engine_mpi_owner(const EngineMpi *m, const Sim *sim)
{
    return (int)m->e->rank_of[engine_part_of(m->e, sim)];
}

int engine_mpi_ranks(const EngineMpi *m)
{
    return m->ranks;
}

void engine_mpi_gather_bytes(EngineMpi *m, const void *mine, size_t len, void *all)
{
    (void)m;
    MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int engine_mpi_max(const EngineMpi *m, int v)
{
    (void)m;
    int all;
    MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static bool mpi_local(const EngineMpi *m, uint32_t p)
{
    return m->e->rank_of[p] == (uint32_t)m->rank;
}

/* Serializes the messages of window k from this rank's partitions to rank r's. */
static void mpi_pack(EngineMpi *m, unsigned k, int r)
{
    Engine *e = m->e;
    for (uint32_t d = 0; d < e->n; d++) {
        if (e->rank_of[d] != (uint32_t)r) {
            continue;
        }
        for (uint32_t s = 0; s < e->n; s++) {
            const OutboxBuf *b = &e->box[(size_t)s * e->n + d].buf[k & 1u];
            if (!mpi_local(m, s) || b->n == 0) {
                continue;
            }
            txn_wire_u32(&m->out, s);
            txn_wire_u32(&m->out, d);
            txn_wire_u64(&m->out, b->n);
            for (size_t i = 0; i < b->n; i++) {
                const OutboxMsg *msg = &b->m[i];
                uint8_t kind = msg->t != NULL;
                txn_wire_u64(&m->out, msg->at);
                txn_wire_u32(&m->out, mpi_port_index(m, msg->dst));
                txn_wire_bytes(&m->out, &kind, 1);
                if (msg->t) {
                    txn_wire_put(&m->out, msg->t);
                }
            }
        }
    }
}

/* Sends every rank its messages of window k and receives this rank's; *next and
 * *stop become the earliest next time and the stop flag of all ranks. Each other rank
 * gets one message (MPI_Isend): a header (next time, stop) and the groups for its
 * partitions; each is received once probed for its size, in rank order, and MPI keeps
 * the messages of one pair of ranks in the order sent, so window k's is next. */
static void mpi_exchange(EngineMpi *m, unsigned k, SimTime *next, int *stop)
{
    m->out.n = 0;
    for (int r = 0; r < m->ranks; r++) {
        m->sdispl[r] = (int)m->out.n;
        if (r != m->rank) {
            txn_wire_u64(&m->out, *next);
            txn_wire_u64(&m->out, (uint64_t)*stop);
            mpi_pack(m, k, r);
        }
        m->scount[r] = (int)m->out.n - m->sdispl[r];
    }
    for (int r = 0; r < m->ranks; r++) {
        m->req[r] = MPI_REQUEST_NULL;
        if (r != m->rank) {
            MPI_Isend(m->out.b + m->sdispl[r], m->scount[r], MPI_BYTE, r, MPI_TAG_WINDOW,
                      MPI_COMM_WORLD, &m->req[r]);
        }
    }
    size_t total = 0;
    for (int r = 0; r < m->ranks; r++) {
        m->rdispl[r] = (int)total;
        m->rcount[r] = 0;
        m->cursor[r] = total;
        if (r == m->rank) {
            continue;
        }
        MPI_Status st;
        int n = 0;
        MPI_Probe(r, MPI_TAG_WINDOW, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &n);
        m->in = xgrow(m->in, &m->incap, total + (size_t)n + 1, 1, 4096);
        MPI_Recv(m->in + total, n, MPI_BYTE, r, MPI_TAG_WINDOW, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        uint64_t h[2] = {SIM_TIME_MAX, 0};
        if ((size_t)n >= sizeof h) {
            memcpy(h, m->in + total, sizeof h);
        }
        *next = h[0] < *next ? h[0] : *next;
        *stop = *stop || h[1];
        m->rcount[r] = n;
        m->cursor[r] = total + ((size_t)n >= sizeof h ? sizeof h : (size_t)n);
        total += (size_t)n;
    }
    MPI_Waitall(m->ranks, m->req, MPI_STATUSES_IGNORE);
}

/* Delivers to partition d the group (s, d) that s's rank sent, if it is next. */
static bool mpi_deliver_remote(EngineMpi *m, uint32_t s, uint32_t d, SimError *err)
{
    int r = (int)m->e->rank_of[s];
    size_t end = (size_t)m->rdispl[r] + (size_t)m->rcount[r];
    TxnWireIn in = {m->in, end, m->cursor[r]};
    uint32_t gs, gd;
    uint64_t n;
    if (in.pos == end) {
        return true;
    }
    if (!txn_wire_read(&in, &gs, 4) || !txn_wire_read(&in, &gd, 4) ||
        !txn_wire_read(&in, &n, 8)) {
        return sim_error_set(err, "MPI: truncated message group from rank %d", r);
    }
    if (gs != s || gd != d) {
        return true;
    }
    Sim *sim = m->e->sim[d];
    for (uint64_t i = 0; i < n; i++) {
        OutboxMsg msg = {0};
        uint32_t port;
        uint8_t kind;
        if (!txn_wire_read(&in, &msg.at, 8) || !txn_wire_read(&in, &port, 4) ||
            !txn_wire_read(&in, &kind, 1) || port >= m->nports) {
            return sim_error_set(err, "MPI: bad message from rank %d", r);
        }
        msg.dst = m->port_at[port];
        if (kind && !(msg.t = txn_wire_get(&in, sim, m->decls, err))) {
            return false;
        }
        port_cut_deliver(sim, &msg);
    }
    m->cursor[r] = in.pos;
    return true;
}

/* Schedules in this rank's partitions what was sent to them in window k, in sending-
 * partition order, and releases this rank's outboxes of window k. */
static bool mpi_deliver(EngineMpi *m, unsigned k, SimError *err)
{
    Engine *e = m->e;
    for (uint32_t d = 0; d < e->n; d++) {
        if (!mpi_local(m, d)) {
            continue;
        }
        for (uint32_t s = 0; s < e->n; s++) {
            if (!mpi_local(m, s)) {
                if (!mpi_deliver_remote(m, s, d, err)) {
                    return false;
                }
                continue;
            }
            OutboxBuf *b = &e->box[(size_t)s * e->n + d].buf[k & 1u];
            for (size_t i = 0; i < b->n; i++) {
                port_cut_deliver(e->sim[d], &b->m[i]);
            }
        }
    }
    for (uint32_t s = 0; s < e->n; s++) {
        if (!mpi_local(m, s)) {
            continue;
        }
        for (uint32_t d = 0; d < e->n; d++) {
            outbox_release(&e->box[(size_t)s * e->n + d], k);
        }
    }
    return true;
}

/* The earliest next time (MPI_MIN) and the stop flag (MPI_MAX) of all ranks. */
static void mpi_reduce(SimTime *next, int *stop)
{
    uint64_t n = *next;
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    *next = n;
}

/* Every rank learns the time and events of every partition, and the earliest event
 * pending in any partition once the last window's messages are delivered: what
 * engine_next_time says on one machine (a delivered credit is no event, so it is not
 * pending work; the last window's own next time would count it). */
static void mpi_share_progress(EngineMpi *m)
{
    Engine *e = m->e;
    SimTime next = SIM_TIME_MAX;
    for (uint32_t p = 0; p < e->n; p++) {
        if (mpi_local(m, p)) {
            SimTime t = sim_next_time(e->sim[p]);
            next = t < next ? t : next;
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &next, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    e->far_next = next;
    for (uint32_t p = 0; p < e->n; p++) {
        bool local = mpi_local(m, p);
        e->far_now[p] = local ? sim_now(e->sim[p]) : 0;
        e->far_events[p] = local ? sim_events_executed(e->sim[p]) : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, e->far_now, (int)e->n, MPI_UINT64_T, MPI_MAX,
                  MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, e->far_events, (int)e->n, MPI_UINT64_T, MPI_MAX,
                  MPI_COMM_WORLD);
}

bool engine_mpi_run(EngineMpi *m, SimTime until, EngineTimes *times, SimRunResult *result,
                    SimError *err)
{
    Engine *e = m->e;
    engine_flush(e);
    until = until > SIM_TIME_LIMIT ? SIM_TIME_LIMIT : until;
    SimTime w = engine_next_time(e);
    int stop = *e->watch != 0;
    mpi_reduce(&w, &stop);
    double t = engine_clock(), work = 0, wait = 0;
    uint64_t windows = 0;
    bool ok = true;
    *result = SIM_RUN_STOPPED;
    for (unsigned k = 0; ok && !stop; k++) {
        if (w == SIM_TIME_MAX || w > until) {
            *result = w == SIM_TIME_MAX ? SIM_RUN_IDLE : SIM_RUN_UNTIL;
            break;
        }
        SimTime end = w > SIM_TIME_MAX - e->lookahead ? SIM_TIME_MAX : w + e->lookahead;
        end = end > until ? until + 1 : end;
        w = SIM_TIME_MAX;
        for (uint32_t p = 0; p < e->n; p++) {
            if (!mpi_local(m, p)) {
                continue;
            }
            engine_window(e, p, k, end);
            const EnginePub *pub = &engine_pub(e, k)[p];
            w = pub->next < w ? pub->next : w;
            stop = stop || pub->stop;
        }
        double before = engine_clock();
        work += before - t;
        mpi_exchange(m, k, &w, &stop);
        t = engine_clock();
        wait += t - before;
        windows++;
        ok = mpi_deliver(m, k, err);
    }
    engine_empty(e);
    e->far_ran = true;
    mpi_share_progress(m);
    work += engine_clock() - t;
    if (times) {
        times->work_s += work;
        times->wait_s += wait;
        times->windows += windows;
    }
    return ok;
}

/* Appends statistic i's value: a counter, a real, or a histogram's count, sum, min,
 * max and buckets. */
/* Gathers every rank's m->out on rank 0, in rank order, into m->in: what rank 0 reads
 * (other ranks get an empty input). */
static TxnWireIn mpi_gather_out(EngineMpi *m)
{
    int len = (int)m->out.n;
    MPI_Gather(&len, 1, MPI_INT, m->rcount, 1, MPI_INT, 0, MPI_COMM_WORLD);
    size_t total = 0;
    for (int r = 0; m->rank == 0 && r < m->ranks; r++) {
        m->rdispl[r] = (int)total;
        total += (size_t)m->rcount[r];
    }
    m->in = xgrow(m->in, &m->incap, total ? total : 1, 1, 4096);
    MPI_Gatherv(m->out.b, len, MPI_BYTE, m->in, m->rcount, m->rdispl, MPI_BYTE, 0,
                MPI_COMM_WORLD);
    return (TxnWireIn){m->in, total, 0};
}

static void mpi_stat_put(TxnWireBuf *w, const StatView *v)
{
    switch (v->store) {
    case STAT_STORE_U64:
        txn_wire_u64(w, v->counter);
        break;
    case STAT_STORE_REAL:
        txn_wire_bytes(w, &v->real, sizeof v->real);
        break;
    case STAT_STORE_HIST:
        txn_wire_u64(w, v->hist->count);
        txn_wire_u64(w, v->hist->sum);
        txn_wire_u64(w, v->hist->min);
        txn_wire_u64(w, v->hist->max);
        txn_wire_bytes(w, v->hist->buckets, v->hist->nbuckets * sizeof(uint64_t));
        break;
    case STAT_STORE_PORTS:
        break;
    }
}

/* Reads statistic i's value as mpi_stat_put wrote it into rank 0's registry. */
static bool mpi_stat_get(Stats *s, size_t i, TxnWireIn *in)
{
    StatView v = stats_at(s, i);
    StatHist h;
    bool ok = true;
    switch (v.store) {
    case STAT_STORE_U64:
        ok = txn_wire_read(in, &v.counter, sizeof v.counter);
        break;
    case STAT_STORE_REAL:
        ok = txn_wire_read(in, &v.real, sizeof v.real);
        break;
    case STAT_STORE_HIST:
        h = *v.hist;
        h.buckets = xcalloc(h.nbuckets ? h.nbuckets : 1, sizeof *h.buckets);
        ok = txn_wire_read(in, &h.count, 8) && txn_wire_read(in, &h.sum, 8) &&
             txn_wire_read(in, &h.min, 8) && txn_wire_read(in, &h.max, 8) &&
             txn_wire_read(in, h.buckets, h.nbuckets * sizeof *h.buckets);
        v.hist = &h;
        break;
    case STAT_STORE_PORTS:
        break;
    }
    if (ok) {
        stats_set_at(s, i, &v);
    }
    if (v.store == STAT_STORE_HIST) {
        free(h.buckets);
    }
    return ok;
}

void engine_mpi_gather_stats(EngineMpi *m, EngineTimes *times)
{
    Stats *s = m->p->stats;
    size_t n = stats_count(s);
    m->out.n = 0;
    for (size_t i = 0; m->rank != 0 && i < n; i++) {
        if (mpi_local(m, (uint32_t)m->stat_part[i])) {
            txn_wire_u64(&m->out, i);
            StatView v = stats_at(s, i);
            mpi_stat_put(&m->out, &v);
        }
    }
    TxnWireIn in = mpi_gather_out(m);
    size_t total = in.len;
    uint64_t i;
    while (m->rank == 0 && in.pos < total && txn_wire_read(&in, &i, sizeof i) && i < n &&
           mpi_stat_get(s, i, &in)) {
    }
    double mine[2] = {times->work_s, times->wait_s}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (m->rank == 0) {
        times->work_s = sum[0];
        times->wait_s = sum[1];
    }
}

/* TraceDeferFn: appends one log record (port index, time, event name, transaction). */
static void mpi_log_put(void *ctx, size_t i, SimTime t, const char *ev, const Txn *txn)
{
    EngineMpi *m = ctx;
    uint8_t len = (uint8_t)strlen(ev);
    txn_wire_u64(&m->out, i);
    txn_wire_u64(&m->out, t);
    txn_wire_bytes(&m->out, &len, 1);
    txn_wire_bytes(&m->out, ev, len);
    txn_wire_put(&m->out, txn);
    m->nrec++;
}

/* Rank 0's copy of the event name of len bytes at name (owned by m). */
static const char *mpi_log_event(EngineMpi *m, const char *name, size_t len)
{
    for (size_t i = 0; i < m->nevs; i++) {
        if (strlen(m->evs[i]) == len && memcmp(m->evs[i], name, len) == 0) {
            return m->evs[i];
        }
    }
    m->evs = xgrow(m->evs, &m->evcap, m->nevs + 1, sizeof *m->evs, 4);
    char *copy = xmalloc(len + 1);
    memcpy(copy, name, len);
    copy[len] = '\0';
    return m->evs[m->nevs++] = copy;
}

/* Rank 0: the records of one partition as mpi_log_put wrote them, into d. */
static bool mpi_log_get(EngineMpi *m, TraceDefer *d, TxnWireIn *in, SimError *err)
{
    uint32_t p;
    uint64_t n;
    if (!txn_wire_read(in, &p, 4) || !txn_wire_read(in, &n, 8) || p >= m->e->n) {
        return sim_error_set(err, "MPI: bad log records");
    }
    for (uint64_t k = 0; k < n; k++) {
        uint64_t i, t;
        uint8_t len;
        char name[256];
        if (!txn_wire_read(in, &i, 8) || !txn_wire_read(in, &t, 8) ||
            !txn_wire_read(in, &len, 1) || !txn_wire_read(in, name, len)) {
            return sim_error_set(err, "MPI: truncated log record");
        }
        Txn *txn = txn_wire_get(in, m->e->sim[p], m->decls, err);
        if (!txn) {
            return false;
        }
        trace_defer_add(d, p, i, t, mpi_log_event(m, name, len), txn);
    }
    return true;
}

bool engine_mpi_gather_log(EngineMpi *m, TraceDefer *d, SimError *err)
{
    m->out.n = 0;
    for (uint32_t p = 0; p < m->e->n; p++) {
        if (!mpi_local(m, p)) {
            trace_defer_drain(d, p, NULL, NULL);
        } else if (m->rank != 0) {
            txn_wire_u32(&m->out, p);
            size_t at = m->out.n;
            txn_wire_u64(&m->out, 0);
            m->nrec = 0;
            trace_defer_drain(d, p, mpi_log_put, m);
            memcpy(m->out.b + at, &m->nrec, sizeof m->nrec);
        }
    }
    TxnWireIn in = mpi_gather_out(m);
    size_t total = in.len;
    bool ok = true;
    while (ok && m->rank == 0 && in.pos < total) {
        ok = mpi_log_get(m, d, &in, err);
    }
    return ok;
}
