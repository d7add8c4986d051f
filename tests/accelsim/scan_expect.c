/* Test helper: compares the whole-trace scan's written-byte expectations
 * (trace_scan_expect and trace_scan_expect_line, hw/core/trace_scan.h) with those the
 * independent reference tools/ref/trace_expect.py wrote for the same trace folder.
 *
 * Usage: scan_expect DIR REF_FILE
 *
 * For every 128 B line the reference lists, every byte of the line in every kernel is
 * compared: the listed (byte, kernel) pairs with the reference's values, the others
 * with the default (checked, not written, not now); and the scan's index must hold
 * exactly the reference's lines. Prints "<n> compared, <m> wrong" (and the first
 * differences) and exits 1 on any difference, 2 on bad input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/trace_scan.h"

#define LINE 128

typedef struct Cmp {
    const TraceScan *s;
    uint32_t kernels;
    TraceExpect *want; /* [byte * kernels + k] of the current line */
    uint64_t line;
    bool have_line;
    uint64_t compared, wrong, lines;
} Cmp;

static bool same(const TraceExpect *a, const TraceExpect *b)
{
    return a->checked == b->checked && a->written == b->written &&
           (!a->written || a->older == b->older) && a->now == b->now;
}

static void report(Cmp *c, uint32_t k, uint64_t addr, const TraceExpect *want,
                   const TraceExpect *got, const char *form)
{
    c->wrong++;
    if (c->wrong <= 10) {
        printf("kernel %" PRIu32 " byte 0x%" PRIx64 " (%s): reference %d %d %" PRIu32
               " %d, scan %d %d %" PRIu32 " %d\n",
               k, addr, form, want->checked, want->written, want->older, want->now,
               got->checked, got->written, got->older, got->now);
    }
}

/* Compares the current line in every kernel, by byte and by line, then resets it. */
static void flush(Cmp *c)
{
    if (!c->have_line) {
        return;
    }
    for (uint32_t k = 0; k < c->kernels; k++) {
        TraceExpect line[LINE];
        if (!trace_scan_expect_line(c->s, k, c->line, LINE, line)) {
            for (uint32_t b = 0; b < LINE; b++) {
                line[b] = (TraceExpect){.checked = true};
            }
        }
        for (uint32_t b = 0; b < LINE; b++) {
            const TraceExpect *want = &c->want[b * c->kernels + k];
            TraceExpect got = trace_scan_expect(c->s, k, c->line + b);
            c->compared++;
            if (!same(want, &got)) {
                report(c, k, c->line + b, want, &got, "byte");
            } else if (!same(want, &line[b])) {
                report(c, k, c->line + b, want, &line[b], "line");
            }
        }
    }
    for (size_t i = 0; i < (size_t)LINE * c->kernels; i++) {
        c->want[i] = (TraceExpect){.checked = true};
    }
    c->lines++;
    c->have_line = false;
}

static bool parse(Cmp *c, FILE *f)
{
    char buf[256];
    while (fgets(buf, sizeof buf, f)) {
        uint64_t addr;
        unsigned k, checked, written, older, now;
        if (sscanf(buf, "L %" SCNx64, &addr) == 1) {
            flush(c);
            c->line = addr;
            c->have_line = true;
        } else if (sscanf(buf, "%u %" SCNx64 " %u %u %u %u", &k, &addr, &checked,
                          &written, &older, &now) == 6 &&
                   c->have_line && k < c->kernels && addr - c->line < LINE) {
            c->want[(addr - c->line) * c->kernels + k] =
                (TraceExpect){checked != 0, written != 0, older, now != 0};
        } else {
            fprintf(stderr, "bad reference line: %s", buf);
            return false;
        }
    }
    flush(c);
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: scan_expect DIR REF_FILE\n");
        return 2;
    }
    SimError err;
    Cmp c = {.s = trace_scan_get(argv[1], false, &err)};
    FILE *f = fopen(argv[2], "r");
    unsigned kernels;
    if (!c.s || !f || fscanf(f, "kernels %u\n", &kernels) != 1) {
        fprintf(stderr, "%s: cannot read the scan or the reference\n", argv[1]);
        return 2;
    }
    c.kernels = kernels;
    c.want = calloc((size_t)LINE * (kernels ? kernels : 1), sizeof *c.want);
    for (size_t i = 0; i < (size_t)LINE * kernels; i++) {
        c.want[i] = (TraceExpect){.checked = true};
    }
    bool ok = kernels == trace_scan_kernels(c.s) && parse(&c, f);
    fclose(f);
    size_t lines, masks;
    trace_scan_index_size(c.s, &lines, &masks);
    if (lines != c.lines) {
        printf("the scan indexes %zu lines, the reference %" PRIu64 "\n", lines, c.lines);
        c.wrong++;
    }
    printf("%" PRIu64 " lines, %" PRIu64 " compared, %" PRIu64 " wrong\n", c.lines,
           c.compared, c.wrong);
    free(c.want);
    trace_scan_put(c.s);
    return !ok ? 2 : c.wrong ? 1 : 0;
}
