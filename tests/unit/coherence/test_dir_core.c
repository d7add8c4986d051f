/* Directory state machine (hw/coherence/dir_core.c) against SPEC.md 3.1 / 3.2: the
 * worked examples R1 and R2, replacement, eviction order, HMG false positives,
 * remote writes, sharer slots for 8 and 16 GPUs, and the storage formula. */
#include <stdint.h>

#include "hw/coherence/dir_core.h"
#include "tests/unit/harness.h"

#define MAX_INV 64

typedef struct Log {
    uint64_t addr[MAX_INV];
    int gpu[MAX_INV];
    DirCause cause[MAX_INV];
    int n;
} Log;

static void log_inv(void *ctx, uint64_t line_addr, int gpu, DirCause cause)
{
    Log *l = ctx;
    if (l->n < MAX_INV) {
        l->addr[l->n] = line_addr;
        l->gpu[l->n] = gpu;
        l->cause[l->n] = cause;
    }
    l->n++;
}

static void setup(DirCore *d, Log *l, uint32_t entries, uint32_t ways, uint32_t range,
                  uint32_t gpus, int home, bool hmg, DirRepl repl)
{
    DirConfig c = {.entries = entries,
                   .ways = ways,
                   .range = range,
                   .line = 64,
                   .gpus = gpus,
                   .home = home,
                   .shared_vector = hmg,
                   .repl = repl};
    char msg[128];
    *l = (Log){0};
    CHECK(dir_core_init(d, &c, log_inv, l, msg, sizeof msg));
}

/* Entry-wide bit p of the line holding addr (SPEC numbering: p = i*N + b). */
static int bit_set(const DirCore *d, uint64_t addr, uint32_t p)
{
    uint32_t n = d->c.gpus;
    uint32_t i = (uint32_t)((addr % d->c.range) / d->c.line);
    if (p / n != i) {
        return 0;
    }
    return (dir_core_group(d, addr) >> (p % n)) & 1u;
}

static void test_r1(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 8192, 8, 1024, 4, 0, false, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x340, 1);
    CHECK(bit_set(&d, 0x340, 52) && bit_set(&d, 0x340, 53));
    CHECK_EQ_U64(dir_core_group(&d, 0x340), 0x3);
    dir_core_remote_read(&d, 0x380, 3);
    CHECK(bit_set(&d, 0x380, 56) && bit_set(&d, 0x380, 59));
    dir_core_remote_write(&d, 0x380, 2);
    CHECK_EQ_U64(l.n, 1);
    CHECK_EQ_U64(l.addr[0], 0x380);
    CHECK_EQ_U64(l.gpu[0], 3);
    CHECK(bit_set(&d, 0x380, 58) && !bit_set(&d, 0x380, 59));
    dir_core_local_write(&d, 0x340);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.addr[1], 0x340);
    CHECK_EQ_U64(l.gpu[1], 1);
    CHECK_EQ_U64(dir_core_group(&d, 0x340), 0);
    CHECK_EQ_U64(dir_core_valid_entries(&d), 1);
    CHECK_EQ_U64(d.inv_write, 2);
    dir_core_free(&d);
}

static void test_r2(void)
{
    static const uint64_t reads[] = {0x1000, 0x1040, 0x1080, 0x1000};
    DirCore d;
    Log l;
    setup(&d, &l, 2, 2, 64, 4, 0, false, DIR_REPL_FIFO);
    for (int i = 0; i < 4; i++) {
        dir_core_remote_read(&d, reads[i], 1);
    }
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.addr[0], 0x1000);
    CHECK_EQ_U64(l.addr[1], 0x1040);
    CHECK_EQ_U64(l.gpu[0], 1);
    CHECK(l.cause[0] == DIR_CAUSE_EVICT);
    dir_core_free(&d);
    setup(&d, &l, 2, 2, 1024, 4, 0, false, DIR_REPL_LRU);
    for (int i = 0; i < 4; i++) {
        dir_core_remote_read(&d, reads[i], 1);
    }
    CHECK_EQ_U64(l.n, 0);
    CHECK_EQ_U64(dir_core_valid_entries(&d), 1);
    CHECK_EQ_U64(dir_core_positions(&d), 3);
    CHECK_EQ_U64(d.e[0].base + d.e[1].base, 4);
    dir_core_free(&d);
}

