"""The real firmware in simavr, as a buzzer box the host can open: build it, run it, drive it.

``SimBox.build(dir)`` runs ``make`` in ``firmware_bridge/firmware`` (avr-gcc for the firmware,
gcc + libsimavr for the harness) into ``dir``. A started :class:`SimBox` runs the harness: the
firmware's UART is on a pty behind :attr:`SimBox.path`, and the button pins are driven at exact
simulated times (to the CPU cycle) through the harness's control channel.

>>> import tempfile
>>> with SimBox(*SimBox.build(tempfile.mkdtemp())) as box:   # doctest: +SKIP
...     box.schedule(0, box.now_us() + 1000, pressed=True)
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from firmware_bridge.errors import LinkError

FIRMWARE_DIR = Path(__file__).with_name("firmware")


class SimError(LinkError):
    """The firmware could not be built, or the simulator did not answer."""


class SimBox:
    """The simavr harness running the firmware; use ``with`` or :meth:`start` / :meth:`close`."""

    @staticmethod
    def build(build_dir: str | os.PathLike[str], **make_vars: object) -> tuple[Path, Path]:
        """Build firmware and harness into ``build_dir``; return ``(elf, harness)`` paths.

        ``make_vars`` become ``make`` variables, e.g. ``CLOCK_START_US=4293467296``.
        """
        missing = [tool for tool in ("make", "avr-gcc", "gcc", "pkg-config") if shutil.which(tool) is None]
        if missing:
            raise SimError(f"cannot build the firmware: {', '.join(missing)} not installed (see scripts/apt-packages.txt)")
        build_dir = Path(build_dir).resolve()
        result = subprocess.run(
            ["make", "-C", str(FIRMWARE_DIR), f"BUILD={build_dir}", *(f"{k}={v}" for k, v in make_vars.items())],
            capture_output=True, text=True, timeout=120,
        )
        if result.returncode != 0:
            raise SimError(f"firmware build failed:\n{result.stdout}\n{result.stderr}")
        return build_dir / "buzzbox.elf", build_dir / "simharness"

    def __init__(self, elf: Path, harness: Path, path: str | None = None) -> None:
        self.elf, self.harness = Path(elf), Path(harness)
        self._dir = None if path else tempfile.mkdtemp(prefix="simbox-")
        self.path = path or os.path.join(self._dir or "", "ttyBUZZ")
        self.pins: list[tuple[str, int, int]] = []  # (pin, level, sim_us) LED changes
        self._replies: queue.Queue[str] = queue.Queue()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None

    def start(self) -> "SimBox":
        self._proc = subprocess.Popen(
            [str(self.harness), str(self.elf), self.path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self._reply("pty")
        return self

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write("quit\n")
                self._proc.stdin.flush()
                self._proc.wait(2)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait(2)
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> "SimBox":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- driving the simulated box ---------------------------------------------------------
    def now_us(self) -> int:
        """Simulated time in microseconds (the firmware's clock runs ~170 us behind it)."""
        return int(self._ask("now").split()[1])

    def schedule(self, player: int, at_us: int, pressed: bool) -> None:
        """Drive player's button pin at simulated time ``at_us`` (pressed pulls it low)."""
        self._ask(f"at {at_us} {player} {0 if pressed else 1}")

    def sequence(self, changes: list[tuple[int, int, bool]], lead_us: int = 20_000) -> int:
        """Schedule many pin changes at once: ``(player, offset_us, pressed)`` relative to a base
        ``lead_us`` after the harness reads the command; returns the base (simulated us).

        One command, so the spacing is exact however late the host is.
        """
        items = " ".join(f"{player}:{offset}:{0 if pressed else 1}" for player, offset, pressed in changes)
        return int(self._ask(f"sched {lead_us} {items}").split()[1])

    @staticmethod
    def chatter(player: int, offset_us: int, bounces_us: tuple[int, ...] = ()) -> list[tuple[int, int, bool]]:
        """The pin changes of one press at ``offset_us`` followed by contact bounce."""
        out, level, t = [(player, offset_us, True)], True, offset_us
        for gap in bounces_us:
            t += gap
            level = not level
            out.append((player, t, level))
        return out

    def press_at(self, player: int, at_us: int, chatter_us: tuple[int, ...] = ()) -> None:
        """A press at ``at_us``, then contact bounce: the pin toggles after each delay in ``chatter_us``."""
        self.schedule(player, at_us, True)
        level, t = True, at_us
        for gap in chatter_us:
            t += gap
            level = not level
            self.schedule(player, t, level)

    def reset(self) -> None:
        """Reset the MCU (power glitch, watchdog): RAM is lost, EEPROM kept."""
        self._ask("reset")

    def unplug(self) -> None:
        self._ask("unplug")

    def replug(self) -> None:
        self._ask("replug", expect="pty")

    def to_host(self, data: bytes) -> None:
        """Line noise: raw bytes to the host as if the box sent them."""
        self._ask("tohost " + data.hex())

    def corrupt(self, rate: float, seed: int = 1) -> None:
        """From now on each byte on the link, both ways, is dropped (rate/2) or bit-flipped (rate/2)."""
        self._ask(f"corrupt {rate} {seed}")

    def ports(self) -> dict[str, int]:
        """Output latches of ports B and C, and the input pins of port D."""
        return {k: int(v, 16) for k, v in (kv.split("=") for kv in self._ask("ports").split()[1:])}

    # ---- control channel -------------------------------------------------------------------
    def _ask(self, line: str, expect: str | None = None) -> str:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                raise SimError("the simavr harness is not running")
            assert self._proc.stdin is not None
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
            reply = self._reply(expect)
        if reply.startswith("err"):
            raise SimError(f"harness refused {line!r}: {reply}")
        return reply

    def _reply(self, expect: str | None = None, timeout: float = 5.0) -> str:
        while True:
            try:
                reply = self._replies.get(timeout=timeout)
            except queue.Empty:
                raise SimError("the simavr harness did not answer") from None
            if expect is None or reply.startswith(expect) or reply.startswith("err"):
                return reply

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            line = line.strip()
            if line.startswith("pin "):
                _, pin, level, t = line.split()
                self.pins.append((pin, int(level), int(t)))
            elif line.split(" ", 1)[0] in ("now", "ok", "pty", "ports", "err", "crash"):
                self._replies.put(line)
