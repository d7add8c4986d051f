#!/usr/bin/env python3
"""Independent reference for link timing (hw/fabric/link.c, SPEC.md 2.4).

For packets entering one direction of a link, computes when each is taken, its
wire bytes and its arrival time at the far end, using only the rules written in
docs/blocks.md (section link):
    wire    = payload + overhead, padded up to a multiple of flit (flit > 0)
    ser     = ceil(wire * 10^12 * enc_total / (bandwidth * enc_data)) ps
    taken   = max(arrival at the link input, previous taken + previous ser)
    arrival = taken + ser + latency + wire_latency
(unbounded output buffer, i.e. no backpressure).

Usage: link_time.py --bw 32e9 --lat-ps 100000 --overhead 24 [--flit 0]
                    [--enc 1/1] [--wire-lat-ps 0]  T0:PAYLOAD [T1:PAYLOAD ...]
T is the arrival time (ps) at the link input, PAYLOAD the payload bytes.
Prints one line per packet: taken, wire bytes, padding, ser, arrival.
Shares no code with the model (pure Python, exact integer arithmetic)."""
import argparse
import sys
from fractions import Fraction


def ceil_div(num, den):
    return -((-num) // den)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bw", type=Fraction, required=True, help="bytes per second")
    ap.add_argument("--lat-ps", type=int, required=True)
    ap.add_argument("--overhead", type=int, default=0)
    ap.add_argument("--flit", type=int, default=0)
    ap.add_argument("--enc", default="1/1", help="enc_data/enc_total, e.g. 128/130")
    ap.add_argument("--wire-lat-ps", type=int, default=0)
    ap.add_argument("packets", nargs="+")
    a = ap.parse_args()
    enc_data, enc_total = (int(x) for x in a.enc.split("/"))
    free_at = 0
    for p in a.packets:
        t, payload = (int(x) for x in p.split(":"))
        raw = payload + a.overhead
        pad = 0 if a.flit == 0 or raw % a.flit == 0 else a.flit - raw % a.flit
        wire = raw + pad
        ser_exact = Fraction(wire * 10**12 * enc_total) / (a.bw * enc_data)
        ser = ceil_div(ser_exact.numerator, ser_exact.denominator)
        taken = max(t, free_at)
        free_at = taken + ser
        arrival = taken + ser + a.lat_ps + a.wire_lat_ps
        print(f"taken={taken} wire={wire} pad={pad} ser={ser} arrival={arrival}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
