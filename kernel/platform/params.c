/* Parameter tables: strict conversion of JSON values into state-struct fields,
 * bounds checks, defaults, canonical JSON for dumps, and the common "buffer"
 * parameter every block type has (see params.h for the accepted JSON per type).
 *
 * Decision: a default (ParamDef.def) is converted like a user value: PT_U64, PT_BOOL,
 * PT_DOUBLE and PT_U64_LIST defaults are JSON text ("64", "true", "0.5", "[1,2]"), a
 * PT_SIZE default is JSON when it parses as JSON ("64") and a unit string otherwise,
 * every other default is taken as a string. An invalid default is reported as
 * "default of <key>: <message>" (a bug in the block's table, caught by unit tests).
 * Decision: a table's max 0 means the type's maximum (params.h), so every numeric
 * parameter has a maximum the model can honour: times up to 1 s keep every
 * `now + latency` far from the end of 64-bit time. */
#include "params.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/units.h"

#define PARAMS_STR2(x) #x
#define PARAMS_STR(x) PARAMS_STR2(x)

static const ParamDef params_buffer = {
    .key = BLOCK_BUFFER_KEY,
    .offset = offsetof(Block, buffer),
    .type = PT_U64,
    .def = PARAMS_STR(BLOCK_BUFFER_DEFAULT),
    .min = 1,
    .max = 65536,
    .doc = "receive-buffer slots of each port of the block",
};

const ParamDef *params_buffer_def(void)
{
    return &params_buffer;
}

static void *params_field(void *state, const ParamDef *d)
{
    return (char *)state + d->offset;
}

static const void *params_cfield(const void *state, const ParamDef *d)
{
    return (const char *)state + d->offset;
}

static void params_store_u64(void *state, const ParamDef *d, uint64_t v)
{
    if (d == &params_buffer) {
        *(uint32_t *)params_field(state, d) = (uint32_t)v;
    } else {
        *(uint64_t *)params_field(state, d) = v;
    }
}

static uint64_t params_load_u64(const void *state, const ParamDef *d)
{
    if (d == &params_buffer) {
        return *(const uint32_t *)params_cfield(state, d);
    }
    return *(const uint64_t *)params_cfield(state, d);
}

const char *params_type_name(ParamType t)
{
    switch (t) {
    case PT_U64:
        return "u64";
    case PT_BOOL:
        return "bool";
    case PT_DOUBLE:
        return "double";
    case PT_TIME:
        return "time";
    case PT_SIZE:
        return "size";
    case PT_BW:
        return "bandwidth";
    case PT_FREQ:
        return "frequency";
    case PT_ENUM:
        return "enum";
    case PT_STRING:
        return "string";
    case PT_U64_LIST:
        return "u64 list";
    }
    return "?";
}

const char *params_format_base(ParamType t, uint64_t v, char *buf)
{
    switch (t) {
    case PT_TIME:
        return units_format_time(v, buf);
    case PT_SIZE:
        return units_format_size(v, buf);
    case PT_BW:
        return units_format_bandwidth(v, buf);
    case PT_FREQ:
        return units_format_freq(v, buf);
    default:
        snprintf(buf, UNITS_BUF, "%" PRIu64, v);
        return buf;
    }
}

