/* kernelslist.g reader (see accelsim_list.h).
 *
 * Decisions:
 * - "MemcpyHtoD,<hex addr>,<bytes>" is an allocation, a line naming a kernel file a
 *   launch; blank lines are skipped.
 * - "MemcpyDtoH,..." lines are skipped: Accel-Sim's own parser ignores the copies back
 *   to the host (they move no data the kernels read), and so does mgtlm, but their
 *   form is still checked. Any other line is refused ("unknown command"), so that a
 *   misspelt launch is not silently dropped as Accel-Sim drops it.
 * - A copy whose end (address + bytes, exclusive) does not fit in 64 bits is refused
 *   here, naming its line, for both directions: the host's placement takes the same
 *   rule for allocations (placement.c), which until stop 29 was the only check, with
 *   no line, and none for MemcpyDtoH.
 * - A launch names a file of the same folder, "kernel-<n>.traceg", optionally with
 *   the tracer's context ("kernel-<n>-ctx_0x<hex>.traceg", Accel-Sim's later tracers)
 *   and ".gz" or ".xz": a path with a '/' is refused, which keeps a trace folder
 *   self-contained. The file is looked up as written, then with ".gz", then with
 *   ".xz" appended, so a folder whose traces were compressed after recording needs
 *   no edit. */
#include "hw/core/accelsim_list.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hw/core/accelsim_lines.h"

char *ats_list_trace_path(const char *path)
{
    struct stat st;
    size_t len = strlen(path);
    char *out = malloc(len + 4);
    if (!out) {
        return NULL;
    }
    memcpy(out, path, len);
    if (stat(path, &st) != 0 && errno == ENOENT) {
        static const char *const ext[] = {".gz", ".xz"};
        for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
            memcpy(out + len, ext[i], 4);
            if (stat(out, &st) == 0) {
                return out;
            }
        }
    }
    out[len] = '\0';
    return out;
}

/* Parses a whole unsigned number of the given base (16 accepts a "0x" prefix). */
static bool list_parse_u64(const char *s, int base, uint64_t *v)
{
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
    }
    if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ') {
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, base);
    if (errno != 0 || *end != '\0') {
        return false;
    }
    *v = x;
    return true;
}

/* The line "Memcpy?to?,<hex addr>,<bytes>" (its 10-letter name checked by the
 * caller). */
static bool list_parse_memcpy(const char *line, AtsCmd *c, const char *file, uint64_t ln,
                              SimError *err)
{
    const char *args = line + 10;
    char addr[32], bytes[32];
    const char *comma = args[0] == ',' ? strchr(args + 1, ',') : NULL;
    size_t alen = comma ? (size_t)(comma - args - 1) : 0;
    size_t blen = comma ? strlen(comma + 1) : 0;
    if (!comma || alen == 0 || alen >= sizeof addr || blen == 0 || blen >= sizeof bytes) {
        return sim_error_set(err, "%s:%" PRIu64 ": expected %.10s,<hex address>,<bytes>",
                             file, ln, line);
    }
    memcpy(addr, args + 1, alen);
    addr[alen] = '\0';
    memcpy(bytes, comma + 1, blen + 1);
    if (!list_parse_u64(addr, 16, &c->addr)) {
        return sim_error_set(err, "%s:%" PRIu64 ": bad address \"%s\" (hexadecimal)",
                             file, ln, addr);
    }
    if (!list_parse_u64(bytes, 10, &c->bytes)) {
        return sim_error_set(err, "%s:%" PRIu64 ": bad byte count \"%s\" (decimal)", file,
                             ln, bytes);
    }
    if (c->bytes > UINT64_MAX - c->addr) {
        return sim_error_set(err,
                             "%s:%" PRIu64 ": %.10s of %" PRIu64 " bytes at 0x%" PRIx64
                             ": its end, address + bytes, must fit in 64 bits",
                             file, ln, line, c->bytes, c->addr);
    }
    return true;
}

/* p past a run of at least one character of set, or NULL if none is there. */
static const char *list_run(const char *p, const char *set)
{
    size_t n = strspn(p, set);
    return n > 0 ? p + n : NULL;
}

/* True if name is "kernel-<digits>", then optionally "-ctx_0x<hex digits>", then
 * ".traceg" with an optional ".gz" or ".xz". */
