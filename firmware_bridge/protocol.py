"""Messages of the buzzer-box protocol and their frames (see ``PROTOCOL.md``).

A frame on the wire is ``0x00 COBS(type, seq, body..., crc16_le) 0x00``: the leading
delimiter flushes any line noise that came before, so a frame is never glued to garbage. Every message is a small
frozen dataclass; :func:`encode_frame` turns one into bytes and :class:`FrameDecoder` turns a
byte stream (with any garbage in it) back into messages.

>>> frame = encode_frame(Press(seq=9, press_seq=1, player=2, t_us=1234, boot_id=7))
>>> FrameDecoder().feed(b"garbage" + frame)
[Press(seq=9, press_seq=1, player=2, t_us=1234, boot_id=7)]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, fields
from typing import ClassVar

from firmware_bridge import cobs
from firmware_bridge.crc import crc16
from firmware_bridge.errors import FrameError

PROTOCOL_VERSION = 2
MAX_FRAME = 64  # encoded bytes, delimiter excluded; longer runs are garbage


@dataclass(frozen=True)
class Message:
    """Base class; ``seq`` is the sender's frame sequence number (0-255)."""

    TYPE: ClassVar[int] = -1
    FORMAT: ClassVar[str] = ""
    seq: int = 0

    def body(self) -> bytes:
        values = [getattr(self, f.name) for f in fields(self) if f.name != "seq"]
        return struct.pack("<" + self.FORMAT, *values)


# ---- box -> host -------------------------------------------------------------------------
@dataclass(frozen=True)
class Hello(Message):
    """The box booted (``nonce`` 0) or answered the SYNC whose ``nonce`` it echoes: versions,
    players, boot id, clock, oldest unacked press."""

    TYPE: ClassVar[int] = 0x01
    FORMAT: ClassVar[str] = "BBBBHIHH"
    proto: int = PROTOCOL_VERSION
    fw_major: int = 0
    fw_minor: int = 0
    players: int = 0
    boot_id: int = 0
    now_us: int = 0
    oldest_unacked: int = 1
    nonce: int = 0


@dataclass(frozen=True)
class Press(Message):
    """A button went down: player index, device time of the first edge, press sequence number,
    and the boot it was made in."""

    TYPE: ClassVar[int] = 0x02
    FORMAT: ClassVar[str] = "HBIH"
    press_seq: int = 0
    player: int = 0
    t_us: int = 0
    boot_id: int = 0


@dataclass(frozen=True)
class Ack(Message):
    """The box handled the host command whose frame seq was ``acked``."""

    TYPE: ClassVar[int] = 0x03
    FORMAT: ClassVar[str] = "BBI"
    acked: int = 0
    status: int = 0
    now_us: int = 0


@dataclass(frozen=True)
class Heartbeat(Message):
    """Sent every 250 ms: clock, unacknowledged presses, flags (bit 0: a press was lost), held buttons."""

    TYPE: ClassVar[int] = 0x04
    FORMAT: ClassVar[str] = "IBBB"
    now_us: int = 0
    unacked: int = 0
    flags: int = 0
    held: int = 0


# ---- host -> box -------------------------------------------------------------------------
@dataclass(frozen=True)
class Sync(Message):
    """Ask the box for HELLO (echoing ``nonce``, fresh for each link session), then every press it
    still buffers."""

    TYPE: ClassVar[int] = 0x10
    FORMAT: ClassVar[str] = "BH"
    proto: int = PROTOCOL_VERSION
    nonce: int = 0


@dataclass(frozen=True)
class PressAck(Message):
    """Cumulative: the host has every press of boot ``boot_id`` up to and including ``press_seq``."""

    TYPE: ClassVar[int] = 0x11
    FORMAT: ClassVar[str] = "HH"
    press_seq: int = 0
    boot_id: int = 0


@dataclass(frozen=True)
class Leds(Message):
    """Player LEDs: bit i lights player i."""

    TYPE: ClassVar[int] = 0x12
    FORMAT: ClassVar[str] = "B"
    mask: int = 0


