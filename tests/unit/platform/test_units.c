/* Unit strings: accepted forms, exact fractions, rejections with their messages,
 * overflow at the 64-bit edge, and canonical formatting. Expected values are plain
 * arithmetic (e.g. 1.5MiB = 1.5 * 2^20 = 1572864 bytes). */
#include <stdint.h>

#include "kernel/units.h"
#include "tests/unit/harness.h"

static uint64_t time_ok(const char *s, SimTime clock)
{
    SimError err = {""};
    SimTime v = 12345;
    if (!units_parse_time(s, clock, &v, &err)) {
        fprintf(stderr, "unexpected failure for %s: %s\n", s, err.msg);
        return UINT64_MAX;
    }
    return v;
}

static const char *time_bad(const char *s, SimTime clock)
{
    static SimError err;
    SimTime v = 777;
    err.msg[0] = '\0';
    if (units_parse_time(s, clock, &v, &err)) {
        return "(accepted)";
    }
    return v == 777 ? err.msg : "(output written on failure)";
}

static void test_time_valid(void)
{
    CHECK_EQ_U64(time_ok("30ns", 0), 30000);
    CHECK_EQ_U64(time_ok("0ns", 0), 0);
    CHECK_EQ_U64(time_ok("0ps", 0), 0);
    CHECK_EQ_U64(time_ok("1ps", 0), 1);
    CHECK_EQ_U64(time_ok("1.5us", 0), 1500000);
    CHECK_EQ_U64(time_ok("0.5ns", 0), 500);
    CHECK_EQ_U64(time_ok("0.001ns", 0), 1);
    CHECK_EQ_U64(time_ok("2ms", 0), 2000000000ULL);
    CHECK_EQ_U64(time_ok("3s", 0), 3000000000000ULL);
    CHECK_EQ_U64(time_ok("007ns", 0), 7000);
    CHECK_EQ_U64(time_ok("1.500000ns", 0), 1500);
    CHECK_EQ_U64(time_ok("30cycles", 1000), 30000);
    CHECK_EQ_U64(time_ok("3cycles", 625), 1875);
    CHECK_EQ_U64(time_ok("0.5cycles", 1000), 500);
    /* 2^64 - 1 ps exactly */
    CHECK_EQ_U64(time_ok("18446744073709551615ps", 0), UINT64_MAX);
    CHECK_EQ_U64(time_ok("18446744073709551.615ns", 0), UINT64_MAX);
}

static void test_time_invalid(void)
{
    CHECK_STR(time_bad("30 ns", 0),
              "bad time \"30 ns\": unknown unit \" ns\" (expected ps, ns, us, ms, s or "
              "cycles)");
    CHECK_STR(time_bad("30nss", 0),
              "bad time \"30nss\": unknown unit \"nss\" (expected ps, ns, us, ms, s or "
              "cycles)");
    CHECK_STR(time_bad("1.5ps", 0),
              "bad time \"1.5ps\": not a whole number of picoseconds");
    CHECK_STR(time_bad("-1ns", 0), "bad time \"-1ns\": expected a digit at the start");
    CHECK_STR(time_bad("+1ns", 0), "bad time \"+1ns\": expected a digit at the start");
    CHECK_STR(time_bad(" 1ns", 0), "bad time \" 1ns\": expected a digit at the start");
    CHECK_STR(time_bad(".5ns", 0), "bad time \".5ns\": expected a digit at the start");
    CHECK_STR(time_bad("5.ns", 0), "bad time \"5.ns\": expected a digit after '.'");
    CHECK_STR(time_bad("", 0), "bad time \"\": empty string");
    CHECK_STR(time_bad("30", 0),
              "bad time \"30\": missing unit (expected ps, ns, us, ms, s or cycles)");
    CHECK_STR(time_bad("1e3ns", 0),
              "bad time \"1e3ns\": unknown unit \"e3ns\" (expected ps, ns, us, ms, s or "
              "cycles)");
    CHECK_STR(time_bad("30NS", 0),
              "bad time \"30NS\": unknown unit \"NS\" (expected ps, ns, us, ms, s or "
              "cycles)");
    CHECK_STR(time_bad("30cycles", 0), "bad time \"30cycles\": cycles need a clock");
    CHECK_STR(time_bad("0.3cycles", 625),
              "bad time \"0.3cycles\": not a whole number of picoseconds");
}

static void test_time_overflow(void)
{
    CHECK_STR(time_bad("99999999999999999999ns", 0),
              "bad time \"99999999999999999999ns\": does not fit in 64 bits");
    CHECK_STR(time_bad("18446744073709551616ps", 0),
              "bad time \"18446744073709551616ps\": does not fit in 64 bits");
    CHECK_STR(time_bad("18446744073709552ns", 0),
              "bad time \"18446744073709552ns\": does not fit in 64 bits");
    CHECK_STR(time_bad("999999999999999999999999999999ps", 0),
              "bad time \"999999999999999999999999999999ps\": does not fit in 64 bits");
    CHECK_STR(time_bad("20000000s", 0),
              "bad time \"20000000s\": does not fit in 64 bits");
    CHECK_STR(time_bad("1.0000000000000000001s", 0),
              "bad time \"1.0000000000000000001s\": more than 18 digits after '.'");
    CHECK_STR(time_bad("18446744073709551615cycles", 2),
              "bad time \"18446744073709551615cycles\": does not fit in 64 bits");
    /* many trailing zeros in the fraction are fine */
    CHECK_EQ_U64(time_ok("1.0000000000000000000000000ns", 0), 1000);
    /* leading zeros do not count towards the digit limit */
    CHECK_EQ_U64(time_ok("0000000000000000000000001ns", 0), 1000);
}

