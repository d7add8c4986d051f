/* Opening input files safely: every loader (platform and extends files, testbenches,
 * workloads, golden vectors, cu traces) opens its file here, so that a device that
 * never ends (/dev/zero), a FIFO with no writer or a directory is refused by its type
 * before anything is read, a file beyond its size limit is refused by its size, and a
 * short read is told apart from the end of the file. */
#ifndef MGTLM_INPUT_FILE_H
#define MGTLM_INPUT_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "kernel/error.h"

/* Limit of a file read whole into memory (JSON documents, golden vectors): 1 GiB. */
#define INPUT_FILE_WHOLE_MAX ((uint64_t)1 << 30)
/* Limit of a streamed file (cu traces): none beyond being a regular file. */
#define INPUT_FILE_STREAM_MAX UINT64_MAX

/* Opens path for reading (new stream, the caller fcloses it) if it is a regular file
 * of at most max bytes. The file is opened without blocking, so a FIFO is refused at
 * once whether or not it has a writer. NULL on failure, with the reason alone in err
 * (for the caller to place after its own "<path>: cannot open: "):
 * "No such file or directory", "not a regular file (a directory)",
 * "too large (2000 bytes; the limit is 1024)". */
FILE *input_file_open(const char *path, uint64_t max, SimError *err);

/* After a read from f came back short: true if f is at its end; false with
 * "<path>: cannot read: <reason>" in err if the read failed (an I/O error, or out of
 * memory in getline), so that a failed read is never taken for the end of the file.
 * errno must still hold the value the failed read left. */
bool input_file_at_end(FILE *f, const char *path, SimError *err);

/* One read(2) of at most n bytes from fd into buf, repeated while a signal interrupts
 * it: what read returns (0 at the end of the file), -1 with errno on a failure. For
 * the readers of a descriptor dup'ed from input_file_open's stream (the trace reader
 * and its gzip and xz decoders). */
ssize_t input_file_read(int fd, void *buf, size_t n);

#endif
