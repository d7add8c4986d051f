/* Converts a binary log (trace_binary.c, docs/log-format.md) into the JSONL, Perfetto
 * or VCD output: reads the header (port names, the platform's declared commands),
 * opens that format's writer on the same layout and replays every record through
 * the writer's `record`, the entry its sinks use during a run, so the output is the
 * direct writer's byte for byte. Streams: one record at a time, read through a large
 * stdio buffer. Decision: the file is read twice, first only to check it, so a
 * damaged file is refused (with the byte offset of the record at fault) before any
 * output is created; reading is cheap next to writing the text formats. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/xalloc.h"
#include "trace_binary.h"
#include "trace_writer.h"

#define TRACE_CONVERT_BUFFER (1u << 20)

typedef struct BinReader {
    FILE *f;
    const char *path;
    uint64_t off, size; /* bytes read so far, file size */
    uint64_t at;        /* offset of the record being read, for messages */
    SimError *err;
} BinReader;

/* The record being rebuilt and the storage its arrays point into. */
typedef struct BinRecord {
    Txn txn;
    uint8_t *bytes; /* data, then byte enables */
    size_t bytes_cap;
    uint64_t *parents;
    size_t parents_cap;
    TxnThread *threads;
    size_t threads_cap;
} BinRecord;

typedef struct BinLog {
    char **names;
    size_t nports;
    TxnCmdDecl *cmds;          /* the command table: listed, then defined */
    const TxnCmdDecl **listed; /* the header's list, NULL-terminated (the layout's) */
    size_t nlisted, ncmds, cmds_cap;
    uint64_t *prev_id, *prev_addr; /* per port */
} BinLog;

static bool rd_fail(BinReader *r, const char *what)
{
    return sim_error_set(r->err, "%s: byte %" PRIu64 ": %s", r->path, r->at, what);
}

static bool rd_bytes(BinReader *r, void *p, uint64_t n)
{
    if (n > r->size - r->off || fread(p, 1, (size_t)n, r->f) != n) {
        return rd_fail(r, "truncated record");
    }
    r->off += n;
    return true;
}

static bool rd_uv(BinReader *r, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        int c = getc_unlocked(r->f);
        if (c == EOF) {
            return rd_fail(r, "truncated record");
        }
        r->off++;
        if (shift == 63 && c > 1) {
            break;
        }
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            return true;
        }
    }
    return rd_fail(r, "varint longer than 64 bits");
}

/* A varint that must be at most max (what names the value in the message). */
static bool rd_uv_max(BinReader *r, uint64_t *v, uint64_t max, const char *what)
{
    if (!rd_uv(r, v)) {
        return false;
    }
    if (*v > max) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s %" PRIu64 " out of range (at most %" PRIu64 ")",
                 what, *v, max);
        return rd_fail(r, msg);
    }
    return true;
}

/* A length-prefixed string (new heap string owned by the caller). */
static bool rd_string(BinReader *r, char **out)
{
    uint64_t len;
    if (!rd_uv(r, &len)) {
        return false;
    }
    if (len > r->size - r->off) {
        return rd_fail(r, "truncated record");
    }
    *out = xmalloc((size_t)len + 1);
    (*out)[len] = '\0';
    if (!rd_bytes(r, *out, len)) {
        free(*out);
        *out = NULL;
        return false;
    }
    return true;
}

static void add_cmd(BinLog *log, char *name)
{
    log->cmds = xgrow(log->cmds, &log->cmds_cap, log->ncmds + 1, sizeof *log->cmds, 8);
    log->cmds[log->ncmds++] = (TxnCmdDecl){.name = name, .doc = ""};
}

static bool rd_header(BinReader *r, BinLog *log)
{
    char magic[8];
    if (r->size < 8 || fread(magic, 1, 8, r->f) != 8 ||
        memcmp(magic, TRACE_BINARY_MAGIC, 8) != 0) {
        return sim_error_set(r->err, "%s: not an mgtlm binary log", r->path);
    }
    r->off = 8;
    uint64_t version, n;
    if (!rd_uv(r, &version)) {
        return false;
    }
    if (version != TRACE_BINARY_VERSION) {
        return sim_error_set(
            r->err, "%s: binary log version %" PRIu64 " (this mgtlm reads version %u)",
            r->path, version, TRACE_BINARY_VERSION);
    }
    if (!rd_uv_max(r, &n, r->size - r->off, "port count")) {
        return false;
    }
    log->names = xcalloc((size_t)n + 1, sizeof *log->names);
    for (; log->nports < n; log->nports++) {
        r->at = r->off;
        if (!rd_string(r, &log->names[log->nports])) {
            return false;
        }
    }
    if (!rd_uv_max(r, &n, r->size - r->off, "command count")) {
        return false;
    }
    for (uint64_t k = 0; k < n; k++) {
        char *name;
        r->at = r->off;
        if (!rd_string(r, &name)) {
            return false;
        }
        add_cmd(log, name);
    }
    log->nlisted = log->ncmds;
    log->listed = xcalloc(log->nlisted + 1, sizeof *log->listed);
    for (size_t k = 0; k < log->nlisted; k++) {
        log->listed[k] = &log->cmds[k];
    }
    log->prev_id = xcalloc(log->nports + 1, sizeof *log->prev_id);
    log->prev_addr = xcalloc(log->nports + 1, sizeof *log->prev_addr);
    return true;
}

