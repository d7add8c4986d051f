/* gzip inflation of a trace file through zlib's inflate (see accelsim_gz.h). */
#include "hw/core/accelsim_gz.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "kernel/input_file.h"

struct AtsGz {
    z_stream s;
    int fd;
    bool in_eof;  /* read() returned 0 */
    bool out_eof; /* the last member ended where the file does */
    /* the failure of a read that returned the bytes before it, for the next read */
    const char *failed;
    char why[128]; /* "corrupt gzip data (<zlib's reason>)" */
    uint8_t in[ATS_GZ_IN];
};

bool ats_gz_is(int fd)
{
    uint8_t head[2];
    return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && head[0] == 0x1f &&
           head[1] == 0x8b;
}

AtsGz *ats_gz_open(int fd)
{
    AtsGz *g = malloc(sizeof *g);
    if (!g) {
        return NULL;
    }
    memset(&g->s, 0, sizeof g->s);
    if (inflateInit2(&g->s, 16 + MAX_WBITS) != Z_OK) { /* 16: a gzip wrapper only */
        free(g);
        return NULL;
    }
    g->fd = fd;
    g->in_eof = false;
    g->out_eof = false;
    g->failed = NULL;
    return g;
}

/* Moves the unread input to the front of the buffer and reads behind it; false with
 * g->failed set on a read error. */
static bool gz_fill(AtsGz *g)
{
    size_t keep = g->s.avail_in;
    if (keep > 0) { /* next_in is NULL before the first read */
        memmove(g->in, g->s.next_in, keep);
    }
    ssize_t got = input_file_read(g->fd, g->in + keep, sizeof g->in - keep);
    if (got < 0) {
        g->failed = strerror(errno);
        return false;
    }
    g->s.next_in = g->in;
    g->s.avail_in = (uInt)(keep + (size_t)got);
    g->in_eof = got == 0;
    return true;
}

/* After a member's end: the file's end, another member (inflate is reset for it), or
 * an error for anything else. False with g->failed set on an error. */
static bool gz_next_member(AtsGz *g)
{
    while (g->s.avail_in < 2 && !g->in_eof) {
        if (!gz_fill(g)) {
            return false;
        }
    }
    if (g->s.avail_in == 0) {
        g->out_eof = true;
        return true;
    }
    if (g->s.avail_in >= 2 && g->s.next_in[0] == 0x1f && g->s.next_in[1] == 0x8b) {
        return inflateReset(&g->s) == Z_OK;
    }
    g->failed = "data after the end of the gzip stream";
    return false;
}

/* The reason for a failed inflate, in words. */
static const char *gz_reason(AtsGz *g, int r)
{
    if (r == Z_MEM_ERROR) {
        return "out of memory";
    }
    snprintf(g->why, sizeof g->why, "corrupt gzip data (%s)",
             g->s.msg ? g->s.msg : "no reason given");
    return g->why;
}

long ats_gz_read(AtsGz *g, char *out, size_t n, const char **why)
{
    if (g->failed) {
        *why = g->failed;
        return -1;
    }
    g->s.next_out = (Bytef *)out;
    g->s.avail_out = (uInt)n;
    while (g->s.avail_out > 0 && !g->out_eof) {
        if (g->s.avail_in == 0 && !g->in_eof) {
            if (!gz_fill(g)) {
                break;
            }
            continue;
        }
        int r = inflate(&g->s, Z_NO_FLUSH);
        if (r == Z_STREAM_END) {
            if (!gz_next_member(g)) {
                break;
            }
        } else if (r == Z_BUF_ERROR && g->s.avail_in == 0) {
            if (g->in_eof) {
                g->failed = "truncated gzip stream";
                break;
            }
        } else if (r != Z_OK) {
            g->failed = gz_reason(g, r);
            break;
        }
    }
    size_t got = n - g->s.avail_out;
    if (got == 0 && g->failed) {
        *why = g->failed;
        return -1;
    }
    return (long)got;
}

void ats_gz_close(AtsGz *g)
{
    if (g) {
        inflateEnd(&g->s);
        close(g->fd);
        free(g);
    }
}
