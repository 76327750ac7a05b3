"""A buzzer box in Python: the firmware's behaviour and protocol on a pseudo-terminal.

For the demo and for tests that need no firmware build. Like the real box it stamps a press at
its first edge and ignores chatter until the button has been released for 20 ms, keeps every
press until the host acknowledges it, replays them every 50 ms and after SYNC, sends a
heartbeat every 250 ms, and acknowledges commands (a retried command is acknowledged again,
not run twice).

The host opens :attr:`DeviceEmulator.path`, a symlink to the current pty (like a udev
``/dev/serial/by-id`` link), so :meth:`unplug` / :meth:`replug` look to the host exactly like a
USB cable pulled and pushed back while the box keeps power. :meth:`reset` reboots the box
(buffer lost, new boot id), :meth:`garbage` sends line noise and :attr:`corrupt_rate` damages
outgoing bytes at random.

>>> with DeviceEmulator(players=4) as box:
...     made = box.press(1, t_us=500)
...     box.pending()
[(1, 1, 500)]
"""

from __future__ import annotations

import os
import random
import select
import tempfile
import threading
import time
import tty
from dataclasses import replace

from firmware_bridge import protocol as p

REARM_US = 20_000
RETRY_S = 0.05
HEARTBEAT_S = 0.25
BUFFER = 32


