/* Instance and port names: validity, array index, splitting a full port name.
 * Instance names are segments `ident` or `ident[k]` joined by '.' ("gpu0.cu[1]",
 * "fabric.sw[2]", "tb.d0"); a full port name is "<instance>.<port>" where the port is
 * `ident` or `ident[k]`, so it is split at the last '.'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform_priv.h"

static bool platform_ident_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (!first && c >= '0' && c <= '9');
}

bool platform_name_ident(const char *name)
{
    if (!platform_ident_char(name[0], true)) {
        return false;
    }
    for (const char *p = name + 1; *p; p++) {
        if (!platform_ident_char(*p, false)) {
            return false;
        }
    }
    return true;
}

/* Reads one segment `ident` or `ident[digits]` at *p; false if malformed. */
static bool platform_segment(const char **p)
{
    const char *s = *p;
    if (!platform_ident_char(*s, true)) {
        return false;
    }
    while (platform_ident_char(*s, false)) {
        s++;
    }
    if (*s == '[') {
        s++;
        const char *digits = s;
        while (*s >= '0' && *s <= '9') {
            s++;
        }
        if (s == digits || s - digits > 9 || *s != ']' ||
            (digits[0] == '0' && s > digits + 1)) {
            return false;
        }
        s++;
    }
    *p = s;
    return true;
}

bool platform_name_valid(const char *name)
{
    const char *p = name;
    while (platform_segment(&p)) {
        if (*p == '\0') {
            return true;
        }
        if (*p != '.') {
            return false;
        }
        p++;
    }
    return false;
}

int platform_name_index(const char *name)
{
    size_t len = strlen(name);
    if (len < 3 || name[len - 1] != ']') {
        return -1;
    }
    const char *open = strrchr(name, '[');
    return open ? atoi(open + 1) : -1;
}

bool platform_name_split_port(const char *full, char *inst, char *port, size_t n, int *k)
{
    const char *dot = strrchr(full, '.');
    if (!dot || dot == full || strlen(full) >= n) {
        return false;
    }
    size_t ilen = (size_t)(dot - full);
    memcpy(inst, full, ilen);
    inst[ilen] = '\0';
    const char *p = dot + 1;
    if (!platform_name_valid(inst) || !platform_segment(&p) || *p != '\0') {
        return false;
    }
    snprintf(port, n, "%s", dot + 1);
    char *open = strchr(port, '[');
    *k = -1;
    if (open) {
        *k = atoi(open + 1);
        *open = '\0';
    }
    return true;
}
