/* VCD log for GTKWave: one file DIR/trace.vcd, timescale 1 ps. Each observed port
 * is a scope on the path of its name (gpu0 > xbar > cu_1 for "gpu0.xbar.cu[1]";
 * '[' becomes '_', ']' is dropped and other characters outside [A-Za-z0-9_] become
 * '_') holding four signals: `id` (64 bits, id of the last transaction recorded),
 * `cmd` (4 bits, its command code: 0 read, 1 write, 2 atomic, 3 invalidate,
 * 4 release, 5 kernel_begin, 6 kernel_end, 7 resp, 8 + k for the k-th declared
 * command of the platform's registry, PlatformInfo.cmds given in the layout (with
 * the shipped hardware
 * 8 monitor, 9 mode), 15 for a declared command past the 7th or not in that list),
 * `send` (1 = last event was a send, 0 = an arrival)
 * and `count` (64 bits, events recorded so far).
 * Streaming: value changes are written when simulated time moves past their time
 * step, one change per signal per step (the last value of the step), so only the
 * ports touched in the current step are held. */
#include "trace_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/block.h"

enum { VCD_ID, VCD_CMD, VCD_SEND, VCD_COUNT, VCD_NSIG };

/* The cmd code of declared commands the registry does not place below it. */
#define VCD_CMD_OTHER 15u

static const char *const vcd_sig_name[VCD_NSIG] = {"id", "cmd", "send", "count"};
static const unsigned vcd_sig_width[VCD_NSIG] = {64, 4, 1, 64};

typedef struct VcdPort {
    TraceSink sink; /* first member: the port's sink */
    struct TraceVcd *w;
    size_t index;
    uint64_t value[VCD_NSIG];
    bool dirty;
} VcdPort;

typedef struct VcdScope {
    char *name;
    size_t first_child, next_sibling; /* 0 = none (node 0 is the root) */
    VcdPort *port;                    /* the port this scope stands for, or NULL */
} VcdScope;

typedef struct TraceVcd {
    TraceWriter base;
    FILE *f; /* write errors stay in its error flag until close */
    char *path;
    VcdPort *ports;
    size_t n;
    size_t *dirty; /* indices of ports changed in the current step */
    size_t ndirty;
    SimTime step;    /* time of the pending changes */
    SimTime written; /* last "#time" written */
    VcdScope *scopes;
    size_t nscopes, scope_cap;
    const TxnCmdDecl *const *cmds; /* the layout's declared commands (borrowed) */
} TraceVcd;

/* The identifier code of signal sig of port i (printable ASCII 33..126). */
static void vcd_code(size_t i, int sig, char out[16])
{
    size_t k = i * VCD_NSIG + (size_t)sig;
    size_t len = 0;
    do {
        out[len++] = (char)('!' + k % 94);
        k /= 94;
    } while (k);
    out[len] = '\0';
}

static void write_value(FILE *f, size_t i, int sig, uint64_t v)
{
    char code[16];
    vcd_code(i, sig, code);
    if (vcd_sig_width[sig] == 1) {
        fprintf(f, "%c%s\n", v ? '1' : '0', code);
        return;
    }
    fputc('b', f);
    int top = 63;
    while (top > 0 && !((v >> top) & 1)) {
        top--;
    }
    for (int b = top; b >= 0; b--) {
        fputc((v >> b) & 1 ? '1' : '0', f);
    }
    fprintf(f, " %s\n", code);
}

static void flush_step(TraceVcd *w)
{
    if (w->ndirty == 0) {
        return;
    }
    if (w->step != w->written) {
        fprintf(w->f, "#%" PRIu64 "\n", w->step);
        w->written = w->step;
    }
    for (size_t d = 0; d < w->ndirty; d++) {
        VcdPort *vp = &w->ports[w->dirty[d]];
        for (int sig = 0; sig < VCD_NSIG; sig++) {
            write_value(w->f, vp->index, sig, vp->value[sig]);
        }
        vp->dirty = false;
    }
    w->ndirty = 0;
}

/* The 4-bit command code of t (see the header comment). */
static uint64_t vcd_cmd_code(const TxnCmdDecl *const *cmds, const Txn *t)
{
    if (t->cmd != TXN_DECLARED) {
        return (uint64_t)t->cmd;
    }
    for (uint64_t k = 0; cmds && cmds[k] && TXN_DECLARED + k < VCD_CMD_OTHER; k++) {
        if (cmds[k] == t->declared) {
            return TXN_DECLARED + k;
        }
    }
    return VCD_CMD_OTHER;
}

static void vcd_record(TraceWriter *base, size_t i, SimTime now, const char *ev,
                       const Txn *t)
{
    TraceVcd *w = (TraceVcd *)base;
    VcdPort *vp = &w->ports[i];
    if (now != w->step) {
        flush_step(w);
        w->step = now;
    }
    vp->value[VCD_ID] = t->id;
    vp->value[VCD_CMD] = vcd_cmd_code(w->cmds, t);
    vp->value[VCD_SEND] = strcmp(ev, "send") == 0;
    vp->value[VCD_COUNT]++;
    if (!vp->dirty) {
        vp->dirty = true;
        w->dirty[w->ndirty++] = vp->index;
    }
}

static void vcd_sink_record(TraceSink *sink, const Port *port, const char *ev,
                            const Txn *t)
{
    VcdPort *vp = (VcdPort *)sink;
    vcd_record(&vp->w->base, vp->index, sim_now(port->owner->sim), ev, t);
}

