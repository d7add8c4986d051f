/* Binary log writer ("--log-format binary", docs/log-format.md): one file
 * DIR/trace.mgtlm holding the records of every logged port in event order, for
 * leaving logs on in large runs. `mgtlm log` (trace_convert.c) turns it into the
 * JSONL, Perfetto or VCD output of the direct writers, byte for byte.
 * Decisions:
 * - One file for all ports (a port index per record), not one per port: the run
 *   holds a single buffer and makes one write(2) per TRACE_BINARY_BUFFER bytes, the
 *   same with 10 or 10000 ports, and never reopens files.
 * - Nothing is formatted per record: integers are varints; time is a delta from the
 *   previous record; id and address are zigzag deltas from the previous record of
 *   the same port (a request and its response pass a port close together), so a
 *   typical gpu16-baseline record takes 12 to 20 bytes.
 * - A declared command is coded by its position in the platform's list (written in
 *   the header, the order the VCD codes use); one missing from that list is defined
 *   by a definition record when it first appears. */
#include "trace_binary.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/block.h"
#include "kernel/xalloc.h"
#include "trace_writer.h"

/* Bytes buffered before a write(2). */
#define TRACE_BINARY_BUFFER (1u << 20)

typedef struct TraceBinary TraceBinary;

typedef struct BinPort {
    TraceSink sink; /* first member: the port's sink */
    TraceBinary *w;
    uint64_t id, addr; /* of the port's previous record */
} BinPort;

struct TraceBinary {
    TraceWriter base;
    int fd;
    int error; /* errno of the first failed write, 0 if none */
    char *path;
    uint8_t *buf;
    size_t len, cap;
    BinPort *ports;
    size_t n;
    SimTime last;            /* time of the previous record */
    const TxnCmdDecl **cmds; /* the command table: listed, then defined */
    size_t ncmds, cmds_cap;
};

static void bin_flush(TraceBinary *w)
{
    size_t done = 0;
    while (done < w->len && !w->error) {
        ssize_t k = write(w->fd, w->buf + done, w->len - done);
        if (k > 0) {
            done += (size_t)k;
        } else if (k == 0 || errno != EINTR) {
            w->error = k == 0 ? EIO : errno;
        }
    }
    w->len = 0;
}

/* Room for need more bytes in the buffer. */
static uint8_t *bin_reserve(TraceBinary *w, size_t need)
{
    if (w->len + need > w->cap) {
        bin_flush(w);
        if (need > w->cap) {
            w->buf = xgrow(w->buf, &w->cap, need, 1, TRACE_BINARY_BUFFER);
        }
    }
    return w->buf + w->len;
}

/* The code of a command (see trace_binary.h); defines a declared command missing
 * from the table. */
static uint64_t bin_cmd_code(TraceBinary *w, TxnCmd cmd, const TxnCmdDecl *decl)
{
    if (cmd != TXN_DECLARED) {
        return (uint64_t)cmd;
    }
    for (size_t k = 0; k < w->ncmds; k++) {
        if (w->cmds[k] == decl) {
            return TXN_DECLARED + k;
        }
    }
    w->cmds = xgrow(w->cmds, &w->cmds_cap, w->ncmds + 1, sizeof *w->cmds, 8);
    w->cmds[w->ncmds++] = decl;
    size_t len = strlen(decl->name);
    uint8_t *p = bin_reserve(w, 1 + TRACE_BIN_VARINT_MAX + len);
    *p++ = TRACE_BIN_DEFINE;
    p = trace_bin_put(p, len);
    memcpy(p, decl->name, len);
    w->len = (size_t)(p + len - w->buf);
    return TXN_DECLARED + w->ncmds - 1;
}

/* The set of t's non-zero extension fields, bit i = txn_fields[i]: member reads
 * generated from the field list (txn_field_get per field showed in profiles). */
static uint64_t bin_field_set(const Txn *t)
{
    uint64_t set = 0, bit = 1;
#define TXN_FIELD(name, type, kind, response, doc)                                       \
    set |= t->name != 0 ? bit : 0;                                                       \
    bit <<= 1;
#include "kernel/txn_fields.def"
#undef TXN_FIELD
    return set;
}

