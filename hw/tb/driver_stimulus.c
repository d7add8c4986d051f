/* Driver stimulus entries: strict parsing of the "stimulus" array of a testbench
 * drive entry into DriverEntry values (see docs/testbench-format.md). Every error
 * names the entry's JSON path: "tb.json: /drive/d0/stimulus/3/addr: ...".
 * Decisions: `t` is absolute and `gap` relative to the previous entry's time (the
 * first entry's gap counts from 0); with neither, an entry goes at the previous
 * entry's time; times may not decrease. `len` defaults to the length of `data` (or
 * 0) and must agree with it when both are given; read, write, atomic and
 * invalidate need `addr`, read and atomic need a length. `src`, `dst`, `unit`
 * default to -1 (not set: nothing is inferred from the address). `posted` is only
 * for writes; `req` (required) and `status` (default "ok") only for "resp".
 * Decision: `len` is at most DRIVER_LEN_MAX (1 MiB, far above any transfer the blocks
 * model) so that a 12-byte field cannot make the driver, a block or `serve` allocate
 * gigabytes (`data` costs its own size in the input already); an entry due past
 * SIM_TIME_LIMIT (kernel/simtime.h) would never be sent, so it is refused; a read or
 * atomic of 0 bytes is refused (it would move nothing and no block models it); `threads`
 * sizes must add up to `len`. */
#include "driver_stimulus.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/trace/trace.h"
#include "kernel/units.h"

/* Keys besides the extension fields of kernel/txn_fields.def. */
static const char *const stim_keys[] = {
    "t",   "gap",  "cmd",    "addr", "len", "data",   "be",      "src",
    "dst", "unit", "posted", "id",   "req", "status", "threads",
};

typedef struct StimCtx {
    const char *origin;
    size_t index;
    SimTime clock;
    const TxnCmdDecl *const *cmds; /* declared commands (borrowed; NULL = none) */
    SimError *err;
} StimCtx;

