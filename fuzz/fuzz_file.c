/* Temporary files for the libFuzzer targets (fuzz_file.h). Decision: one directory per
 * process, removed at exit with `rm -rf` semantics done by nftw, so that parallel
 * fuzzers (-jobs) never share a file. */
#define _XOPEN_SOURCE 700
#include "fuzz_file.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[4096];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    return remove(path);
}

static void remove_tmpdir(void)
{
    nftw(fuzz_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tmpdir(void)
{
    if (fuzz_dir[0]) {
        return fuzz_dir;
    }
    const char *t = getenv("TMPDIR");
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/mgtlm-fuzz-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(fuzz_dir)) {
        perror("fuzz: mkdtemp");
        exit(2);
    }
    atexit(remove_tmpdir);
    return fuzz_dir;
}

void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}
