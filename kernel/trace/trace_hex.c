/* Hex strings of the record schema: numbers ("0x1f", any case, no sign) and byte
 * strings ("0x" + two digits per byte in ascending address order). Shared by the
 * testbench driver (stimulus) and the golden-vector reader. */
#include "trace.h"

#include <stdlib.h>

int trace_hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

bool trace_hex_u64(const char *s, uint64_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2]) {
        return false;
    }
    uint64_t v = 0;
    for (const char *c = s + 2; *c; c++) {
        int d = trace_hex_digit(*c);
        if (d < 0 || v >> 60) {
            return false;
        }
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

bool trace_hex_bytes(const char *s, uint8_t **out, size_t *len)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
        return false;
    }
    size_t digits = 0;
    for (const char *c = s + 2; *c; c++, digits++) {
        if (trace_hex_digit(*c) < 0) {
            return false;
        }
    }
    if (digits % 2) {
        return false;
    }
    uint8_t *bytes = malloc(digits / 2 + 1);
    if (!bytes) {
        return false;
    }
    for (size_t i = 0; i < digits / 2; i++) {
        bytes[i] =
            (uint8_t)(trace_hex_digit(s[2 + 2 * i]) << 4 | trace_hex_digit(s[3 + 2 * i]));
    }
    *out = bytes;
    *len = digits / 2;
    return true;
}
