/* The physical address width the hardware models assume, in one place: the storage
 * cost of every tag, directory base and line address (mgtlm cost) is sized from it.
 * Transactions themselves carry 64-bit addresses (txn.h); nothing truncates them. */
#ifndef MGTLM_HW_LIB_ADDR_H
#define MGTLM_HW_LIB_ADDR_H

/* Bits of a physical address (GPU memory plus the GPU number above it). */
#define HW_ADDR_BITS 48

/* HW_ADDR_BITS as a string literal, for documentation text: "48". */
#define HW_ADDR_BITS_STR HW_ADDR_STR_(HW_ADDR_BITS)
#define HW_ADDR_STR_(x) HW_ADDR_STR__(x)
#define HW_ADDR_STR__(x) #x

#endif
