#!/usr/bin/env python3
"""Independent reference for the cu workload functions (docs/blocks.md, cu: pattern
shared and halo): the write predicate, the read-only predicate and the written
byte values. Pure Python, shares no code with the model.

  mix(x)  = splitmix64 finaliser (mod 2^64)
  unit(u) = (u >> 11) / 2^53
  h(n)    = mix(mix(seed) ^ n)                   n = line number (addr // line)
  read_only(n)  = unit(mix(h(n) ^ 0x524f4c494e45)) < read_only_frac
  written(n, k) = not read_only(n) and unit(mix(h(n) ^ (k + 1))) < write_frac
  v(a, k) = mix(a ^ mix(k + 1)) & 0xff

Usage:
  workload.py value ADDR LEN K          the LEN bytes v(a, K) from ADDR as "0x.." hex
  workload.py written SEED LINE K WRITE_FRAC [RO_FRAC]   1 or 0
  workload.py lines SEED FIRST COUNT K WRITE_FRAC [RO_FRAC]
        the line numbers in [FIRST, FIRST + COUNT) written in kernel K
  workload.py expect SEED ADDR LEN LINE K WRITE_FRAC [RO_FRAC]
        the bytes a read of [ADDR, ADDR + LEN) must return during kernel K (hash fill)
Numbers may be decimal or 0x-hex."""
import sys

MASK = (1 << 64) - 1
RO_SALT = 0x524F4C494E45


def mix(x):
    z = x & MASK
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & MASK
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return z


def unit(u):
    return (u >> 11) / float(1 << 53)


def line_hash(seed, n):
    return mix(mix(seed) ^ n)


def read_only(seed, n, ro_frac):
    return ro_frac > 0 and unit(mix(line_hash(seed, n) ^ RO_SALT)) < ro_frac


def written(seed, n, k, write_frac, ro_frac=0.0):
    if write_frac <= 0 or read_only(seed, n, ro_frac):
        return False
    return unit(mix(line_hash(seed, n) ^ (k + 1))) < write_frac


def value(addr, k):
    return mix(addr ^ mix(k + 1)) & 0xFF


def expect(seed, addr, length, line, k, write_frac, ro_frac=0.0):
    out = bytearray()
    for a in range(addr, addr + length):
        n = a // line
        last = None
        for kk in range(k - 1, -1, -1):
            if written(seed, n, kk, write_frac, ro_frac):
                last = kk
                break
        out.append(value(a, last) if last is not None else mix(a) & 0xFF)
    return bytes(out)


def main(argv):
    num = lambda s: int(s, 0)
    if len(argv) >= 5 and argv[1] == "value":
        a, n, k = num(argv[2]), num(argv[3]), num(argv[4])
        print("0x" + bytes(value(a + i, k) for i in range(n)).hex())
        return 0
    if len(argv) in (6, 7) and argv[1] == "written":
        ro = float(argv[6]) if len(argv) == 7 else 0.0
        print(int(written(num(argv[2]), num(argv[3]), num(argv[4]), float(argv[5]), ro)))
        return 0
    if len(argv) in (7, 8) and argv[1] == "lines":
        seed, first, count, k = map(num, argv[2:6])
        ro = float(argv[7]) if len(argv) == 8 else 0.0
        hits = [n for n in range(first, first + count)
                if written(seed, n, k, float(argv[6]), ro)]
        print(" ".join(str(n) for n in hits))
        return 0
    if len(argv) in (8, 9) and argv[1] == "expect":
        seed, addr, length, line, k = map(num, argv[2:7])
        ro = float(argv[8]) if len(argv) == 9 else 0.0
        print("0x" + expect(seed, addr, length, line, k, float(argv[7]), ro).hex())
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
