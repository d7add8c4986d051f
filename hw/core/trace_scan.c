/* The whole-trace scan (see trace_scan.h): a process-wide table of the scans built so
 * far, by folder, each with a use count; a scan is built on its folder's first get
 * and freed on its last put.
 *
 * Decisions:
 * - Folders are told apart by the string the caller passes (the platform's `trace`
 *   value, which every block of a run shares): "t" and "./t" would be scanned twice,
 *   correctly but at twice the cost.
 * - One mutex guards the table, and a scan is built while holding it: blocks realized
 *   in several threads (issue 12's partitions) wait for the one scan instead of
 *   building it twice. A scan, once returned, is never written, so reading it needs
 *   no lock.
 * - A failed scan is not kept: each get of a malformed trace reads it again and reports
 *   the same error.
 * - trace_scan_counts builds a private scan without the written-byte index, outside
 *   the table: a tool that only counts (trace-info) keeps the reader's flat memory. */
#include "hw/core/trace_scan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_list.h"
#include "hw/core/trace_scan_pass.h"
#include "hw/core/trace_written.h"

struct TraceScan {
    char *dir;
    unsigned uses;
    TraceScan *next; /* the table's next scan */
    AtsList list;    /* kernelslist.g: the allocations and the kernel paths and names */
    size_t nkernels;
    TraceKernel *kernels;
    size_t nallocs;
    const AtsCmd **allocs; /* into list */
    TraceWritten *written; /* NULL in a scan of the counts only */
    TraceSpool *spool;     /* NULL in a scan of the counts only, or when none was made */
    bool spool_asked;      /* built by a get that asked for a spool */
};

static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
static TraceScan *scan_table;

void trace_scan_free(TraceScan *s)
{
    if (s) {
        trace_written_free(s->written);
        trace_spool_free(s->spool);
        for (size_t k = 0; k < s->nkernels && s->kernels; k++) {
            free(s->kernels[k].seeks);
        }
        free(s->kernels);
        free(s->allocs);
        ats_list_free(&s->list);
        free(s->dir);
        free(s);
    }
}

/* Sorts the commands of s->list into kernels and allocations. */
static bool scan_commands(TraceScan *s, SimError *err)
{
    for (size_t i = 0; i < s->list.ncmds; i++) {
        s->nkernels += s->list.cmds[i].kind == ATS_CMD_KERNEL;
        s->nallocs += s->list.cmds[i].kind == ATS_CMD_MEMCPY;
    }
    s->kernels = calloc(s->nkernels ? s->nkernels : 1, sizeof *s->kernels);
    s->allocs = calloc(s->nallocs ? s->nallocs : 1, sizeof *s->allocs);
    if (!s->kernels || !s->allocs) {
        return sim_error_set(err, "%s: out of memory", s->dir);
    }
    size_t k = 0, a = 0;
    for (size_t i = 0; i < s->list.ncmds; i++) {
        const AtsCmd *c = &s->list.cmds[i];
        if (c->kind == ATS_CMD_KERNEL) {
            s->kernels[k++] = (TraceKernel){.path = c->path, .name = c->name};
        } else {
            s->allocs[a++] = c;
        }
    }
    return true;
}

/* Builds the scan of dir (new, trace_scan_free), with the written-byte index when
 * index is true and a spool when spool is; NULL with err set. */
static TraceScan *scan_build(const char *dir, bool index, bool spool, SimError *err)
{
    TraceScan *s = calloc(1, sizeof *s);
    if (!s || !(s->dir = strdup(dir))) {
        sim_error_set(err, "%s: out of memory", dir);
        trace_scan_free(s);
        return NULL;
    }
    s->written = index ? trace_written_new() : NULL;
    s->spool = spool ? trace_spool_new() : NULL;
    s->spool_asked = spool;
    if (!ats_list_load(dir, &s->list, err) || !scan_commands(s, err)) {
        trace_scan_free(s);
        return NULL;
    }
    for (size_t k = 0; k < s->nkernels; k++) {
        if (!trace_scan_pass(&s->kernels[k], (uint32_t)k, s->written, s->spool, err)) {
            trace_scan_free(s);
            return NULL;
        }
    }
    return s;
}