static bool list_kernel_name_ok(const char *name)
{
    if (strncmp(name, "kernel-", 7) != 0) {
        return false;
    }
    const char *p = list_run(name + 7, "0123456789");
    if (p && strncmp(p, "-ctx_0x", 7) == 0) {
        p = list_run(p + 7, "0123456789abcdefABCDEF");
    }
    return p && (strcmp(p, ".traceg") == 0 || strcmp(p, ".traceg.gz") == 0 ||
                 strcmp(p, ".traceg.xz") == 0);
}

static bool list_push(AtsList *list, size_t *cap, AtsCmd *c, SimError *err)
{
    if (list->ncmds == *cap) {
        size_t ncap = *cap ? 2 * *cap : 16;
        AtsCmd *n = realloc(list->cmds, ncap * sizeof *n);
        if (!n) {
            return sim_error_set(err, "out of memory");
        }
        list->cmds = n;
        *cap = ncap;
    }
    list->cmds[list->ncmds++] = *c;
    return true;
}

/* nonnull: what GCC 12 needs to see that dir and line are strings under
 * -fsanitize=undefined -O2 (else -Wformat-truncation, an error with werror). */
static __attribute__((nonnull(1, 2))) bool list_launch(const char *dir, const char *line,
                                                       AtsCmd *c, const char *file,
                                                       uint64_t ln, SimError *err)
{
    if (!list_kernel_name_ok(line)) {
        return sim_error_set(err,
                             "%s:%" PRIu64 ": expected kernel-<n>.traceg (or "
                             "kernel-<n>-ctx_0x<hex>.traceg, .gz or .xz) in the "
                             "same folder, not \"%s\"",
                             file, ln, line);
    }
    size_t len = strlen(dir) + 1 + strlen(line) + 1;
    char *joined = malloc(len);
    if (!joined) {
        return sim_error_set(err, "out of memory");
    }
    snprintf(joined, len, "%s/%s", dir, line);
    c->path = ats_list_trace_path(joined);
    c->name = strdup(line);
    free(joined);
    if (!c->path || !c->name) {
        free(c->path);
        free(c->name);
        return sim_error_set(err, "out of memory");
    }
    return true;
}

/* Reads the commands of the open list l into list. */
static bool list_read(const char *dir, AtsLines *l, AtsList *list, SimError *err)
{
    const char *file = ats_lines_path(l);
    size_t cap = 0;
    char *line;
    while (ats_lines_next(l, &line, err)) {
        if (!line) {
            return true;
        }
        uint64_t ln = ats_lines_number(l);
        AtsCmd c = {0};
        if (line[0] == '\0') {
            continue;
        }
        if (strncmp(line, "MemcpyHtoD", 10) == 0) {
            c.kind = ATS_CMD_MEMCPY;
            if (!list_parse_memcpy(line, &c, file, ln, err)) {
                return false;
            }
        } else if (strncmp(line, "MemcpyDtoH", 10) == 0) {
            if (!list_parse_memcpy(line, &c, file, ln, err)) {
                return false;
            }
            continue;
        } else if (strncmp(line, "kernel", 6) == 0) {
            c.kind = ATS_CMD_KERNEL;
            if (!list_launch(dir, line, &c, file, ln, err)) {
                return false;
            }
        } else {
            return sim_error_set(err,
                                 "%s:%" PRIu64 ": unknown command \"%.40s\" (expected "
                                 "MemcpyHtoD, MemcpyDtoH or kernel-<n>.traceg)",
                                 file, ln, line);
        }
        if (!list_push(list, &cap, &c, err)) {
            free(c.path);
            free(c.name);
            return false;
        }
    }
    return false;
}

bool ats_list_load(const char *dir, AtsList *list, SimError *err)
{
    *list = (AtsList){0};
    size_t len = strlen(dir) + sizeof "/kernelslist.g";
    char *name = malloc(len);
    if (!name) {
        return sim_error_set(err, "out of memory");
    }
    snprintf(name, len, "%s/kernelslist.g", dir);
    char *path = ats_list_trace_path(name);
    free(name);
    if (!path) {
        return sim_error_set(err, "out of memory");
    }
    AtsLines *l = ats_lines_open(path, err);
    if (!l) {
        free(path);
        return false;
    }
    list->file = path;
    bool ok = list_read(dir, l, list, err);
    ats_lines_close(l);
    if (!ok) {
        ats_list_free(list);
    }
    return ok;
}

void ats_list_free(AtsList *list)
{
    for (size_t i = 0; i < list->ncmds; i++) {
        free(list->cmds[i].path);
        free(list->cmds[i].name);
    }
    free(list->cmds);
    free(list->file);
    *list = (AtsList){0};
}