static bool stim_fail(const StimCtx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool stim_fail(const StimCtx *c, const char *key, const char *fmt, ...)
{
    char msg[SIM_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (key) {
        return sim_error_set(c->err, "%s/%zu/%s: %s", c->origin, c->index, key, msg);
    }
    return sim_error_set(c->err, "%s/%zu: %s", c->origin, c->index, msg);
}

/* An unsigned value: a JSON integer, or (hex) a "0x..." string. */
static bool stim_uint(const StimCtx *c, json_t *o, const char *key, bool hex,
                      uint64_t max, uint64_t *out)
{
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v) && json_integer_value(v) >= 0 &&
        (uint64_t)json_integer_value(v) <= max) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    if (hex && json_is_string(v) && trace_hex_u64(json_string_value(v), out) &&
        *out <= max) {
        return true;
    }
    char got[64];
    if (json_is_integer(v)) {
        snprintf(got, sizeof got, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else {
        snprintf(got, sizeof got, "%s",
                 json_is_string(v) ? json_string_value(v) : json_kind(v));
    }
    return stim_fail(c, key, "expected %s from 0 to %" PRIu64 ", got %s",
                     hex ? "an integer or a \"0x\" hex string" : "an integer", max, got);
}

/* Like stim_uint for an optional key; *out is left alone when the key is absent. */
static bool stim_opt(const StimCtx *c, json_t *o, const char *key, bool hex, uint64_t max,
                     uint64_t *out)
{
    return !json_object_get(o, key) || stim_uint(c, o, key, hex, max, out);
}

static bool stim_small(const StimCtx *c, json_t *o, const char *key, int16_t *out)
{
    json_t *v = json_object_get(o, key);
    *out = -1;
    if (!v) {
        return true;
    }
    if (!json_is_integer(v)) {
        return stim_fail(c, key, "expected an integer from -1 to %d, got %s", INT16_MAX,
                         json_kind(v));
    }
    if (json_integer_value(v) < -1 || json_integer_value(v) > INT16_MAX) {
        return stim_fail(c, key, "%" JSON_INTEGER_FORMAT " is outside -1..%d",
                         json_integer_value(v), INT16_MAX);
    }
    *out = (int16_t)json_integer_value(v);
    return true;
}

static bool stim_string(const StimCtx *c, json_t *o, const char *key, const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v) {
        return stim_fail(c, NULL, "missing %s", key);
    }
    if (!json_is_string(v)) {
        return stim_fail(c, key, "expected a string, got %s", json_kind(v));
    }
    *out = json_string_value(v);
    return true;
}

static bool stim_time(const StimCtx *c, json_t *o, SimTime prev, SimTime *out)
{
    json_t *t = json_object_get(o, "t"), *gap = json_object_get(o, "gap");
    const char *key = t ? "t" : "gap", *s;
    SimTime v;
    SimError uerr;
    if (t && gap) {
        return stim_fail(c, "gap", "give either t or gap, not both");
    }
    if (!t && !gap) {
        *out = prev;
        return true;
    }
    if (!stim_string(c, o, key, &s)) {
        return false;
    }
    if (!units_parse_time(s, c->clock, &v, &uerr)) {
        return stim_fail(c, key, "%s", uerr.msg);
    }
    if (t && v < prev) {
        return stim_fail(c, "t", "%s is earlier than the previous entry (%" PRIu64 " ps)",
                         s, prev);
    }
    SimTime at = t ? v : v > SIM_TIME_LIMIT - prev ? SIM_TIME_MAX : prev + v;
    if (at > SIM_TIME_LIMIT) {
        return stim_fail(c, key,
                         "%s puts the entry past the end of simulated time (2^63 ps)", s);
    }
    *out = at;
    return true;
}

/* A command name: generic, or one of the registry's declared commands (*decl). */
static bool stim_cmd(const StimCtx *c, json_t *o, const char *key, TxnCmd *out,
                     const TxnCmdDecl **decl)
{
    const char *s;
    if (!stim_string(c, o, key, &s)) {
        return false;
    }
    if (!txn_cmd_parse(s, c->cmds, out, decl)) {
        return stim_fail(c, key,
                         "unknown command '%s' (read, write, atomic, invalidate,"
                         " release, kernel_begin, kernel_end, resp)",
                         s);
    }
    return true;
}

static bool stim_resp(const StimCtx *c, json_t *o, DriverEntry *e)
{
    const char *s;
    e->req_cmd = e->cmd;
    e->status = TXN_STATUS_INCOMPLETE;
    if (e->cmd != TXN_RESP) {
        const char *bad = json_object_get(o, "req") ? "req" : "status";
        return !json_object_get(o, bad) ||
               stim_fail(c, bad, "only allowed with cmd \"resp\"");
    }
    if (!stim_cmd(c, o, "req", &e->req_cmd, &e->declared)) {
        return false;
    }
    e->status = TXN_STATUS_OK;
    if (json_object_get(o, "status")) {
        if (!stim_string(c, o, "status", &s)) {
            return false;
        }
        if (!txn_status_parse(s, &e->status)) {
            return stim_fail(c, "status", "unknown status '%s'", s);
        }
    }
    return true;
}

/* data and len (and their agreement). */
static bool stim_payload(const StimCtx *c, json_t *o, DriverEntry *e)
{
    json_t *data = json_object_get(o, "data");
    size_t nbytes = 0;
    uint64_t len = 0;
    if (data) {
        if (!json_is_string(data) ||
            !trace_hex_bytes(json_string_value(data), &e->data, &nbytes)) {
            return stim_fail(c, "data",
                             "expected \"0x\" followed by two hex digits per"
                             " byte");
        }
        len = nbytes;
    }
    if (json_object_get(o, "len")) {
        if (!stim_uint(c, o, "len", false, DRIVER_LEN_MAX, &len)) {
            return false;
        }
        if (data && len != nbytes) {
            return stim_fail(c, "len", "%" PRIu64 " differs from the %zu bytes of data",
                             len, nbytes);
        }
    } else if (!data && (e->cmd == TXN_READ || e->cmd == TXN_ATOMIC)) {
        return stim_fail(c, NULL, "a %s needs len (or data)", txn_cmd_name(e->cmd));
    }
    if (len == 0 && (e->cmd == TXN_READ || e->cmd == TXN_ATOMIC)) {
        return stim_fail(c, json_object_get(o, "len") ? "len" : "data",
                         "a %s of 0 bytes moves nothing", txn_cmd_name(e->cmd));
    }
    e->len = (uint32_t)len;
    return true;
}

/* be: a hex number (any length) or integer, bit i = byte i enabled. */
static bool stim_be(const StimCtx *c, json_t *o, DriverEntry *e)
{
    json_t *v = json_object_get(o, "be");
    if (!v) {
        return true;
    }
    e->be = calloc(e->len ? e->len : 1, 1);
    if (!e->be) {
        return stim_fail(c, "be", "out of memory");
    }
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        uint64_t bits = (uint64_t)json_integer_value(v);
        for (uint32_t i = 0; i < 64; i++) {
            if ((bits >> i) & 1) {
                if (i >= e->len) {
                    return stim_fail(c, "be", "bit %u set beyond len %u", i, e->len);
                }
                e->be[i] = 0xff;
            }
        }
        return true;
    }
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    size_t digits = strlen(s) >= 2 ? strlen(s) - 2 : 0;
    if (digits == 0 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
        return stim_fail(c, "be", "expected a \"0x\" hex number or an integer");
    }
    for (size_t k = 0; k < digits; k++) {
        int d = trace_hex_digit(s[1 + digits - k]);
        if (d < 0) {
            return stim_fail(c, "be", "'%s' is not a hex number", s);
        }
        for (size_t b = 0; b < 4; b++) {
            if ((d >> b) & 1) {
                if (4 * k + b >= e->len) {
                    return stim_fail(c, "be", "bit %zu set beyond len %u", 4 * k + b,
                                     e->len);
                }
                e->be[4 * k + b] = 0xff;
            }
        }
    }
    return true;
}

