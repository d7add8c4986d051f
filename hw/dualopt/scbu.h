/* SCBU (selective cache bypassing unit) registers of DualOpt (paper 000, SPEC.md 1.2):
 * the local GPU's memory range [start, end). Pure functions, used by the l1 block. */
#ifndef MGTLM_HW_DUALOPT_SCBU_H
#define MGTLM_HW_DUALOPT_SCBU_H

#include <stdbool.h>
#include <stdint.h>

typedef struct Scbu {
    uint64_t start; /* first local byte */
    uint64_t end;   /* first byte after the local range (exclusive) */
} Scbu;

/* The registers of GPU gpu when every GPU owns mem_bytes bytes. */
Scbu scbu_make(uint32_t gpu, uint64_t mem_bytes);
/* True if addr lies outside [start, end): the request is remote. */
bool scbu_is_remote(const Scbu *s, uint64_t addr);

#endif