/* The tag byte of an event record (ev is "send" or "recv"). */
static uint8_t bin_tag(const char *ev, const Txn *t, bool fields)
{
    return (uint8_t)((ev[0] == 's' ? TRACE_BIN_SEND : 0) |
                     (t->posted ? TRACE_BIN_POSTED : 0) | (t->data ? TRACE_BIN_DATA : 0) |
                     (t->be ? TRACE_BIN_BE : 0) | (fields ? TRACE_BIN_FIELDS : 0) |
                     (t->nthreads ? TRACE_BIN_THREADS : 0) |
                     (t->nparents ? TRACE_BIN_PARENTS : 0));
}

/* The optional parts of a record after len (tag bits DATA .. PARENTS). */
static uint8_t *bin_put_optional(uint8_t *p, const Txn *t, uint64_t fields)
{
    if (t->data) {
        memcpy(p, t->data, t->len);
        p += t->len;
    }
    if (t->be) {
        for (uint32_t i = 0; i < t->len; i += 8) {
            uint8_t bits = 0;
            for (uint32_t b = 0; b < 8 && i + b < t->len; b++) {
                bits |= (uint8_t)((t->be[i + b] ? 1u : 0u) << b);
            }
            *p++ = bits;
        }
    }
    if (fields) {
        p = trace_bin_put(p, fields);
        for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
            if (fields >> i & 1) {
                p = trace_bin_put(p, txn_field_get(t, &txn_fields[i]));
            }
        }
    }
    if (t->nthreads) {
        p = trace_bin_put(p, t->nthreads);
        uint64_t prev = t->addr;
        for (uint32_t i = 0; i < t->nthreads; i++) {
            p = trace_bin_put(p, trace_bin_zigzag((int64_t)(t->threads[i].addr - prev)));
            p = trace_bin_put(p, t->threads[i].size);
            prev = t->threads[i].addr;
        }
    }
    if (t->nparents) {
        p = trace_bin_put(p, t->nparents);
        uint64_t prev = t->id;
        for (uint32_t i = 0; i < t->nparents; i++) {
            p = trace_bin_put(p, trace_bin_zigzag((int64_t)(t->parents[i] - prev)));
            prev = t->parents[i];
        }
    }
    return p;
}

static void bin_record(TraceWriter *base, size_t i, SimTime now, const char *ev,
                       const Txn *t)
{
    TraceBinary *w = (TraceBinary *)base;
    BinPort *bp = &w->ports[i];
    uint64_t fields = bin_field_set(t);
    uint64_t cmd = bin_cmd_code(w, t->cmd, t->declared);
    uint64_t req = t->cmd == TXN_RESP ? bin_cmd_code(w, t->req_cmd, t->declared) : 0;
    size_t bound = 16 * TRACE_BIN_VARINT_MAX + t->len + t->len / 8 +
                   (TXN_FIELD_COUNT + 1) * TRACE_BIN_VARINT_MAX +
                   (2 * (size_t)t->nthreads + 1) * TRACE_BIN_VARINT_MAX +
                   ((size_t)t->nparents + 1) * TRACE_BIN_VARINT_MAX;
    uint8_t *p = bin_reserve(w, bound);
    *p++ = bin_tag(ev, t, fields != 0);
    p = trace_bin_put(p, i);
    p = trace_bin_put(p, trace_bin_zigzag((int64_t)(now - w->last)));
    p = trace_bin_put(p, cmd);
    if (t->cmd == TXN_RESP) {
        p = trace_bin_put(p, req);
        *p++ = (uint8_t)t->status;
    }
    p = trace_bin_put(p, trace_bin_zigzag((int64_t)(t->id - bp->id)));
    p = trace_bin_put(p, trace_bin_zigzag((int64_t)(t->addr - bp->addr)));
    p = trace_bin_put(p, t->len);
    p = trace_bin_put(p, (uint64_t)(t->src < 0 ? 0 : t->src + 1));
    p = trace_bin_put(p, (uint64_t)(t->dst < 0 ? 0 : t->dst + 1));
    p = trace_bin_put(p, (uint64_t)(t->unit < 0 ? 0 : t->unit + 1));
    p = bin_put_optional(p, t, fields);
    w->len = (size_t)(p - w->buf);
    w->last = now;
    bp->id = t->id;
    bp->addr = t->addr;
}

