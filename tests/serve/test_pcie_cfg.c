/* Unit tests of the PCIe/IP bridge's configuration space (tools/serve/pcie_cfg.c).
 * Expected values follow the PCI Local Bus Specification 3.0 §6.2.5.1 by hand: a
 * 64-bit prefetchable memory BAR reads type bits 1100b; after writing all ones to
 * both halves, a 1 MiB BAR reads 0xfff0000c and 0xffffffff (size = ~value + 1 over
 * the 64 bits with the type bits cleared); a 1.5 MiB range needs a 2 MiB BAR. */
#include "tests/unit/harness.h"
#include "tools/serve/pcie_cfg.h"

static void test_identity(void)
{
    PcieCfg c;
    pcie_cfg_init(&c, 0, 1u << 20);
    CHECK_EQ_U64(pcie_cfg_read(&c, 0), 0x6d671234u);
    CHECK_EQ_U64(pcie_cfg_read(&c, 2) >> 8, 0x030200u);
    CHECK_EQ_U64(pcie_cfg_read(&c, 3) & 0x00ff0000u, 0); /* header type 0 */
    pcie_cfg_write(&c, 0, 0xffffffffu, 0xf);             /* read-only */
    CHECK_EQ_U64(pcie_cfg_read(&c, 0), 0x6d671234u);
    CHECK_EQ_U64(pcie_cfg_read(&c, 6), 0); /* BAR2: none */
    CHECK_EQ_U64(pcie_cfg_read(&c, 1023), 0);
}

static void test_bar_sizing(void)
{
    PcieCfg c;
    pcie_cfg_init(&c, 0, 1u << 20);
    CHECK_EQ_U64(pcie_cfg_read(&c, 4), 0x0000000cu);
    pcie_cfg_write(&c, 4, 0xffffffffu, 0xf);
    pcie_cfg_write(&c, 5, 0xffffffffu, 0xf);
    CHECK_EQ_U64(pcie_cfg_read(&c, 4), 0xfff0000cu);
    CHECK_EQ_U64(pcie_cfg_read(&c, 5), 0xffffffffu);
    pcie_cfg_init(&c, 0, 3u << 19);
    pcie_cfg_write(&c, 4, 0xffffffffu, 0xf);
    CHECK_EQ_U64(pcie_cfg_read(&c, 4), 0xffe0000cu);
}

static void test_bar_decode(void)
{
    PcieCfg c;
    uint64_t a = 0;
    pcie_cfg_init(&c, 0x100000, 1u << 20); /* GPU 1 of 1 MiB GPUs */
    CHECK(!pcie_cfg_decoding(&c));
    pcie_cfg_write(&c, 4, 0xe0000000u, 0xf);
    pcie_cfg_write(&c, 5, 0x1u, 0xf);
    CHECK_EQ_U64(pcie_cfg_read(&c, 4), 0xe000000cu);
    CHECK_EQ_U64(pcie_cfg_read(&c, 5), 1);
    pcie_cfg_write(&c, 1, 0x0006u, 0x3); /* memory space + bus master */
    CHECK(pcie_cfg_decoding(&c));
    CHECK_EQ_U64(pcie_cfg_read(&c, 1), 0x0006u);
    CHECK(pcie_cfg_decode(&c, 0x1e0000040u, 8, &a));
    CHECK_EQ_U64(a, 0x100040);
    CHECK(pcie_cfg_decode(&c, 0x1e00ffffcu, 4, &a));
    CHECK_EQ_U64(a, 0x1ffffc);
    CHECK(!pcie_cfg_decode(&c, 0x1e00ffffcu, 8, &a)); /* runs past the BAR */
    CHECK(!pcie_cfg_decode(&c, 0x1dffffffcu, 4, &a));
    pcie_cfg_write(&c, 1, 0, 0x2); /* byte 1 only: Memory Space Enable stays */
    CHECK(pcie_cfg_decoding(&c));
    pcie_cfg_write(&c, 1, 0, 0x1);
    CHECK(!pcie_cfg_decoding(&c));
}

static void test_byte_enables(void)
{
    PcieCfg c;
    pcie_cfg_init(&c, 0, 1u << 20);
    pcie_cfg_write(&c, 3, 0xffffff40u, 0x1); /* cache line size only */
    CHECK_EQ_U64(pcie_cfg_read(&c, 3), 0x40u);
    pcie_cfg_write(&c, 4, 0xabcdef00u, 0x8); /* BAR0 top byte only */
    CHECK_EQ_U64(pcie_cfg_read(&c, 4), 0xab00000cu);
}

int main(void)
{
    RUN(test_identity);
    RUN(test_bar_sizing);
    RUN(test_bar_decode);
    RUN(test_byte_enables);
    return harness_report();
}
