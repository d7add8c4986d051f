/* Minimal type 0 configuration space of the PCIe/IP bridge (docs/serve.md,
 * "Configuration space"). Register layout from the PCI Local Bus Specification 3.0
 * §6.1 (kept by the PCIe base specification §7.5.1); BAR sizing from §6.2.5.1: a
 * BAR's size bits read back as zero, so writing all ones and reading back yields
 * ~(size - 1) plus the type bits.
 * Decisions:
 * - Vendor 0x1234, device 0x6d67: not PCI-SIG assigned IDs (co-simulation only, as
 *   QEMU's test devices use 0x1234); class 0x030200 (3D controller).
 * - One 64-bit prefetchable memory BAR (BAR0/BAR1) of the attached port's range
 *   rounded up to a power of two; offsets past the range inside the BAR are not
 *   decoded (UR). BAR2..5, expansion ROM, capabilities, interrupts: none (read 0).
 * - Writable: Command bits Memory Space Enable and Bus Master Enable, Cache Line
 *   Size, BAR0/BAR1 address bits. Status reads 0 (no capabilities list). */
#include "pcie_cfg.h"

enum {
    CFG_ID = 0,
    CFG_COMMAND = 1,
    CFG_CLASS = 2,
    CFG_HEADER = 3,
    CFG_BAR0 = 4,
    CFG_BAR1 = 5,
};

#define CFG_CMD_MEMORY 0x0002u
#define CFG_CMD_MASTER 0x0004u
#define CFG_BAR_TYPE 0xcu /* memory, 64-bit, prefetchable */

void pcie_cfg_init(PcieCfg *c, uint64_t base, uint64_t range)
{
    uint64_t size = 16; /* the smallest memory BAR */
    while (size < range && size < (UINT64_C(1) << 63)) {
        size <<= 1;
    }
    *c = (PcieCfg){.base = base, .range = range, .bar_size = size};
}

uint32_t pcie_cfg_read(const PcieCfg *c, unsigned reg)
{
    switch (reg) {
    case CFG_ID:
        return PCIE_CFG_DEVICE << 16 | PCIE_CFG_VENDOR;
    case CFG_COMMAND:
        return c->command;
    case CFG_CLASS:
        return PCIE_CFG_CLASS << 8;
    case CFG_HEADER:
        return c->cache_line;
    case CFG_BAR0:
        return (uint32_t)(c->bar & 0xfffffff0u) | CFG_BAR_TYPE;
    case CFG_BAR1:
        return (uint32_t)(c->bar >> 32);
    default:
        return 0;
    }
}

void pcie_cfg_write(PcieCfg *c, unsigned reg, uint32_t v, uint8_t be)
{
    uint32_t mask = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (be & (1u << i)) {
            mask |= 0xffu << (8 * i);
        }
    }
    uint32_t old = pcie_cfg_read(c, reg);
    uint32_t nv = (old & ~mask) | (v & mask);
    switch (reg) {
    case CFG_COMMAND:
        c->command = (uint16_t)(nv & (CFG_CMD_MEMORY | CFG_CMD_MASTER));
        return;
    case CFG_HEADER:
        c->cache_line = (uint8_t)nv;
        return;
    case CFG_BAR0:
        c->bar =
            ((c->bar & ~(uint64_t)0xffffffffu) | (nv & 0xfffffff0u)) & ~(c->bar_size - 1);
        return;
    case CFG_BAR1:
        c->bar = ((uint64_t)nv << 32 | (c->bar & 0xffffffffu)) & ~(c->bar_size - 1);
        return;
    default:
        return;
    }
}

bool pcie_cfg_decoding(const PcieCfg *c)
{
    return (c->command & CFG_CMD_MEMORY) != 0;
}

bool pcie_cfg_decode(const PcieCfg *c, uint64_t addr, uint32_t len, uint64_t *plat)
{
    if (addr < c->bar || len > c->range || addr - c->bar > c->range - len) {
        return false;
    }
    *plat = c->base + (addr - c->bar);
    return true;
}
