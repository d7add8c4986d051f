/* `mgtlm trace-info DIR [--json]`: what an Accel-Sim trace folder holds, per kernel in
 * kernelslist.g order: name, grid, block, CTAs, warps, warp and thread instructions,
 * instructions per class, the global and local memory instructions and their 128 B
 * line requests (SPEC.md 6.3), the instructions of an unknown mnemonic and the blocks
 * that name a thread block cluster (both read but not modelled as such); and the
 * MemcpyHtoD allocations. Text, or one JSON document with --json (the form
 * tools/ref/accelsim_count.py writes, so the two are compared as they are).
 *
 * Decision: the counts are the whole-trace scan's (hw/core/trace_scan.h, without its
 * written-byte index, so memory stays that of one CTA), the ones a run works from, so
 * what trace-info prints and the reference checks is what the sm and the dispatcher
 * see. The scan reads the whole trace before anything is printed, so a malformed trace
 * prints nothing but its error.
 * Errors (a malformed line, a missing file, a bad option, and with --json a folder,
 * file or kernel name that is not UTF-8, which JSON cannot hold): one line on stderr,
 * exit 2. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_opt.h"
#include "commands.h"
#include "hw/core/accelsim_op.h"
#include "hw/core/trace_scan.h"

enum { TI_JSON = CLI_LONG_ONLY };

static const CliOpt ti_opts[] = {
    {TI_JSON, "json", NULL, "print one JSON document instead of text", false},
    CLI_OPT_HELP,
};

static const CliSpec ti_spec = {
    "mgtlm trace-info", "DIR [--json]",
    "Counts what an Accel-Sim trace folder (kernelslist.g and kernel-<n>.traceg, plain\n"
    "or .gz) holds, per kernel: CTAs, warps, warp and thread instructions, instructions\n"
    "per class, global and local memory instructions and their 128 B line requests.",
    ti_opts, sizeof ti_opts / sizeof ti_opts[0]};

/* Fills *dir and *json from argv: CLI_END, CLI_HELP, or CLI_ERROR with err set. */
static int ti_parse(int argc, char **argv, const char **dir, bool *json, SimError *err)
{
    CliParse cp;
    const char *val;
    int id;
    cli_parse_init(&cp, &ti_spec, argc, argv);
    while ((id = cli_parse_next(&cp, &val, err)) > 0) {
        *json = true;
    }
    return id == CLI_END ? cli_parse_one(&cp, "trace folder", dir, err) : id;
}

static json_t *ti_dim(const uint32_t d[3])
{
    return json_pack("[III]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static json_t *ti_kernel_json(const TraceKernel *t)
{
    json_t *classes = json_object();
    for (int i = 0; i < ATS_CLASS_COUNT; i++) {
        json_object_set_new(classes, ats_class_name((AtsClass)i),
                            json_integer((json_int_t)t->by_class[i]));
    }
    json_t *k =
        json_pack("{s:s, s:s, s:I, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o}", "file",
                  t->name, "name", t->info.name, "id", (json_int_t)t->info.id, "grid",
                  ti_dim(t->info.grid), "block", ti_dim(t->info.block), "tracer_version",
                  (json_int_t)t->info.tracer_version, "lineinfo",
                  (json_int_t)t->info.lineinfo, "ctas", (json_int_t)t->ctas, "warps",
                  (json_int_t)t->warps, "warp_instructions", (json_int_t)t->warp_insts,
                  "thread_instructions", (json_int_t)t->thread_insts, "classes", classes);
    json_object_update_new(
        k,
        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "global_instructions",
                  (json_int_t)t->global_insts, "local_instructions",
                  (json_int_t)t->local_insts, "global_line_requests",
                  (json_int_t)(t->line_reqs - t->local_line_reqs), "local_line_requests",
                  (json_int_t)t->local_line_reqs, "unknown_opcodes",
                  (json_int_t)t->unknown, "cluster_blocks", (json_int_t)t->clustered));
    return k;
}

static void ti_kernel_text(const TraceKernel *t)
{
    const AtsKernelInfo *k = &t->info;
    printf("kernel %" PRIu32 " %s (%s, tracer version %" PRIu32 ", lineinfo %d)\n", k->id,
           k->name, t->name, k->tracer_version, k->lineinfo);
    printf("  grid (%" PRIu32 ",%" PRIu32 ",%" PRIu32 "), block (%" PRIu32 ",%" PRIu32
           ",%" PRIu32 "): %" PRIu64 " CTAs, %" PRIu64 " warps\n",
           k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2],
           t->ctas, t->warps);
    printf("  instructions: %" PRIu64 " warp, %" PRIu64 " thread\n", t->warp_insts,
           t->thread_insts);
    printf("  classes:");
    for (int i = 0; i < ATS_CLASS_COUNT; i++) {
        if (t->by_class[i] > 0) {
            printf(" %s %" PRIu64, ats_class_name((AtsClass)i), t->by_class[i]);
        }
    }
    printf("\n  global: %" PRIu64 " instructions, %" PRIu64 " line requests (128 B)\n",
           t->global_insts, t->line_reqs - t->local_line_reqs);
    printf("  local: %" PRIu64 " instructions, %" PRIu64 " line requests (128 B)\n",
           t->local_insts, t->local_line_reqs);
    printf("  unknown opcodes (counted as int): %" PRIu64 "\n", t->unknown);
    printf("  blocks naming a cluster (clusters not modelled): %" PRIu64 "\n",
           t->clustered);
}

