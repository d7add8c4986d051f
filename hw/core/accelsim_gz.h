/* Streaming inflation of a gzip-compressed Accel-Sim trace file through zlib's
 * inflate (the tracer's post-processor and users compress traces with gzip; issue 14
 * part 1 asks for `.gz` files).
 *
 * Until stop 44 the reader used zlib's gzread, which ignores any bytes after the last
 * gzip member that do not start another member: a trace with a plain text file, a
 * half-written member or junk appended lost that part without a word. This decoder
 * reads members with inflate itself, so that it can refuse them.
 *
 * Decisions:
 * - A file is gzip when it starts with the format's magic bytes (1F 8B), whatever its
 *   name, as zlib's gzread decided; any other file is read as it is.
 * - Concatenated members are read one after another (gzip's own rule, RFC 1952 2.2).
 *   Bytes after a member that do not start another one are an error ("data after
 *   the end of the gzip stream"), zero bytes included (gzip(1) only warns about
 *   those; a trace has no reason to hold them, and a user can strip them); a member
 *   cut short is "truncated gzip stream"; a damaged one is "corrupt gzip data" with
 *   zlib's reason ("incorrect data check", "invalid block type", ...).
 * - Memory: one input buffer of ATS_GZ_IN bytes and inflate's state (its 32 KiB
 *   window), whatever the file's length. */
#ifndef MGTLM_HW_CORE_ACCELSIM_GZ_H
#define MGTLM_HW_CORE_ACCELSIM_GZ_H

#include <stdbool.h>
#include <stddef.h>

#define ATS_GZ_IN 65536

typedef struct AtsGz AtsGz;

/* True if the file open on fd starts with the gzip magic (read at offset 0 with
 * pread, so fd's position does not move). */
bool ats_gz_is(int fd);
/* A decoder of the gzip file open on fd (the decoder owns fd from then on, and closes
 * it in ats_gz_close); NULL when out of memory (fd stays the caller's). */
AtsGz *ats_gz_open(int fd);
/* Inflates up to n bytes into out: returns how many (0 at the end of the file), or
 * -1 with a reason in *why (static text, zlib's message or the read error's
 * strerror). A failure after some bytes returns those, and -1 at the next call, so
 * that the reader's error names the line the file broke in. */
long ats_gz_read(AtsGz *g, char *out, size_t n, const char **why);
void ats_gz_close(AtsGz *g);

#endif
