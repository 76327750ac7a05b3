"""Consistent Overhead Byte Stuffing: frames never contain 0x00, so 0x00 ends a frame.

>>> encode(b"\\x11\\x00\\x22")
b'\\x02\\x11\\x02"'
>>> decode(encode(b"\\x00\\x00"))
b'\\x00\\x00'
"""

from __future__ import annotations

from firmware_bridge.errors import FrameError


def encode(data: bytes) -> bytes:
    """COBS-encode ``data`` (the 0x00 delimiter is not added)."""
    out = bytearray([0])
    code_at, code = 0, 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
    out[code_at] = code
    return bytes(out)


def decode(data: bytes) -> bytes:
    """Undo :func:`encode`; raise :class:`FrameError` on a malformed block."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("COBS block holds a zero byte")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("COBS block holds a zero byte")
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
