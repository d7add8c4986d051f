/* L2 tag/data array (see l2_array.h). */
#include "hw/gpu/l2_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/bits.h"

bool l2a_init(L2Array *a, uint64_t size, uint32_t ways, uint32_t line, char *msg,
              size_t msg_len)
{
    memset(a, 0, sizeof *a);
    if (line < 4 || line > L2A_MAX_LINE || !bits_is_pow2(line)) {
        snprintf(msg, msg_len, "line %u must be a power of two from 4 to %u", line,
                 L2A_MAX_LINE);
        return false;
    }
    if (ways == 0 || size % ((uint64_t)ways * line) != 0 || size == 0) {
        snprintf(msg, msg_len, "size %llu is not a multiple of ways x line (%u x %u)",
                 (unsigned long long)size, ways, line);
        return false;
    }
    /* At most 2^26 sets: l2.size is at most 256 MiB (l2.c). */
    a->sets = (uint32_t)(size / ((uint64_t)ways * line));
    a->ways = ways;
    a->line = line;
    a->l = calloc((size_t)a->sets * ways, sizeof *a->l);
    a->tag = malloc((size_t)a->sets * ways * sizeof *a->tag);
    a->data = calloc((size_t)a->sets * ways, line);
    if (!a->l || !a->tag || !a->data) {
        l2a_free(a);
        snprintf(msg, msg_len, "out of host memory for a %llu-byte cache",
                 (unsigned long long)size);
        return false;
    }
    l2a_clear(a);
    return true;
}

void l2a_free(L2Array *a)
{
    free(a->l);
    free(a->tag);
    free(a->data);
    a->l = NULL;
    a->tag = NULL;
    a->data = NULL;
}

void l2a_clear(L2Array *a)
{
    size_t n = (size_t)a->sets * a->ways;
    memset(a->l, 0, n * sizeof *a->l);
    for (size_t i = 0; i < n; i++) {
        a->tag[i] = L2A_NO_TAG;
    }
    a->clock = 0;
}

bool l2a_set_index(L2Array *a, L2Index index, char *msg, size_t msg_len)
{
    if (index == L2A_XOR && !bits_is_pow2(a->sets)) {
        snprintf(msg, msg_len,
                 "index xor needs a power-of-two set count (size / (ways x line) = %u)",
                 a->sets);
        return false;
    }
    a->index = index;
    a->set_bits = (unsigned)bits_log2_ceil(a->sets);
    return true;
}

size_t l2a_set(const L2Array *a, uint64_t line_addr)
{
    uint64_t n = line_addr / a->line;
    if (a->index == L2A_MODULO || a->set_bits == 0) {
        return (size_t)(n % a->sets);
    }
    uint64_t set = 0;
    for (; n; n >>= a->set_bits) {
        set ^= n;
    }
    return (size_t)(set & (a->sets - 1));
}

long l2a_find(const L2Array *a, uint64_t line_addr)
{
    size_t base = l2a_set(a, line_addr) * a->ways;
    const uint64_t *tag = a->tag + base;
    for (size_t w = 0; w < a->ways; w++) {
        if (tag[w] == line_addr) {
            return (long)(base + w);
        }
    }
    return -1;
}

void l2a_fill(L2Array *a, size_t i, uint64_t line_addr)
{
    a->l[i] = (L2Line){.addr = line_addr, .valid = true};
    a->tag[i] = line_addr;
    l2a_touch(a, i);
}

void l2a_drop(L2Array *a, size_t i)
{
    a->l[i].valid = false;
    a->tag[i] = L2A_NO_TAG;
}

size_t l2a_victim(const L2Array *a, uint64_t line_addr)
{
    size_t base = l2a_set(a, line_addr) * a->ways;
    size_t v = base;
    for (size_t w = 0; w < a->ways; w++) {
        if (!a->l[base + w].valid) {
            return base + w;
        }
        if (a->l[base + w].stamp < a->l[v].stamp) {
            v = base + w;
        }
    }
    return v;
}

void l2a_touch(L2Array *a, size_t i)
{
    a->l[i].stamp = ++a->clock;
}

uint8_t *l2a_data(const L2Array *a, size_t i)
{
    return a->data + i * a->line;
}

void l2m_set(uint64_t *m, uint32_t off, uint32_t len)
{
    for (uint32_t i = off; i < off + len; i++) {
        m[i / 64] |= 1ULL << (i % 64);
    }
}

bool l2m_all(const uint64_t *m, uint32_t off, uint32_t len)
{
    for (uint32_t i = off; i < off + len; i++) {
        if (!l2m_bit(m, i)) {
            return false;
        }
    }
    return true;
}

bool l2m_any(const uint64_t *m)
{
    for (uint32_t w = 0; w < L2A_MASK_WORDS; w++) {
        if (m[w]) {
            return true;
        }
    }
    return false;
}

bool l2m_bit(const uint64_t *m, uint32_t i)
{
    return (m[i / 64] >> (i % 64)) & 1u;
}