static TraceSink *vcd_sink(TraceWriter *base, size_t i)
{
    return &((TraceVcd *)base)->ports[i].sink;
}

static void vcd_free(TraceVcd *w)
{
    for (size_t i = 0; w->scopes && i < w->nscopes; i++) {
        free(w->scopes[i].name);
    }
    free(w->scopes);
    free(w->dirty);
    free(w->ports);
    free(w->path);
    free(w);
}

static bool vcd_close(TraceWriter *base, SimError *err)
{
    TraceVcd *w = (TraceVcd *)base;
    flush_step(w);
    int error = ferror(w->f) ? EIO : 0;
    if (fclose(w->f) != 0 && !error) {
        error = errno;
    }
    bool ok =
        !error || sim_error_set(err, "%s: write failed: %s", w->path, strerror(error));
    vcd_free(w);
    return ok;
}

/* The child of scope parent called name (sanitised), created if absent; 0 on OOM. */
static size_t scope_child(TraceVcd *w, size_t parent, const char *name)
{
    size_t last = 0;
    for (size_t c = w->scopes[parent].first_child; c; c = w->scopes[c].next_sibling) {
        if (strcmp(w->scopes[c].name, name) == 0) {
            return c;
        }
        last = c;
    }
    if (w->nscopes == w->scope_cap) {
        size_t cap = 2 * w->scope_cap;
        VcdScope *v = realloc(w->scopes, cap * sizeof *v);
        if (!v) {
            return 0;
        }
        w->scopes = v;
        w->scope_cap = cap;
    }
    size_t id = w->nscopes;
    char *copy = strdup(name);
    if (!copy) {
        return 0;
    }
    w->scopes[id] = (VcdScope){.name = copy};
    w->nscopes++;
    if (last) {
        w->scopes[last].next_sibling = id;
    } else {
        w->scopes[parent].first_child = id;
    }
    return id;
}

/* Inserts the scope path of a port name; false on OOM. */
static bool scope_insert(TraceVcd *w, VcdPort *vp, const char *port_name)
{
    size_t node = 0;
    const char *s = port_name;
    while (*s) {
        char part[256];
        size_t len = 0;
        for (; *s && *s != '.'; s++) {
            char c = *s;
            bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_';
            if (c != ']' && len + 1 < sizeof part) {
                part[len++] = word ? c : '_';
            }
        }
        if (len == 0) {
            part[len++] = '_';
        }
        part[len] = '\0';
        s += *s == '.';
        node = scope_child(w, node, part);
        if (!node) {
            return false;
        }
    }
    w->scopes[node].port = vp;
    return true;
}

static void write_scope(TraceVcd *w, size_t node)
{
    const VcdScope *sc = &w->scopes[node];
    fprintf(w->f, "$scope module %s $end\n", sc->name);
    if (sc->port) {
        for (int sig = 0; sig < VCD_NSIG; sig++) {
            char code[16];
            vcd_code(sc->port->index, sig, code);
            fprintf(w->f, "$var wire %u %s %s $end\n", vcd_sig_width[sig], code,
                    vcd_sig_name[sig]);
        }
    }
    for (size_t c = sc->first_child; c; c = w->scopes[c].next_sibling) {
        write_scope(w, c);
    }
    fputs("$upscope $end\n", w->f);
}

static void write_header(TraceVcd *w)
{
    fputs("$version mgtlm $end\n$timescale 1ps $end\n", w->f);
    for (size_t c = w->scopes[0].first_child; c; c = w->scopes[c].next_sibling) {
        write_scope(w, c);
    }
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", w->f);
    for (size_t i = 0; i < w->n; i++) {
        for (int sig = 0; sig < VCD_NSIG; sig++) {
            write_value(w->f, i, sig, 0);
        }
    }
    fputs("$end\n", w->f);
}

static TraceVcd *vcd_alloc(const char *dir, const TraceLayout *lay)
{
    size_t n = lay->n;
    TraceVcd *w = calloc(1, sizeof *w);
    if (!w) {
        return NULL;
    }
    w->ports = calloc(n ? n : 1, sizeof *w->ports);
    w->dirty = calloc(n ? n : 1, sizeof *w->dirty);
    w->scope_cap = 16;
    w->scopes = calloc(w->scope_cap, sizeof *w->scopes);
    w->path = trace_path(dir, "trace.vcd");
    w->nscopes = 1;
    w->cmds = lay->cmds;
    bool ok = w->ports && w->dirty && w->scopes && w->path;
    w->n = n;
    for (size_t i = 0; ok && i < n; i++) {
        w->ports[i] = (VcdPort){.sink.record = vcd_sink_record, .w = w, .index = i};
        ok = scope_insert(w, &w->ports[i], lay->names[i]);
    }
    if (!ok) {
        vcd_free(w);
        return NULL;
    }
    return w;
}

TraceWriter *trace_vcd_open(const char *dir, const TraceLayout *lay, SimError *err)
{
    TraceVcd *w = vcd_alloc(dir, lay);
    if (!w) {
        sim_error_set(err, "out of memory opening the VCD log");
        return NULL;
    }
    w->f = fopen(w->path, "w");
    if (!w->f) {
        sim_error_set(err, "%s: cannot create: %s", w->path, strerror(errno));
        vcd_free(w);
        return NULL;
    }
    w->base.sink = vcd_sink;
    w->base.record = vcd_record;
    w->base.close = vcd_close;
    write_header(w);
    return &w->base;
}
