/* Comparing observed records with a golden vector (exact / order / set, see golden.h)
 * and printing the first difference side by side:
 *
 *   record #3 differs (golden line 4)
 *     field  expected          | observed
 *   * t      12000             | 13000
 *     port   gpu0.mem.in       | gpu0.mem.in
 *     data   -                 | 0x0102   (not compared)
 *
 * In set mode the observed record shown next to an unmatched golden record is the
 * unmatched observed record with the fewest differing fields (ties: lowest index). */
#include "golden.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

#define NONE SIZE_MAX

typedef struct SetMatch {
    const json_t *g, *o;
    size_t ng, no;
    size_t *g_to_o, *o_to_g;
    size_t *skip; /* next observed index not yet passed over (see below) */
    size_t *stack_g, *stack_o, *stack_pick; /* augment's explicit stack */
} SetMatch;

static bool compatible(const SetMatch *m, size_t gi, size_t oi)
{
    return golden_record_match(json_array_get(m->g, gi), json_array_get(m->o, oi), false);
}

/* The first observed index >= oi not passed over: skip[i] == i marks a live index,
 * a passed-over one points further on (path-compressed, so a long run of taken or
 * visited records is crossed in near-constant time); m->no when none is left. */
static size_t next_live(SetMatch *m, size_t oi)
{
    size_t root = oi;
    while (m->skip[root] != root) {
        root = m->skip[root];
    }
    while (m->skip[oi] != root) {
        size_t next = m->skip[oi];
        m->skip[oi] = root;
        oi = next;
    }
    return root;
}

/* The first live observed record from oi on that golden record gi accepts. */
static size_t next_compatible(SetMatch *m, size_t gi, size_t oi)
{
    oi = next_live(m, oi);
    while (oi < m->no && !compatible(m, gi, oi)) {
        oi = next_live(m, oi + 1);
    }
    return oi;
}

/* Kuhn's augmenting path from golden record root, with an explicit stack instead of
 * recursion: a path can be as long as the vector (a recursion per record overflowed
 * the C stack at 200,000 records). Level d tries golden stack_g[d] against observed
 * records from stack_o[d] on; an observed record is visited at most once per search
 * (skip marks it), so the stack never holds more than no + 1 levels. */
static bool augment(SetMatch *m, size_t root)
{
    for (size_t oi = 0; oi <= m->no; oi++) {
        m->skip[oi] = oi;
    }
    size_t depth = 0;
    m->stack_g[0] = root;
    m->stack_o[0] = 0;
    for (;;) {
        size_t oi = next_compatible(m, m->stack_g[depth], m->stack_o[depth]);
        if (oi == m->no) {
            if (depth == 0) {
                return false;
            }
            depth--;
            continue;
        }
        m->skip[oi] = oi + 1;
        m->stack_pick[depth] = oi;
        m->stack_o[depth] = oi + 1;
        if (m->o_to_g[oi] == NONE) {
            for (size_t d = depth + 1; d-- > 0;) {
                m->o_to_g[m->stack_pick[d]] = m->stack_g[d];
                m->g_to_o[m->stack_g[d]] = m->stack_pick[d];
            }
            return true;
        }
        depth++;
        m->stack_g[depth] = m->o_to_g[oi];
        m->stack_o[depth] = 0;
    }
}

static size_t count_diffs(const json_t *golden, const json_t *observed)
{
    size_t n = 0;
    const char *key;
    json_t *gv;
    json_object_foreach((json_t *)golden, key, gv) {
        if (strcmp(key, "t") != 0 &&
            !golden_field_match(key, gv, json_object_get(observed, key))) {
            n++;
        }
    }
    return n;
}

static void set_result(SetMatch *m, GoldenResult *r)
{
    r->golden_index = r->observed_index = NONE;
    for (size_t gi = 0; gi < m->ng && r->golden_index == NONE; gi++) {
        r->golden_index = m->g_to_o[gi] == NONE ? gi : NONE;
    }
    size_t best = NONE;
    for (size_t oi = 0; oi < m->no; oi++) {
        if (m->o_to_g[oi] != NONE) {
            continue;
        }
        if (r->golden_index == NONE) {
            r->observed_index = oi;
            return;
        }
        size_t d =
            count_diffs(json_array_get(m->g, r->golden_index), json_array_get(m->o, oi));
        if (d < best) {
            best = d;
            r->observed_index = oi;
        }
    }
}