static bool stim_extensions(const StimCtx *c, json_t *o, DriverEntry *e)
{
    json_t *posted = json_object_get(o, "posted");
    if (posted) {
        if (!json_is_boolean(posted)) {
            return stim_fail(c, "posted", "expected true or false, got %s",
                             json_kind(posted));
        }
        if (json_is_true(posted) && e->cmd != TXN_WRITE) {
            return stim_fail(c, "posted", "only a write can be posted");
        }
        e->posted = json_is_true(posted);
    }
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        const TxnField *x = &txn_fields[i];
        if (!stim_opt(c, o, x->name, x->kind == TXN_FIELD_HEX, x->max, &e->ext[i])) {
            return false;
        }
    }
    if (!stim_opt(c, o, "id", false, UINT64_MAX, &e->id)) {
        return false;
    }
    e->has_id = json_object_get(o, "id") != NULL;
    return stim_small(c, o, "src", &e->src) && stim_small(c, o, "dst", &e->dst) &&
           stim_small(c, o, "unit", &e->unit);
}

/* threads: [["0x0c0", 4], ...], a wavefront (read or write), each size 1..4096. */
static bool stim_threads(const StimCtx *c, json_t *o, DriverEntry *e)
{
    json_t *v = json_object_get(o, "threads");
    if (!v) {
        return true;
    }
    if (!json_is_array(v) || json_array_size(v) == 0 ||
        (e->cmd != TXN_READ && e->cmd != TXN_WRITE)) {
        return stim_fail(c, "threads",
                         "expected a non-empty array of [addr, size] on a read or write");
    }
    e->nthreads = (uint32_t)json_array_size(v);
    uint64_t sum = 0;
    e->threads = calloc(e->nthreads, sizeof *e->threads);
    if (!e->threads) {
        return stim_fail(c, "threads", "out of memory");
    }
    for (uint32_t i = 0; i < e->nthreads; i++) {
        json_t *th = json_array_get(v, i);
        json_t *pair = json_pack("{sOsO}", "addr", json_array_get(th, 0), "size",
                                 json_array_get(th, 1));
        uint64_t addr = 0, size = 0;
        bool ok = json_is_array(th) && json_array_size(th) == 2 && pair &&
                  stim_uint(c, pair, "addr", true, UINT64_MAX, &addr) &&
                  stim_uint(c, pair, "size", false, 4096, &size) && size > 0;
        json_decref(pair);
        if (!ok) {
            return stim_fail(c, "threads", "entry %u: expected [addr, size 1..4096]", i);
        }
        e->threads[i] = (TxnThread){addr, (uint32_t)size};
        sum += size;
    }
    if (sum != e->len) {
        return stim_fail(c, "threads", "thread sizes add up to %" PRIu64 ", len is %u",
                         sum, e->len);
    }
    return true;
}

