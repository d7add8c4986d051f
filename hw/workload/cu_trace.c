/* cu trace files: streaming reader with full validation, and the wavefront
 * coalescer (see cu_trace.h for the record format). */
#include "hw/workload/cu_trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hw/lib/amo.h"
#include "kernel/input_file.h"
#include "kernel/trace/trace.h"
#include "kernel/units.h"
#include "kernel/xalloc.h"

static const char *const cu_op_names[] = {
    [CU_OP_READ] = "read",
    [CU_OP_WRITE] = "write",
    [CU_OP_ATOMIC] = "atomic",
    [CU_OP_RELEASE] = "release",
    [CU_OP_KERNEL_BEGIN] = "kernel_begin",
    [CU_OP_KERNEL_END] = "kernel_end",
};

bool cu_trace_open(CuTrace *tr, const char *path, SimTime clock, uint64_t addr_limit,
                   uint64_t line, SimError *err)
{
    memset(tr, 0, sizeof *tr);
    SimError why;
    tr->f = input_file_open(path, INPUT_FILE_STREAM_MAX, &why);
    if (!tr->f) {
        return sim_error_set(err, "%s: cannot open trace: %s", path, why.msg);
    }
    tr->path = xmalloc(strlen(path) + 1);
    memcpy(tr->path, path, strlen(path) + 1);
    tr->data = xmalloc(CU_TRACE_MAX_SIZE);
    tr->clock = clock;
    tr->addr_limit = addr_limit;
    tr->line = line;
    return true;
}

void cu_trace_close(CuTrace *tr)
{
    if (tr->f) {
        fclose(tr->f);
    }
    free(tr->path);
    free(tr->buf);
    free(tr->data);
    free(tr->threads);
    memset(tr, 0, sizeof *tr);
}

/* Writes "<path>:<line>: <message>" into err; always false. */
static bool cu_trace_fail(const CuTrace *tr, SimError *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool cu_trace_fail(const CuTrace *tr, SimError *err, const char *fmt, ...)
{
    char msg[SIM_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sim_error_set(err, "%s:%lu: %s", tr->path, tr->lineno, msg);
}

static bool cu_trace_addr(const CuTrace *tr, json_t *v, const char *what, uint64_t *out,
                          SimError *err)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    const char *s = json_string_value(v);
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || s[2] == '\0' ||
        strlen(s + 2) > 16 || strspn(s + 2, "0123456789abcdefABCDEF") != strlen(s + 2)) {
        return cu_trace_fail(tr, err,
                             "%s must be a \"0x...\" hex string or a "
                             "non-negative integer",
                             what);
    }
    *out = strtoull(s + 2, NULL, 16);
    return true;
}

static bool cu_trace_size(const CuTrace *tr, json_t *v, const char *what, uint64_t max,
                          uint32_t *out, SimError *err)
{
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        (uint64_t)json_integer_value(v) > max) {
        return cu_trace_fail(tr, err, "%s must be an integer from 1 to %" PRIu64, what,
                             max);
    }
    *out = (uint32_t)json_integer_value(v);
    return true;
}

static bool cu_trace_range(const CuTrace *tr, uint64_t addr, uint64_t size, SimError *err)
{
    if (addr >= tr->addr_limit || size > tr->addr_limit - addr) {
        return cu_trace_fail(tr, err,
                             "bytes 0x%" PRIx64 "..+%" PRIu64
                             " are outside the platform's "
                             "memory (0x0..0x%" PRIx64 ")",
                             addr, size, tr->addr_limit);
    }
    return true;
}

