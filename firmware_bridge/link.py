"""The host end of the buzzer-box link: open by URL, wait for HELLO, deliver presses exactly once.

``BuzzerLink.open(url)`` opens the port with pyserial's ``serial_for_url`` (a device path such
as ``/dev/ttyUSB0``, a pty path, ``loop://``...), then waits for the box's HELLO instead of
sleeping through the reset an Arduino does when its port opens. A reader thread decodes frames,
acknowledges presses by sequence number and hands each press on exactly once, as a
:class:`ButtonPress` (to ``on_press``, called on the link's reader thread, or to the
``presses`` queue). When the port vanishes
(unplugged) or goes silent, the link reopens the same URL, sends SYNC and the box replays the
presses it buffered meanwhile; presses already delivered are recognised by sequence number
and dropped.

>>> from firmware_bridge.emulator import DeviceEmulator
>>> with DeviceEmulator() as box, BuzzerLink.open(box.path) as link:
...     made = box.press(2, t_us=1000)
...     link.presses.get(timeout=2).player
2
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import serial

from firmware_bridge import protocol as p
from firmware_bridge.errors import (
    CommandRejected,
    CommandTimeout,
    Disconnected,
    HandshakeTimeout,
    VersionMismatch,
)
from firmware_bridge.timebase import Unwrapper

log = logging.getLogger(__name__)

BAUDRATE = 250_000


@dataclass(frozen=True)
class ButtonPress:
    """One press: player index, unwrapped device time (us) of its first edge, box sequence number."""

    player: int
    t_us: int
    seq: int
    boot_id: int = 0


@dataclass
class LinkStats:
    """Counters a benchmark or a status page can show."""

    frames_in: int = 0
    frame_errors: int = 0
    presses: int = 0
    duplicates: int = 0
    retries: int = 0
    reconnects: int = 0
    box_resets: int = 0
    stale_hellos: int = 0      # HELLOs not answering our last SYNC (a boot's own, replays, late copies)
    stale_presses: int = 0     # presses of another boot than the one met: ignored, never acknowledged
    box_overflow: bool = False
    events: list[str] = field(default_factory=list)


class BuzzerLink:
    """A live link to one buzzer box. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(
        self,
        url: str,
        *,
        on_press: Callable[[ButtonPress], None] | None = None,
        baudrate: int = BAUDRATE,
        ack_timeout: float = 0.03,
        retries: int = 6,
        silence_timeout: float = 1.0,
        sync_delay: float = 0.2,
    ) -> None:
        self.url = url
        self.baudrate = baudrate
        self.on_press = on_press
        self.presses: queue.Queue[ButtonPress] = queue.Queue()
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.silence_timeout = silence_timeout
        self.sync_delay = sync_delay
        self.stats = LinkStats()
        self.hello: p.Hello | None = None
        self._port: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._decoder = p.FrameDecoder()
        self._clock = Unwrapper()
        self._boot_id: int | None = None
        self._nonce: int | None = None           # the last SYNC's nonce; only its HELLO is believed
        self._sync_now = False
        self._next_press: int = 1
        self._ahead: set[int] = set()
        self._cmd_seq = 0
        self._acks: dict[int, tuple[threading.Event, list[p.Ack]]] = {}
        self._last_rx = 0.0
        self._clock_host = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"BuzzerLink({url})", daemon=True)

    # ---- opening and closing ---------------------------------------------------------------
    @classmethod
    def open(cls, url: str, *, hello_timeout: float = 3.0, **options: Any) -> "BuzzerLink":
        """Open ``url`` and return once the box has said HELLO.

        Raises :class:`HandshakeTimeout` if it never does, :class:`VersionMismatch` if it
        speaks another protocol version.

        >>> BuzzerLink.open("loop://", hello_timeout=0.3)
        Traceback (most recent call last):
        ...
        firmware_bridge.errors.HandshakeTimeout: no HELLO from loop:// within 0.3 s (is it a buzzer box, running the firmware, at 250000 baud?)
        """
        link = cls(url, **options)
        link._thread.start()
        if not link._connected.wait(hello_timeout):
            link.close()
            if link.hello is not None and link.hello.proto != p.PROTOCOL_VERSION:
                raise VersionMismatch(f"box speaks protocol {link.hello.proto}, host {p.PROTOCOL_VERSION}")
            raise HandshakeTimeout(
                f"no HELLO from {url} within {hello_timeout:g} s "
                f"(is it a buzzer box, running the firmware, at {link.baudrate} baud?)"
            )
        return link

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(2)
        self._close_port()

    def __enter__(self) -> "BuzzerLink":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        """True while the box is plugged in and has said HELLO."""
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until the link is up (after an unplug, say); True if it is."""
        return self._connected.wait(timeout)

    # ---- commands --------------------------------------------------------------------------
    def leds(self, mask: int) -> p.Ack:
        """Light player LEDs: bit i is player i. ``link.leds(0b101)`` lights players 0 and 2."""
        return self.command(p.Leds(mask=mask & 0xFF))

    def timer_start(self, duration_ms: int) -> p.Ack:
        """Start the box's sand timer, e.g. ``link.timer_start(30_000)``."""
        return self.command(p.Timer(op=p.TIMER_START, duration_ms=duration_ms))

    def timer_pause(self) -> p.Ack:
        return self.command(p.Timer(op=p.TIMER_PAUSE))

    def timer_resume(self) -> p.Ack:
        return self.command(p.Timer(op=p.TIMER_RESUME))

    def timer_stop(self) -> p.Ack:
        return self.command(p.Timer(op=p.TIMER_STOP))

    def buzz(self, freq_hz: int, duration_ms: int) -> p.Ack:
        """Sound the buzzer, e.g. ``link.buzz(2000, 100)``."""
        return self.command(p.Buzz(freq_hz=freq_hz, duration_ms=duration_ms))

    def ping(self) -> float:
        """Round trip to the box in seconds (command out, ACK back)."""
        start = time.perf_counter()
        self.command(p.Ping())
        return time.perf_counter() - start

    def command(self, message: p.Message, *, wait_link: float = 1.0) -> p.Ack:
        """Send a command and wait for its ACK, retrying on timeout.

        Raises :class:`Disconnected` if the link stays down for ``wait_link`` seconds,
        :class:`CommandTimeout` after the retries, :class:`CommandRejected` on an error status.
        """
        if not self._connected.wait(wait_link):
            raise Disconnected(f"{self.url} is not connected; {type(message).__name__} not sent")
        with self._state_lock:
            self._cmd_seq = self._cmd_seq % 255 + 1
            seq = self._cmd_seq
            done = threading.Event()
            slot: list[p.Ack] = []
            self._acks[seq] = (done, slot)
        frame = p.encode_frame(replace(message, seq=seq))
        try:
            for attempt in range(self.retries + 1):
                if attempt:
                    self.stats.retries += 1
                    if not self._connected.wait(wait_link):
                        raise Disconnected(f"{self.url} went away while sending {type(message).__name__}")
                self._write(frame)
                if done.wait(self.ack_timeout):
                    ack = slot[0]
                    if ack.status != p.STATUS_OK:
                        raise CommandRejected(f"box rejected {type(message).__name__}: status {ack.status}")
                    return ack
        finally:
            with self._state_lock:
                self._acks.pop(seq, None)
        raise CommandTimeout(f"no ACK for {type(message).__name__} after {self.retries + 1} tries")

    # ---- the reader thread -----------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._connect():
                self._stop.wait(0.1)
                continue
            try:
                self._serve()
            except (serial.SerialException, OSError) as exc:
                self._note(f"link lost: {exc}")
            except Exception as exc:  # a bug must not leave the table without buttons: log, reopen
                log.exception("buzzer link reader failed")
                self._note(f"link reader failed: {exc!r}; reopening")
            self._went_down()

    def _connect(self) -> bool:
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.02, write_timeout=0.5)
        except (serial.SerialException, OSError, ValueError):
            return False
        self._port = port
        self._decoder = p.FrameDecoder()
        self._last_rx = time.monotonic()
        return True

    def _serve(self) -> None:
        opened = time.monotonic()
        next_sync = opened + self.sync_delay
        port = self._port
        assert port is not None
        self._nonce, self._sync_now = None, False
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            if data:
                before = self._decoder.errors
                for message in self._decoder.feed(data):
                    self._last_rx = now
                    self._handle(message)
                self.stats.frame_errors += self._decoder.errors - before
            if self._sync_now or (not self._connected.is_set() and now >= next_sync):
                self._send_sync()
                next_sync = now + 0.25
            if self._connected.is_set() and now - self._last_rx > self.silence_timeout:
                raise serial.SerialException(f"no frame for {self.silence_timeout:g} s")

    def _send_sync(self) -> None:
        """SYNC with a fresh nonce: the HELLO that echoes it is the only one believed (a HELLO
        replayed from an earlier boot or an earlier SYNC can never pass for the box's state now)."""
        self._nonce = secrets.randbelow(0xFFFF) + 1
        self._sync_now = False
        self._write(p.encode_frame(p.Sync(nonce=self._nonce)))

    def _handle(self, m: p.Message) -> None:
        self.stats.frames_in += 1
        if isinstance(m, p.Hello):
            self._on_hello(m)
        elif not self._connected.is_set():
            return  # before HELLO we do not know which boot the presses belong to; they come again
        elif isinstance(m, p.Press):
            self._on_press(m)
        elif isinstance(m, p.Ack):
            self._clock_seen(m.now_us)
            with self._state_lock:
                waiting = self._acks.get(m.acked)
            if waiting and not waiting[0].is_set():
                waiting[1].append(m)
                waiting[0].set()
        elif isinstance(m, p.Heartbeat):
            self._clock_seen(m.now_us)
            if m.flags & p.FLAG_OVERFLOW and not self.stats.box_overflow:
                self.stats.box_overflow = True
                self._note("box press buffer overflowed: a press was lost on the box")

    def _on_hello(self, m: p.Hello) -> None:
        if m.proto != p.PROTOCOL_VERSION:
            self.hello = m
            self._note(f"box speaks protocol {m.proto}; this host speaks {p.PROTOCOL_VERSION}")
            return
        if self._nonce is None or m.nonce != self._nonce:
            self.stats.stale_hellos += 1
            if m.nonce == 0:
                self._sync_now = True      # the box announces a boot: ask it, with a fresh nonce
            return                         # not the answer to our last SYNC: a replay, or late
        self._nonce = None                 # believed once; a copy of it later is stale
        self.hello = m
        if m.boot_id != self._boot_id:
            if self._boot_id is not None:
                self.stats.box_resets += 1
                self._note(f"box rebooted (boot {self._boot_id} -> {m.boot_id}); its unsent presses are gone")
            # keep time monotonic across boots: the new clock starts where the old one left off
            elapsed = int((time.monotonic() - self._clock_host) * 1e6)
            start = (self._clock.last or 0) + elapsed if self._boot_id is not None else m.now_us
            self._clock.rebase(m.now_us, start)
            self._boot_id = m.boot_id
            self._next_press = m.oldest_unacked
            self._ahead.clear()
        else:
            self._clock_seen(m.now_us)
        if not self._connected.is_set():
            self._note(f"connected to box boot {m.boot_id} (firmware {m.fw_major}.{m.fw_minor}, {m.players} players)")
            self._connected.set()

    def _on_press(self, m: p.Press) -> None:
        if m.boot_id != self._boot_id:
            self.stats.stale_presses += 1  # from another boot than the one we met: not acknowledged
            return
        behind = (m.press_seq - self._next_press) & 0xFFFF
        if behind >= 0x8000 or m.press_seq in self._ahead:
            self.stats.duplicates += 1  # a replay of a press we already have
        else:
            self._ahead.add(m.press_seq)
            while self._next_press in self._ahead:
                self._ahead.discard(self._next_press)
                self._next_press = (self._next_press + 1) & 0xFFFF
            self.stats.presses += 1
            press = ButtonPress(m.player, self._clock.unwrap(m.t_us), m.press_seq, self._boot_id or 0)
            if self.on_press is not None:
                try:
                    self.on_press(press)
                except Exception:  # a faulty consumer must not kill the link
                    log.exception("on_press callback failed")
            else:
                self.presses.put(press)
        self._write(p.encode_frame(p.PressAck(press_seq=(self._next_press - 1) & 0xFFFF, boot_id=m.boot_id)))

    # ---- helpers ---------------------------------------------------------------------------
    def _clock_seen(self, t32: int) -> None:
        self._clock.unwrap(t32)
        self._clock_host = time.monotonic()

    def _write(self, frame: bytes) -> None:
        port = self._port
        if port is None:
            return
        with self._write_lock:
            try:
                port.write(frame)
            except (serial.SerialException, OSError) as exc:
                self._note(f"write failed: {exc}")

    def _went_down(self) -> None:
        was_up = self._connected.is_set()
        self._connected.clear()
        self._close_port()
        if was_up and not self._stop.is_set():
            self.stats.reconnects += 1
            self._note(f"{self.url} disconnected; reconnecting")

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _note(self, text: str) -> None:
        self.stats.events.append(text)
        log.info("%s: %s", self.url, text)