static GoldenResult compare_set(const Golden *g, const json_t *observed)
{
    SetMatch m = {.g = g->records,
                  .o = observed,
                  .ng = json_array_size(g->records),
                  .no = json_array_size(observed)};
    m.g_to_o = xrealloc_array(NULL, m.ng + 1, sizeof *m.g_to_o);
    m.o_to_g = xrealloc_array(NULL, m.no + 1, sizeof *m.o_to_g);
    m.skip = xrealloc_array(NULL, m.no + 1, sizeof *m.skip);
    m.stack_g = xrealloc_array(NULL, m.no + 1, sizeof *m.stack_g);
    m.stack_o = xrealloc_array(NULL, m.no + 1, sizeof *m.stack_o);
    m.stack_pick = xrealloc_array(NULL, m.no + 1, sizeof *m.stack_pick);
    GoldenResult r = {.golden_index = NONE, .observed_index = NONE};
    memset(m.g_to_o, 0xff, (m.ng + 1) * sizeof *m.g_to_o);
    memset(m.o_to_g, 0xff, (m.no + 1) * sizeof *m.o_to_g);
    /* greedy first pass: skip passes over the observed records already taken */
    for (size_t oi = 0; oi <= m.no; oi++) {
        m.skip[oi] = oi;
    }
    for (size_t gi = 0; gi < m.ng; gi++) {
        size_t oi = next_compatible(&m, gi, 0);
        if (oi < m.no) {
            m.g_to_o[gi] = oi;
            m.o_to_g[oi] = gi;
            m.skip[oi] = oi + 1;
        }
    }
    for (size_t gi = 0; gi < m.ng; gi++) {
        if (m.g_to_o[gi] == NONE) {
            augment(&m, gi);
        }
    }
    for (size_t gi = 0; gi < m.ng; gi++) {
        r.matched += m.g_to_o[gi] != NONE;
    }
    r.match = r.matched == m.ng && m.ng == m.no;
    if (!r.match) {
        set_result(&m, &r);
    }
    free(m.g_to_o);
    free(m.o_to_g);
    free(m.skip);
    free(m.stack_g);
    free(m.stack_o);
    free(m.stack_pick);
    return r;
}

GoldenResult golden_compare(const Golden *g, const json_t *observed, GoldenMode mode)
{
    if (mode == GOLDEN_SET) {
        return compare_set(g, observed);
    }
    size_t ng = json_array_size(g->records), no = json_array_size(observed);
    GoldenResult r = {.golden_index = NONE, .observed_index = NONE};
    size_t i = 0;
    while (i < ng && i < no &&
           golden_record_match(json_array_get(g->records, i), json_array_get(observed, i),
                               mode == GOLDEN_EXACT)) {
        i++;
    }
    r.matched = i;
    r.match = i == ng && i == no;
    if (!r.match) {
        r.golden_index = i < ng ? i : NONE;
        r.observed_index = i < no ? i : NONE;
    }
    return r;
}

/* Value as shown in the table: strings bare, anything else as compact JSON. */
static char *show(const json_t *v)
{
    if (!v) {
        return strdup("-");
    }
    if (json_is_string(v)) {
        return strdup(json_string_value(v));
    }
    return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static void print_row(FILE *f, char mark, const char *key, const json_t *gv,
                      const json_t *ov, int width, const char *note)
{
    char *a = show(gv), *b = show(ov);
    fprintf(f, "  %c %-8s %-*s | %s%s\n", mark, key, width, a ? a : "?", b ? b : "?",
            note);
    free(a);
    free(b);
}

static int column_width(const json_t *gr)
{
    int width = 8;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)gr, key, v) {
        char *s = show(v);
        int len = s ? (int)strlen(s) : 1;
        width = len > width ? len : width;
        free(s);
    }
    return width > 40 ? 40 : width;
}

static void print_table(FILE *f, const json_t *gr, const json_t *orec, GoldenMode mode)
{
    int width = gr ? column_width(gr) : 8;
    fprintf(f, "    %-8s %-*s | %s\n", "field", width, "expected", "observed");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)gr, key, v) {
        json_t *ov = orec ? json_object_get(orec, key) : NULL;
        bool timeless = mode != GOLDEN_EXACT && strcmp(key, "t") == 0;
        bool same = orec && golden_field_match(key, v, ov);
        print_row(f, timeless || same ? ' ' : '*', key, v, ov, width,
                  timeless ? "   (t: not compared in this mode)" : "");
    }
    json_object_foreach((json_t *)orec, key, v) {
        if (!gr || !json_object_get(gr, key)) {
            print_row(f, gr ? ' ' : '*', key, NULL, v, width,
                      gr ? "   (not compared)" : "");
        }
    }
}

void golden_print_diff(FILE *f, const Golden *g, const json_t *observed, GoldenMode mode,
                       const GoldenResult *r)
{
    size_t ng = json_array_size(g->records), no = json_array_size(observed);
    size_t gi = r->golden_index, oi = r->observed_index;
    fprintf(f, "  match %s: golden %s has %zu records, observed %zu, %zu matched\n",
            golden_mode_name(mode), g->path, ng, no, r->matched);
    if (mode == GOLDEN_SET && gi != NONE) {
        fprintf(f, "  golden record #%zu (line %zu) matches no observed record", gi,
                g->lines[gi]);
        if (oi != NONE) {
            fprintf(f, "; closest unmatched observed: #%zu\n", oi);
        } else {
            fprintf(f, "; every observed record is taken\n");
        }
    } else if (mode == GOLDEN_SET) {
        fprintf(f, "  observed record #%zu matches no golden record\n", oi);
    } else if (gi != NONE && oi != NONE) {
        fprintf(f, "  record #%zu differs (golden line %zu)\n", gi, g->lines[gi]);
    } else if (gi != NONE) {
        fprintf(f, "  record #%zu (golden line %zu) was not observed\n", gi,
                g->lines[gi]);
    } else {
        fprintf(f, "  observed record #%zu is not in the golden file\n", oi);
    }
    print_table(f, gi != NONE ? json_array_get(g->records, gi) : NULL,
                oi != NONE ? json_array_get(observed, oi) : NULL, mode);
}