class DeviceEmulator:
    """An emulated buzzer box; start it with ``with`` or :meth:`start`."""

    # the box's RAM, set at every boot (_boot)
    _buffer: list[tuple[int, int, int]]
    _next_seq: int
    _armed: list[bool]
    _released_at: list[int | None]
    _flags: int

    def __init__(
        self,
        players: int = 6,
        *,
        path: str | None = None,
        start_us: int = 0,
        boot_id: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.players = players
        self._dir = None if path else tempfile.mkdtemp(prefix="buzzbox-")
        self.path = path or os.path.join(self._dir or "", "ttyBUZZ")
        self._rng = random.Random(seed)
        self._epoch = time.monotonic_ns() // 1000 - start_us
        self.boot_id = self._rng.randrange(1 << 16) if boot_id is None else boot_id
        self.corrupt_rate = 0.0  # probability that an outgoing byte is flipped or dropped
        self.corrupt_in_rate = 0.0  # the same for bytes coming from the host
        self.proto = p.PROTOCOL_VERSION  # what HELLO claims (tests set another to check the refusal)
        self.hung = False  # True: the box neither reads nor writes (a crashed firmware)
        self.leds = 0
        self.timer: tuple[int, int] = (p.TIMER_STOP, 0)
        self.buzzes: list[tuple[int, int]] = []
        self.commands_run: list[p.Message] = []
        self.frames_rejected = 0
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = os.pipe()  # press() wakes the I/O thread at once
        os.set_blocking(self._wake_w, False)
        self._boot()

    # ---- life cycle ------------------------------------------------------------------------
    def start(self) -> "DeviceEmulator":
        """Plug in and start answering: the box says HELLO at once, like after power-up."""
        self.replug()
        self._send(p.Hello(**self._hello_fields()))
        self._thread = threading.Thread(target=self._run, name="DeviceEmulator", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop and unplug for good."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        self.unplug()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._dir:
            try:
                os.rmdir(self._dir)
            except OSError:
                pass

    def __enter__(self) -> "DeviceEmulator":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what a test does to the box -------------------------------------------------------
    def now_us(self) -> int:
        """The box's 32-bit microsecond clock."""
        return (time.monotonic_ns() // 1000 - self._epoch) & 0xFFFF_FFFF

    def press(self, player: int, t_us: int | None = None) -> bool:
        """A button edge going down at device time ``t_us`` (default now); True if it made a press.

        A button that has not been released for 20 ms since its last press is disarmed: its
        edges are chatter and make nothing.
        """
        t = self.now_us() if t_us is None else t_us & 0xFFFF_FFFF
        with self._lock:
            if not 0 <= player < self.players:
                return False
            if not self._armed[player]:
                released = self._released_at[player]
                if released is None or not REARM_US <= (t - released) & 0xFFFF_FFFF < 1 << 31:
                    return False  # held, or chatter within 20 ms of the release
            self._armed[player] = False
            self._released_at[player] = None
            if len(self._buffer) >= BUFFER:
                self._flags |= p.FLAG_OVERFLOW
                return False
            self._buffer.append((self._next_seq, player, t))
            self._next_seq = (self._next_seq + 1) & 0xFFFF
        self._wake()
        return True

    def release(self, player: int, t_us: int | None = None) -> None:
        """The button is let go at ``t_us``: it re-arms 20 ms later."""
        t = self.now_us() if t_us is None else t_us & 0xFFFF_FFFF
        with self._lock:
            if not self._armed[player] and self._released_at[player] is None:
                self._released_at[player] = t

    def tap(self, player: int, t_us: int | None = None) -> bool:
        """Press and release at once (the release re-arms after 20 ms, as on the box)."""
        made = self.press(player, t_us)
        t = self.now_us() if t_us is None else t_us
        self.release(player, t)
        return made

    def pending(self) -> list[tuple[int, int, int]]:
        """Presses the box still holds: ``(seq, player, t_us)``, oldest first."""
        with self._lock:
            return list(self._buffer)

    def reset(self) -> None:
        """Reboot the box: buffered presses are lost, the boot id changes, HELLO is sent."""
        with self._lock:
            self.boot_id = (self.boot_id + 1) & 0xFFFF
            self._epoch = time.monotonic_ns() // 1000
            self._boot()
            self._send(p.Hello(**self._hello_fields()))

    def unplug(self) -> None:
        """Pull the USB cable: the pty disappears, the box keeps power and keeps presses."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass

    def replug(self) -> None:
        """Push the cable back: a new pty appears behind :attr:`path`."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            tmp = self.path + ".new"
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.path)
            self._master, self._slave = master, slave

    def garbage(self, data: bytes) -> None:
        """Write raw bytes towards the host, as line noise would."""
        self._write(data, corrupt=False)

    # ---- the box's insides -----------------------------------------------------------------
    def _boot(self) -> None:
        self._buffer = []
        self._next_seq = 1
        self._unsent = 0  # index into _buffer of the first press not yet sent
        self._armed = [True] * self.players
        self._released_at = [None] * self.players
        self._flags = 0
        self._tx_seq = 0
        self._last_cmd: tuple[int, int] | None = None
        self._progress = time.monotonic()  # last time the oldest unacknowledged press changed
        self._decoder = p.FrameDecoder()

    def _hello_fields(self) -> dict[str, int]:
        oldest = self._buffer[0][0] if self._buffer else self._next_seq
        return dict(proto=self.proto, fw_major=1, fw_minor=0, players=self.players, boot_id=self.boot_id,
                    now_us=self.now_us(), oldest_unacked=oldest)

    def _run(self) -> None:
        last_beat = time.monotonic()
        while not self._stop.is_set():
            master = self._master
            data = b""
            try:
                watch = [self._wake_r] if master is None else [master, self._wake_r]
                ready, _, _ = select.select(watch, [], [], 0.005)
                if self._wake_r in ready:
                    os.read(self._wake_r, 512)
                if master is not None and master in ready:
                    data = self._damage(os.read(master, 4096), self.corrupt_in_rate)
            except OSError:
                data = b""  # unplugged under our feet
            if self.hung:
                continue
            with self._lock:
                for message in self._decoder.feed(data):
                    self._handle(message)
                self.frames_rejected = self._decoder.errors
                now = time.monotonic()
                if not self._buffer:
                    self._progress = now
                elif now - self._progress >= RETRY_S:
                    self._unsent = 0  # no acknowledgement progress for 50 ms: send them all again
                    self._progress = now
                while self._unsent < len(self._buffer):
                    seq, player, t = self._buffer[self._unsent]
                    self._send(p.Press(press_seq=seq, player=player, t_us=t, boot_id=self.boot_id))
                    self._unsent += 1
                if now - last_beat >= HEARTBEAT_S:
                    last_beat = now
                    held = sum(1 << i for i in range(self.players) if not self._armed[i] and self._released_at[i] is None)
                    self._send(p.Heartbeat(now_us=self.now_us(), unacked=len(self._buffer), flags=self._flags, held=held))

    def _handle(self, m: p.Message) -> None:
        if isinstance(m, p.Sync):
            self._last_cmd = None
            self._send(p.Hello(**self._hello_fields(), nonce=m.nonce))
            self._unsent = 0
        elif isinstance(m, p.PressAck):
            if m.boot_id != self.boot_id:
                return                     # an acknowledgement meant for another boot
            while self._buffer and ((m.press_seq - self._buffer[0][0]) & 0xFFFF) < 0x8000:
                self._buffer.pop(0)
                self._unsent = max(0, self._unsent - 1)
                self._progress = time.monotonic()
        elif isinstance(m, (p.Leds, p.Timer, p.Buzz, p.Ping)):
            if self._last_cmd is not None and self._last_cmd[0] == m.seq:
                status = self._last_cmd[1]  # a retry: acknowledge again, do not run twice
            else:
                status = self._run_command(m)
                self._last_cmd = (m.seq, status)
            self._send(p.Ack(acked=m.seq, status=status, now_us=self.now_us()))

    def _run_command(self, m: p.Message) -> int:
        self.commands_run.append(m)
        if isinstance(m, p.Leds):
            self.leds = m.mask & ((1 << self.players) - 1)
        elif isinstance(m, p.Timer):
            if m.op > 3 or (m.op == p.TIMER_START and not 0 < m.duration_ms <= 1_000_000_000):
                return p.STATUS_BAD_ARG
            self.timer = (m.op, m.duration_ms)
        elif isinstance(m, p.Buzz):
            self.buzzes.append((m.freq_hz, m.duration_ms))
        return p.STATUS_OK

    def _send(self, message: p.Message) -> None:
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        self._write(p.encode_frame(replace(message, seq=self._tx_seq)))

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def _damage(self, data: bytes, rate: float) -> bytes:
        """Each byte dropped with probability rate/2, or a bit of it flipped with rate/2."""
        if not rate:
            return data
        out = bytearray()
        for byte in data:
            roll = self._rng.random()
            if roll < rate / 2:
                continue
            out.append(byte ^ (1 << self._rng.randrange(8)) if roll < rate else byte)
        return bytes(out)

    def _write(self, data: bytes, corrupt: bool = True) -> None:
        if corrupt:
            data = self._damage(data, self.corrupt_rate)
        with self._lock:
            if self._master is None:
                return  # unplugged: the bytes go nowhere
            try:
                os.write(self._master, data)
            except OSError:
                pass  # host not reading and the pty is full: dropped, like USB



def main() -> None:
    """``python -m firmware_bridge.emulator``: a demo box; prints its port and presses a random
    button every second until Ctrl-C. Open the printed path with ``BuzzerLink.open``."""
    import sys

    with DeviceEmulator() as box:
        print(box.path, flush=True)
        rng = random.Random()
        try:
            while True:
                time.sleep(1)
                player = rng.randrange(box.players)
                box.tap(player)
                print(f"player {player} pressed", file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
