/* Testbench loading: the document's keys and values, the golden file, the platform
 * (a file relative to the testbench, or inline) with the testbench's `set` and
 * `trace` (a trace folder relative to the testbench, given to the loader as the set
 * of the platform value trace, so a trace-driven testbench runs from any directory;
 * the loader's messages about that value are blamed on /trace), and the
 * testbench instances: each drive entry becomes `tb.<name>` of type driver (port
 * "out"), each sink entry `tb.<name>` of type sink (port "in"); drivers are added
 * first (file order, so their transactions get ids 1, 2, 3, ...), then sinks. An
 * entry's "port" is wired to its out/in port with "latency" (default 0ns); the port
 * must be unbound, and may be another testbench instance's port ("tb.s0.in"), which
 * then needs no "port" of its own. See docs/testbench-format.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/json_util.h"
#include "kernel/platform/json_file.h"
#include "kernel/units.h"
#include "testbench_priv.h"

static const char *const tb_keys[] = {
    "name",    "doc",    "platform", "set",   "trace",         "drive", "sinks",
    "observe", "golden", "match",    "until", "expect_errors", NULL};
static const char *const drive_keys[] = {"port", "latency", "params", "stimulus", NULL};
static const char *const sink_keys[] = {"port", "latency", "params", NULL};

bool tb_fail(const Tb *tb, const char *pointer, SimError *err, const char *fmt, ...)
{
    char msg[SIM_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return sim_error_set(err, "%s: %s: %s", tb->path, *pointer ? pointer : "/", msg);
}

static bool check_keys(const Tb *tb, json_t *obj, const char *pointer,
                       const char *const *allowed, SimError *err)
{
    if (!json_is_object(obj)) {
        return tb_fail(tb, pointer, err, "expected an object, got %s", json_kind(obj));
    }
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t k = 0;
        while (allowed[k] && strcmp(allowed[k], key) != 0) {
            k++;
        }
        if (!allowed[k]) {
            char at[512] = "";
            snprintf(at, sizeof at, "%s", pointer);
            return tb_fail(tb, json_pointer_push(at, sizeof at, key), err, "unknown key");
        }
    }
    return true;
}

/* The string member key of the document (NULL if absent); fails on another type. */
static bool doc_string(const Tb *tb, const char *key, bool required, const char **out,
                       SimError *err)
{
    json_t *v = json_object_get(tb->doc, key);
    char at[64];
    snprintf(at, sizeof at, "/%s", key);
    *out = json_string_value(v);
    if (!v && required) {
        return tb_fail(tb, "/", err, "missing \"%s\"", key);
    }
    return !v || *out || tb_fail(tb, at, err, "expected a string, got %s", json_kind(v));
}

/* "/<section>/<name>[/<leaf>]" into buf (escaped, truncated to fit). */
static char *entry_at(char *buf, size_t n, const char *section, const char *name,
                      const char *leaf)
{
    buf[0] = '\0';
    json_pointer_push(json_pointer_push(buf, n, section), n, name);
    return leaf ? json_pointer_push(buf, n, leaf) : buf;
}

/* rel resolved against the testbench's directory (new string, caller frees). */
static char *tb_resolve(const Tb *tb, const char *rel)
{
    const char *slash = strrchr(tb->path, '/');
    if (rel[0] == '/' || !slash) {
        return strdup(rel);
    }
    size_t len = (size_t)(slash - tb->path) + strlen(rel) + 2;
    char *out = malloc(len);
    if (out) {
        snprintf(out, len, "%.*s/%s", (int)(slash - tb->path), tb->path, rel);
    }
    return out;
}