static void bin_sink_record(TraceSink *sink, const Port *port, const char *ev,
                            const Txn *t)
{
    BinPort *bp = (BinPort *)sink;
    bin_record(&bp->w->base, (size_t)(bp - bp->w->ports), sim_now(port->owner->sim), ev,
               t);
}

static TraceSink *bin_sink(TraceWriter *base, size_t i)
{
    return &((TraceBinary *)base)->ports[i].sink;
}

static void bin_free(TraceBinary *w)
{
    free(w->cmds);
    free(w->ports);
    free(w->buf);
    free(w->path);
    free(w);
}

static bool bin_close(TraceWriter *base, SimError *err)
{
    TraceBinary *w = (TraceBinary *)base;
    bin_flush(w);
    if (close(w->fd) != 0 && !w->error) {
        w->error = errno;
    }
    bool ok = !w->error ||
              sim_error_set(err, "%s: write failed: %s", w->path, strerror(w->error));
    bin_free(w);
    return ok;
}

static void bin_put_string(TraceBinary *w, const char *s)
{
    size_t len = strlen(s);
    uint8_t *p = bin_reserve(w, TRACE_BIN_VARINT_MAX + len);
    p = trace_bin_put(p, len);
    memcpy(p, s, len);
    w->len = (size_t)(p + len - w->buf);
}

/* Magic, version, port names, the platform's declared commands. */
static void bin_header(TraceBinary *w, const TraceLayout *lay)
{
    uint8_t *p = bin_reserve(w, 8 + 3 * TRACE_BIN_VARINT_MAX);
    memcpy(p, TRACE_BINARY_MAGIC, 8);
    p = trace_bin_put(p + 8, TRACE_BINARY_VERSION);
    p = trace_bin_put(p, lay->n);
    w->len = (size_t)(p - w->buf);
    for (size_t i = 0; i < lay->n; i++) {
        bin_put_string(w, lay->names[i]);
    }
    size_t ncmds = 0;
    while (lay->cmds && lay->cmds[ncmds]) {
        ncmds++;
    }
    w->cmds = xcalloc(ncmds + 1, sizeof *w->cmds);
    w->cmds_cap = ncmds + 1;
    p = bin_reserve(w, TRACE_BIN_VARINT_MAX);
    w->len = (size_t)(trace_bin_put(p, ncmds) - w->buf);
    for (size_t k = 0; k < ncmds; k++) {
        w->cmds[w->ncmds++] = lay->cmds[k];
        bin_put_string(w, lay->cmds[k]->name);
    }
}

TraceWriter *trace_binary_open(const char *dir, const TraceLayout *lay, SimError *err)
{
    TraceBinary *w = xcalloc(1, sizeof *w);
    w->path = trace_path(dir, TRACE_BINARY_FILE);
    if (!w->path) {
        free(w);
        sim_error_set(err, "out of memory opening the binary log");
        return NULL;
    }
    w->fd = open(w->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (w->fd < 0) {
        sim_error_set(err, "%s: cannot create: %s", w->path, strerror(errno));
        bin_free(w);
        return NULL;
    }
    w->buf = xmalloc(TRACE_BINARY_BUFFER);
    w->cap = TRACE_BINARY_BUFFER;
    w->ports = xcalloc(lay->n ? lay->n : 1, sizeof *w->ports);
    w->n = lay->n;
    for (size_t i = 0; i < lay->n; i++) {
        w->ports[i] = (BinPort){.sink.record = bin_sink_record, .w = w};
    }
    w->base.sink = bin_sink;
    w->base.record = bin_record;
    w->base.close = bin_close;
    bin_header(w, lay);
    return &w->base;
}