/* The value as the user wrote it, for messages. */
static const char *params_shown(json_t *v, char *buf, size_t n)
{
    if (json_is_string(v)) {
        snprintf(buf, n, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else {
        snprintf(buf, n, "%s", json_kind(v));
    }
    return buf;
}

uint64_t params_type_max(ParamType t)
{
    switch (t) {
    case PT_U64:
        return PARAMS_U64_MAX;
    case PT_TIME:
        return PARAMS_TIME_MAX;
    case PT_BW:
        return PARAMS_BW_MAX;
    case PT_FREQ:
        return PARAMS_FREQ_MAX;
    case PT_U64_LIST:
        return PARAMS_LIST_MAX;
    default:
        return UINT64_MAX;
    }
}

uint64_t params_max(const ParamDef *d)
{
    return d->max ? d->max : params_type_max(d->type);
}

bool params_parse_latency(const char *s, SimTime clock_ps, SimTime *out, SimError *err)
{
    char b[UNITS_BUF];
    if (!units_parse_time(s, clock_ps, out, err)) {
        return false;
    }
    if (*out > PARAMS_TIME_MAX) {
        return sim_error_set(err, "%s is above maximum %s", s,
                             units_format_time(PARAMS_TIME_MAX, b));
    }
    return true;
}

static bool params_bounds(const ParamDef *d, uint64_t v, const char *shown, SimError *err)
{
    char b[UNITS_BUF];
    ParamType t = d->type == PT_U64_LIST ? PT_U64 : d->type;
    if (v < d->min) {
        return sim_error_set(err, "%s is below minimum %s", shown,
                             params_format_base(t, d->min, b));
    }
    if (v > params_max(d)) {
        return sim_error_set(err, "%s is above maximum %s", shown,
                             params_format_base(t, params_max(d), b));
    }
    return true;
}

static bool params_expected(const char *what, json_t *v, SimError *err)
{
    return sim_error_set(err, "expected %s, got %s", what, json_kind(v));
}

static bool params_nonneg(json_t *v, uint64_t *out, SimError *err)
{
    if (!json_is_integer(v)) {
        return params_expected("a non-negative integer", v, err);
    }
    json_int_t i = json_integer_value(v);
    if (i < 0) {
        return sim_error_set(
            err, "expected a non-negative integer, got %" JSON_INTEGER_FORMAT, i);
    }
    *out = (uint64_t)i;
    return true;
}

/* PT_TIME, PT_SIZE, PT_BW, PT_FREQ: the value in base units. */
static bool params_unit(const ParamDef *d, json_t *v, const PlatformInfo *pi,
                        uint64_t *out, SimError *err)
{
    if (d->type == PT_SIZE && json_is_integer(v)) {
        return params_nonneg(v, out, err);
    }
    if (!json_is_string(v)) {
        switch (d->type) {
        case PT_TIME:
            return params_expected("a time string like \"30ns\"", v, err);
        case PT_SIZE:
            return params_expected("a size (bytes or a string like \"64KiB\")", v, err);
        case PT_BW:
            return params_expected("a bandwidth string like \"32GB/s\"", v, err);
        default:
            return params_expected("a frequency string like \"1GHz\"", v, err);
        }
    }
    const char *s = json_string_value(v);
    switch (d->type) {
    case PT_TIME:
        return units_parse_time(s, pi ? pi->clock : 0, out, err);
    case PT_SIZE:
        return units_parse_size(s, out, err);
    case PT_BW:
        return units_parse_bandwidth(s, out, err);
    default:
        return units_parse_freq(s, out, err);
    }
}

static bool params_enum(void *state, const ParamDef *d, json_t *v, SimError *err)
{
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; d->choices && d->choices[i]; i++) {
        if (json_is_string(v) && strcmp(json_string_value(v), d->choices[i]) == 0) {
            *(int *)params_field(state, d) = i;
            return true;
        }
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         d->choices[i]);
        if (w > 0 && used + (size_t)w < sizeof list) {
            used += (size_t)w;
        }
    }
    if (!json_is_string(v)) {
        return sim_error_set(err, "expected one of %s, got %s", list, json_kind(v));
    }
    return sim_error_set(err, "unknown choice \"%s\" (choices: %s)", json_string_value(v),
                         list);
}