static bool tb_read_header(Tb *tb, SimError *err)
{
    const char *name, *doc, *match, *golden;
    if (!check_keys(tb, tb->doc, "", tb_keys, err) ||
        !doc_string(tb, "name", false, &name, err) ||
        !doc_string(tb, "doc", false, &doc, err) ||
        !doc_string(tb, "match", false, &match, err) ||
        !doc_string(tb, "golden", true, &golden, err)) {
        return false;
    }
    tb->name = name ? name : tb->path;
    tb->mode = GOLDEN_EXACT;
    if (match && !golden_mode_parse(match, &tb->mode)) {
        return tb_fail(tb, "/match", err, "unknown mode '%s' (exact, order or set)",
                       match);
    }
    if (!json_object_get(tb->doc, "observe")) {
        return tb_fail(tb, "/", err, "missing \"observe\"");
    }
    char *gpath = tb_resolve(tb, golden);
    if (!gpath) {
        return tb_fail(tb, "/golden", err, "out of memory");
    }
    bool ok = golden_load(gpath, registry_cmds(tb->registry), &tb->golden, err);
    free(gpath);
    if (!ok) {
        char msg[SIM_ERROR_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return tb_fail(tb, "/golden", err, "%s", msg);
    }
    return true;
}

/* The set object the loader applies: the testbench's `set` (borrowed into a new
 * reference) plus, when `trace` is given, "trace" = that folder resolved against the
 * testbench. *out: new reference or NULL (neither given). */
static bool tb_sets(const Tb *tb, json_t *set, json_t **out, SimError *err)
{
    const char *trace;
    *out = NULL;
    if (!doc_string(tb, "trace", false, &trace, err)) {
        return false;
    }
    if (!trace) {
        *out = json_incref(set);
        return true;
    }
    if (set && json_object_get(set, "trace")) {
        return tb_fail(tb, "/trace", err, "the trace is given twice (also /set/trace)");
    }
    if (!*trace) {
        return tb_fail(tb, "/trace", err, "empty trace folder name");
    }
    char *dir = tb_resolve(tb, trace);
    struct stat st;
    if (!dir) {
        return tb_fail(tb, "/trace", err, "out of memory");
    }
    const char *why = stat(dir, &st) != 0    ? strerror(errno)
                      : !S_ISDIR(st.st_mode) ? "not a folder"
                                             : NULL;
    if (why) {
        tb_fail(tb, "/trace", err, "%s: cannot open: %s", dir, why);
        free(dir);
        return false;
    }
    *out = set ? json_deep_copy(set) : json_object();
    if (!*out || json_object_set_new(*out, "trace", json_string(dir)) != 0) {
        free(dir);
        return tb_fail(tb, "/trace", err, "out of memory");
    }
    free(dir);
    return true;
}

/* Blames an error the loader put on the merged set's trace on /trace instead. */
static void tb_blame_trace(const Tb *tb, SimError *err)
{
    char at[SIM_ERROR_MAX];
    int n = snprintf(at, sizeof at, "%s: /set/trace: ", tb->path);
    if (n > 0 && (size_t)n < sizeof at && strncmp(err->msg, at, (size_t)n) == 0) {
        char msg[SIM_ERROR_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg + n);
        tb_fail(tb, "/trace", err, "%s", msg);
    }
}

static bool tb_read_platform(Tb *tb, SimError *err)
{
    json_t *plat = json_object_get(tb->doc, "platform");
    json_t *set = json_object_get(tb->doc, "set");
    if (!plat) {
        return tb_fail(tb, "/", err, "missing \"platform\"");
    }
    if (!json_is_string(plat) && !json_is_object(plat)) {
        return tb_fail(tb, "/platform", err, "expected a file name or an object, got %s",
                       json_kind(plat));
    }
    if (set && !json_is_object(set)) {
        return tb_fail(tb, "/set", err, "expected an object, got %s", json_kind(set));
    }
    json_t *sets;
    if (!tb_sets(tb, set, &sets, err)) {
        return false;
    }
    char *file = json_is_string(plat) ? tb_resolve(tb, json_string_value(plat)) : NULL;
    PlatformLoadArgs a = {
        .registry = tb->registry,
        .path = file ? file : tb->path,
        .inline_doc = json_is_object(plat) ? plat : NULL,
        .inline_pointer = json_is_object(plat) ? "/platform" : NULL,
        .sets = sets,
        .sets_file = tb->path,
        .sets_pointer = "/set",
    };
    if (json_is_string(plat) && !file) {
        json_decref(sets);
        return tb_fail(tb, "/platform", err, "out of memory");
    }
    if (file && access(file, R_OK) != 0) {
        tb_fail(tb, "/platform", err, "%s: cannot open: %s", file, strerror(errno));
        free(file);
        json_decref(sets);
        return false;
    }
    tb->has_desc = platform_load_args(&a, &tb->desc, err);
    if (!tb->has_desc && sets != set) {
        tb_blame_trace(tb, err);
    }
    free(file);
    json_decref(sets);
    return tb->has_desc;
}

static bool valid_ident(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) {
        return false;
    }
    for (s++; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_')) {
            return false;
        }
    }
    return true;
}

/* Adds tb.<name> of type for every entry of the section ("drive" or "sinks"). */
static bool tb_add_instances(Tb *tb, const char *section, const char *type,
                             const char *const *keys, SimError *err)
{
    json_t *entries = json_object_get(tb->doc, section), *e;
    char at[512] = "", leaf[512];
    const char *name;
    if (entries && !json_is_object(entries)) {
        return tb_fail(tb, json_pointer_push(at, sizeof at, section), err,
                       "expected an object, got %s", json_kind(entries));
    }
    json_object_foreach(entries, name, e) {
        entry_at(at, sizeof at, section, name, NULL);
        if (!valid_ident(name)) {
            return tb_fail(tb, at, err,
                           "a testbench instance name must be an identifier"
                           " ([A-Za-z_][A-Za-z0-9_]*)");
        }
        if (!check_keys(tb, e, at, keys, err)) {
            return false;
        }
        json_t *params = json_object_get(e, "params");
        if (params && !json_is_object(params)) {
            return tb_fail(tb, entry_at(leaf, sizeof leaf, section, name, "params"), err,
                           "expected an object, got %s", json_kind(params));
        }
        char inst[128], origin[SIM_ERROR_MAX];
        snprintf(inst, sizeof inst, "tb.%s", name);
        snprintf(origin, sizeof origin, "%s: %s", tb->path, at);
        if (!platform_desc_add_instance(&tb->desc, inst, type, -1, params, origin, err)) {
            char msg[SIM_ERROR_MAX];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return tb_fail(tb, at, err, "%s", msg);
        }
    }
    return true;
}