static bool cu_trace_data(CuTrace *tr, json_t *v, uint32_t size, SimError *err)
{
    const char *s = json_string_value(v);
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
        return cu_trace_fail(tr, err, "data must be a \"0x...\" hex string");
    }
    s += 2;
    if (strlen(s) != 2 * (size_t)size) {
        return cu_trace_fail(tr, err, "data has %zu hex digits, expected %u (size %u)",
                             strlen(s), 2 * size, size);
    }
    for (uint32_t i = 0; i < size; i++) {
        int hi = trace_hex_digit(s[2 * i]), lo = trace_hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return cu_trace_fail(tr, err, "data has a non-hex digit");
        }
        tr->data[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

static bool cu_trace_time(CuTrace *tr, json_t *o, SimTime *out, SimError *err)
{
    json_t *t = json_object_get(o, "t"), *gap = json_object_get(o, "gap");
    *out = tr->t;
    if (t && gap) {
        return cu_trace_fail(tr, err, "give at most one of \"t\" and \"gap\"");
    }
    json_t *v = t ? t : gap;
    if (!v) {
        return true;
    }
    SimTime x;
    SimError e;
    if (!json_is_string(v)) {
        return cu_trace_fail(tr, err, "%s must be a time string like \"10ns\"",
                             t ? "t" : "gap");
    }
    if (!units_parse_time(json_string_value(v), tr->clock, &x, &e)) {
        return cu_trace_fail(tr, err, "%s: %s", t ? "t" : "gap", e.msg);
    }
    if (gap) {
        x = x > SIM_TIME_LIMIT - tr->t ? SIM_TIME_MAX : tr->t + x;
    } else if (x < tr->t) {
        return cu_trace_fail(tr, err,
                             "t %" PRIu64 " ps is earlier than the previous "
                             "record's time %" PRIu64 " ps",
                             x, tr->t);
    }
    if (x > SIM_TIME_LIMIT) {
        return cu_trace_fail(tr, err,
                             "%s puts the record past the end of simulated time "
                             "(2^63 ps)",
                             t ? "t" : "gap");
    }
    *out = x;
    return true;
}

static bool cu_trace_threads(CuTrace *tr, json_t *v, CuTraceRec *rec, SimError *err)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || n == 0) {
        return cu_trace_fail(tr, err,
                             "threads must be a non-empty array of "
                             "[addr, size] pairs");
    }
    if (n > tr->thread_cap) {
        tr->threads = xrealloc_array(tr->threads, n, sizeof *tr->threads);
        tr->thread_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *pair = json_array_get(v, i);
        char what[48];
        if (!json_is_array(pair) || json_array_size(pair) != 2) {
            return cu_trace_fail(tr, err, "threads[%zu] must be an [addr, size] pair", i);
        }
        snprintf(what, sizeof what, "threads[%zu] address", i);
        if (!cu_trace_addr(tr, json_array_get(pair, 0), what, &tr->threads[i].addr,
                           err)) {
            return false;
        }
        snprintf(what, sizeof what, "threads[%zu] size", i);
        if (!cu_trace_size(tr, json_array_get(pair, 1), what, tr->line,
                           &tr->threads[i].size, err) ||
            !cu_trace_range(tr, tr->threads[i].addr, tr->threads[i].size, err)) {
            return false;
        }
    }
    rec->threads = tr->threads;
    rec->nthreads = n;
    return true;
}

enum { K_OP, K_T, K_GAP, K_ADDR, K_SIZE, K_DATA, K_THREADS, K_POSTED, K_HINT };

static bool cu_trace_keys(CuTrace *tr, json_t *o, CuOp op, SimError *err)
{
    static const char *const allowed[] = {[K_OP] = "op",           [K_T] = "t",
                                          [K_GAP] = "gap",         [K_ADDR] = "addr",
                                          [K_SIZE] = "size",       [K_DATA] = "data",
                                          [K_THREADS] = "threads", [K_POSTED] = "posted",
                                          [K_HINT] = "hint",       NULL};
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        size_t i = 0;
        while (allowed[i] && strcmp(allowed[i], key) != 0) {
            i++;
        }
        if (!allowed[i]) {
            return cu_trace_fail(tr, err, "unknown key \"%s\"", key);
        }
        bool memop = op == CU_OP_READ || op == CU_OP_WRITE || op == CU_OP_ATOMIC;
        bool bad = (!memop && i >= K_ADDR && i <= K_POSTED) ||
                   (i == K_THREADS && op == CU_OP_ATOMIC) ||
                   (i == K_DATA && op == CU_OP_READ) ||
                   (i == K_POSTED && op != CU_OP_WRITE) ||
                   (i == K_HINT && op != CU_OP_KERNEL_BEGIN);
        if (bad) {
            return cu_trace_fail(tr, err, "key \"%s\" is not allowed with op %s", key,
                                 cu_op_names[op]);
        }
    }
    return true;
}

static bool cu_trace_op(CuTrace *tr, json_t *o, CuOp *op, SimError *err)
{
    const char *s = json_string_value(json_object_get(o, "op"));
    if (!s) {
        return cu_trace_fail(tr, err,
                             "missing \"op\" (read, write, atomic, release, "
                             "kernel_begin or kernel_end)");
    }
    for (size_t i = 0; i < sizeof cu_op_names / sizeof cu_op_names[0]; i++) {
        if (strcmp(s, cu_op_names[i]) == 0) {
            *op = (CuOp)i;
            return true;
        }
    }
    return cu_trace_fail(tr, err,
                         "unknown op \"%s\" (read, write, atomic, release, "
                         "kernel_begin or kernel_end)",
                         s);
}

