/* `mgtlm trace-info DIR [--json]`: what an Accel-Sim trace folder holds, per kernel in
 * kernelslist.g order: name, grid, block, CTAs, warps, warp and thread instructions,
 * instructions per class, the 128 B line requests of its global accesses (SPEC.md 6.3)
 * and the instructions of an unknown mnemonic; and the MemcpyHtoD allocations. Text,
 * or one JSON document with --json (the form tools/ref/accelsim_count.py writes, so
 * the two are compared as they are). Every kernel is streamed (one CTA in memory).
 * Errors (a malformed line, a missing file, a bad option): one line on stderr, exit 2. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_opt.h"
#include "commands.h"
#include "hw/core/accelsim_list.h"
#include "hw/core/accelsim_op.h"
#include "trace_tally.h"

enum { TI_JSON = CLI_LONG_ONLY };

static const CliOpt ti_opts[] = {
    {TI_JSON, "json", NULL, "print one JSON document instead of text"},
    CLI_OPT_HELP,
};

static const CliSpec ti_spec = {
    "mgtlm trace-info", "DIR [--json]",
    "Counts what an Accel-Sim trace folder (kernelslist.g and kernel-<n>.traceg, plain\n"
    "or .gz) holds, per kernel: CTAs, warps, warp and thread instructions, instructions\n"
    "per class and the 128 B line requests of its global accesses.",
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

static json_t *ti_kernel_json(const AtsCmd *c, const TraceTally *t)
{
    json_t *classes = json_object();
    for (int i = 0; i < ATS_CLASS_COUNT; i++) {
        json_object_set_new(classes, ats_class_name((AtsClass)i),
                            json_integer((json_int_t)t->by_class[i]));
    }
    return json_pack(
        "{s:s, s:s, s:I, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:I}", "file",
        c->name, "name", t->info.name, "id", (json_int_t)t->info.id, "grid",
        ti_dim(t->info.grid), "block", ti_dim(t->info.block), "tracer_version",
        (json_int_t)t->info.tracer_version, "lineinfo", (json_int_t)t->info.lineinfo,
        "ctas", (json_int_t)t->ctas, "warps", (json_int_t)t->warps, "warp_instructions",
        (json_int_t)t->warp_insts, "thread_instructions", (json_int_t)t->thread_insts,
        "classes", classes, "global_line_requests", (json_int_t)t->line_requests,
        "unknown_opcodes", (json_int_t)t->unknown);
}

static void ti_kernel_text(const AtsCmd *c, const TraceTally *t)
{
    const AtsKernelInfo *k = &t->info;
    printf("kernel %" PRIu32 " %s (%s, tracer version %" PRIu32 ", lineinfo %d)\n", k->id,
           k->name, c->name, k->tracer_version, k->lineinfo);
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
    printf("\n  global line requests (%d B): %" PRIu64 "\n", TRACE_TALLY_LINE,
           t->line_requests);
    printf("  unknown opcodes (counted as int): %" PRIu64 "\n", t->unknown);
}

/* Tallies and prints every kernel of list (into kernels when it is not NULL). */
static bool ti_kernels(const AtsList *list, json_t *kernels, SimError *err)
{
    for (size_t i = 0; i < list->ncmds; i++) {
        const AtsCmd *c = &list->cmds[i];
        if (c->kind != ATS_CMD_KERNEL) {
            continue;
        }
        TraceTally t;
        if (!trace_tally_kernel(c->path, &t, err)) {
            return false;
        }
        if (kernels) {
            json_array_append_new(kernels, ti_kernel_json(c, &t));
        } else {
            ti_kernel_text(c, &t);
        }
    }
    return true;
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
    AtsList list;
    if (parsed != CLI_END || !ats_list_load(dir, &list, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    uint64_t nkernels = 0, ncopies = 0, bytes = 0;
    for (size_t i = 0; i < list.ncmds; i++) {
        nkernels += list.cmds[i].kind == ATS_CMD_KERNEL;
        ncopies += list.cmds[i].kind == ATS_CMD_MEMCPY;
        bytes += list.cmds[i].kind == ATS_CMD_MEMCPY ? list.cmds[i].bytes : 0;
    }
    json_t *kernels = json ? json_array() : NULL;
    if (!json) {
        printf("trace %s: %" PRIu64 " kernel%s, %" PRIu64 " MemcpyHtoD of %" PRIu64
               " bytes\n",
               dir, nkernels, nkernels == 1 ? "" : "s", ncopies, bytes);
    }
    bool ok = ti_kernels(&list, kernels, &err);
    ats_list_free(&list);
    if (!ok) {
        json_decref(kernels);
        fflush(stdout);
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    if (json) {
        json_t *doc = json_pack("{s:s, s:{s:I, s:I}, s:o}", "trace", dir, "memcpy",
                                "count", (json_int_t)ncopies, "bytes", (json_int_t)bytes,
                                "kernels", kernels);
        char *s = json_dumps(doc, JSON_INDENT(2));
        printf("%s\n", s);
        free(s);
        json_decref(doc);
    }
    return 0;
}