/* One set of 2 ways: A, B, A again, then C: LRU evicts B, FIFO evicts A. */
static void test_victim(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 2, 2, 1024, 4, 0, false, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x0, 1);
    dir_core_remote_read(&d, 0x400, 2);
    dir_core_remote_read(&d, 0x40, 3);
    dir_core_remote_read(&d, 0x800, 1);
    CHECK_EQ_U64(l.n, 1);
    CHECK_EQ_U64(l.addr[0], 0x400);
    CHECK_EQ_U64(l.gpu[0], 2);
    dir_core_free(&d);
    setup(&d, &l, 2, 2, 1024, 4, 0, false, DIR_REPL_FIFO);
    dir_core_remote_read(&d, 0x0, 1);
    dir_core_remote_read(&d, 0x400, 2);
    dir_core_remote_read(&d, 0x40, 3);
    dir_core_remote_read(&d, 0x800, 1);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.addr[0], 0x0);
    CHECK_EQ_U64(l.gpu[0], 1);
    CHECK_EQ_U64(l.addr[1], 0x40);
    CHECK_EQ_U64(l.gpu[1], 3);
    dir_core_free(&d);
}

/* Eviction: ascending line, then ascending GPU, whatever the order of the reads. */
static void test_evict_order(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 1, 1, 1024, 4, 0, false, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x80, 3);
    dir_core_remote_read(&d, 0x80, 1);
    dir_core_remote_read(&d, 0x0, 2);
    dir_core_remote_read(&d, 0x3c0, 1);
    dir_core_remote_read(&d, 0x400, 2);
    static const uint64_t addr[] = {0x0, 0x80, 0x80, 0x3c0};
    static const int gpu[] = {2, 1, 3, 1};
    CHECK_EQ_U64(l.n, 4);
    for (int i = 0; i < 4 && i < l.n; i++) {
        CHECK_EQ_U64(l.addr[i], addr[i]);
        CHECK_EQ_U64(l.gpu[i], gpu[i]);
        CHECK(l.cause[i] == DIR_CAUSE_EVICT);
    }
    CHECK_EQ_U64(d.evictions, 1);
    CHECK_EQ_U64(d.inv_evict, 4);
    dir_core_free(&d);
}

/* HMG: a write to one line invalidates all 4 lines at every other sharer. */
static void test_hmg(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 8192, 8, 256, 4, 0, true, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x1000, 1);
    dir_core_remote_read(&d, 0x1000, 2);
    dir_core_remote_write(&d, 0x1040, 1);
    CHECK_EQ_U64(l.n, 4);
    for (int i = 0; i < 4 && i < l.n; i++) {
        CHECK_EQ_U64(l.addr[i], 0x1000 + 0x40 * (uint64_t)i);
        CHECK_EQ_U64(l.gpu[i], 2);
    }
    CHECK_EQ_U64(dir_core_group(&d, 0x10c0), 0x3);
    dir_core_local_write(&d, 0x10c0);
    CHECK_EQ_U64(l.n, 8);
    CHECK_EQ_U64(l.gpu[7], 1);
    CHECK_EQ_U64(dir_core_valid_entries(&d), 0);
    dir_core_free(&d);
}

/* Remote write: untracked -> tracked like a read; tracked -> keep only the writer;
 * the entry goes invalid when its last position clears. */
static void test_remote_write(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 8192, 8, 1024, 4, 0, false, DIR_REPL_LRU);
    dir_core_remote_write(&d, 0x2000, 2);
    CHECK_EQ_U64(l.n, 0);
    CHECK_EQ_U64(dir_core_group(&d, 0x2000), 0x5);
    dir_core_remote_read(&d, 0x2000, 1);
    dir_core_remote_read(&d, 0x2000, 3);
    dir_core_remote_write(&d, 0x2010, 3);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.gpu[0], 1);
    CHECK_EQ_U64(l.gpu[1], 2);
    CHECK_EQ_U64(l.addr[1], 0x2000);
    CHECK_EQ_U64(dir_core_group(&d, 0x2000), 0x9);
    dir_core_local_write(&d, 0x2000);
    CHECK_EQ_U64(l.n, 3);
    CHECK_EQ_U64(dir_core_valid_entries(&d), 0);
    dir_core_local_write(&d, 0x2000);
    CHECK_EQ_U64(l.n, 3);
    dir_core_free(&d);
}

