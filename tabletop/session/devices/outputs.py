"""What the table shows and sounds: the answering player's LED, the sand timer on the game's
current countdown, the buzzer on a refusal."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from tabletop.session.core import Session
from tabletop.session.devices.dispatch import Dispatcher


class TableOutputs:
    """Lights, sand timer and buzzer following the session (on their own thread)."""

    def __init__(self, session: Session, *, sand_timer=None, lights: Callable[[set], None] | None = None,
                 beep: Callable[[str], None] | None = None, timers: Iterable[Callable[..., Any]] = ()):
        self.session, self.sand, self.lights, self.beep = session, sand_timer, lights, beep
        self.timers = list(timers)          # other countdown displays: f(seconds or None)
        self.dispatch = Dispatcher("table-outputs")
        self._timer_key: tuple[str, float] | None = None
        self.timer_starts = 0
        self.beeps = 0
        session.subscribe(lambda message: self.dispatch.put(lambda: self._update(message)))

    def _update(self, message: dict) -> None:
        view = self.session.view()
        if self.lights is not None:
            lit = {view["answering"]} if view.get("answering") else set(view.get("hands", [])[:1])
            self.lights(lit)
        timers = view["timers"]
        main = timers[-1] if timers else None
        key = (main["name"], main["ends"]) if main else None
        if key != self._timer_key:
            self._timer_key = key
            seconds = None if main is None else max(0.1, main["ends"] - view["now"])
            if main is not None:
                self.timer_starts += 1
            if self.sand is not None:
                self.sand.stop() if seconds is None else self.sand.start(seconds)
            for show in self.timers:
                show(seconds)
        if self.sand is not None:
            self.sand.update()
        result = message.get("result")
        if self.beep is not None and result and result.get("status") == "rejected":
            self.beeps += 1
            self.beep("refused")

    def drain(self) -> None:
        self.dispatch.drain()

    def close(self) -> None:
        self.dispatch.close()
        if self.sand is not None:
            self.sand.close()


def sand_timer_on_mock_pins(session: Session, pins: dict | None = None):
    """The GPIO sand timer running on the session's table clock (mock pins off a Pi)."""
    from hardware.sandtimer import SandTimer
    return SandTimer(30.0, pins, clock=session.clock.now)
