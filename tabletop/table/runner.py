"""Carry a simulated script's actions to the session, through whichever devices are attached.

``buzz(player)``, ``write(player, write_event)`` and ``roll()`` are the device paths (the demo
sends presses through the serial buzzer box, words through the synthetic camera and rolls past
the dice camera); by default they go straight to the session (a roll: the table rolls for the
players). After every wait the clock is allowed to act (:meth:`Session.tick`).
``pace`` > 0 sleeps that many real seconds per table second, so a watcher of the scoreboard sees
the timers count down.
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from tabletop.session.core import Session
from tabletop.players.synthetic import Action


def run_script(session: Session, actions: Iterable[Action], *, buzz: Callable | None = None,
               write: Callable | None = None, roll: Callable[[], None] | None = None,
               say: Callable[[str], None] | None = None,
               pace: float = 0.0, max_actions: int = 5000) -> int:
    """Play ``actions``; return how many were carried out."""
    clock = session.clock
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
                if pace:
                    time.sleep(dt * pace)
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
