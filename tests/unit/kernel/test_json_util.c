/* JSON helper tests: pointer building with escapes and UTF-8 repair of error text. */
#include <stdlib.h>

#include "kernel/json_util.h"
#include "tests/unit/harness.h"

static void test_pointer(void)
{
    char buf[64] = "";
    json_pointer_push(buf, sizeof buf, "gpu");
    json_pointer_push(buf, sizeof buf, "a/b~c");
    json_pointer_push_index(buf, sizeof buf, 3);
    CHECK_STR(buf, "/gpu/a~1b~0c/3");
    json_t *root = json_pack("{s:{s:[i,i,i,i]}}", "gpu", "a/b~c", 0, 1, 2, 7);
    json_t *v = json_pointer_get(root, buf);
    CHECK(v && json_integer_value(v) == 7);
    CHECK(json_pointer_get(root, "") == root);
    CHECK(json_pointer_get(root, "/gpu/x") == NULL);
    json_decref(root);
}

/* Each case: input bytes and the repaired text; the repaired text must be accepted
 * by json_string, which rejects ill-formed UTF-8. */
static void test_utf8_clean(void)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain ascii", "plain ascii"},
        {"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"},
        {"a\x80z", "a?z"},
        {"\xC0\x80", "??"},
        {"\xC1\xBF", "??"},
        {"\xE0\x80\x80", "???"},
        {"\xED\xA0\x80", "???"},
        {"\xF0\x80\x80\x80", "????"},
        {"\xF4\x90\x80\x80", "????"},
        {"\xF5\x80", "??"},
        {"\xFF", "?"},
        {"end\xE2\x82", "end??"},
        {"t\\\xCD\x97\x90\x8C\xFD\xDD\xD3&", "t\\\xCD\x97?????&"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i].in);
        CHECK_STR(json_utf8_clean(buf), cases[i].out);
        json_t *s = json_string(buf);
        CHECK(s != NULL);
        json_decref(s);
    }
}

int main(void)
{
    RUN(test_pointer);
    RUN(test_utf8_clean);
    return harness_report();
}
