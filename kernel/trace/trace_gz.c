/* gzip-compressed output as a stdio stream, so a writer that prints with stdio (the
 * Perfetto trace) compresses without a second code path: fopencookie() over zlib's
 * gzwrite. Decisions: zlib's default level (6); the gzip header zlib writes has no
 * file name and a zero time stamp, so the same trace gives the same bytes. */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <zlib.h>

#include "trace_writer.h"

/* Bytes buffered by stdio before a gzwrite. */
#define TRACE_GZ_BUFFER (1u << 20)

static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
    if (size == 0) {
        return 0;
    }
    int k = gzwrite((gzFile)cookie, buf, (unsigned)size);
    return k > 0 ? (ssize_t)k : -1;
}

static int gz_close(void *cookie)
{
    return gzclose((gzFile)cookie) == Z_OK ? 0 : -1;
}

FILE *trace_gz_open(const char *path)
{
    gzFile gz = gzopen(path, "wb");
    if (!gz) {
        return NULL;
    }
    cookie_io_functions_t io = {.write = gz_write, .close = gz_close};
    FILE *f = fopencookie(gz, "w", io);
    if (!f) {
        gzclose(gz);
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, TRACE_GZ_BUFFER);
    return f;
}
