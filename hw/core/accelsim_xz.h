/* Streaming inflation of an xz-compressed Accel-Sim trace file through liblzma: the
 * NVBit tracer of Accel-Sim's development branch can write xz since December 2023
 * (TRACE_FILE_COMPRESS=1, the default in its later versions), and its post-processor
 * then writes kernel-<n>.traceg.xz.
 *
 * Decisions:
 * - A file is xz when it starts with the format's magic bytes (FD 37 7A 58 5A 00),
 *   whatever its name, as a gzip file is recognised by zlib.
 * - Concatenated streams are read one after another (xz's own rule); bytes after the
 *   last stream that are neither stream padding nor a stream are an error ("corrupt
 *   xz data"), as is a stream cut short ("truncated xz stream").
 * - The decoder may use at most ATS_XZ_MEMLIMIT bytes: xz's presets need 9 MiB (-6,
 *   the default) to 65 MiB (-9) to decompress; a file whose dictionary asks for more
 *   is refused with one line rather than allowed to take memory without bound.
 * - Memory: one input buffer of ATS_XZ_IN bytes and the decoder's state, whatever the
 *   file's length. */
#ifndef MGTLM_HW_CORE_ACCELSIM_XZ_H
#define MGTLM_HW_CORE_ACCELSIM_XZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The decoder's memory bound in MiB, one number for the bound and its message. */
#define ATS_XZ_MEMLIMIT_MIB 256
#define ATS_XZ_MEMLIMIT ((uint64_t)ATS_XZ_MEMLIMIT_MIB << 20)
#define ATS_XZ_IN 65536

typedef struct AtsXz AtsXz;

/* True if the file open on fd starts with the xz magic (read at offset 0 with pread,
 * so fd's position does not move). */
bool ats_xz_is(int fd);
/* A decoder of the xz file open on fd (the decoder owns fd from then on, and closes
 * it in ats_xz_close); NULL when out of memory (fd stays the caller's). */
AtsXz *ats_xz_open(int fd);
/* Inflates up to n bytes into out: returns how many (0 at the end of the file), or
 * -1 with a reason in *why (static text; the read error's strerror). A failure after
 * some bytes returns those, and -1 at the next call, so that the reader's error names
 * the line the file broke in. */
long ats_xz_read(AtsXz *x, char *out, size_t n, const char **why);
void ats_xz_close(AtsXz *x);

#endif
