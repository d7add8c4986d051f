/* libFuzzer target for the PCIe/IP frame parser (tools/serve/pcie_frame.c): parses
 * the input as a stream of frames the way the server does, and checks that every
 * accepted TLP re-encodes to exactly the bytes it was parsed from (for the kinds the
 * encoder writes: memory requests and completions without reserved bits set).
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
    if (h[1] != 0 || (h[2] & 0xfcu) != 0) {
        return false;
    }
    if (t->kind == PCIE_KIND_CPL) {
        return (h[6] & 0x10u) == 0 && (h[11] & 0x80u) == 0;
    }
    size_t alen = (t->fmt & 1u) ? 8 : 4;
    return t->kind != PCIE_KIND_OTHER && (h[8 + alen - 1] & 3u) == 0;
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
