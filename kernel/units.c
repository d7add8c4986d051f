/* Strict parsing and canonical formatting of unit strings (see units.h).
 *
 * A string is split into a decimal number and a unit. The number is held exactly as
 * mantissa / 10^k (128-bit mantissa, k <= 18 fraction digits), so "1.5MiB" and
 * "0.5ns" are exact and "1.5ps" is rejected as not whole. The result is
 * mantissa * multiplier / 10^k, computed after dividing both by their gcd so that no
 * intermediate value overflows; a result above UINT64_MAX is an error. */
#include "units.h"

#include <stdio.h>
#include <string.h>

__extension__ typedef unsigned __int128 U128;

#define UNITS_MAX_INT_DIGITS 20
#define UNITS_MAX_FRAC_DIGITS 18

typedef struct UnitDef {
    const char *name;
    uint64_t mult; /* base units per unit */
} UnitDef;

typedef struct UnitKind {
    const char *what;   /* "time" */
    const char *base;   /* "picoseconds" */
    const char *expect; /* list of accepted units for messages */
    const UnitDef *units;
    size_t nunits;
} UnitKind;

static const UnitDef size_units[] = {
    {"B", 1},
    {"KB", 1000ULL},
    {"MB", 1000000ULL},
    {"GB", 1000000000ULL},
    {"TB", 1000000000000ULL},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"TiB", 1ULL << 40},
};

static const UnitDef bw_units[] = {
    {"B/s", 1},
    {"KB/s", 1000ULL},
    {"MB/s", 1000000ULL},
    {"GB/s", 1000000000ULL},
    {"TB/s", 1000000000000ULL},
    {"KiB/s", 1ULL << 10},
    {"MiB/s", 1ULL << 20},
    {"GiB/s", 1ULL << 30},
    {"TiB/s", 1ULL << 40},
};

static const UnitDef freq_units[] = {
    {"Hz", 1},           {"kHz", 1000ULL},       {"KHz", 1000ULL},
    {"MHz", 1000000ULL}, {"GHz", 1000000000ULL},
};

static uint64_t units_gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool units_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads the number at the start of s into mantissa / 10^k; *unit points after it. */
static bool units_number(const UnitKind *kind, const char *s, U128 *mant, unsigned *k,
                         const char **unit, SimError *err)
{
    const char *p = s;
    if (*p == '\0') {
        return sim_error_set(err, "bad %s \"\": empty string", kind->what);
    }
    if (!units_is_digit(*p)) {
        return sim_error_set(err, "bad %s \"%s\": expected a digit at the start",
                             kind->what, s);
    }
    U128 m = 0;
    unsigned digits = 0;
    for (; units_is_digit(*p); p++) {
        m = m * 10 + (unsigned)(*p - '0');
        if (m != 0 && ++digits > UNITS_MAX_INT_DIGITS) {
            return sim_error_set(err, "bad %s \"%s\": does not fit in 64 bits",
                                 kind->what, s);
        }
    }
    unsigned frac = 0;
    if (*p == '.') {
        p++;
        if (!units_is_digit(*p)) {
            return sim_error_set(err, "bad %s \"%s\": expected a digit after '.'",
                                 kind->what, s);
        }
        const char *f = p;
        while (units_is_digit(*p)) {
            p++;
        }
        const char *last = p;
        while (last > f && last[-1] == '0') {
            last--;
        }
        if (last - f > UNITS_MAX_FRAC_DIGITS) {
            return sim_error_set(err, "bad %s \"%s\": more than %d digits after '.'",
                                 kind->what, s, UNITS_MAX_FRAC_DIGITS);
        }
        for (; f < last; f++) {
            m = m * 10 + (unsigned)(*f - '0');
            frac++;
        }
    }
    *mant = m;
    *k = frac;
    *unit = p;
    return true;
}