/* A command code (trace_binary.h) -> *cmd and, for a declared one, *decl. */
static bool rd_cmd(BinReader *r, const BinLog *log, TxnCmd *cmd, const TxnCmdDecl **decl)
{
    uint64_t code;
    if (!rd_uv_max(r, &code, TXN_DECLARED + log->ncmds - 1, "command code")) {
        return false;
    }
    *cmd = code < TXN_DECLARED ? (TxnCmd)code : TXN_DECLARED;
    if (code >= TXN_DECLARED) {
        *decl = &log->cmds[code - TXN_DECLARED];
    }
    return true;
}

static bool rd_optional(BinReader *r, BinRecord *rec, uint8_t tag)
{
    Txn *t = &rec->txn;
    uint64_t v;
    size_t be_len = (t->len + 7) / 8;
    size_t need = (tag & TRACE_BIN_DATA ? t->len : 0) + (tag & TRACE_BIN_BE ? t->len : 0);
    if (need > r->size - r->off) {
        return rd_fail(r, "truncated record");
    }
    rec->bytes = xgrow(rec->bytes, &rec->bytes_cap, need + be_len + 1, 1, 256);
    uint8_t *p = rec->bytes;
    if (tag & TRACE_BIN_DATA) {
        t->data = p;
        if (!rd_bytes(r, p, t->len)) {
            return false;
        }
        p += t->len;
    }
    if (tag & TRACE_BIN_BE) {
        uint8_t *bits = p + t->len;
        if (!rd_bytes(r, bits, be_len)) {
            return false;
        }
        for (uint32_t i = 0; i < t->len; i++) {
            p[i] = bits[i / 8] >> (i % 8) & 1 ? 0xff : 0;
        }
        t->be = p;
    }
    if (tag & TRACE_BIN_FIELDS) {
        uint64_t set;
        if (!rd_uv_max(r, &set, (1ull << TXN_FIELD_COUNT) - 1, "field set")) {
            return false;
        }
        for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
            if (set >> i & 1) {
                if (!rd_uv_max(r, &v, txn_fields[i].max, txn_fields[i].name)) {
                    return false;
                }
                txn_field_set(t, &txn_fields[i], v);
            }
        }
    }
    if (tag & TRACE_BIN_THREADS) {
        if (!rd_uv_max(r, &v, r->size - r->off, "thread count")) {
            return false;
        }
        t->nthreads = (uint32_t)v;
        rec->threads = xgrow(rec->threads, &rec->threads_cap, v, sizeof *rec->threads, 8);
        uint64_t addr = t->addr;
        for (uint32_t i = 0; i < t->nthreads; i++) {
            uint64_t size;
            if (!rd_uv(r, &v) || !rd_uv_max(r, &size, UINT32_MAX, "thread size")) {
                return false;
            }
            addr += (uint64_t)trace_bin_unzigzag(v);
            rec->threads[i] = (TxnThread){.addr = addr, .size = (uint32_t)size};
        }
        t->threads = rec->threads;
    }
    if (tag & TRACE_BIN_PARENTS) {
        if (!rd_uv_max(r, &v, r->size - r->off, "parent count")) {
            return false;
        }
        t->nparents = (uint32_t)v;
        rec->parents = xgrow(rec->parents, &rec->parents_cap, v, sizeof *rec->parents, 8);
        uint64_t id = t->id;
        for (uint32_t i = 0; i < t->nparents; i++) {
            if (!rd_uv(r, &v)) {
                return false;
            }
            id += (uint64_t)trace_bin_unzigzag(v);
            rec->parents[i] = id;
        }
        t->parents = rec->parents;
    }
    return true;
}

