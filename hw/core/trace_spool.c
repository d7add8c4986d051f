/* The spool of a run's scan (see trace_spool.h). One plan and one buffer are reused
 * for every block; records are appended with pwrite at the spool's own end, so a
 * failed write leaves the records before it whole. */
#include "hw/core/trace_spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hw/core/core_le.h"

struct TraceSpool {
    int fd;
    uint64_t end;
    uint64_t limit; /* the file size limit (RLIMIT_FSIZE) when it was made */
    CoreCtaPlan plan;
    uint8_t *buf;
    size_t cap;
};

TraceSpool *trace_spool_new(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    int n =
        snprintf(path, sizeof path, "%s/mgtlm-spool-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (n < 0 || (size_t)n >= sizeof path) {
        return NULL;
    }
    int fd = mkstemp(path);
    if (fd < 0) {
        return NULL;
    }
    unlink(path);
    TraceSpool *sp = calloc(1, sizeof *sp);
    if (!sp) {
        close(fd);
        return NULL;
    }
    sp->fd = fd;
    struct rlimit r;
    sp->limit = getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur != RLIM_INFINITY
                    ? (uint64_t)r.rlim_cur
                    : UINT64_MAX;
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
    if (n > UINT32_MAX || sp->end + 4 + n > sp->limit) {
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
