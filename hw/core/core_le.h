/* Little-endian fields of the cores' control messages (core_msg.c, core_cta.c): a
 * plain copy on a little-endian host, bytes otherwise, so that an encoding is the same
 * on every host (internal to hw/core). */
#ifndef MGTLM_HW_CORE_CORE_LE_H
#define MGTLM_HW_CORE_CORE_LE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CORE_LE_HOST 1
#else
#define CORE_LE_HOST 0
#endif

static inline void le_put32(uint8_t *p, uint32_t v)
{
    if (CORE_LE_HOST) {
        memcpy(p, &v, 4);
        return;
    }
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline void le_put64(uint8_t *p, uint64_t v)
{
    if (CORE_LE_HOST) {
        memcpy(p, &v, 8);
        return;
    }
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static inline uint32_t le_get32(const uint8_t *p)
{
    uint32_t v = 0;
    if (CORE_LE_HOST) {
        memcpy(&v, p, 4);
        return v;
    }
    for (int i = 3; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static inline uint64_t le_get64(const uint8_t *p)
{
    uint64_t v = 0;
    if (CORE_LE_HOST) {
        memcpy(&v, p, 8);
        return v;
    }
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

/* n values to p (u64 each). */
static inline void le_put64s(uint8_t *p, const uint64_t *a, size_t n)
{
    if (CORE_LE_HOST && n > 0) {
        memcpy(p, a, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        le_put64(p + 8 * i, a[i]);
    }
}

static inline void le_get64s(uint64_t *a, const uint8_t *p, size_t n)
{
    if (CORE_LE_HOST && n > 0) {
        memcpy(a, p, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = le_get64(p + 8 * i);
    }
}

/* n values to p (u32 each). */
static inline void le_put32s(uint8_t *p, const uint32_t *a, size_t n)
{
    if (CORE_LE_HOST && n > 0) {
        memcpy(p, a, 4 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        le_put32(p + 4 * i, a[i]);
    }
}

#endif
