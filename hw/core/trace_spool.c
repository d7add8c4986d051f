/* The spool of a run's scan (see trace_spool.h). One plan and one buffer are reused
 * for every block; records are appended with pwrite at the spool's own end, so a
 * failed write leaves the records before it whole, and a stop cuts the file back
 * (ftruncate) to the first record dropped. */
#define _GNU_SOURCE /* mkostemp */
#include "hw/core/trace_spool.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "hw/core/core_le.h"

struct TraceSpool {
    int fd;
    uint64_t end;
    uint64_t limit; /* the budget: records end at or before it */
    bool stopped;   /* trace_spool_stop was called */
    CoreCtaPlan plan;
    uint8_t *buf;
    size_t cap;
};

/* A temporary file in dir, unlinked and closed on exec (a program that embeds mgtlm
 * and runs another must not hand it the spool's disk space), or -1 when none can be
 * made there or dir is on a memory file system. */
static int spool_file(const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/mgtlm-spool-XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof path) {
        return -1;
    }
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    struct statfs fs;
    if (unlink(path) != 0 || fstatfs(fd, &fs) != 0 || fs.f_type == TMPFS_MAGIC ||
        fs.f_type == RAMFS_MAGIC) {
        close(fd);
        return -1;
    }
    return fd;
}

uint64_t trace_spool_budget(uint64_t avail, uint64_t block, uint64_t limit)
{
    uint64_t half =
        (block && avail > UINT64_MAX / block ? UINT64_MAX : avail * block) / 2;
    return half < limit ? half : limit;
}

TraceSpool *trace_spool_new(void)
{
    const char *tmp = getenv("TMPDIR");
    const char *dirs[] = {tmp && *tmp ? tmp : NULL, "/var/tmp", "/tmp"};
    int fd = -1;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && fd < 0; i++) {
        fd = dirs[i] ? spool_file(dirs[i]) : -1;
    }
    if (fd < 0) {
        return NULL;
    }
    struct statvfs v;
    struct rlimit r;
    TraceSpool *sp = fstatvfs(fd, &v) == 0 ? calloc(1, sizeof *sp) : NULL;
    if (!sp) {
        close(fd);
        return NULL;
    }
    sp->fd = fd;
    uint64_t fsize = getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur != RLIM_INFINITY
                         ? (uint64_t)r.rlim_cur
                         : UINT64_MAX;
    sp->limit = trace_spool_budget((uint64_t)v.f_bavail, (uint64_t)v.f_frsize, fsize);
    core_cta_plan_init(&sp->plan);
    return sp;
}

void trace_spool_free(TraceSpool *sp)
{
    if (sp) {
        close(sp->fd);
        core_cta_plan_free(&sp->plan);
        free(sp->buf);
        free(sp);
    }
}

/* Writes (write true) or reads all n bytes of p at offset at. */
static bool spool_io(int fd, uint8_t *p, size_t n, uint64_t at, bool write)
{
    while (n > 0) {
        ssize_t k = write ? pwrite(fd, p, n, (off_t)at) : pread(fd, p, n, (off_t)at);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return false;
        }
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return true;
}

bool trace_spool_put(TraceSpool *sp, const AtsCta *cta, uint64_t *at)
{
    size_t n = core_cta_plan(&sp->plan, cta);
    if (sp->stopped || n > UINT32_MAX || n > SIZE_MAX - 4 ||
        4 + (uint64_t)n > sp->limit - sp->end) {
        return false;
    }
    if (4 + n > sp->cap) {
        uint8_t *grown = realloc(sp->buf, 4 + n);
        if (!grown) {
            return false;
        }
        sp->buf = grown;
        sp->cap = 4 + n;
    }
    le_put32(sp->buf, (uint32_t)n);
    core_cta_encode(&sp->plan, cta, sp->buf + 4);
    if (!spool_io(sp->fd, sp->buf, 4 + n, sp->end, true)) {
        return false;
    }
    *at = sp->end;
    sp->end += 4 + n;
    return true;
}

void trace_spool_stop(TraceSpool *sp, uint64_t from)
{
    if (from < sp->end) {
        sp->end = from;
    }
    sp->stopped = true;
    /* a file that cannot be cut back keeps its space until the spool is freed */
    int rc = ftruncate(sp->fd, (off_t)sp->end);
    (void)rc;
}

bool trace_spool_taking(const TraceSpool *sp)
{
    return !sp->stopped;
}

uint64_t trace_spool_end(const TraceSpool *sp)
{
    return sp->end;
}

bool trace_spool_head(const TraceSpool *sp, uint64_t at, uint32_t id[3], uint32_t *len)
{
    uint8_t h[TRACE_SPOOL_HEAD];
    if (!spool_io(sp->fd, h, sizeof h, at, false)) {
        return false;
    }
    *len = le_get32(h);
    for (int i = 0; i < 3; i++) {
        id[i] = le_get32(h + 4 + 4 * i);
    }
    return true;
}

bool trace_spool_body(const TraceSpool *sp, uint64_t at, uint32_t len, uint8_t *out)
{
    return spool_io(sp->fd, out, len, at + 4, false);
}
