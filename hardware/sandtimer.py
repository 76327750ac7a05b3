"""An electronic sand timer: an LED bar draining over the period, a buzzer, a tilt switch.

Time comes from an injected ``clock`` (seconds, ``time.monotonic`` by default), so tests step a
fake clock and call :meth:`SandTimer.update` instead of sleeping. On the table,
:meth:`SandTimer.run_in_background` calls ``update`` every few milliseconds.

- The LED bar shows the sand left: all lit when started, the last LED dimming (PWM) as it empties.
- The buzzer beeps once a second in the last ``warn_s`` seconds and sounds a long tone at the end.
- Flipping it (the tilt switch changes state) restarts it, like turning real sand over; with
  ``flip="sand"`` it behaves like real sand: what had run through is what is left to run.
- :meth:`pause` / :meth:`resume` hold the sand (a challenge, a dispute).

>>> clock = [0.0]
>>> timer = SandTimer(10, clock=lambda: clock[0])
>>> timer.start(); clock[0] = 7.5; round(timer.update(), 1), timer.bar
(2.5, 0.25)
>>> clock[0] = 10.0; timer.update(), timer.expired, timer.sounds[-1][1]
(0.0, True, 'end')
>>> timer.close()
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Callable

from gpiozero import LEDBarGraph, TonalBuzzer
from gpiozero.tones import Tone

from hardware.config import load_pins
from hardware.edges import EdgeInput
from hardware.pins import choose_pin_factory

log = logging.getLogger(__name__)

WARN_HZ = 1976  # B6: short beeps in the last seconds
END_HZ = 880  # A5: the end


class SandTimer:
    """A sand timer of ``duration_s`` seconds on the ``sand_timer`` pins of the config."""

    def __init__(
        self,
        duration_s: float = 30.0,
        pins: dict | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        pin_factory=None,
        warn_s: float = 5.0,
        flip: str = "restart",
        on_expired: Callable[[], None] | None = None,
    ) -> None:
        if duration_s <= 0:
            raise ValueError(f"a sand timer needs a positive duration, not {duration_s!r}")
        if flip not in ("restart", "sand"):
            raise ValueError(f"flip must be 'restart' or 'sand', not {flip!r}")
        self.duration = float(duration_s)
        self.clock, self.warn_s, self.flip_mode, self.on_expired = clock, warn_s, flip, on_expired
        config = load_pins(pins)["sand_timer"]
        setup = choose_pin_factory(pin_factory)
        self.factory, self.mock = setup.factory, setup.mock
        self.sounds: list[tuple[float, str]] = []  # (clock, "warn" | "end"): what the buzzer played
        self._lock = threading.RLock()
        self._devices: list = []
        self._bar = self._own(LEDBarGraph(*config["leds"], pwm=True, pin_factory=self.factory)) if config.get("leds") else None
        self._buzzer = (
            self._own(TonalBuzzer(config["buzzer"], mid_tone=Tone("A5"), octaves=2, pin_factory=self.factory))
            if config.get("buzzer") is not None else None
        )
        self._tilt = None
        if config.get("tilt") is not None:
            self._tilt = self._own(EdgeInput(config["tilt"], pin_factory=self.factory, on_edge=self._tilted))
        self._last_flip_us: int | None = None
        self._end_at: float | None = None  # clock value when the sand runs out (while running)
        self._left = self.duration  # sand left while paused or stopped
        self._paused = False
        self._ended = False
        self._last_second: int | None = None
        self._sound_until: float | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ---- controls --------------------------------------------------------------------------
    def start(self, duration_s: float | None = None) -> None:
        """Start (or restart) with full sand."""
        with self._lock:
            if duration_s is not None:
                self.duration = float(duration_s)
            self._run_from(self.duration)

    def pause(self) -> None:
        with self._lock:
            if self.running:
                self._left = self.remaining
                self._paused = True
                self._end_at = None
                self._silence()

    def resume(self) -> None:
        with self._lock:
            if self._paused:
                self._paused = False
                self._end_at = self.clock() + self._left
                self.update()

    def stop(self) -> None:
        with self._lock:
            self._end_at, self._paused, self._left = None, False, self.duration
            self._silence()
            self._show(0.0)

    def flip(self) -> None:
        """Turned over: restart, or (``flip="sand"``) run again what had already run through."""
        with self._lock:
            left = self.remaining if (self.running or self._paused) else 0.0
            self._run_from(self.duration if self.flip_mode == "restart" else self.duration - left)

    # ---- state -----------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._end_at is not None and not self._paused

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def expired(self) -> bool:
        return self._ended

    @property
    def remaining(self) -> float:
        """Seconds of sand left."""
        if self._end_at is None:
            return self._left if self._paused else (0.0 if self._ended else self._left)
        return max(0.0, self._end_at - self.clock())

    @property
    def bar(self) -> float:
        """What the LED bar shows, 0..1."""
        return float(self._bar.value) if self._bar is not None else self.remaining / self.duration

    def update(self) -> float:
        """Bring LEDs and buzzer up to the clock; returns the seconds left."""
        with self._lock:
            now = self.clock()
            if self._sound_until is not None and now >= self._sound_until:
                self._silence()
            if not self.running:
                return self.remaining
            left = self.remaining
            self._show(left / self.duration)
            if left <= 0:
                self._end_at, self._left, self._ended = None, 0.0, True
                self._sound(now, "end", END_HZ, 1.0)
                if self.on_expired is not None:
                    self.on_expired()
                return 0.0
            second = math.ceil(left)
            if second != self._last_second:
                self._last_second = second
                if second <= self.warn_s:
                    self._sound(now, "warn", WARN_HZ, 0.08)
            return left

    def run_in_background(self, interval: float = 0.01) -> None:
        """Call :meth:`update` every ``interval`` seconds on a daemon thread until :meth:`close`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, args=(interval,), name="SandTimer", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1)
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> "SandTimer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- internals -------------------------------------------------------------------------
    def _run_from(self, left: float) -> None:
        self._paused, self._ended = False, False
        self._end_at = self.clock() + left
        self._last_second = math.ceil(left)
        self._silence()
        self._show(left / self.duration)

    def _loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.update()
            except Exception:
                log.exception("sand timer update failed")

    def _tilted(self, down: bool, t_us: int) -> None:
        # a tilt switch rattles as it turns: one flip per 300 ms at most
        if self._last_flip_us is not None and t_us - self._last_flip_us < 300_000:
            return
        self._last_flip_us = t_us
        self.flip()

    def _show(self, fraction: float) -> None:
        if self._bar is not None:
            self._bar.value = min(1.0, max(0.0, fraction))

    def _sound(self, now: float, what: str, hz: float, seconds: float) -> None:
        self.sounds.append((now, what))
        self._sound_until = now + seconds
        if self._buzzer is not None:
            self._buzzer.play(Tone(frequency=hz))

    def _silence(self) -> None:
        self._sound_until = None
        if self._buzzer is not None and self._buzzer.is_active:
            self._buzzer.stop()

    def _own(self, device):
        self._devices.append(device)
        return device
