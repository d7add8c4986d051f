/* Golden vectors: loading (strict, line-numbered errors), field and record matching,
 * and comparison in the exact / order / set modes (see golden.h, DESIGN.md
 * "Testbenches and golden vectors", docs/testbench-format.md).
 * Decision: in set mode a maximum one-to-one assignment is searched (greedy pass,
 * then augmenting paths), so a general golden record cannot steal the only observed
 * record a more specific one matches. */
#include "golden.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/input_file.h"
#include "kernel/json_util.h"
#include "kernel/trace/trace.h"
#include "kernel/txn.h"

typedef enum FieldKind {
    FK_UINT,   /* non-negative integer, no default */
    FK_ZERO,   /* non-negative integer, default 0 */
    FK_SINT,   /* integer >= -1, default -1 */
    FK_STRING, /* any string */
    FK_EV,     /* "send" or "recv" */
    FK_CMD,    /* a command name */
    FK_STATUS, /* a status name */
    FK_HEX,    /* "0x" hex number, no default */
    FK_HEX0,   /* "0x" hex number, default 0 */
    FK_DATA,   /* "0x" + two digits per byte */
    FK_BOOL,   /* default false */
    FK_LIST,   /* array of non-negative integers, default [] */
} FieldKind;

typedef struct GoldenField {
    const char *key;
    FieldKind kind;
} GoldenField;

/* Fields besides the extension fields of kernel/txn_fields.def (see field_find). */
static const GoldenField golden_fields[] = {
    {"t", FK_UINT},      {"port", FK_STRING}, {"ev", FK_EV},         {"id", FK_UINT},
    {"cmd", FK_CMD},     {"req", FK_CMD},     {"status", FK_STATUS}, {"addr", FK_HEX},
    {"len", FK_UINT},    {"src", FK_SINT},    {"dst", FK_SINT},      {"unit", FK_SINT},
    {"posted", FK_BOOL}, {"data", FK_DATA},   {"be", FK_HEX},        {"parent", FK_LIST},
};

/* The field named key: a fixed one or an extension field (a hex one compares as a
 * hex number, default 0; another as an integer, default 0). False if unknown. */
static bool field_find(const char *key, GoldenField *out)
{
    for (size_t i = 0; i < sizeof golden_fields / sizeof golden_fields[0]; i++) {
        if (strcmp(golden_fields[i].key, key) == 0) {
            *out = golden_fields[i];
            return true;
        }
    }
    const TxnField *x = txn_field_find(key);
    if (!x) {
        return false;
    }
    *out = (GoldenField){x->name, x->kind == TXN_FIELD_HEX ? FK_HEX0 : FK_ZERO};
    return true;
}

static const char *const mode_names[] = {"exact", "order", "set"};

bool golden_mode_parse(const char *name, GoldenMode *out)
{
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, mode_names[i]) == 0) {
            *out = (GoldenMode)i;
            return true;
        }
    }
    return false;
}

const char *golden_mode_name(GoldenMode mode)
{
    return mode_names[mode];
}

/* Hex string with at least one digit after "0x"? (data: an even number, maybe 0) */
static bool hex_ok(const char *s, bool data)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
        return false;
    }
    size_t n = 0;
    for (const char *c = s + 2; *c; c++, n++) {
        if (trace_hex_digit(*c) < 0) {
            return false;
        }
    }
    return data ? n % 2 == 0 : n > 0;
}

static bool value_check(const GoldenField *f, json_t *v, const TxnCmdDecl *const *cmds,
                        SimError *err)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    json_int_t i = json_is_integer(v) ? json_integer_value(v) : -2;
    TxnCmd cmd;
    const TxnCmdDecl *decl;
    TxnStatus st;
    switch (f->kind) {
    case FK_UINT:
    case FK_ZERO:
        return i >= 0 ||
               sim_error_set(err, "/%s: expected a non-negative integer, got %s", f->key,
                             json_kind(v));
    case FK_SINT:
        return i >= -1 || sim_error_set(err, "/%s: expected an integer >= -1, got %s",
                                        f->key, json_kind(v));
    case FK_STRING:
        return s ||
               sim_error_set(err, "/%s: expected a string, got %s", f->key, json_kind(v));
    case FK_EV:
        return (s && (strcmp(s, "send") == 0 || strcmp(s, "recv") == 0)) ||
               sim_error_set(err, "/ev: expected \"send\" or \"recv\"");
    case FK_CMD:
        return (s && txn_cmd_parse(s, cmds, &cmd, &decl)) ||
               sim_error_set(err,
                             "/%s: expected a command name (read, write, atomic,"
                             " invalidate, release, kernel_begin, kernel_end, resp)",
                             f->key);
    case FK_STATUS:
        return (s && txn_status_parse(s, &st)) ||
               sim_error_set(err, "/status: expected a status name (ok, address_error,"
                                  " command_error, generic_error, incomplete)");
    case FK_HEX:
    case FK_HEX0:
        return (s && hex_ok(s, false)) ||
               sim_error_set(err, "/%s: expected a \"0x\" hex string", f->key);
    case FK_DATA:
        return (s && hex_ok(s, true)) ||
               sim_error_set(err, "/data: expected \"0x\" and two hex digits per byte");
    case FK_BOOL:
        return json_is_boolean(v) ||
               sim_error_set(err, "/%s: expected true or false, got %s", f->key,
                             json_kind(v));
    case FK_LIST:
        break;
    }
    bool ok = json_is_array(v);
    for (size_t k = 0; ok && k < json_array_size(v); k++) {
        json_t *e = json_array_get(v, k);
        ok = json_is_integer(e) && json_integer_value(e) >= 0;
    }
    return ok ||
           sim_error_set(err, "/%s: expected an array of non-negative integers", f->key);
}