/* True if s is valid UTF-8 (what jansson's strings take), else false with err naming
 * it as what. */
static bool ti_utf8(const char *where, const char *what, const char *s, SimError *err)
{
    json_t *j = json_string(s);
    json_decref(j);
    return j != NULL || sim_error_set(err,
                                      "%s: %s \"%s\" is not valid UTF-8, which JSON "
                                      "cannot hold (trace-info without --json prints it)",
                                      where, what, s);
}

/* True if every text the JSON document of s holds is valid UTF-8. */
static bool ti_json_texts(const char *dir, const TraceScan *s, SimError *err)
{
    if (!ti_utf8(dir, "the trace folder", dir, err)) {
        return false;
    }
    for (size_t k = 0; k < trace_scan_kernels(s); k++) {
        const TraceKernel *t = trace_scan_kernel(s, k);
        if (!ti_utf8(t->path, "the file name", t->name, err) ||
            !ti_utf8(t->path, "the kernel name", t->info.name, err)) {
            return false;
        }
    }
    return true;
}

/* Prints the scan of dir: text, or one JSON document. */
static void ti_print(const char *dir, const TraceScan *s, bool json)
{
    uint64_t ncopies = trace_scan_allocs(s), bytes = 0;
    for (size_t i = 0; i < ncopies; i++) {
        uint64_t base, size;
        trace_scan_alloc(s, i, &base, &size);
        bytes += size;
    }
    size_t nkernels = trace_scan_kernels(s);
    if (!json) {
        printf("trace %s: %zu kernel%s, %" PRIu64 " MemcpyHtoD of %" PRIu64 " bytes\n",
               dir, nkernels, nkernels == 1 ? "" : "s", ncopies, bytes);
        for (size_t k = 0; k < nkernels; k++) {
            ti_kernel_text(trace_scan_kernel(s, k));
        }
        return;
    }
    json_t *kernels = json_array();
    for (size_t k = 0; k < nkernels; k++) {
        json_array_append_new(kernels, ti_kernel_json(trace_scan_kernel(s, k)));
    }
    json_t *doc =
        json_pack("{s:s, s:{s:I, s:I}, s:o}", "trace", dir, "memcpy", "count",
                  (json_int_t)ncopies, "bytes", (json_int_t)bytes, "kernels", kernels);
    char *text = json_dumps(doc, JSON_INDENT(2));
    printf("%s\n", text);
    free(text);
    json_decref(doc);
}

int cmd_trace_info(Registry *r, int argc, char **argv)
{
    (void)r;
    const char *dir = NULL;
    bool json = false;
    SimError err;
    int parsed = ti_parse(argc, argv, &dir, &json, &err);
    if (parsed == CLI_HELP) {
        return 0;
    }
    TraceScan *s = parsed == CLI_END ? trace_scan_counts(dir, &err) : NULL;
    if (!s) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (json && !ti_json_texts(dir, s, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        trace_scan_free(s);
        return 2;
    }
    ti_print(dir, s, json);
    trace_scan_free(s);
    return 0;
}