/* Fills addr/size/data/threads of a memory operation. */
static bool cu_trace_memop(CuTrace *tr, json_t *o, CuTraceRec *rec, SimError *err)
{
    json_t *addr = json_object_get(o, "addr"), *size = json_object_get(o, "size");
    json_t *threads = json_object_get(o, "threads"), *data = json_object_get(o, "data");
    if (threads) {
        if (addr || size || data) {
            return cu_trace_fail(tr, err,
                                 "a wavefront (threads) takes no addr, size "
                                 "or data");
        }
        return cu_trace_threads(tr, threads, rec, err);
    }
    if (!addr || !size) {
        return cu_trace_fail(tr, err, "op %s needs addr and size%s", cu_op_names[rec->op],
                             rec->op == CU_OP_ATOMIC ? "" : " (or threads)");
    }
    uint64_t max = rec->op == CU_OP_ATOMIC ? AMO_MAX_LEN : CU_TRACE_MAX_SIZE;
    if (!cu_trace_addr(tr, addr, "addr", &rec->addr, err) ||
        !cu_trace_size(tr, size, "size", max, &rec->size, err) ||
        !cu_trace_range(tr, rec->addr, rec->size, err)) {
        return false;
    }
    if (rec->op == CU_OP_ATOMIC && !amo_len_ok(rec->size)) {
        return cu_trace_fail(tr, err, "an atomic has size 4 or 8, not %u", rec->size);
    }
    if (data) {
        if (!cu_trace_data(tr, data, rec->size, err)) {
            return false;
        }
        rec->data = tr->data;
    }
    return true;
}

static bool cu_trace_parse(CuTrace *tr, json_t *o, CuTraceRec *rec, SimError *err)
{
    memset(rec, 0, sizeof *rec);
    if (!json_is_object(o)) {
        return cu_trace_fail(tr, err, "a record must be a JSON object");
    }
    if (!cu_trace_op(tr, o, &rec->op, err) || !cu_trace_keys(tr, o, rec->op, err) ||
        !cu_trace_time(tr, o, &rec->t, err)) {
        return false;
    }
    json_t *posted = json_object_get(o, "posted"), *hint = json_object_get(o, "hint");
    if (posted) {
        if (!json_is_boolean(posted)) {
            return cu_trace_fail(tr, err, "posted must be true or false");
        }
        rec->posted = json_is_true(posted);
    }
    if (hint) {
        if (!json_is_integer(hint) || json_integer_value(hint) < 0 ||
            json_integer_value(hint) > UINT32_MAX) {
            return cu_trace_fail(tr, err, "hint must be an integer from 0 to %u",
                                 UINT32_MAX);
        }
        rec->hint = (uint32_t)json_integer_value(hint);
    }
    if (rec->op <= CU_OP_ATOMIC && !cu_trace_memop(tr, o, rec, err)) {
        return false;
    }
    tr->t = rec->t;
    return true;
}

int cu_trace_next(CuTrace *tr, CuTraceRec *rec, SimError *err)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&tr->buf, &tr->bufcap, tr->f);
        if (n < 0) {
            return input_file_at_end(tr->f, tr->path, err) ? 0 : -1;
        }
        tr->lineno++;
        if (strspn(tr->buf, " \t\r\n") == (size_t)n) {
            continue;
        }
        json_error_t jerr;
        json_t *o = json_loadb(tr->buf, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);
        if (!o) {
            cu_trace_fail(tr, err, "invalid JSON: %s", jerr.text);
            return -1;
        }
        bool ok = cu_trace_parse(tr, o, rec, err);
        json_decref(o);
        return ok ? 1 : -1;
    }
}

bool cu_trace_validate(const char *path, SimTime clock, uint64_t addr_limit,
                       uint64_t line, SimError *err)
{
    CuTrace tr;
    CuTraceRec rec;
    if (!cu_trace_open(&tr, path, clock, addr_limit, line, err)) {
        return false;
    }
    int r;
    do {
        r = cu_trace_next(&tr, &rec, err);
    } while (r == 1);
    cu_trace_close(&tr);
    return r == 0;
}

void cu_coalesce(CuLines *l, uint64_t line, const CuThread *threads, size_t n)
{
    if (l->line != line) {
        free(l->addr);
        free(l->be);
        memset(l, 0, sizeof *l);
        l->line = line;
    }
    l->n = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = threads[i].addr, end = a + threads[i].size;
        while (a < end) {
            uint64_t base = a - a % line;
            uint64_t stop = end < base + line ? end : base + line;
            size_t k = 0;
            while (k < l->n && l->addr[k] != base) {
                k++;
            }
            if (k == l->n) {
                if (l->n == l->cap) {
                    l->addr = xgrow(l->addr, &l->cap, l->n + 1, sizeof *l->addr, 8);
                    l->be = xrealloc_array(l->be, l->cap, line);
                }
                l->addr[k] = base;
                memset(l->be + k * line, 0, line);
                l->n++;
            }
            memset(l->be + k * line + (a - base), 0xff, stop - a);
            a = stop;
        }
    }
}

void cu_lines_free(CuLines *l)
{
    free(l->addr);
    free(l->be);
    memset(l, 0, sizeof *l);
}
