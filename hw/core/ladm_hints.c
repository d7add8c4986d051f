/* The per-kernel LADM hints file of a trace folder (ladm_hints.h). */
#include "hw/core/ladm_hints.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hw/core/accelsim_lines.h"
#include "hw/core/accelsim_list.h"
#include "kernel/xalloc.h"

static const struct {
    const char *name;
    LadmClass cls;
} hint_names[] = {{"nl", LADM_NL},
                  {"row", LADM_ROW},
                  {"column", LADM_COL},
                  {"itl", LADM_ITL},
                  {"other", LADM_OTHER}};

bool ladm_hint_parse(const char *s, LadmClass *cls)
{
    for (size_t i = 0; i < sizeof hint_names / sizeof hint_names[0]; i++) {
        if (strcmp(s, hint_names[i].name) == 0) {
            *cls = hint_names[i].cls;
            return true;
        }
    }
    return false;
}

/* Splits line in place into at most 3 fields separated by spaces or tabs; the count
 * (3 meaning more than two). */
static int hint_fields(char *line, char *f[3])
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == 3) {
            break;
        }
        f[n++] = t;
    }
    return n;
}

/* Whether kernel k's grid gives every GPU a row (a column) under the hinted binding;
 * else err names the shortfall. */
static bool hint_fits(const CoreKernel *kn, LadmClass cls, uint32_t ngpus,
                      const char *where, const char *name, SimError *err)
{
    const uint32_t *g = kn->info.grid;
    uint64_t rows = (uint64_t)g[1] * g[2];
    if (cls == LADM_ROW && rows < ngpus) {
        return sim_error_set(err,
                             "%s: row needs at least %" PRIu32 " rows of CTAs (%s has "
                             "%" PRIu64 ")",
                             where, ngpus, name, rows);
    }
    if (cls == LADM_COL && g[0] < ngpus) {
        return sim_error_set(err,
                             "%s: column needs at least %" PRIu32 " columns of CTAs (%s "
                             "has %" PRIu32 ")",
                             where, ngpus, name, g[0]);
    }
    return true;
}

/* Applies one hint line (fields f, n of them) to hints; line numbers of the hints so
 * far in seen (per launch, 0 = none). */
static bool hint_line(const AtsList *list, const CoreKernels *ks, uint32_t ngpus,
                      char **f, int n, const char *where, uint64_t ln, LadmClass *hints,
                      uint64_t *seen, SimError *err)
{
    if (n != 2) {
        return sim_error_set(err, "%s: expected \"<kernel file> <class>\"", where);
    }
    LadmClass cls;
    if (!ladm_hint_parse(f[1], &cls)) {
        return sim_error_set(err,
                             "%s: unknown class \"%.40s\" (nl, row, column, itl, other)",
                             where, f[1]);
    }
    bool found = false;
    size_t k = 0;
    for (size_t i = 0; i < list->ncmds; i++) {
        if (list->cmds[i].kind != ATS_CMD_KERNEL) {
            continue;
        }
        if (strcmp(list->cmds[i].name, f[0]) == 0) {
            if (seen[k]) {
                return sim_error_set(err, "%s: %.80s is already hinted on line %" PRIu64,
                                     where, f[0], seen[k]);
            }
            if (!hint_fits(&ks->kernels[k], cls, ngpus, where, f[0], err)) {
                return false;
            }
            hints[k] = cls;
            seen[k] = ln;
            found = true;
        }
        k++;
    }
    if (!found) {
        return sim_error_set(err, "%s: kernelslist.g launches no \"%.80s\"", where, f[0]);
    }
    return true;
}

/* Reads the open hints file l into hints. */
static bool hints_read(AtsLines *l, const AtsList *list, const CoreKernels *ks,
                       uint32_t ngpus, LadmClass *hints, SimError *err)
{
    uint64_t *seen = xcalloc(ks->nkernels ? ks->nkernels : 1, sizeof *seen);
    bool ok;
    char *line;
    while ((ok = ats_lines_next(l, &line, err)) && line) {
        uint64_t ln = ats_lines_number(l);
        char *f[3];
        int n = hint_fields(line, f);
        if (n == 0 || f[0][0] == '#') {
            continue;
        }
        char where[SIM_ERROR_MAX];
        snprintf(where, sizeof where, "%s:%" PRIu64, ats_lines_path(l), ln);
        if (!hint_line(list, ks, ngpus, f, n, where, ln, hints, seen, err)) {
            ok = false;
            break;
        }
    }
    free(seen);
    return ok;
}

bool ladm_hints_load(const char *dir, const CoreKernels *ks, uint32_t ngpus,
                     LadmClass *hints, SimError *err)
{
    for (size_t k = 0; k < ks->nkernels; k++) {
        hints[k] = LADM_UNUSED;
    }
    size_t len = strlen(dir) + sizeof "/" LADM_HINTS_FILE;
    char *path = xmalloc(len);
    snprintf(path, len, "%s/" LADM_HINTS_FILE, dir);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        free(path);
        return true;
    }
    AtsLines *l = ats_lines_open(path, err);
    free(path);
    if (!l) {
        return false;
    }
    AtsList list;
    bool ok = ats_list_load(dir, &list, err);
    if (ok) {
        ok = hints_read(l, &list, ks, ngpus, hints, err);
        ats_list_free(&list);
    }
    ats_lines_close(l);
    return ok;
}