/* Sharer slots skip the home: 8 GPUs, home 3; 16 GPUs, home 15. */
static void test_slots(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 64, 8, 1024, 8, 3, false, DIR_REPL_LRU);
    static const int g8[] = {0, 1, 2, 4, 5, 6, 7};
    for (uint32_t s = 1; s < 8; s++) {
        CHECK_EQ_U64(dir_core_slot_gpu(&d, s), g8[s - 1]);
        CHECK_EQ_U64(dir_core_slot(&d, g8[s - 1]), s);
    }
    dir_core_remote_read(&d, 0x3000040, 7);
    CHECK_EQ_U64(dir_core_group(&d, 0x3000040), 0x81);
    CHECK(bit_set(&d, 0x3000040, 8 + 7));
    dir_core_free(&d);
    setup(&d, &l, 64, 8, 1024, 16, 15, false, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x3c0, 0);
    dir_core_remote_read(&d, 0x3c0, 14);
    CHECK_EQ_U64(dir_core_group(&d, 0x3c0), 0x8003);
    CHECK(bit_set(&d, 0x3c0, 15 * 16 + 15));
    dir_core_local_write(&d, 0x3c0);
    CHECK_EQ_U64(l.n, 2);
    CHECK_EQ_U64(l.gpu[0], 0);
    CHECK_EQ_U64(l.gpu[1], 14);
    dir_core_free(&d);
}

/* Set conflicts: 4 entries, 2 ways -> 2 sets; bases 0, 2, 4 share set 0. */
static void test_sets(void)
{
    DirCore d;
    Log l;
    setup(&d, &l, 4, 2, 128, 4, 0, false, DIR_REPL_LRU);
    dir_core_remote_read(&d, 0x000, 1);
    dir_core_remote_read(&d, 0x080, 1);
    dir_core_remote_read(&d, 0x100, 1);
    CHECK_EQ_U64(l.n, 0);
    dir_core_remote_read(&d, 0x200, 2);
    CHECK_EQ_U64(l.n, 1);
    CHECK_EQ_U64(l.addr[0], 0x000);
    CHECK_EQ_U64(dir_core_valid_entries(&d), 3);
    dir_core_free(&d);
}

static void test_bits(void)
{
    CHECK_EQ_U64(dir_core_entry_bits(64, 64, 4, false), 52);
    CHECK_EQ_U64(dir_core_entry_bits(128, 64, 4, false), 50);
    CHECK_EQ_U64(dir_core_entry_bits(256, 64, 4, false), 57);
    CHECK_EQ_U64(dir_core_entry_bits(1024, 64, 4, false), 103);
    CHECK_EQ_U64(dir_core_entry_bits(4096, 64, 4, false), 293);
    CHECK_EQ_U64(8192 * dir_core_entry_bits(1024, 64, 4, false) / 8 / 1024, 103);
    CHECK_EQ_U64(dir_core_entry_bits(1024, 64, 8, false), 38 + 16 * 8 + 1);
    CHECK_EQ_U64(dir_core_entry_bits(1024, 64, 16, false), 38 + 16 * 16 + 1);
    CHECK_EQ_U64(dir_core_entry_bits(64, 64, 16, false), 48 + 15 + 1);
    CHECK_EQ_U64(dir_core_entry_bits(256, 64, 4, true), 40 + 3 + 1);
}

static void test_bad_config(void)
{
    DirCore d;
    char msg[128];
    DirConfig c = {.entries = 10, .ways = 4, .range = 1024, .line = 64, .gpus = 4};
    CHECK(!dir_core_init(&d, &c, log_inv, NULL, msg, sizeof msg));
    c = (DirConfig){.entries = 8, .ways = 4, .range = 768, .line = 64, .gpus = 4};
    CHECK(!dir_core_init(&d, &c, log_inv, NULL, msg, sizeof msg));
    c = (DirConfig){.entries = 8, .ways = 4, .range = 1024, .line = 64, .gpus = 33};
    CHECK(!dir_core_init(&d, &c, log_inv, NULL, msg, sizeof msg));
}

int main(void)
{
    RUN(test_r1);
    RUN(test_r2);
    RUN(test_victim);
    RUN(test_evict_order);
    RUN(test_hmg);
    RUN(test_remote_write);
    RUN(test_slots);
    RUN(test_sets);
    RUN(test_bits);
    RUN(test_bad_config);
    return harness_report();
}
