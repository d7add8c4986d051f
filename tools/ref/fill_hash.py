#!/usr/bin/env python3
"""Independent reference for the memory fill pattern "hash" (hw/lib/fill.h).

The byte at physical address a is the low 8 bits of mix(a), where mix is the
splitmix64 output function:
    z = a; z ^= z >> 30; z *= 0xbf58476d1ce4e5b9; z ^= z >> 27;
    z *= 0x94d049bb133111eb; z ^= z >> 31   (all mod 2^64)

Usage: fill_hash.py ADDR LEN      prints the LEN bytes from ADDR as "0x.." hex
       (ADDR decimal or 0x-hex), in ascending address order as in golden records.
Shares no code with the model (pure Python)."""
import sys

MASK = (1 << 64) - 1


def mix(a):
    z = a & MASK
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & MASK
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return z


def fill_bytes(addr, length):
    return bytes(mix(addr + i) & 0xFF for i in range(length))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: fill_hash.py ADDR LEN\n")
        return 2
    addr = int(argv[1], 0)
    length = int(argv[2], 0)
    print("0x" + fill_bytes(addr, length).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
