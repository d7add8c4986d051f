/* The hash fill of 128-byte lines (hw/lib/fill.c): fill_bytes, in the version this
 * host picks at load time, against the byte-at-a-time loop of fill_byte that it
 * replaced, side by side in one run (docs/performance.md, "The hash fill in vectors").
 *
 * usage: fill_line [LINES]   (default 2,000,000; prints ns a line for each and the
 * ratio; exits 1 if the two ever give different bytes) */
#include <stdio.h>
#include <string.h>

#include "bench/bench_util.h"
#include "hw/lib/fill.h"

#define LINE 128

/* The loop fill_bytes was before stop 37, kept out of line so it is measured as one. */
static __attribute__((noinline)) void fill_per_byte(uint64_t addr, uint8_t *out)
{
    for (size_t i = 0; i < LINE; i++) {
        out[i] = fill_byte(FILL_HASH, addr + i);
    }
}

int main(int argc, char **argv)
{
    uint64_t lines = 2000000;
    if (argc > 2 || (argc == 2 && !bench_parse_u64(argv[1], 1, 1000000000, &lines))) {
        fprintf(stderr, "usage: fill_line [LINES (1 to 10^9)]\n");
        return 2;
    }
    uint8_t a[LINE], b[LINE];
    uint64_t sum_a = 0, sum_b = 0;
    double t0 = bench_seconds();
    for (uint64_t k = 0; k < lines; k++) {
        fill_bytes(FILL_HASH, 0x7f4a00000000ULL + k * LINE, a, LINE);
        sum_a += a[k % LINE];
    }
    double t1 = bench_seconds();
    for (uint64_t k = 0; k < lines; k++) {
        fill_per_byte(0x7f4a00000000ULL + k * LINE, b);
        sum_b += b[k % LINE];
    }
    double t2 = bench_seconds();
    if (sum_a != sum_b || memcmp(a, b, LINE) != 0) {
        fprintf(stderr, "fill_line: the two fills differ\n");
        return 1;
    }
    double na = (t1 - t0) * 1e9 / (double)lines, nb = (t2 - t1) * 1e9 / (double)lines;
    printf("fill_bytes %.1f ns a line, per byte %.1f ns a line: %.2fx\n", na, nb,
           nb / na);
    return 0;
}