bool golden_record_check(json_t *rec, const TxnCmdDecl *const *cmds, SimError *err)
{
    if (!json_is_object(rec)) {
        return sim_error_set(err, "expected a JSON object, got %s", json_kind(rec));
    }
    const char *key;
    json_t *v;
    json_object_foreach(rec, key, v) {
        GoldenField f;
        if (!field_find(key, &f)) {
            return sim_error_set(err, "/%s: unknown record field", key);
        }
        if (!value_check(&f, v, cmds, err)) {
            return false;
        }
    }
    return true;
}

/* The digits of a valid hex string without "0x" and leading zeros (at least one). */
static const char *hex_digits(const char *s)
{
    s += 2;
    while (*s == '0' && s[1]) {
        s++;
    }
    return s;
}

static bool list_equal(const json_t *a, const json_t *b)
{
    size_t na = json_array_size(a), nb = b ? json_array_size(b) : 0;
    if (na != nb) {
        return false;
    }
    for (size_t k = 0; k < na; k++) {
        if (json_integer_value(json_array_get(a, k)) !=
            json_integer_value(json_array_get(b, k))) {
            return false;
        }
    }
    return true;
}

bool golden_field_match(const char *key, const json_t *gv, const json_t *ov)
{
    GoldenField field;
    if (!field_find(key, &field)) {
        return false;
    }
    const GoldenField *f = &field;
    switch (f->kind) {
    case FK_UINT:
        return json_is_integer(ov) && json_integer_value(ov) == json_integer_value(gv);
    case FK_ZERO:
    case FK_SINT: {
        json_int_t def = f->kind == FK_SINT ? -1 : 0;
        json_int_t o = ov ? json_integer_value(ov) : def;
        return (!ov || json_is_integer(ov)) && o == json_integer_value(gv);
    }
    case FK_STRING:
    case FK_EV:
    case FK_CMD:
    case FK_STATUS:
        return json_is_string(ov) &&
               strcmp(json_string_value(ov), json_string_value(gv)) == 0;
    case FK_HEX:
    case FK_HEX0: {
        const char *o = json_is_string(ov)            ? json_string_value(ov)
                        : (!ov && f->kind == FK_HEX0) ? "0x0"
                                                      : NULL;
        if (!o || !hex_ok(o, false)) {
            return false;
        }
        const char *a = hex_digits(json_string_value(gv)), *b = hex_digits(o);
        return strlen(a) == strlen(b) && strcasecmp(a, b) == 0;
    }
    case FK_DATA:
        return json_is_string(ov) &&
               strlen(json_string_value(ov)) == strlen(json_string_value(gv)) &&
               strcasecmp(json_string_value(ov), json_string_value(gv)) == 0;
    case FK_BOOL:
        return (ov ? json_is_true(ov) : false) == json_is_true(gv) &&
               (!ov || json_is_boolean(ov));
    case FK_LIST:
        break;
    }
    return (!ov || json_is_array(ov)) && list_equal(gv, ov);
}

bool golden_record_match(const json_t *golden, const json_t *observed, bool with_time)
{
    const char *key;
    json_t *gv;
    json_object_foreach((json_t *)golden, key, gv) {
        if (!with_time && strcmp(key, "t") == 0) {
            continue;
        }
        if (!golden_field_match(key, gv, json_object_get(observed, key))) {
            return false;
        }
    }
    return true;
}

static bool golden_add(Golden *g, json_t *rec, size_t line, size_t *cap)
{
    size_t n = json_array_size(g->records);
    if (n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        size_t *lines = realloc(g->lines, ncap * sizeof *lines);
        if (!lines) {
            return false;
        }
        g->lines = lines;
        *cap = ncap;
    }
    g->lines[n] = line;
    return json_array_append_new(g->records, rec) == 0;
}

static bool blank(const char *s)
{
    return s[strspn(s, " \t\r\n")] == '\0';
}

static bool golden_read(FILE *f, const TxnCmdDecl *const *cmds, Golden *g, SimError *err)
{
    char *line = NULL;
    size_t size = 0, cap = 0, lineno = 0;
    ssize_t len;
    bool ok = true;
    while (ok && (len = getline(&line, &size, f)) >= 0) {
        lineno++;
        if (blank(line)) {
            continue;
        }
        json_error_t jerr;
        SimError rerr;
        json_t *rec = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES, &jerr);
        if (!rec) {
            ok = sim_error_set(err, "%s:%zu:%d: %s", g->path, lineno, jerr.column,
                               jerr.text);
        } else if (!golden_record_check(rec, cmds, &rerr)) {
            json_decref(rec);
            ok = sim_error_set(err, "%s:%zu: %s", g->path, lineno, rerr.msg);
        } else if (!golden_add(g, rec, lineno, &cap)) {
            ok = sim_error_set(err, "%s: out of memory", g->path);
        }
    }
    int why = errno;
    free(line);
    errno = why;
    return ok && input_file_at_end(f, g->path, err);
}

bool golden_load(const char *path, const TxnCmdDecl *const *cmds, Golden *out,
                 SimError *err)
{
    memset(out, 0, sizeof *out);
    SimError why;
    FILE *f = input_file_open(path, INPUT_FILE_WHOLE_MAX, &why);
    if (!f) {
        return sim_error_set(err, "%s: cannot open: %s", path, why.msg);
    }
    out->path = strdup(path);
    out->records = json_array();
    bool ok = out->path && out->records ? golden_read(f, cmds, out, err)
                                        : sim_error_set(err, "%s: out of memory", path);
    fclose(f);
    if (!ok) {
        golden_free(out);
    }
    return ok;
}

void golden_free(Golden *g)
{
    free(g->path);
    json_decref(g->records);
    free(g->lines);
    memset(g, 0, sizeof *g);
}
