/* Line reader of Accel-Sim trace files through zlib (see accelsim_lines.h). The file
 * descriptor of input_file_open's stream is duplicated for gzdopen, so the checks of
 * input_file.h (regular file, no FIFO or device) run before zlib reads a byte. */
#include "hw/core/accelsim_lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "kernel/input_file.h"

struct AtsLines {
    gzFile gz;
    char *path;
    uint64_t number;
    char buf[ATS_LINE_MAX + 2]; /* the line, its '\n' and the terminating NUL */
};

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
    AtsLines *l = calloc(1, sizeof *l);
    char *copy = strdup(path);
    gzFile gz = (l && copy) ? gzdopen(fd, "rb") : NULL;
    if (!gz) {
        close(fd);
        free(l);
        free(copy);
        sim_error_set(err, "%s: cannot open: out of memory", path);
        return NULL;
    }
    l->gz = gz;
    l->path = copy;
    return l;
}

/* zlib's reason for the last failure, without the "<fd:N>: " it prefixes for a
 * stream opened by gzdopen. */
static const char *lines_gz_reason(AtsLines *l)
{
    int code;
    const char *msg = gzerror(l->gz, &code);
    if (code == Z_ERRNO) {
        return strerror(errno);
    }
    const char *colon = strncmp(msg, "<fd:", 4) == 0 ? strstr(msg, ": ") : NULL;
    return colon ? colon + 2 : msg;
}

bool ats_lines_next(AtsLines *l, char **line, SimError *err)
{
    *line = NULL;
    if (!gzgets(l->gz, l->buf, (int)sizeof l->buf)) {
        int code;
        gzerror(l->gz, &code);
        if (code != Z_OK) {
            return sim_error_set(err, "%s:%" PRIu64 ": cannot read: %s", l->path,
                                 l->number + 1, lines_gz_reason(l));
        }
        return true;
    }
    l->number++;
    size_t len = strlen(l->buf);
    if (len > 0 && l->buf[len - 1] == '\n') {
        l->buf[--len] = '\0';
    } else if (len > ATS_LINE_MAX) {
        return sim_error_set(err, "%s:%" PRIu64 ": line longer than %d bytes", l->path,
                             l->number, ATS_LINE_MAX);
    } else if (!gzeof(l->gz)) {
        int code;
        gzerror(l->gz, &code);
        if (code == Z_OK) {
            return sim_error_set(err, "%s:%" PRIu64 ": NUL byte in the line", l->path,
                                 l->number);
        }
        return sim_error_set(err, "%s:%" PRIu64 ": cannot read: %s", l->path, l->number,
                             lines_gz_reason(l));
    }
    if (len > 0 && l->buf[len - 1] == '\r') {
        l->buf[--len] = '\0';
    }
    *line = l->buf;
    return true;
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
        gzclose(l->gz);
        free(l->path);
        free(l);
    }
}
