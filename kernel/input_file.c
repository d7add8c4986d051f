/* Input files: type and size checked on the open descriptor before any read.
 * Decisions: only regular files are accepted (no documented exception: a pipe, a
 * FIFO, a terminal or a device can block or never end, and the tools never read
 * standard input); the file is opened with O_NONBLOCK so that opening a FIFO cannot
 * wait for a writer, and fstat on the descriptor (not stat on the name) checks the
 * very file that will be read. The size limit is the caller's (INPUT_FILE_WHOLE_MAX
 * for files held in memory); a file that grows after the check is bounded by the
 * reader. */
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file of mode m is, for "not a regular file (...)". */
static const char *input_file_kind(mode_t m)
{
    if (S_ISDIR(m)) {
        return "a directory";
    }
    if (S_ISFIFO(m)) {
        return "a FIFO";
    }
    if (S_ISCHR(m)) {
        return "a character device";
    }
    if (S_ISBLK(m)) {
        return "a block device";
    }
    if (S_ISSOCK(m)) {
        return "a socket";
    }
    return "not a file";
}

FILE *input_file_open(const char *path, uint64_t max, SimError *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        sim_error_set(err, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sim_error_set(err, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        sim_error_set(err, "not a regular file (%s)", input_file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > max) {
        sim_error_set(err, "too large (%" PRIu64 " bytes; the limit is %" PRIu64 ")",
                      (uint64_t)st.st_size, max);
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0) {
        f = fdopen(fd, "r");
    }
    if (!f) {
        sim_error_set(err, "%s", strerror(errno));
        close(fd);
    }
    return f;
}

bool input_file_at_end(FILE *f, const char *path, SimError *err)
{
    int why = errno;
    if (feof(f) && !ferror(f)) {
        return true;
    }
    return sim_error_set(err, "%s: cannot read: %s", path, strerror(why ? why : EIO));
}

ssize_t input_file_read(int fd, void *buf, size_t n)
{
    ssize_t got;
    do {
        got = read(fd, buf, n);
    } while (got < 0 && errno == EINTR);
    return got;
}
