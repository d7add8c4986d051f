#!/usr/bin/env python3
"""A minimal PCIe/IP (warp-pipe PCIe-over-TCP) peer, written from the public format
description (antmicro/warp-pipe docs/source/pcie-over-tcp.md): a protocol byte
(0x02 DLLP, 0x03 TLP); a TLP frame is 2 sequence bytes (4 reserved bits, 12-bit
number), the TLP in PCIe big-endian header layout, and the 32-bit LCRC over sequence
bytes + TLP, least significant byte first; a DLLP frame is 4 bytes and a CRC-16.
Shares no code with mgtlm; the LCRC is zlib's CRC-32 (the same reflected CRC-32)."""
import socket
import struct
import zlib

PROTO_DLLP = 0x02
PROTO_TLP = 0x03


def lcrc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def crc16(data):
    """PCIe DLLP CRC-16 (polynomial 0x100B), bit-reflected, init 0xFFFF, inverted."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xD008 if crc & 1 else crc >> 1
    return (~crc) & 0xFFFF


def tlp_frame(seq, tlp, rsvd=0):
    """rsvd: the 4 reserved bits above the sequence number."""
    body = struct.pack(">H", (rsvd << 12) | (seq & 0xFFF)) + tlp
    return bytes([PROTO_TLP]) + body + struct.pack("<I", lcrc(body))


def dllp_frame(four):
    return bytes([PROTO_DLLP]) + four + struct.pack("<H", crc16(four))


def header(fmt, typ, length_dw, byte1=0, attr=0):
    """byte1: header byte 1 as sent (T9, TC, T8, Attr[2], LN, TH); attr: Attr[1:0]."""
    length = length_dw & 0x3FF
    return bytes([(fmt << 5) | typ, byte1, (attr << 4) | (length >> 8), length & 0xFF])


def mwr64(addr, data, requester=0x0100, tag=0, first_be=0xF, last_be=None, byte1=0,
          attr=0):
    n = len(data) // 4
    if last_be is None:
        last_be = 0 if n == 1 else 0xF
    return (header(3, 0, n, byte1, attr)
            + struct.pack(">HBB", requester, tag, (last_be << 4) | first_be)
            + struct.pack(">Q", addr) + data)


def mrd64(addr, length_dw, requester=0x0100, tag=0, first_be=0xF, last_be=None, byte1=0,
          attr=0):
    if last_be is None:
        last_be = 0 if length_dw == 1 else 0xF
    return (header(1, 0, length_dw, byte1, attr)
            + struct.pack(">HBB", requester, tag, (last_be << 4) | first_be)
            + struct.pack(">Q", addr))


def cfg0(bdf, reg, data=None, requester=0x0000, tag=0, first_be=0xF):
    """CfgRd0 (data None) or CfgWr0 of the DW at byte offset reg (0..4095)."""
    return (header(2 if data is not None else 0, 4, 1)
            + struct.pack(">HBB", requester, tag, first_be)
            + struct.pack(">HBB", bdf, (reg >> 8) & 0xF, reg & 0xFC)
            + (data if data is not None else b""))


def parse_cpl(frame):
    """Fields of a completion frame (checks the LCRC)."""
    assert frame[0] == PROTO_TLP, frame[:1]
    body, crc = frame[1:-4], struct.unpack("<I", frame[-4:])[0]
    assert crc == lcrc(body), "bad LCRC from the server"
    seq = struct.unpack(">H", body[:2])[0]
    h = body[2:]
    fmt, typ = h[0] >> 5, h[0] & 0x1F
    length = ((h[2] & 3) << 8) | h[3]
    status = h[6] >> 5
    byte_count = ((h[6] & 0xF) << 8) | h[7]
    requester, tag, lower = struct.unpack(">H", h[8:10])[0], h[10], h[11] & 0x7F
    data = h[12:] if fmt & 2 else b""
    return {"seq": seq, "fmt": fmt, "type": typ, "length": length, "status": status,
            "byte_count": byte_count, "requester": requester, "tag": tag,
            "tag10": ((h[1] >> 7) << 9) | (((h[1] >> 3) & 1) << 8) | tag,
            "tc": (h[1] >> 4) & 7, "attr": (h[1] & 4) | ((h[2] >> 4) & 3),
            "completer": struct.unpack(">H", h[4:6])[0], "lower": lower, "data": data}


def recv_frame(sock):
    """Reads one TLP frame; None if the server closed the connection."""
    def exact(n):
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return buf
    first = exact(7)
    if first is None:
        return None
    if first[0] == PROTO_DLLP:
        return first
    h0, length = first[3], ((first[5] & 3) << 8) | first[6]
    fmt = h0 >> 5
    hdr = 16 if fmt & 1 else 12
    data = (length or 1024) * 4 if fmt & 2 else 0
    rest = exact(hdr - 4 + data + 4)
    return None if rest is None else first + rest


def connect(port, timeout=5.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.settimeout(timeout)
    return s