static bool units_parse(const UnitKind *kind, const char *s, uint64_t *out, SimError *err)
{
    if (!s) {
        return sim_error_set(err, "bad %s: no string", kind->what);
    }
    U128 mant = 0;
    unsigned k = 0;
    const char *unit = NULL;
    if (!units_number(kind, s, &mant, &k, &unit, err)) {
        return false;
    }
    const UnitDef *u = NULL;
    for (size_t i = 0; i < kind->nunits; i++) {
        if (strcmp(unit, kind->units[i].name) == 0) {
            u = &kind->units[i];
            break;
        }
    }
    if (!u) {
        if (*unit == '\0') {
            return sim_error_set(err, "bad %s \"%s\": missing unit (expected %s)",
                                 kind->what, s, kind->expect);
        }
        return sim_error_set(err, "bad %s \"%s\": unknown unit \"%s\" (expected %s)",
                             kind->what, s, unit, kind->expect);
    }
    if (u->mult == 0) {
        return sim_error_set(err, "bad %s \"%s\": %s need a clock", kind->what, s,
                             u->name);
    }
    uint64_t pow10 = 1;
    for (unsigned i = 0; i < k; i++) {
        pow10 *= 10;
    }
    uint64_t g = units_gcd(u->mult, pow10);
    uint64_t den = pow10 / g, mult = u->mult / g;
    if (mant % den != 0) {
        return sim_error_set(err, "bad %s \"%s\": not a whole number of %s", kind->what,
                             s, kind->base);
    }
    U128 q = mant / den;
    if (q > UINT64_MAX || q * mult > UINT64_MAX) {
        return sim_error_set(err, "bad %s \"%s\": does not fit in 64 bits", kind->what,
                             s);
    }
    *out = (uint64_t)(q * mult);
    return true;
}

bool units_parse_time(const char *s, SimTime clock_ps, SimTime *out, SimError *err)
{
    const UnitDef time_units[] = {
        {"ps", 1},
        {"ns", 1000ULL},
        {"us", 1000000ULL},
        {"ms", 1000000000ULL},
        {"s", 1000000000000ULL},
        {"cycles", clock_ps},
    };
    const UnitKind kind = {"time", "picoseconds", "ps, ns, us, ms, s or cycles",
                           time_units, sizeof time_units / sizeof time_units[0]};
    return units_parse(&kind, s, out, err);
}

bool units_parse_size(const char *s, uint64_t *out, SimError *err)
{
    const UnitKind kind = {"size", "bytes", "B, KB, MB, GB, TB, KiB, MiB, GiB or TiB",
                           size_units, sizeof size_units / sizeof size_units[0]};
    return units_parse(&kind, s, out, err);
}

bool units_parse_bandwidth(const char *s, uint64_t *out, SimError *err)
{
    const UnitKind kind = {"bandwidth", "bytes per second",
                           "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s or TiB/s",
                           bw_units, sizeof bw_units / sizeof bw_units[0]};
    return units_parse(&kind, s, out, err);
}

bool units_parse_freq(const char *s, uint64_t *out, SimError *err)
{
    const UnitKind kind = {"frequency", "hertz", "Hz, kHz, MHz or GHz", freq_units,
                           sizeof freq_units / sizeof freq_units[0]};
    return units_parse(&kind, s, out, err);
}

/* Formats v with the first unit of list (largest first) that divides it exactly; the
 * last unit of list has multiplier 1. */
static const char *units_format(uint64_t v, const UnitDef *const *list, size_t n,
                                const char *zero, char *buf)
{
    if (v == 0) {
        snprintf(buf, UNITS_BUF, "%s", zero);
        return buf;
    }
    size_t i = 0;
    while (i + 1 < n && v % list[i]->mult != 0) {
        i++;
    }
    snprintf(buf, UNITS_BUF, "%llu%s", (unsigned long long)(v / list[i]->mult),
             list[i]->name);
    return buf;
}

const char *units_format_time(SimTime ps, char *buf)
{
    static const UnitDef s = {"s", 1000000000000ULL}, ms = {"ms", 1000000000ULL},
                         us = {"us", 1000000ULL}, ns = {"ns", 1000ULL}, p = {"ps", 1};
    const UnitDef *const list[] = {&s, &ms, &us, &ns, &p};
    return units_format(ps, list, 5, "0ns", buf);
}

/* Size-like units ordered by multiplier, largest first. */
static const char *units_format_sized(uint64_t v, const UnitDef *u, const char *zero,
                                      char *buf)
{
    const UnitDef *const list[] = {&u[8], &u[4], &u[7], &u[3], &u[6],
                                   &u[2], &u[5], &u[1], &u[0]};
    return units_format(v, list, 9, zero, buf);
}

const char *units_format_size(uint64_t bytes, char *buf)
{
    return units_format_sized(bytes, size_units, "0B", buf);
}

const char *units_format_bandwidth(uint64_t bytes_per_s, char *buf)
{
    return units_format_sized(bytes_per_s, bw_units, "0B/s", buf);
}

const char *units_format_freq(uint64_t hz, char *buf)
{
    const UnitDef *const list[] = {&freq_units[4], &freq_units[3], &freq_units[1],
                                   &freq_units[0]};
    return units_format(hz, list, 4, "0Hz", buf);
}