static void test_size(void)
{
    SimError err;
    uint64_t v = 0;
    CHECK(units_parse_size("64B", &v, &err) && v == 64);
    CHECK(units_parse_size("1.5MiB", &v, &err) && v == 1572864);
    CHECK(units_parse_size("4GiB", &v, &err) && v == 4294967296ULL);
    CHECK(units_parse_size("4GB", &v, &err) && v == 4000000000ULL);
    CHECK(units_parse_size("2KB", &v, &err) && v == 2000);
    CHECK(units_parse_size("2KiB", &v, &err) && v == 2048);
    CHECK(units_parse_size("1TiB", &v, &err) && v == 1099511627776ULL);
    CHECK(units_parse_size("0.5KiB", &v, &err) && v == 512);
    CHECK(units_parse_size("0.0009765625KiB", &v, &err) && v == 1);
    CHECK(!units_parse_size("1.3B", &v, &err));
    CHECK_STR(err.msg, "bad size \"1.3B\": not a whole number of bytes");
    CHECK(!units_parse_size("64GB/s", &v, &err));
    CHECK_STR(err.msg,
              "bad size \"64GB/s\": unknown unit \"GB/s\" (expected B, KB, MB, GB, "
              "TB, KiB, MiB, GiB or TiB)");
    CHECK(!units_parse_size("16777216TiB", &v, &err));
    CHECK_STR(err.msg, "bad size \"16777216TiB\": does not fit in 64 bits");
    CHECK(units_parse_size("16777215TiB", &v, &err) && v == 16777215ULL << 40);
}

static void test_bandwidth_freq(void)
{
    SimError err;
    uint64_t v = 0;
    CHECK(units_parse_bandwidth("32GB/s", &v, &err) && v == 32000000000ULL);
    CHECK(units_parse_bandwidth("1.5GiB/s", &v, &err) && v == 1610612736ULL);
    CHECK(units_parse_bandwidth("100B/s", &v, &err) && v == 100);
    CHECK(!units_parse_bandwidth("64GB", &v, &err));
    CHECK_STR(
        err.msg,
        "bad bandwidth \"64GB\": unknown unit \"GB\" (expected B/s, KB/s, MB/s, GB/s, "
        "TB/s, KiB/s, MiB/s, GiB/s or TiB/s)");
    CHECK(units_parse_freq("1GHz", &v, &err) && v == 1000000000ULL);
    CHECK(units_parse_freq("800MHz", &v, &err) && v == 800000000ULL);
    CHECK(units_parse_freq("1.6GHz", &v, &err) && v == 1600000000ULL);
    CHECK(units_parse_freq("10kHz", &v, &err) && v == 10000);
    CHECK(units_parse_freq("10KHz", &v, &err) && v == 10000);
    CHECK(!units_parse_freq("0.5Hz", &v, &err));
    CHECK_STR(err.msg, "bad frequency \"0.5Hz\": not a whole number of hertz");
    CHECK(!units_parse_freq("1ghz", &v, &err));
    CHECK_STR(
        err.msg,
        "bad frequency \"1ghz\": unknown unit \"ghz\" (expected Hz, kHz, MHz or GHz)");
}

static void test_format(void)
{
    char b[UNITS_BUF];
    CHECK_STR(units_format_time(30000, b), "30ns");
    CHECK_STR(units_format_time(0, b), "0ns");
    CHECK_STR(units_format_time(1500, b), "1500ps");
    CHECK_STR(units_format_time(1500000, b), "1500ns");
    CHECK_STR(units_format_time(2000000, b), "2us");
    CHECK_STR(units_format_time(3000000000000ULL, b), "3s");
    CHECK_STR(units_format_time(UINT64_MAX, b), "18446744073709551615ps");
    CHECK_STR(units_format_size(1572864, b), "1536KiB");
    CHECK_STR(units_format_size(4294967296ULL, b), "4GiB");
    CHECK_STR(units_format_size(4000000000ULL, b), "4GB");
    CHECK_STR(units_format_size(64, b), "64B");
    CHECK_STR(units_format_size(0, b), "0B");
    CHECK_STR(units_format_size(3000, b), "3KB");
    CHECK_STR(units_format_bandwidth(32000000000ULL, b), "32GB/s");
    CHECK_STR(units_format_bandwidth(0, b), "0B/s");
    CHECK_STR(units_format_freq(1000000000ULL, b), "1GHz");
    CHECK_STR(units_format_freq(1600000000ULL, b), "1600MHz");
    CHECK_STR(units_format_freq(10000, b), "10kHz");
    CHECK_STR(units_format_freq(7, b), "7Hz");
}

/* Formatting then parsing gives the value back. */
static void test_format_round_trip(void)
{
    const uint64_t vals[] = {0,       1,       999,       1000,          1024,      1536,
                             1000000, 1048576, 123456789, 4294967296ULL, UINT64_MAX};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char b[UNITS_BUF];
        uint64_t v = 1;
        SimError err;
        CHECK(units_parse_time(units_format_time(vals[i], b), 0, &v, &err) &&
              v == vals[i]);
        CHECK(units_parse_size(units_format_size(vals[i], b), &v, &err) && v == vals[i]);
        CHECK(units_parse_bandwidth(units_format_bandwidth(vals[i], b), &v, &err) &&
              v == vals[i]);
        CHECK(units_parse_freq(units_format_freq(vals[i], b), &v, &err) && v == vals[i]);
    }
}

int main(void)
{
    RUN(test_time_valid);
    RUN(test_time_invalid);
    RUN(test_time_overflow);
    RUN(test_size);
    RUN(test_bandwidth_freq);
    RUN(test_format);
    RUN(test_format_round_trip);
    return harness_report();
}
