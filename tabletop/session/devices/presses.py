"""Buzz-in presses from any source, ordered by their stamps and handed to the session."""

from __future__ import annotations

import threading
import time

from rules.arbitration import Arbiter, EarlyPress, Phase, Queued, TieRule
from tabletop.session.core import Session
from tabletop.session.devices.dispatch import Dispatcher
from typing import Callable


class PressOrderer:
    """Presses reach the session in the order they were *made*, through the arbitration core.

    Device threads deliver presses as they come (GPIO callbacks on several threads, a USB box
    replaying buffered presses); each press waits ``hold`` seconds so that any press stamped
    earlier which is still on its way can overtake it. The batch then goes through one
    :class:`rules.arbitration.Arbiter` per question (the same core for the GPIO panel and the
    buzzer box): it orders presses by their device stamps, keeps each player once a turn (a
    repeat or contact chatter is dropped), and marks true ties (equal stamps, forwarded in seat
    order and counted in ``ties``). The answer windows themselves are refereed by the rules
    core on the table clock.

    ``opens_at`` (when the stamps are table time: the phones) gives the time the current question
    opened, in the stamps' microseconds: the arbiter opens there, never at the earliest stamp, so
    no press can queue ahead of the question. Without it (a device clock the table cannot map)
    the arbiter opens at the first press of the question.
    """

    def __init__(self, session: Session, source: str, hold: float = 0.02,
                 opens_at: Callable[[], int | None] | None = None):
        self.session, self.source, self.hold, self.opens_at = session, source, hold, opens_at
        self.dispatch = Dispatcher(f"{source}-presses")
        self._lock = threading.Lock()
        self._batch: list[tuple[int, int, str]] = []
        self._timer: threading.Timer | None = None
        self.arbiter = Arbiter(session.setup.players, tie_rule=TieRule.SHOW_TIE, early_press=EarlyPress.QUEUE)
        self._turn_key: object = None
        self.received = self.forwarded = self.dropped = self.ties = 0

    def add(self, player: str, t_us: int, seat: int) -> None:
        with self._lock:
            self.received += 1
            self._batch.append((t_us, seat, player))
            if self._timer is None:
                self._timer = threading.Timer(self.hold, self._flush)
                self._timer.daemon = True
                self._timer.start()

    def _current_turn(self) -> object:
        """Changes whenever a new question (or turn) starts: the arbiter then starts afresh."""
        game = self.session.game
        return getattr(game, "turns_started", None), len(game.turns)

    def _flush(self) -> None:
        with self._lock:
            batch, self._batch = sorted(self._batch), []
            turn = self._current_turn()
            if turn != self._turn_key:
                self._turn_key = turn
                self.arbiter.reset()
            queued: list[str] = []
            opened = self.opens_at() if self.opens_at is not None else None
            for t_us, _seat, player in batch:
                if opened is not None:
                    t_us = max(t_us, opened)        # no press predates the question
                if self.arbiter.phase is Phase.READING:
                    self.arbiter.open(t_us if opened is None else opened)
                decision = self.arbiter.press(player, t_us)
                if isinstance(decision, Queued):
                    queued.append(str(decision.player))
                    self.ties += bool(decision.tied_with)
                else:
                    self.dropped += 1
            self.forwarded += len(queued)
            for name in queued:
                self.dispatch.put(self._buzz_job(name))
            self._timer = None  # only now: drain() waits for the timer, then for the dispatcher

    def _buzz_job(self, player: str) -> Callable[[], None]:
        def job() -> None:
            self.session.buzz(player, source=self.source)
        return job

    def drain(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while (self._batch or self._timer is not None) and time.monotonic() < deadline:
            time.sleep(0.002)
        self.dispatch.drain(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
        self._flush()
        self.dispatch.drain(1.0)
        self.dispatch.close()
