/* Line-by-line reading of an Accel-Sim trace file (kernelslist.g, kernel-<n>.traceg),
 * plain, gzip- or xz-compressed alike: the file is opened through kernel/input_file.h
 * (a regular file only) and read through liblzma when it starts with the xz magic
 * (accelsim_xz.h), through zlib when it starts with the gzip magic (accelsim_gz.h),
 * else as it is.
 *
 * Decisions:
 * - A line is at most ATS_LINE_MAX bytes: a real trace line (32 addresses of 18
 *   characters and the registers) is under 1 KiB, and a longer one is refused rather
 *   than grown into memory without bound.
 * - The end of line is "\n" or "\r\n"; the returned text has neither.
 * - A damaged or truncated gzip or xz stream, and bytes after its end that start no
 *   other member or stream, are an error naming the line it broke in, never taken for
 *   the end of the file.
 * - The file is read in chunks of ATS_LINES_CHUNK bytes into one buffer and every line
 *   is returned in place (no copy): read(), zlib or liblzma writes a chunk that large
 *   into the buffer, plain or inflated. A NUL byte is looked for once per chunk, not
 *   per line. The buffer is the reader's whole memory for text, whatever the file's
 *   length. */
#ifndef MGTLM_HW_CORE_ACCELSIM_LINES_H
#define MGTLM_HW_CORE_ACCELSIM_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/error.h"

#define ATS_LINE_MAX 65536
/* Readable bytes after the NUL that ends a returned line, for parsers that load 16 or
 * 24 bytes at a time (accelsim_inst.c). */
#define ATS_LINE_PAD 32
/* Bytes read from the file at a time (a multiple of the longest line). */
#define ATS_LINES_CHUNK (4 * ATS_LINE_MAX)

typedef struct AtsLines AtsLines;

/* Opens path; NULL with "<path>: cannot open: <reason>" in err. The caller closes it
 * with ats_lines_close. */
AtsLines *ats_lines_open(const char *path, SimError *err);
/* Reads the next line into *line (valid until the next call, owned by l; followed by
 * ATS_LINE_PAD readable bytes after its NUL) and returns true, with *line NULL at the end
 * of the file; false with "<path>:<line>: <reason>" in err for a read error or a line
 * that is too long. */
bool ats_lines_next(AtsLines *l, char **line, SimError *err);
/* Passes over at most n lines that are in the buffer already and need no look: each
 * starts with a byte other than a blank, '\r', '#', 'w', 't' or 'i' (so it is neither
 * blank nor a structure line of a kernel trace), holds no NUL and is not too long.
 * Stops before the first other line (for ats_lines_next to return and its caller to
 * judge) and at the end of the buffer; returns how many it passed, counted in
 * ats_lines_number. Never reads the file or fails: a skip of instruction lines
 * (ats_reader_skip) without returning each. */
uint64_t ats_lines_skip_plain(AtsLines *l, uint64_t n);
/* Passes over the next line when it is text (len bytes, no NUL byte) followed by
 * '\n', and text does not end with '\r', within the buffer: the line ats_lines_next
 * would return as text, counted as returned (ats_lines_number, _offset, _length), but
 * not cut (no NUL written). Returns false, with nothing read, for any other line or
 * when the buffer does not hold len + 1 bytes (never reads the file). */
bool ats_lines_take(AtsLines *l, const char *text, size_t len);
/* The file offset of the first byte of the line last returned (or passed over). */
uint64_t ats_lines_offset(const AtsLines *l);
/* True if the file is read as it is (not compressed): ats_lines_seek then moves
 * in the file without reading it. */
bool ats_lines_seekable(AtsLines *l);
/* Moves to offset, the first byte of a line that ats_lines_offset gave for this file
 * (a plain file: ats_lines_seekable), whose number is line (>= 1): the next
 * ats_lines_next returns it. False with "<path>:<line>: cannot seek: <reason>". */
bool ats_lines_seek(AtsLines *l, uint64_t offset, uint64_t line, SimError *err);
/* The length of the line last returned (without its end of line). */
size_t ats_lines_length(const AtsLines *l);
/* The number of the line last returned (1 for the first). */
uint64_t ats_lines_number(const AtsLines *l);
/* The path given to ats_lines_open. */
const char *ats_lines_path(const AtsLines *l);
void ats_lines_close(AtsLines *l);

#endif
