/* JSON helpers: kind names for messages, RFC 6901 JSON pointers (build, lookup) and
 * UTF-8 repair (RFC 3629 well-formedness: no overlongs, surrogates or code points
 * above U+10FFFF). */
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

/* Length of the well-formed UTF-8 sequence at s, or 0 if s starts an ill-formed one. */
static size_t utf8_seq_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned long cp;
    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0u) != 0x80u) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    return overlong || surrogate || cp > 0x10FFFF ? 0 : n;
}

char *json_utf8_clean(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        size_t n = utf8_seq_len(p);
        if (n == 0) {
            *p++ = '?';
        } else {
            p += n;
        }
    }
    return s;
}
