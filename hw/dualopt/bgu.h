/* Line-mask generation of the DualOpt BGU (paper 000 section 4.1, SPEC.md 1.1): the
 * distinct lines a wavefront touches, in order of first appearance, each with a word
 * mask (bit i = 4-byte word i of the line). Pure, used by the bgu block. */
#ifndef MGTLM_HW_DUALOPT_BGU_H
#define MGTLM_HW_DUALOPT_BGU_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/txn.h"

#define BGU_WORD 4

typedef struct BguLine {
    uint64_t addr; /* line-aligned */
    uint32_t mask;
} BguLine;

typedef struct BguLines {
    BguLine *v; /* owned */
    size_t n, cap;
} BguLines;

/* Replaces l's content with the lines of n threads for a line size of `line` bytes
 * (a power of two, 4 to 128). An access [a, a + s) sets every word it touches, in
 * every line it touches. Threads of size 0 touch nothing. Aborts on OOM. */
void bgu_lines(BguLines *l, uint64_t line, const TxnThread *threads, size_t n);
void bgu_lines_free(BguLines *l);

#endif
