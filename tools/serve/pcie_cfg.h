/* The PCIe/IP bridge's configuration space: a minimal type 0 header (PCI Local Bus
 * 3.0 chapter 6 layout, as the PCIe base specification keeps it) with one 64-bit
 * memory BAR, so that a host which enumerates before it reads and writes can proceed.
 * See pcie_cfg.c. */
#ifndef MGTLM_SERVE_PCIE_CFG_H
#define MGTLM_SERVE_PCIE_CFG_H

#include <stdbool.h>
#include <stdint.h>

#define PCIE_CFG_VENDOR 0x1234u
#define PCIE_CFG_DEVICE 0x6d67u  /* "mg" */
#define PCIE_CFG_CLASS 0x030200u /* display controller, 3D controller */

typedef struct PcieCfg {
    uint64_t base;     /* platform address of the BAR's first byte */
    uint64_t range;    /* bytes of platform address space behind the BAR */
    uint64_t bar_size; /* range rounded up to a power of two */
    uint64_t bar;      /* BAR address as written, size bits cleared */
    uint16_t command;
    uint8_t cache_line;
} PcieCfg;

/* A configuration space (command 0, BAR 0) for the platform range [base,
 * base+range), range > 0. */
void pcie_cfg_init(PcieCfg *c, uint64_t base, uint64_t range);
/* The DW at register number reg (0..1023); unimplemented registers read 0. */
uint32_t pcie_cfg_read(const PcieCfg *c, unsigned reg);
/* Writes the bytes of v that be (bit i = byte i) enables into register reg; read-only
 * bits and unimplemented registers ignore it. */
void pcie_cfg_write(PcieCfg *c, unsigned reg, uint32_t v, uint8_t be);
/* True while Memory Space Enable is set: memory requests are then decoded by the
 * BAR. */
bool pcie_cfg_decoding(const PcieCfg *c);
/* Translates [addr, addr+len) in the BAR to the platform address *plat; false if
 * any byte lies outside [BAR, BAR + range). */
bool pcie_cfg_decode(const PcieCfg *c, uint64_t addr, uint32_t len, uint64_t *plat);

#endif
