/* Line reader of Accel-Sim trace files, plain or through accelsim_gz.h or
 * accelsim_xz.h (see accelsim_lines.h). The file descriptor of input_file_open's stream
 * is duplicated for the reader, so the checks of input_file.h (regular file, no FIFO or
 * device) run before any byte is read.
 *
 * The buffer holds the unread text buf[start, end): a line is cut out of it in place
 * ('\n' overwritten by NUL); when no '\n' is left, the partial line moves to the front
 * and a chunk is read behind it. A partial line is at most ATS_LINE_MAX bytes (else the
 * line is too long), so the buffer is one chunk, one longest line, a NUL and the
 * padding (ATS_LINE_PAD). */
#include "hw/core/accelsim_lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "hw/core/accelsim_gz.h"
#include "hw/core/accelsim_xz.h"
#include "kernel/input_file.h"

struct AtsLines {
    int fd;    /* a plain file's descriptor, else -1 */
    AtsGz *gz; /* NULL for any other than a gzip file */
    AtsXz *xz; /* NULL for any other than an xz file */
    char *path;
    uint64_t number;
    uint64_t base;     /* the file offset of buf[0] */
    uint64_t offset;   /* the file offset of the line last returned */
    size_t length;     /* of the line last returned */
    size_t start, end; /* unread text */
    size_t nul;        /* offset of the first NUL byte in [start, end), else SIZE_MAX */
    bool eof;          /* the read returned the end of the file */
    char buf[ATS_LINES_CHUNK + ATS_LINE_MAX + 1 + ATS_LINE_PAD];
};

/* Zeroes the bytes after the unread text that a returned line's NUL and padding may
 * take (ATS_LINE_PAD after it): read by the parsers' wide loads, never used, so set
 * before they are read. The rest of the buffer is written by reads before any use. */
static void lines_pad(AtsLines *l)
{
    memset(l->buf + l->end, 0, 1 + ATS_LINE_PAD);
}

AtsLines *ats_lines_open(const char *path, SimError *err)
{
    FILE *f = input_file_open(path, INPUT_FILE_STREAM_MAX, err);
    if (!f) {
        char reason[SIM_ERROR_MAX];
        snprintf(reason, sizeof reason, "%s", err ? err->msg : "");
        sim_error_set(err, "%s: cannot open: %s", path, reason);
        return NULL;
    }
    int fd = dup(fileno(f));
    int saved = errno;
    fclose(f);
    if (fd < 0) {
        sim_error_set(err, "%s: cannot open: %s", path, strerror(saved));
        return NULL;
    }
    /* not zeroed: 320 KiB, and a reader is opened per launch (lines_pad) */
    AtsLines *l = malloc(sizeof *l);
    char *copy = strdup(path);
    bool xz = ats_xz_is(fd);
    bool gz = !xz && ats_gz_is(fd);
    AtsXz *x = (l && copy && xz) ? ats_xz_open(fd) : NULL;
    AtsGz *g = (l && copy && gz) ? ats_gz_open(fd) : NULL;
    if (!l || !copy || (xz && !x) || (gz && !g)) {
        close(fd);
        free(l);
        free(copy);
        sim_error_set(err, "%s: cannot open: out of memory", path);
        return NULL;
    }
    l->fd = (xz || gz) ? -1 : fd;
    l->gz = g;
    l->xz = x;
    l->path = copy;
    l->number = l->base = l->offset = 0;
    l->length = l->start = l->end = 0;
    l->nul = SIZE_MAX;
    l->eof = false;
    lines_pad(l);
    return l;
}

/* Moves the partial line to the front of the buffer and reads a chunk behind it;
 * sets l->eof at the end of the file. */
static bool lines_fill(AtsLines *l, SimError *err)
{
    size_t keep = l->end - l->start;
    l->base += l->start;
    memmove(l->buf, l->buf + l->start, keep);
    if (l->nul != SIZE_MAX) {
        l->nul -= l->start;
    }
    l->start = 0;
    l->end = keep;
    long n;
    const char *why = NULL;
    if (l->xz) {
        n = ats_xz_read(l->xz, l->buf + keep, ATS_LINES_CHUNK, &why);
    } else if (l->gz) {
        n = ats_gz_read(l->gz, l->buf + keep, ATS_LINES_CHUNK, &why);
    } else {
        n = input_file_read(l->fd, l->buf + keep, ATS_LINES_CHUNK);
        why = n < 0 ? strerror(errno) : NULL;
    }
    if (n < 0) {
        return sim_error_set(err, "%s:%" PRIu64 ": cannot read: %s", l->path,
                             l->number + 1, why);
    }
    if (n == 0) {
        l->eof = true;
        lines_pad(l);
        return true;
    }
    if (l->nul == SIZE_MAX) {
        const char *z = memchr(l->buf + keep, '\0', (size_t)n);
        l->nul = z ? (size_t)(z - l->buf) : SIZE_MAX;
    }
    l->end = keep + (size_t)n;
    lines_pad(l);
    return true;
}

