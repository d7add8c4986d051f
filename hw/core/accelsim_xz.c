/* xz inflation of a trace file through liblzma (see accelsim_xz.h). */
#include "hw/core/accelsim_xz.h"

#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/input_file.h"

struct AtsXz {
    lzma_stream s;
    int fd;
    bool in_eof;  /* read() returned 0: the decoder is told to finish */
    bool out_eof; /* the decoder returned LZMA_STREAM_END */
    /* the failure of a read that returned the bytes before it, for the next read */
    const char *failed;
    uint8_t in[ATS_XZ_IN];
};

bool ats_xz_is(int fd)
{
    static const uint8_t magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
    uint8_t head[sizeof magic];
    return pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
           memcmp(head, magic, sizeof magic) == 0;
}

AtsXz *ats_xz_open(int fd)
{
    AtsXz *x = malloc(sizeof *x);
    if (!x) {
        return NULL;
    }
    lzma_stream init = LZMA_STREAM_INIT;
    x->s = init;
    if (lzma_stream_decoder(&x->s, ATS_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
        free(x);
        return NULL;
    }
    x->fd = fd;
    x->in_eof = false;
    x->out_eof = false;
    x->failed = NULL;
    return x;
}

#define XZ_STR(x) #x
#define XZ_XSTR(x) XZ_STR(x)
#define XZ_MEMLIMIT_MSG                                                                  \
    "xz data that needs more than " XZ_XSTR(ATS_XZ_MEMLIMIT_MIB) " MiB to decompress"

/* liblzma's reason for a failed lzma_code, in words. */
static const char *xz_reason(lzma_ret r)
{
    switch (r) {
    case LZMA_MEM_ERROR:
        return "out of memory";
    case LZMA_MEMLIMIT_ERROR:
        return XZ_MEMLIMIT_MSG;
    case LZMA_FORMAT_ERROR:
        return "not an xz stream";
    case LZMA_OPTIONS_ERROR:
        return "xz options this liblzma does not support";
    case LZMA_BUF_ERROR:
        return "truncated xz stream";
    default:
        return "corrupt xz data";
    }
}

long ats_xz_read(AtsXz *x, char *out, size_t n, const char **why)
{
    if (x->failed) {
        *why = x->failed;
        return -1;
    }
    x->s.next_out = (uint8_t *)out;
    x->s.avail_out = n;
    while (x->s.avail_out > 0 && !x->out_eof) {
        if (x->s.avail_in == 0 && !x->in_eof) {
            ssize_t got = input_file_read(x->fd, x->in, sizeof x->in);
            if (got < 0) {
                x->failed = strerror(errno);
                break;
            }
            x->s.next_in = x->in;
            x->s.avail_in = (size_t)got;
            x->in_eof = got == 0;
        }
        lzma_ret r = lzma_code(&x->s, x->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END) {
            x->out_eof = true;
        } else if (r != LZMA_OK) {
            x->failed = xz_reason(r);
            break;
        }
    }
    size_t got = n - x->s.avail_out;
    if (got == 0 && x->failed) {
        *why = x->failed;
        return -1;
    }
    return (long)got;
}

void ats_xz_close(AtsXz *x)
{
    if (x) {
        lzma_end(&x->s);
        close(x->fd);
        free(x);
    }
}
