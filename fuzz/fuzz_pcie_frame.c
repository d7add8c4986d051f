/* libFuzzer target for the PCIe/IP frame parser (tools/serve/pcie_frame.c): parses
 * the input as a stream of frames the way the server does, and checks that every
 * accepted TLP re-encodes to exactly the bytes it was parsed from (for the kinds the
 * encoder writes: memory and configuration requests and completions, when the bits
 * the parser does not return are zero: EP, AT, the Length of a completion without
 * data, the low address bits, the reserved bits around the register number).
 * Reading outside the input is caught by AddressSanitizer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/serve/pcie_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* True if the header bits the encoder writes as zero are zero in the frame. */
static bool encodable(const uint8_t *f, const PcieTlp *t)
{
    const uint8_t *h = f + 3;
    if ((h[2] & 0x4cu) != 0) {
        return false;
    }
    switch (t->kind) {
    case PCIE_KIND_CPL:
        return (h[6] & 0x10u) == 0 && (h[11] & 0x80u) == 0 &&
               (t->data_len != 0 || ((h[2] & 3u) == 0 && h[3] == 0));
    case PCIE_KIND_CFG0:
        return (h[10] & 0xf0u) == 0 && (h[11] & 3u) == 0;
    case PCIE_KIND_OTHER:
        return false;
    default:
        return (h[8 + ((t->fmt & 1u) ? 8 : 4) - 1] & 3u) == 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t again[PCIE_TLP_FRAME_MAX];
    size_t off = 0;
    while (off < size) {
        size_t used = 0;
        PcieTlp t;
        PcieDllp d;
        SimError err;
        PcieParse r = pcie_frame_parse(data + off, size - off, &used, &t, &d, &err);
        if (r == PCIE_PARSE_MORE || r == PCIE_PARSE_BAD) {
            return 0;
        }
        if (used == 0 || used > size - off) {
            abort();
        }
        if (r == PCIE_PARSE_TLP && encodable(data + off, &t)) {
            size_t n = pcie_frame_encode_tlp(&t, again, sizeof again);
            if (n != used || memcmp(again, data + off, n) != 0) {
                abort();
            }
        }
        off += used;
    }
    return 0;
}