/* The fixed part of an event record after its tag; *port gets the port index. */
static bool rd_event(BinReader *r, BinLog *log, BinRecord *rec, SimTime *now,
                     size_t *port)
{
    Txn *t = &rec->txn;
    uint64_t v, len, who[3];
    if (!rd_uv_max(r, &v, log->nports ? log->nports - 1 : 0, "port index")) {
        return false;
    }
    if (log->nports == 0) {
        return rd_fail(r, "event record in a log of no ports");
    }
    *port = (size_t)v;
    if (!rd_uv(r, &v)) {
        return false;
    }
    *now += (SimTime)trace_bin_unzigzag(v);
    if (!rd_cmd(r, log, &t->cmd, &t->declared)) {
        return false;
    }
    t->req_cmd = t->cmd;
    if (t->cmd == TXN_RESP) {
        uint8_t status;
        if (!rd_cmd(r, log, &t->req_cmd, &t->declared) || !rd_bytes(r, &status, 1)) {
            return false;
        }
        if (status >= TXN_STATUS_COUNT) {
            return rd_fail(r, "bad response status");
        }
        t->status = (TxnStatus)status;
    }
    uint64_t id_delta, addr_delta;
    if (!rd_uv(r, &id_delta) || !rd_uv(r, &addr_delta) ||
        !rd_uv_max(r, &len, UINT32_MAX, "len")) {
        return false;
    }
    for (int k = 0; k < 3; k++) {
        if (!rd_uv_max(r, &who[k], (uint64_t)INT16_MAX + 1, "src/dst/unit")) {
            return false;
        }
    }
    t->id = log->prev_id[*port] += (uint64_t)trace_bin_unzigzag(id_delta);
    t->addr = log->prev_addr[*port] += (uint64_t)trace_bin_unzigzag(addr_delta);
    t->len = (uint32_t)len;
    t->src = (int16_t)((int64_t)who[0] - 1);
    t->dst = (int16_t)((int64_t)who[1] - 1);
    t->unit = (int16_t)((int64_t)who[2] - 1);
    return true;
}

/* Replays every record into w (NULL: only reads them). */
static bool rd_records(BinReader *r, BinLog *log, TraceWriter *w)
{
    BinRecord rec = {0};
    SimTime now = 0;
    bool ok = true;
    int c;
    while (ok && (c = getc_unlocked(r->f)) != EOF) {
        r->at = r->off++;
        uint8_t tag = (uint8_t)c;
        if (tag == TRACE_BIN_DEFINE) {
            char *name;
            ok = rd_string(r, &name);
            if (ok) {
                add_cmd(log, name);
            }
            continue;
        }
        if (tag & 0x80) {
            ok = rd_fail(r, "bad record tag");
            continue;
        }
        Txn *t = &rec.txn;
        *t = (Txn){.posted = (tag & TRACE_BIN_POSTED) != 0};
        size_t port = 0;
        ok = rd_event(r, log, &rec, &now, &port) && rd_optional(r, &rec, tag);
        if (ok && w) {
            w->record(w, port, now, tag & TRACE_BIN_SEND ? "send" : "recv", t);
        }
    }
    free(rec.bytes);
    free(rec.parents);
    free(rec.threads);
    return ok;
}

static void log_free(BinLog *log)
{
    for (size_t i = 0; i < log->nports; i++) {
        free(log->names[i]);
    }
    for (size_t k = 0; k < log->ncmds; k++) {
        free((char *)log->cmds[k].name);
    }
    free(log->names);
    free(log->cmds);
    free(log->listed);
    free(log->prev_id);
    free(log->prev_addr);
}

/* Reads the whole log from its start; when write is set, into a new writer of fmt in
 * dir, else only to check it. */
static bool rd_pass(BinReader *r, const char *dir, TraceFormat fmt, bool write,
                    SimError *err)
{
    BinLog log = {0};
    r->off = r->at = 0;
    rewind(r->f);
    bool ok = rd_header(r, &log);
    TraceWriter *w = NULL;
    if (ok && write) {
        TraceLayout lay = {.names = (const char *const *)log.names,
                           .n = log.nports,
                           .cmds = log.nlisted ? log.listed : NULL};
        ok = trace_make_dir(dir, err) && (w = trace_writer_open(fmt, dir, &lay, err));
    }
    ok = ok && rd_records(r, &log, w);
    if (w) {
        ok = w->close(w, ok ? err : NULL) && ok;
    }
    log_free(&log);
    return ok;
}

bool trace_convert(const char *path, const char *dir, TraceFormat fmt, SimError *err)
{
    if (fmt == TRACE_BINARY) {
        return sim_error_set(
            err, "a binary log converts to jsonl, perfetto, perfetto-gz or vcd");
    }
    BinReader r = {.path = path, .err = err};
    r.f = fopen(path, "rb");
    if (!r.f) {
        return sim_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(r.f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(r.f);
        return sim_error_set(err, "%s: not a regular file", path);
    }
    r.size = (uint64_t)st.st_size;
    setvbuf(r.f, NULL, _IOFBF, TRACE_CONVERT_BUFFER);
    bool ok = rd_pass(&r, dir, fmt, false, err) && rd_pass(&r, dir, fmt, true, err);
    fclose(r.f);
    return ok;
}
