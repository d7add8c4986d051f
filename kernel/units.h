/* Strict unit strings. A value is a decimal number (optionally with a fraction) and
 * a unit, with no space: "64GB/s", "30ns", "1.5MiB", "1GHz", "30cycles".
 * GB = 10^9 bytes, GiB = 2^30 bytes; "32GB/s" moves 32 bytes per ns. The result must
 * be a whole number of base units (ps, bytes, bytes/s, Hz) and fit in 64 bits.
 * No sign, no exponent, no space; at most 18 digits after the '.' (trailing zeros
 * do not count).
 * On failure the message says what was wrong with the string (no location: the
 * caller prefixes the file and JSON path), e.g.
 * `bad time "30 ns": unknown unit " ns" (expected ps, ns, us, ms, s or cycles)`. */
#ifndef MGTLM_UNITS_H
#define MGTLM_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "simtime.h"

/* ps, ns, us, ms, s, and "cycles" (needs clock_ps > 0). */
bool units_parse_time(const char *s, SimTime clock_ps, SimTime *out, SimError *err);
/* B, KB, MB, GB, TB, KiB, MiB, GiB, TiB. */
bool units_parse_size(const char *s, uint64_t *out, SimError *err);
/* B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s. */
bool units_parse_bandwidth(const char *s, uint64_t *out, SimError *err);
/* Hz, KHz/kHz, MHz, GHz. */
bool units_parse_freq(const char *s, uint64_t *out, SimError *err);

/* Canonical strings (what `--dump` prints): the largest unit that divides the value
 * exactly, e.g. 30000 ps -> "30ns", 1572864 B -> "1536KiB", 4e9 B -> "4GB",
 * 32e9 B/s -> "32GB/s", 1e9 Hz -> "1GHz". Zero is "0ns", "0B", "0B/s", "0Hz".
 * buf must hold UNITS_BUF bytes; returns buf. */
#define UNITS_BUF 32
const char *units_format_time(SimTime ps, char *buf);
const char *units_format_size(uint64_t bytes, char *buf);
const char *units_format_bandwidth(uint64_t bytes_per_s, char *buf);
const char *units_format_freq(uint64_t hz, char *buf);

#endif