/* Wires <instance>.<own port> of every entry that has "port". */
static bool tb_add_wires(Tb *tb, const char *section, const char *own, SimError *err)
{
    json_t *e;
    const char *name;
    json_object_foreach(json_object_get(tb->doc, section), name, e) {
        char at[512];
        json_t *port = json_object_get(e, "port"), *lat = json_object_get(e, "latency");
        SimTime latency = 0;
        SimError uerr;
        if (lat && (!json_is_string(lat) ||
                    !units_parse_time(json_string_value(lat), tb->desc.info.clock,
                                      &latency, &uerr))) {
            return tb_fail(tb, entry_at(at, sizeof at, section, name, "latency"), err,
                           "%s",
                           json_is_string(lat) ? uerr.msg : "expected a time string");
        }
        if (!port) {
            continue;
        }
        entry_at(at, sizeof at, section, name, "port");
        if (!json_is_string(port)) {
            return tb_fail(tb, at, err, "expected a port name, got %s", json_kind(port));
        }
        const char *target = json_string_value(port);
        const PlatformWire *w = platform_desc_wire_of(&tb->desc, target);
        if (w) {
            return tb_fail(tb, at, err, "%s is already wired to %s (%s)", target,
                           strcmp(w->a, target) == 0 ? w->b : w->a, w->origin);
        }
        char mine[160], origin[SIM_ERROR_MAX];
        snprintf(mine, sizeof mine, "tb.%s.%s", name, own);
        snprintf(origin, sizeof origin, "%s: %s", tb->path, at);
        if (!platform_desc_add_wire(&tb->desc, mine, target, latency, origin, err)) {
            char msg[SIM_ERROR_MAX];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return tb_fail(tb, at, err, "%s", msg);
        }
    }
    return true;
}

static bool tb_read_until(Tb *tb, SimError *err)
{
    const char *until;
    SimError uerr;
    tb->until = SIM_TIME_MAX;
    if (!doc_string(tb, "until", false, &until, err)) {
        return false;
    }
    if (until && !units_parse_time(until, tb->desc.info.clock, &tb->until, &uerr)) {
        return tb_fail(tb, "/until", err, "%s", uerr.msg);
    }
    return true;
}

/* `expect_errors`: an object of counter names and the value each must end at. The
 * names are checked against the built platform (tb_check_expected). */
static bool tb_read_expected(Tb *tb, SimError *err)
{
    json_t *exp = json_object_get(tb->doc, "expect_errors"), *v;
    const char *name;
    if (exp && !json_is_object(exp)) {
        return tb_fail(tb, "/expect_errors", err, "expected an object, got %s",
                       json_kind(exp));
    }
    json_object_foreach(exp, name, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            char at[512] = "";
            json_pointer_push(json_pointer_push(at, sizeof at, "expect_errors"),
                              sizeof at, name);
            if (json_is_integer(v)) {
                return tb_fail(tb, at, err,
                               "expected a counter value (an integer >= 0), got %lld",
                               (long long)json_integer_value(v));
            }
            return tb_fail(tb, at, err,
                           "expected a counter value (an integer >= 0), got %s",
                           json_kind(v));
        }
    }
    return true;
}

bool tb_check_expected(const Tb *tb, SimError *err)
{
    json_t *v;
    const char *name;
    json_object_foreach(json_object_get(tb->doc, "expect_errors"), name, v) {
        if (!stats_find_counter(tb->p->stats, name)) {
            char at[512] = "";
            json_pointer_push(json_pointer_push(at, sizeof at, "expect_errors"),
                              sizeof at, name);
            return tb_fail(tb, at, err, "no counter %s in the platform", name);
        }
    }
    return true;
}

bool tb_load(Tb *tb, SimError *err)
{
    tb->doc = json_file_load(tb->path, err);
    if (!tb->doc) {
        return false;
    }
    if (!json_is_object(tb->doc)) {
        return tb_fail(tb, "/", err, "expected a testbench object, got %s",
                       json_kind(tb->doc));
    }
    return tb_read_header(tb, err) && tb_read_platform(tb, err) &&
           tb_add_instances(tb, "drive", "driver", drive_keys, err) &&
           tb_add_instances(tb, "sinks", "sink", sink_keys, err) &&
           tb_add_wires(tb, "drive", "out", err) &&
           tb_add_wires(tb, "sinks", "in", err) && tb_read_until(tb, err) &&
           tb_read_expected(tb, err);
}