@dataclass(frozen=True)
class Timer(Message):
    """Sand timer: op 0 stop, 1 start (duration_ms), 2 pause, 3 resume."""

    TYPE: ClassVar[int] = 0x13
    FORMAT: ClassVar[str] = "BI"
    op: int = 0
    duration_ms: int = 0


@dataclass(frozen=True)
class Buzz(Message):
    """Sound the buzzer: frequency in Hz, duration in ms (0 Hz = silence)."""

    TYPE: ClassVar[int] = 0x14
    FORMAT: ClassVar[str] = "HH"
    freq_hz: int = 0
    duration_ms: int = 0


@dataclass(frozen=True)
class Ping(Message):
    """Answered by an ACK carrying the box's clock: measures the round trip."""

    TYPE: ClassVar[int] = 0x15
    FORMAT: ClassVar[str] = ""


TIMER_STOP, TIMER_START, TIMER_PAUSE, TIMER_RESUME = 0, 1, 2, 3
STATUS_OK, STATUS_UNKNOWN, STATUS_BAD_ARG = 0, 1, 2
FLAG_OVERFLOW = 0x01

MESSAGES: dict[int, type[Message]] = {
    cls.TYPE: cls for cls in (Hello, Press, Ack, Heartbeat, Sync, PressAck, Leds, Timer, Buzz, Ping)
}
COMMANDS = (Sync, Leds, Timer, Buzz, Ping)  # host -> box, acknowledged (Sync by HELLO)


def encode_frame(message: Message) -> bytes:
    """The bytes to write for ``message``, delimiter included.

    >>> encode_frame(Ping(seq=1)).hex(" ")
    '00 05 15 01 a8 f1 00'

    """
    payload = bytes([message.TYPE, message.seq & 0xFF]) + message.body()
    return b"\x00" + cobs.encode(payload + struct.pack("<H", crc16(payload))) + b"\x00"


def decode_payload(frame: bytes) -> Message:
    """Decode one frame (without its delimiter); raise :class:`FrameError` if it is bad."""
    raw = cobs.decode(frame)
    if len(raw) < 4:
        raise FrameError(f"frame of {len(raw)} bytes is too short")
    payload, (crc,) = raw[:-2], struct.unpack("<H", raw[-2:])
    if crc16(payload) != crc:
        raise FrameError("CRC mismatch")
    cls = MESSAGES.get(payload[0])
    if cls is None:
        raise FrameError(f"unknown message type 0x{payload[0]:02x}")
    body = payload[2:]
    if len(body) != struct.calcsize("<" + cls.FORMAT):
        raise FrameError(f"{cls.__name__} body has {len(body)} bytes")
    names = [f.name for f in fields(cls) if f.name != "seq"]
    return cls(payload[1], **dict(zip(names, struct.unpack("<" + cls.FORMAT, body))))


class FrameDecoder:
    """Split a byte stream at 0x00 and decode each frame; bad frames are counted, never raised.

    The decoder is back in sync at the next 0x00, so one corrupted byte costs at most the frame
    it hit (and, if it hit a delimiter, the frame after).

    >>> d = FrameDecoder()
    >>> d.feed(b"\\x01\\x02\\x00")
    []
    >>> d.errors
    1
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False
        self.errors = 0
        self.frames = 0
        self.last_error: str | None = None

    def feed(self, data: bytes) -> list[Message]:
        out: list[Message] = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_FRAME:
                    self._buffer.append(byte)
                else:
                    self._overlong = True
                continue
            if self._overlong:
                self._error("frame longer than the maximum")
            elif self._buffer:
                try:
                    out.append(decode_payload(bytes(self._buffer)))
                    self.frames += 1
                except FrameError as exc:
                    self._error(str(exc))
            self._buffer.clear()
            self._overlong = False
        return out

    def _error(self, why: str) -> None:
        self.errors += 1
        self.last_error = why
