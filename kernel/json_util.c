/* JSON helpers: kind names for messages and RFC 6901 JSON pointers (build, lookup). */
#include "json_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return "real";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        return "null";
    }
    return "null";
}

char *json_pointer_push(char *buf, size_t n, const char *key)
{
    size_t len = strlen(buf);
    if (len + 1 < n) {
        buf[len++] = '/';
    }
    for (const char *k = key; *k && len + 1 < n; k++) {
        if (*k == '~' || *k == '/') {
            if (len + 2 >= n) {
                break;
            }
            buf[len++] = '~';
            buf[len++] = *k == '~' ? '0' : '1';
        } else {
            buf[len++] = *k;
        }
    }
    buf[len] = '\0';
    return buf;
}

char *json_pointer_push_index(char *buf, size_t n, size_t index)
{
    char num[32];
    snprintf(num, sizeof num, "%zu", index);
    return json_pointer_push(buf, n, num);
}

/* Copies the next reference token of *p (unescaped) into tok; false at the end. */
static bool json_pointer_token(const char **p, char *tok, size_t n)
{
    if (**p != '/') {
        return false;
    }
    (*p)++;
    size_t len = 0;
    while (**p && **p != '/') {
        char c = **p;
        if (c == '~' && ((*p)[1] == '0' || (*p)[1] == '1')) {
            c = (*p)[1] == '0' ? '~' : '/';
            (*p)++;
        }
        if (len + 1 < n) {
            tok[len++] = c;
        }
        (*p)++;
    }
    tok[len] = '\0';
    return true;
}

json_t *json_pointer_get(json_t *root, const char *pointer)
{
    json_t *v = root;
    const char *p = pointer;
    char tok[512];
    while (v && json_pointer_token(&p, tok, sizeof tok)) {
        if (json_is_object(v)) {
            v = json_object_get(v, tok);
        } else if (json_is_array(v)) {
            char *end;
            unsigned long i = strtoul(tok, &end, 10);
            v = (*tok && *end == '\0') ? json_array_get(v, i) : NULL;
        } else {
            v = NULL;
        }
    }
    return (v && *p == '\0') ? v : NULL;
}
