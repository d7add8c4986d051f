/* Helpers of the libFuzzer targets whose code under test reads files (traces, golden
 * vectors, testbenches): a private temporary directory per fuzzing process, and
 * writing one input into a file there. */
#ifndef MGTLM_FUZZ_FILE_H
#define MGTLM_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Creates (once) and returns a new directory under $TMPDIR (or /tmp); it is removed
 * with what it holds when the process exits. Exits with status 2 if it cannot. */
const char *fuzz_tmpdir(void);
/* Writes size bytes of data into path (created or truncated); exits 2 on failure. */
void fuzz_write_file(const char *path, const uint8_t *data, size_t size);

#endif
