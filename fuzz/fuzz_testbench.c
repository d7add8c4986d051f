/* libFuzzer target for the testbench loader and runner (tools/mgtlm/testbench*.c):
 * byte 0 of the input picks a testbench suite (the directories of testbench/, in
 * name order), the rest is a testbench document written as a file of that suite,
 * so that its relative paths (platforms/, traces/, ../../vectors/) resolve as in the
 * shipped testbenches, which are the seeds (fuzz/run.sh prefixes each with its
 * suite's index). The testbench is loaded, built, run and judged like `mgtlm test`;
 * crashes, leaks and sanitizer reports are failures, a refused or failing testbench
 * is fine. The suite directories are mirrored under a private temporary directory
 * (symbolic links to every entry but the testbenches themselves). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "hw/blocks.h"
#include "tools/mgtlm/testbench.h"

#define FUZZ_SUITES_MAX 64

static Registry *fuzz_registry;
static char *fuzz_suites[FUZZ_SUITES_MAX]; /* input file of each suite (owned) */
static size_t fuzz_nsuites;
static FILE *fuzz_null;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
    perror(what);
    exit(2);
}

static int is_dir(const struct dirent *e)
{
    return e->d_name[0] != '.' && e->d_type == DT_DIR;
}

/* Links root/<link> to the absolute target (exits on failure). */
static void link_to(const char *target, const char *link)
{
    char abs[PATH_MAX];
    if (!realpath(target, abs) || symlink(abs, link) != 0) {
        die(link);
    }
}

/* tmp/testbench/<suite>/ with a link to every entry of testbench/<suite> but *.json. */
static void mirror_suite(const char *tmp, const char *suite)
{
    char src[PATH_MAX];
    char dst[PATH_MAX * 2];
    snprintf(src, sizeof src, "testbench/%s", suite);
    snprintf(dst, sizeof dst, "%s/testbench/%s", tmp, suite);
    if (mkdir(dst, 0700) != 0) {
        die(dst);
    }
    DIR *d = opendir(src);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)) {
            continue;
        }
        char from[PATH_MAX * 2];
        char to[PATH_MAX * 3];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
        link_to(from, to);
    }
    if (d) {
        closedir(d);
    }
    char file[PATH_MAX * 3];
    snprintf(file, sizeof file, "%s/fuzz-input.json", dst);
    fuzz_suites[fuzz_nsuites++] = strdup(file);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    SimError err;
    fuzz_registry = registry_new();
    if (!fuzz_registry || !hw_register(fuzz_registry, &err)) {
        fprintf(stderr, "fuzz_testbench: %s\n", fuzz_registry ? err.msg : "no memory");
        exit(2);
    }
    const char *tmp = fuzz_tmpdir();
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/testbench", tmp);
    if (mkdir(path, 0700) != 0) {
        die(path);
    }
    static const char *const top[] = {"vectors", "platforms"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, top[i]);
        link_to(top[i], path);
    }
    struct dirent **v;
    int n = scandir("testbench", &v, is_dir, alphasort);
    if (n <= 0) {
        die("fuzz_testbench: testbench/ (run from the repository root)");
    }
    for (int i = 0; i < n; i++) {
        if (fuzz_nsuites < FUZZ_SUITES_MAX) {
            mirror_suite(tmp, v[i]->d_name);
        }
        free(v[i]);
    }
    free(v);
    fuzz_null = fopen("/dev/null", "w");
    if (!fuzz_null) {
        die("/dev/null");
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    const char *path = fuzz_suites[data[0] % fuzz_nsuites];
    fuzz_write_file(path, data + 1, size - 1);
    SimError err;
    testbench_run(fuzz_registry, path, NULL, NULL, fuzz_null, &err);
    return 0;
}