/* The first '\n' of p[0, n), NULL if none: the first 64 bytes 16 at a time with SSE2
 * (most trace lines are shorter: no call into memchr for them), memchr (faster on long
 * stretches) for the rest. */
static inline char *lines_newline(char *p, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    for (; i < 64 && i + 16 <= n; i += 16) {
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, nl));
        if (m) {
            return p + i + __builtin_ctz(m);
        }
    }
#endif
    return memchr(p + i, '\n', n - i);
}

uint64_t ats_lines_skip_plain(AtsLines *l, uint64_t n)
{
    uint64_t k = 0;
    while (k < n) {
        char *p = l->buf + l->start;
        char *nl = lines_newline(p, l->end - l->start);
        if (!nl) {
            break;
        }
        char c = *p;
        size_t stop = (size_t)(nl - l->buf);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' || c == 'w' ||
            c == 't' || c == 'i' || stop - l->start > ATS_LINE_MAX || l->nul < stop) {
            break;
        }
        l->offset = l->base + l->start;
        l->start = stop + 1;
        k++;
    }
    l->number += k;
    return k;
}

bool ats_lines_take(AtsLines *l, const char *text, size_t len)
{
    size_t at = l->start;
    if (len == 0 || l->end - at <= len || l->buf[at + len] != '\n' ||
        text[len - 1] == '\r' || l->nul < at + len ||
        memcmp(l->buf + at, text, len) != 0) {
        return false;
    }
    l->offset = l->base + at;
    l->start = at + len + 1;
    l->length = len;
    l->number++;
    return true;
}

bool ats_lines_next(AtsLines *l, char **line, SimError *err)
{
    *line = NULL;
    char *nl;
    for (;;) {
        nl = lines_newline(l->buf + l->start, l->end - l->start);
        if (nl || (l->eof && l->end > l->start)) {
            break;
        }
        if (l->eof) {
            return true;
        }
        if (l->end - l->start > ATS_LINE_MAX) {
            return sim_error_set(err, "%s:%" PRIu64 ": line longer than %d bytes",
                                 l->path, l->number + 1, ATS_LINE_MAX);
        }
        if (!lines_fill(l, err)) {
            return false;
        }
    }
    size_t stop = nl ? (size_t)(nl - l->buf) : l->end; /* the end of line's offset */
    size_t len = stop - l->start;
    l->number++;
    if (len > ATS_LINE_MAX) {
        return sim_error_set(err, "%s:%" PRIu64 ": line longer than %d bytes", l->path,
                             l->number, ATS_LINE_MAX);
    }
    if (l->nul < stop) {
        return sim_error_set(err, "%s:%" PRIu64 ": NUL byte in the line", l->path,
                             l->number);
    }
    char *s = l->buf + l->start;
    l->offset = l->base + l->start;
    s[len] = '\0';
    if (len > 0 && s[len - 1] == '\r') {
        s[--len] = '\0';
    }
    l->start = nl ? stop + 1 : stop;
    l->length = len;
    *line = s;
    return true;
}

uint64_t ats_lines_offset(const AtsLines *l)
{
    return l->offset;
}

bool ats_lines_seekable(AtsLines *l)
{
    return l->fd >= 0;
}

bool ats_lines_seek(AtsLines *l, uint64_t offset, uint64_t line, SimError *err)
{
    if (l->fd < 0) {
        return sim_error_set(err, "%s:%" PRIu64 ": cannot seek: %s file is read in order",
                             l->path, line, l->xz ? "an xz" : "a gzip");
    }
    off_t at = (off_t)offset;
    const char *why = NULL;
    if (at < 0 || (uint64_t)at != offset) {
        why = "offset out of range";
    } else if (lseek(l->fd, at, SEEK_SET) != at) {
        why = strerror(errno);
    }
    if (why) {
        return sim_error_set(err, "%s:%" PRIu64 ": cannot seek: %s", l->path, line, why);
    }
    l->base = offset;
    l->start = l->end = 0;
    lines_pad(l);
    l->nul = SIZE_MAX;
    l->eof = false;
    l->number = line - 1;
    return true;
}

size_t ats_lines_length(const AtsLines *l)
{
    return l->length;
}

uint64_t ats_lines_number(const AtsLines *l)
{
    return l->number;
}

const char *ats_lines_path(const AtsLines *l)
{
    return l->path;
}

void ats_lines_close(AtsLines *l)
{
    if (l) {
        if (l->fd >= 0) {
            close(l->fd);
        }
        ats_gz_close(l->gz);
        ats_xz_close(l->xz);
        free(l->path);
        free(l);
    }
}
