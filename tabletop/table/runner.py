"""Carry a simulated script's actions to the session, through whichever devices are attached.

``buzz(player)``, ``write(player, write_event)`` and ``roll()`` are the device paths (the demo
sends presses through the serial buzzer box, words through the synthetic camera and rolls past
the dice camera); by default they go straight to the session (a roll: the table rolls for the
players). After every wait the clock is allowed to act (:meth:`Session.tick`).
``pace`` > 0 keeps that many real seconds per table second, so a watcher of the scoreboard sees
the timers count down. The pace is kept against a deadline (:class:`Pacer`): the real time the
devices spend (a camera frame rendered and read) counts toward the next wait instead of adding to
it, up to :data:`MOST_CATCH_UP` seconds.
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from tabletop.session.core import Session
from tabletop.players.synthetic import Action

MOST_CATCH_UP = 2.0
"""Real seconds a slow device step may be made up by shorter waits afterwards."""


class Pacer:
    """Real time kept in step with table time: ``wait(dt)`` sleeps until ``pace * dt`` real seconds
    after the last wait's deadline, not after now.

    >>> pacer = Pacer(0.0)
    >>> pacer.wait(10.0)   # pace 0: never sleeps
    0.0
    """

    def __init__(self, pace: float, *, now: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.pace = pace
        self._now, self._sleep = now, sleep
        self._deadline: float | None = None

    def wait(self, table_seconds: float) -> float:
        """Sleep for ``table_seconds`` of table time at the pace; return the real seconds slept."""
        if self.pace <= 0:
            return 0.0
        now = self._now()
        start = now if self._deadline is None else max(self._deadline, now - MOST_CATCH_UP)
        self._deadline = start + table_seconds * self.pace
        delay = self._deadline - now
        if delay > 0:
            self._sleep(delay)
            return delay
        return 0.0


def run_script(session: Session, actions: Iterable[Action], *, buzz: Callable | None = None,
               write: Callable | None = None, roll: Callable[[], None] | None = None,
               say: Callable[[str], None] | None = None,
               pace: float = 0.0, max_actions: int = 5000) -> int:
    """Play ``actions``; return how many were carried out."""
    clock = session.clock
    pacer = Pacer(pace)
    n = 0
    for action in actions:
        n += 1
        if n > max_actions:
            raise RuntimeError("the simulated game does not end")
        if action.note and say:
            say(action.note)
        if action.kind == "wait":
            step = 0.5
            left = action.seconds
            while left > 1e-9:
                dt = min(step, left)
                pacer.wait(dt)
                clock.advance(dt)  # type: ignore[attr-defined]  # the simulated table runs a SimClock
                left -= dt
                session.tick()
        elif action.kind == "event":
            assert action.event is not None, "an event action carries its event"
            session.submit(action.event, source=action.source)
        elif action.kind == "buzz":
            (buzz or (lambda p: session.buzz(p, source="buzzer")))(action.player)
        elif action.kind == "write":
            assert action.write is not None, "a write action carries its write"
            if write is None:
                session.submit(action.write, source=action.source)
            else:
                write(action.player, action.write)
        elif action.kind == "roll":
            (roll or (lambda: session.submit({"type": "roll"}, source=action.source)))()
        else:
            raise ValueError(f"unknown action {action.kind!r}")
    return n
