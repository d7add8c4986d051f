/* The hash fill of a byte range (fill.h): the data of every memory read of a byte
 * nobody wrote, and what the sm's data check compares such bytes with.
 *
 * Speed: each byte is a 64-bit mix of its address, two 64-bit multiplies. Where the
 * compiler can (meson defines MGTLM_FILL_WIDE after a test compile: GCC on x86-64, not
 * in sanitizer builds, whose instrumented resolver would crash before the sanitizer
 * starts), a second version for hosts with AVX-512 (vpmullq multiplies four 64-bit
 * lanes of a 256-bit register) is chosen at load time (an ifunc). The compiler makes
 * it vectors at -O3 (release builds; debugoptimized keeps it scalar): a line in 55 ns
 * instead of 102 ns on the build machine (bench/fill_line), runs 1.02x - 1.04x faster
 * (docs/performance.md, "The hash fill in vectors"). Its vectors are 256 bits wide:
 * with 512, the whole run was slower on this Xeon (the lower clock of cores that run
 * 512-bit multiplies). The bytes are the same on every host, since both versions
 * compute one integer function; valgrind's CPU has no AVX-512, so it runs the plain
 * one. */
#include "hw/lib/fill.h"

#include <string.h>

/* Inlined into each version, so that each is compiled for its own target. */
static inline __attribute__((always_inline)) void fill_hash_loop(uint64_t addr,
                                                                 uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        out[i] = (uint8_t)fill_mix(addr + i);
    }
}

#if defined(MGTLM_FILL_WIDE) && !defined(__SANITIZE_ADDRESS__) &&                        \
    !defined(__SANITIZE_THREAD__)
typedef void (*FillFn)(uint64_t addr, uint8_t *out, size_t len);

__attribute__((target("arch=x86-64-v4,prefer-vector-width=256"))) static void
fill_hash_wide(uint64_t addr, uint8_t *out, size_t len)
{
    fill_hash_loop(addr, out, len);
}

static void fill_hash_plain(uint64_t addr, uint8_t *out, size_t len)
{
    fill_hash_loop(addr, out, len);
}

static FillFn fill_hash_pick(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("x86-64-v4") ? fill_hash_wide : fill_hash_plain;
}

void fill_hash_bytes(uint64_t addr, uint8_t *out, size_t len)
    __attribute__((ifunc("fill_hash_pick")));
#else
void fill_hash_bytes(uint64_t addr, uint8_t *out, size_t len)
{
    fill_hash_loop(addr, out, len);
}
#endif

void fill_bytes(FillKind kind, uint64_t addr, uint8_t *out, size_t len)
{
    if (kind == FILL_HASH) {
        fill_hash_bytes(addr, out, len);
    } else {
        memset(out, 0, len);
    }
}
