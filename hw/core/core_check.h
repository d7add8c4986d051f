/* The sm's data check (docs/cores.md "Data check"): the bytes of a read response
 * against what the trace allows a read in that kernel to return (trace_scan.h): the
 * value of the last earlier kernel that wrote the byte (core_value.h), the memory's
 * fill of the physical address when none did (hw/lib/fill.h), the reading kernel's own
 * value when it writes the byte too, anything for a byte an atomic touches. */
#ifndef MGTLM_HW_CORE_CORE_CHECK_H
#define MGTLM_HW_CORE_CORE_CHECK_H

#include <stdint.h>

#include "hw/core/trace_scan.h"
#include "hw/lib/fill.h"

/* The number of wrong bytes of a response of kernel `kernel` (launch index) to a read
 * of the len bytes from virtual address vaddr, held at physical address paddr in a
 * memory filled with `fill`: data[0..len) the bytes returned, be the byte enables
 * (len bytes, 0 or 0xff; NULL: all enabled; a disabled byte is not checked). */
uint32_t core_check_read(const TraceScan *s, uint32_t kernel, uint64_t vaddr,
                         uint64_t paddr, const uint8_t *data, uint32_t len,
                         const uint8_t *be, FillKind fill);

#endif