const TraceScan *trace_scan_get(const char *dir, bool spool, SimError *err)
{
    pthread_mutex_lock(&scan_lock);
    TraceScan *s = scan_table;
    while (s && strcmp(s->dir, dir) != 0) {
        s = s->next;
    }
    if (!s && (s = scan_build(dir, true, spool, err)) != NULL) {
        s->next = scan_table;
        scan_table = s;
    }
    if (s) {
        s->uses++;
    }
    pthread_mutex_unlock(&scan_lock);
    return s;
}

void trace_scan_put(const TraceScan *s)
{
    if (!s) {
        return;
    }
    pthread_mutex_lock(&scan_lock);
    TraceScan **p = &scan_table;
    while (*p != s) {
        p = &(*p)->next;
    }
    TraceScan *own = *p;
    if (--own->uses == 0) {
        *p = own->next;
        trace_scan_free(own);
    }
    pthread_mutex_unlock(&scan_lock);
}

bool trace_scan_spool_asked(const TraceScan *s)
{
    return s->spool_asked;
}

bool trace_scan_held(const char *dir)
{
    pthread_mutex_lock(&scan_lock);
    const TraceScan *s = scan_table;
    while (s && strcmp(s->dir, dir) != 0) {
        s = s->next;
    }
    pthread_mutex_unlock(&scan_lock);
    return s != NULL;
}

TraceScan *trace_scan_counts(const char *dir, SimError *err)
{
    return scan_build(dir, false, false, err);
}

size_t trace_scan_kernels(const TraceScan *s)
{
    return s->nkernels;
}

const TraceKernel *trace_scan_kernel(const TraceScan *s, size_t k)
{
    return &s->kernels[k];
}

/* The last seek point of tk at or before CTA index cta, or NULL (see
 * trace_scan_seek). */
static const TraceSeek *scan_seek_point(const TraceKernel *tk, uint64_t cta)
{
    if (!tk->in_order || tk->nseeks == 0 || tk->seeks[0].cta > cta) {
        return NULL;
    }
    size_t lo = 0, hi = tk->nseeks; /* the last point with seeks[i].cta <= cta */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tk->seeks[mid].cta <= cta) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return &tk->seeks[lo];
}

bool trace_scan_seek(const TraceScan *s, size_t k, uint64_t cta, AtsMark *at)
{
    const TraceSeek *p = scan_seek_point(&s->kernels[k], cta);
    if (p) {
        *at = p->at;
    }
    return p != NULL;
}

const TraceSpool *trace_scan_spool(const TraceScan *s, size_t k, uint64_t cta,
                                   uint64_t *at, uint64_t *end)
{
    const TraceKernel *tk = &s->kernels[k];
    if (!s->spool || !tk->spooled) {
        return NULL;
    }
    const TraceSeek *p = scan_seek_point(tk, cta);
    *at = p ? p->spool_at : tk->spool_start;
    *end = tk->spool_end;
    return s->spool;
}

size_t trace_scan_allocs(const TraceScan *s)
{
    return s->nallocs;
}

void trace_scan_alloc(const TraceScan *s, size_t i, uint64_t *base, uint64_t *bytes)
{
    *base = s->allocs[i]->addr;
    *bytes = s->allocs[i]->bytes;
}

TraceExpect trace_scan_expect(const TraceScan *s, uint32_t k, uint64_t vaddr)
{
    TraceExpect e = {.checked = true};
    (void)trace_written_expect(s->written, k, vaddr, 1, &e);
    return e;
}

bool trace_scan_expect_line(const TraceScan *s, uint32_t k, uint64_t vaddr, uint32_t n,
                            TraceExpect *out)
{
    return trace_written_expect(s->written, k, vaddr, n, out);
}

void trace_scan_index_size(const TraceScan *s, size_t *lines, size_t *masks)
{
    *lines = trace_written_lines(s->written);
    *masks = trace_written_masks(s->written);
}