static bool params_list(void *state, const ParamDef *d, json_t *v, SimError *err)
{
    if (!json_is_array(v)) {
        return params_expected("an array of non-negative integers", v, err);
    }
    size_t n = json_array_size(v);
    char shown[64];
    snprintf(shown, sizeof shown, "list length %zu", n);
    if (!params_bounds(d, n, shown, err)) {
        return false;
    }
    uint64_t *vals = n ? calloc(n, sizeof *vals) : NULL;
    if (n && !vals) {
        return sim_error_set(err, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        if (!params_nonneg(json_array_get(v, i), &vals[i], err)) {
            free(vals);
            char at[32];
            snprintf(at, sizeof at, "element %zu", i);
            return sim_error_prefix(err, at);
        }
    }
    U64List *l = params_field(state, d);
    l->n = n;
    l->v = vals;
    return true;
}

static bool params_double(void *state, const ParamDef *d, json_t *v, SimError *err)
{
    if (!json_is_number(v)) {
        return params_expected("a number", v, err);
    }
    double x = json_number_value(v);
    if (d->dmax > d->dmin && x < d->dmin) {
        return sim_error_set(err, "%g is below minimum %g", x, d->dmin);
    }
    if (d->dmax > d->dmin && x > d->dmax) {
        return sim_error_set(err, "%g is above maximum %g", x, d->dmax);
    }
    *(double *)params_field(state, d) = x;
    return true;
}

static bool params_set(void *state, const ParamDef *d, json_t *v, const PlatformInfo *pi,
                       SimError *err)
{
    uint64_t u;
    char shown[256];
    switch (d->type) {
    case PT_U64:
        if (!params_nonneg(v, &u, err) ||
            !params_bounds(d, u, params_shown(v, shown, sizeof shown), err)) {
            return false;
        }
        params_store_u64(state, d, u);
        return true;
    case PT_TIME:
    case PT_SIZE:
    case PT_BW:
    case PT_FREQ:
        if (!params_unit(d, v, pi, &u, err) ||
            !params_bounds(d, u, params_shown(v, shown, sizeof shown), err)) {
            return false;
        }
        *(uint64_t *)params_field(state, d) = u;
        return true;
    case PT_BOOL:
        if (!json_is_boolean(v)) {
            return params_expected("true or false", v, err);
        }
        *(bool *)params_field(state, d) = json_is_true(v);
        return true;
    case PT_DOUBLE:
        return params_double(state, d, v, err);
    case PT_ENUM:
        return params_enum(state, d, v, err);
    case PT_STRING: {
        if (!json_is_string(v)) {
            return params_expected("a string", v, err);
        }
        char *s = strdup(json_string_value(v));
        if (!s) {
            return sim_error_set(err, "out of memory");
        }
        *(char **)params_field(state, d) = s;
        return true;
    }
    case PT_U64_LIST:
        return params_list(state, d, v, err);
    }
    return sim_error_set(err, "parameter %s has an unknown type", d->key);
}

/* The default of d as a JSON value (new reference), NULL if it is not valid JSON. */
static json_t *params_default(const ParamDef *d)
{
    switch (d->type) {
    case PT_U64:
    case PT_BOOL:
    case PT_DOUBLE:
    case PT_U64_LIST:
        return json_loads(d->def, JSON_DECODE_ANY, NULL);
    case PT_SIZE: {
        json_t *v = json_loads(d->def, JSON_DECODE_ANY, NULL);
        return v ? v : json_string(d->def);
    }
    default:
        return json_string(d->def);
    }
}

bool params_apply(void *state, const ParamDef *d, json_t *value, const PlatformInfo *pi,
                  SimError *err)
{
    if (value) {
        return params_set(state, d, value, pi, err);
    }
    if (!d->def) {
        return sim_error_set(err, "missing required parameter %s", d->key);
    }
    json_t *def = params_default(d);
    if (!def) {
        return sim_error_set(err, "default of %s: \"%s\" is not valid JSON", d->key,
                             d->def);
    }
    bool ok = params_set(state, d, def, pi, err);
    json_decref(def);
    if (!ok) {
        char what[128];
        snprintf(what, sizeof what, "default of %s", d->key);
        sim_error_prefix(err, what);
    }
    return ok;
}

void params_release(void *state, const ParamDef *defs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (defs[i].type == PT_STRING) {
            char **s = params_field(state, &defs[i]);
            free(*s);
            *s = NULL;
        } else if (defs[i].type == PT_U64_LIST) {
            U64List *l = params_field(state, &defs[i]);
            free(l->v);
            l->v = NULL;
            l->n = 0;
        }
    }
}

const ParamDef *params_find(const BlockType *t, const char *key)
{
    for (size_t i = 0; i < t->nparams; i++) {
        if (strcmp(t->params[i].key, key) == 0) {
            return &t->params[i];
        }
    }
    return strcmp(key, BLOCK_BUFFER_KEY) == 0 ? &params_buffer : NULL;
}

json_t *params_to_json(const void *state, const ParamDef *d)
{
    char buf[UNITS_BUF];
    switch (d->type) {
    case PT_U64:
        return json_integer((json_int_t)params_load_u64(state, d));
    case PT_TIME:
    case PT_SIZE:
    case PT_BW:
    case PT_FREQ:
        return json_string(
            params_format_base(d->type, *(const uint64_t *)params_cfield(state, d), buf));
    case PT_BOOL:
        return json_boolean(*(const bool *)params_cfield(state, d));
    case PT_DOUBLE:
        return json_real(*(const double *)params_cfield(state, d));
    case PT_ENUM:
        return json_string(d->choices[*(const int *)params_cfield(state, d)]);
    case PT_STRING: {
        const char *s = *(char *const *)params_cfield(state, d);
        return json_string(s ? s : "");
    }
    case PT_U64_LIST: {
        const U64List *l = params_cfield(state, d);
        json_t *a = json_array();
        for (size_t i = 0; a && i < l->n; i++) {
            json_array_append_new(a, json_integer((json_int_t)l->v[i]));
        }
        return a;
    }
    }
    return json_null();
}
