/* Unit tests of kernel/csv.h: fields written as they are, or quoted with inner quotes
 * doubled when they hold a comma, a quote, a carriage return or a newline (RFC 4180);
 * expected strings written by hand. */
#include <stdlib.h>
#include <string.h>

#include "kernel/csv.h"
#include "tests/unit/harness.h"

/* What csv_field writes for s (a new string). */
static char *field_of(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    csv_field(f, s);
    fclose(f);
    return buf;
}

static void expect_field(const char *s, const char *want)
{
    char *got = field_of(s);
    CHECK(strcmp(got, want) == 0);
    free(got);
}

static void test_plain(void)
{
    expect_field("", "");
    expect_field("gpu0.cu[3].reads", "gpu0.cu[3].reads");
    expect_field("100 ns", "100 ns");
}

static void test_quoted(void)
{
    expect_field("a,b", "\"a,b\"");
    expect_field("say \"hi\"", "\"say \"\"hi\"\"\"");
    expect_field("two\nlines", "\"two\nlines\"");
    expect_field("cr\r", "\"cr\r\"");
    expect_field("\"", "\"\"\"\"");
}

int main(void)
{
    RUN(test_plain);
    RUN(test_quoted);
    return harness_report();
}