static bool stim_known_keys(const StimCtx *c, json_t *o)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        bool known = txn_field_find(key) != NULL;
        for (size_t k = 0; k < sizeof stim_keys / sizeof stim_keys[0]; k++) {
            known = known || strcmp(key, stim_keys[k]) == 0;
        }
        if (!known) {
            return stim_fail(c, key, "unknown stimulus field");
        }
    }
    return true;
}

static bool stim_entry(const StimCtx *c, json_t *o, SimTime prev, DriverEntry *e)
{
    if (!json_is_object(o)) {
        return stim_fail(c, NULL, "expected an object, got %s", json_kind(o));
    }
    if (!stim_known_keys(c, o) || !stim_time(c, o, prev, &e->t)) {
        return false;
    }
    if (!json_object_get(o, "cmd")) {
        return stim_fail(c, NULL, "missing cmd");
    }
    if (!stim_cmd(c, o, "cmd", &e->cmd, &e->declared) || !stim_resp(c, o, e)) {
        return false;
    }
    bool addressed = e->cmd == TXN_READ || e->cmd == TXN_WRITE || e->cmd == TXN_ATOMIC ||
                     e->cmd == TXN_INVALIDATE;
    if (json_object_get(o, "addr")) {
        if (!stim_uint(c, o, "addr", true, UINT64_MAX, &e->addr)) {
            return false;
        }
    } else if (addressed) {
        return stim_fail(c, NULL, "a %s needs addr", txn_cmd_name(e->cmd));
    }
    return stim_payload(c, o, e) && stim_be(c, o, e) && stim_extensions(c, o, e) &&
           stim_threads(c, o, e);
}

void driver_entries_free(DriverEntry *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].data);
        free(v[i].be);
        free(v[i].threads);
    }
    free(v);
}

bool driver_entries_parse(json_t *stimulus, const char *origin, SimTime clock_ps,
                          const TxnCmdDecl *const *cmds, DriverEntry **out, size_t *n,
                          SimError *err)
{
    if (!json_is_array(stimulus)) {
        return sim_error_set(err, "%s: expected an array of entries, got %s", origin,
                             json_kind(stimulus));
    }
    size_t count = json_array_size(stimulus);
    DriverEntry *v = calloc(count ? count : 1, sizeof *v);
    if (!v) {
        return sim_error_set(err, "%s: out of memory", origin);
    }
    StimCtx c = {.origin = origin, .clock = clock_ps, .cmds = cmds, .err = err};
    SimTime prev = 0;
    for (c.index = 0; c.index < count; c.index++) {
        if (!stim_entry(&c, json_array_get(stimulus, c.index), prev, &v[c.index])) {
            driver_entries_free(v, c.index + 1);
            return false;
        }
        prev = v[c.index].t;
    }
    *out = v;
    *n = count;
    return true;
}

Txn *driver_entry_txn(Sim *sim, const DriverEntry *e)
{
    Txn *t = txn_new(sim, e->cmd, e->addr, e->len);
    t->declared = e->declared;
    if (e->has_id) {
        t->id = e->id;
    }
    t->req_cmd = e->req_cmd;
    t->status = e->status;
    if (e->data) {
        txn_set_data(t, e->data);
    }
    if (e->be) {
        memcpy(txn_alloc_be(t), e->be, e->len);
    }
    t->src = e->src;
    t->dst = e->dst;
    t->unit = e->unit;
    t->posted = e->posted;
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        txn_field_set(t, &txn_fields[i], e->ext[i]);
    }
    txn_set_threads(t, e->threads, e->nthreads);
    return t;
}
