/* Input files: a regular file within its limit opens; one beyond the limit, a
 * directory, /dev/zero and a FIFO with no writer are refused by type or size before
 * any read (the FIFO without blocking); a read that stops short of the end of the
 * file (an I/O error, or getline out of memory) is an error, never the end. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/input_file.h"
#include "tests/unit/harness.h"

static char tmpdir[] = "/tmp/mgtlm-input-XXXXXX";
static char path[256];

static const char *in_tmp(const char *name)
{
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static void test_regular(void)
{
    FILE *w = fopen(in_tmp("ten"), "w");
    fputs("0123456789", w);
    fclose(w);
    SimError err;
    FILE *f = input_file_open(path, 10, &err);
    CHECK(f != NULL);
    char buf[16];
    CHECK_EQ_U64(fread(buf, 1, sizeof buf, f), 10);
    CHECK(input_file_at_end(f, path, &err));
    fclose(f);
    CHECK(input_file_open(path, 9, &err) == NULL);
    CHECK_STR(err.msg, "too large (10 bytes; the limit is 9)");
}

static void test_special(void)
{
    SimError err;
    CHECK(input_file_open(tmpdir, INPUT_FILE_WHOLE_MAX, &err) == NULL);
    CHECK_STR(err.msg, "not a regular file (a directory)");
    CHECK(input_file_open("/dev/zero", INPUT_FILE_STREAM_MAX, &err) == NULL);
    CHECK_STR(err.msg, "not a regular file (a character device)");
    CHECK(mkfifo(in_tmp("fifo"), 0600) == 0);
    alarm(10); /* a FIFO opened blocking would wait for a writer forever */
    CHECK(input_file_open(path, INPUT_FILE_WHOLE_MAX, &err) == NULL);
    alarm(0);
    CHECK_STR(err.msg, "not a regular file (a FIFO)");
    CHECK(input_file_open(in_tmp("absent"), INPUT_FILE_WHOLE_MAX, &err) == NULL);
    CHECK_STR(err.msg, "No such file or directory");
}

static void test_short_read(void)
{
    SimError err;
    FILE *w = fopen(in_tmp("line"), "w");
    fputs("{\"t\": 0}\n", w);
    fclose(w);
    FILE *f = input_file_open(path, INPUT_FILE_STREAM_MAX, &err);
    CHECK(f != NULL);
    errno = ENOMEM; /* what getline leaves when its buffer cannot grow */
    CHECK(!input_file_at_end(f, "t.jsonl", &err));
    CHECK_STR(err.msg, "t.jsonl: cannot read: Cannot allocate memory");
    fclose(f);
    /* /proc/self/mem is a regular file whose first page cannot be read (EIO) */
    f = input_file_open("/proc/self/mem", INPUT_FILE_WHOLE_MAX, &err);
    CHECK(f != NULL);
    if (f) {
        char c;
        CHECK_EQ_U64(fread(&c, 1, 1, f), 0);
        CHECK(!input_file_at_end(f, "mem", &err));
        CHECK_STR(err.msg, "mem: cannot read: Input/output error");
        fclose(f);
    }
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        return 1;
    }
    RUN(test_regular);
    RUN(test_special);
    RUN(test_short_read);
    unlink(in_tmp("ten"));
    unlink(in_tmp("fifo"));
    unlink(in_tmp("line"));
    rmdir(tmpdir);
    return harness_report();
}
