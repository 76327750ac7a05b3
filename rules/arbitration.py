"""Buzz-in arbitration: timestamped presses in, the ordered queue of hands out.

Pure: no I/O, no clock (every call carries its time, in integer microseconds of the device
clock that stamped the presses), no global randomness (the ``random`` tie rule draws from a
``random.Random(seed)``). The Raspberry Pi's buttons (``hardware``), the USB buzzer box
(``firmware_bridge``) and the players' phones all feed the same :class:`Arbiter`.

The arbiter is the **press queue** of one question: who raised a hand, in which order. The
answering itself (recognising the first hand, the 5 s to answer, wrong answer -> next hand, the
shared 30 s) is refereed by the game's rules (:mod:`rules.extradiction_sp`), which receive the
queue's hands as ``hand`` events; the table consumes the queue with :meth:`Arbiter.next_hand`
and tells it who is :meth:`Arbiter.done`.

1. :meth:`Arbiter.open` — the asker has finished reading the clue: hands count from now.
2. :meth:`Arbiter.press` — a player raises a hand (presses her button). Presses join the queue
   in timestamp order, whatever order they arrive in; each player is in it at most once.
3. :meth:`Arbiter.next_hand` — the first hand leaves the queue to answer; :meth:`Arbiter.done`
   marks a player who has answered (or lost the turn to answer): she cannot queue again.
4. :meth:`Arbiter.reset` — the next question (and, if it changes, the next set of answerers:
   the asker never buzzes, so leave her out of ``players``).

**Presses before the clue is finished** (a timestamp earlier than :meth:`open`'s, even if the
press arrives after it) follow ``early_press``:

- ``EarlyPress.IGNORE`` (default, as the rulebook says: hands count once the clue is read):
  the press is ignored and the player may press again once the window is open.
- ``EarlyPress.LOCKOUT(penalty_us)``: ignored, and the player cannot buzz until
  ``penalty_us`` after the window opens (the quiz-bowl penalty for anticipating).
- ``EarlyPress.QUEUE``: the press is kept and queues, in timestamp order, ahead of every press
  made after the window opened.

**Ties** (two presses with the same timestamp: the box reads all its buttons in one port read,
so a tie is real to the microsecond) follow ``tie_rule``:

- ``TieRule.SHOW_TIE`` (default): both queue, marked tied; when a tie reaches the head,
  :meth:`next_hand` returns :class:`TieShown` and the asker chooses (``next_hand(choose=player)``).
- ``TieRule.REBUZZ``: when a tie reaches the head, the tied players leave the queue
  (:class:`Rebuzz`) and must press again; their turn to answer is not used up.
- ``TieRule.RANDOM``: the tie is broken at once by the seeded generator (every order equally
  likely); the queue never holds a tie.

**Chatter**: a press is a player's first edge; a player already queued, answering or done is
ignored, so contact bounce can never make a second press. Raw edges become presses in
:class:`hardware.edges.FirstEdge` (stamped at the first edge: debouncing never delays the stamp).

>>> a = Arbiter(["Ben", "Cat"])
>>> a.open(1_000_000)
[]
>>> a.press("Cat", 1_400_000).position, a.press("Ben", 1_400_050).position
(0, 1)
>>> a.next_hand()
Buzz(player='Cat', t=1400000)
>>> a.done("Cat"); a.press("Cat", 1_500_000).reason.value
'has answered (or lost the turn to answer) this question'
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from enum import Enum
from typing import Hashable, Iterable, Union

Player = Hashable

class TieRule(Enum):
    """What equal timestamps do; see the module docstring."""

    SHOW_TIE = "show_tie"
    REBUZZ = "rebuzz"
    RANDOM = "random"


@dataclass(frozen=True)
class Lockout:
    """Early press policy: locked out until ``penalty_us`` after the window opens."""

    penalty_us: int


class EarlyPress:
    """Early press policies: ``IGNORE``, ``QUEUE`` or ``LOCKOUT(penalty_us)``."""

    IGNORE = "ignore"
    QUEUE = "queue"
    LOCKOUT = Lockout


class Phase(Enum):
    READING = "reading"  # the clue is being read: hands do not count yet
    OPEN = "open"  # hands may go up


class Reason(Enum):
    """Why a press (or a host action) was ignored."""

    NOT_A_PLAYER = "not a player this turn (the asker never buzzes)"
    EARLY = "pressed before the clue was finished"
    LOCKED_OUT = "locked out for pressing early"
    ALREADY_QUEUED = "already in the queue (a repeat or contact chatter)"
    ALREADY_ANSWERED = "has answered (or lost the turn to answer) this question"
    NOT_OPEN = "the window is not open"
    NOBODY_WAITING = "no hand is up"
    NOT_TIED = "that player is not in the tie at the head of the queue"


# ---- decisions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Buzz:
    """One entry of the queue: a player and the timestamp of her press."""

    player: Player
    t: int


@dataclass(frozen=True)
class Queued:
    """The press joined the queue at ``position`` (0 = next to answer); ``tied_with`` the same stamp."""

    player: Player
    t: int
    position: int
    tied_with: tuple[Player, ...] = ()


@dataclass(frozen=True)
class Held:
    """An early press kept (``EarlyPress.QUEUE``): it queues when the window opens."""

    player: Player
    t: int


@dataclass(frozen=True)
class Penalised:
    """An early press under ``EarlyPress.LOCKOUT``; ``until`` is None until the window opens."""

    player: Player
    t: int
    until: int | None


@dataclass(frozen=True)
class Ignored:
    """The press (or action) changed nothing, and why."""

    player: Player
    t: int
    reason: Reason


@dataclass(frozen=True)
class TieShown:
    """The head of the queue is a tie: the asker chooses with ``next_hand(choose=...)``."""

    players: tuple[Player, ...]


@dataclass(frozen=True)
class Rebuzz:
    """The tied players left the queue and must press again."""

    players: tuple[Player, ...]


Decision = Union[Queued, Held, Penalised, Ignored]


class Arbiter:
    """The press queue of one question; see the module docstring for the rules it applies.

    >>> a = Arbiter(["Ann", "Ben"], tie_rule=TieRule.RANDOM, seed=7)
    >>> _ = a.open(0)
    >>> a.press("Ann", 500).position, a.press("Ben", 500).tied_with
    (0, ('Ann',))
    >>> len(a.queue), a.queue[0].t == a.queue[1].t
    (2, True)
    """

    def __init__(
        self,
        players: Iterable[Player],
        *,
        tie_rule: TieRule = TieRule.SHOW_TIE,
        early_press: str | Lockout = EarlyPress.IGNORE,
        seed: int | None = 0,
    ) -> None:
        if not (early_press in (EarlyPress.IGNORE, EarlyPress.QUEUE) or isinstance(early_press, Lockout)):
            raise ValueError(f"early_press must be EarlyPress.IGNORE, QUEUE or LOCKOUT(us), not {early_press!r}")
        self.tie_rule = TieRule(tie_rule)
        self.early_press = early_press
        self._rng = random.Random(seed)
        self.players: tuple[Player, ...] = ()
        self.reset(players)

    # ---- state -----------------------------------------------------------------------------
    def reset(self, players: Iterable[Player] | None = None) -> None:
        """Start the next question (clue not yet read); optionally with another set of answerers."""
        if players is not None:
            self.players = tuple(players)
        self.phase = Phase.READING
        self.opened_at: int | None = None
        self._queue: list[Buzz] = []
        self._done: set[Player] = set()
        self._early: dict[Player, int] = {}
        self._locked_until: dict[Player, int] = {}

    @property
    def queue(self) -> tuple[Buzz, ...]:
        """Hands waiting to answer, in order (equal ``t`` = a tie, under SHOW_TIE/REBUZZ)."""
        return tuple(self._queue)

    def tied(self, player: Player) -> tuple[Player, ...]:
        """The other queued players whose stamp equals ``player``'s."""
        t = next((b.t for b in self._queue if b.player == player), None)
        return tuple(b.player for b in self._queue if b.t == t and b.player != player)

    # ---- the asker's side ------------------------------------------------------------------
    def open(self, t: int) -> list[Decision]:
        """The clue has been read at ``t``: hands count from now. Returns what early presses became."""
        if self.phase is not Phase.READING:
            return [Ignored(None, t, Reason.NOT_OPEN)]
        self.phase, self.opened_at = Phase.OPEN, t
        out: list[Decision] = []
        early, self._early = sorted(self._early.items(), key=lambda kv: kv[1]), {}
        for player, t_press in early:
            if isinstance(self.early_press, Lockout):
                self._locked_until[player] = t + self.early_press.penalty_us
                out.append(Penalised(player, t_press, self._locked_until[player]))
            else:
                out.append(self._enqueue(player, t_press))
        return out

    def next_hand(self, choose: Player | None = None) -> Buzz | TieShown | Rebuzz | Ignored:
        """The first hand leaves the queue to answer (``choose`` picks within a tie at the head)."""
        if not self._queue:
            return Ignored(choose, self.opened_at or 0, Reason.NOBODY_WAITING)
        head = [b for b in self._queue if b.t == self._queue[0].t]
        if self.tie_rule is TieRule.RANDOM:
            head = head[:1]  # already broken when the tie happened
        pick = head[0]
        if len(head) > 1:
            players = tuple(b.player for b in head)
            if self.tie_rule is TieRule.REBUZZ:
                for b in head:
                    self._queue.remove(b)
                return Rebuzz(players)
            if choose is None:
                return TieShown(players)
        if choose is not None:
            if choose not in [b.player for b in head]:
                return Ignored(choose, pick.t, Reason.NOT_TIED)
            pick = next(b for b in head if b.player == choose)
        self._queue.remove(pick)
        return pick

    def done(self, player: Player) -> None:
        """``player`` has answered, or lost the turn to answer: she leaves the queue and stays out."""
        self._queue = [b for b in self._queue if b.player != player]
        self._early.pop(player, None)
        self._done.add(player)

    # ---- the players' side -----------------------------------------------------------------
    def press(self, player: Player, t: int) -> Decision:
        """A press by ``player`` stamped ``t`` (us); returns what it did (never raises)."""
        if player not in self.players:
            return Ignored(player, t, Reason.NOT_A_PLAYER)
        if player in self._done:
            return Ignored(player, t, Reason.ALREADY_ANSWERED)
        if any(b.player == player for b in self._queue):
            return Ignored(player, t, Reason.ALREADY_QUEUED)
        if t < self._locked_until.get(player, t):
            return Ignored(player, t, Reason.LOCKED_OUT)
        if self.phase is Phase.READING or (self.opened_at is not None and t < self.opened_at):
            return self._early_press(player, t)
        return self._enqueue(player, t)

    def _early_press(self, player: Player, t: int) -> Decision:
        if self.early_press == EarlyPress.IGNORE:
            return Ignored(player, t, Reason.EARLY)
        if player in self._early:
            return Ignored(player, t, Reason.ALREADY_QUEUED)
        if self.phase is Phase.READING:
            self._early[player] = t
            if self.early_press == EarlyPress.QUEUE:
                return Held(player, t)
            return Penalised(player, t, None)
        # stamped before the window opened, arrived after it
        if isinstance(self.early_press, Lockout):
            self._locked_until[player] = (self.opened_at or t) + self.early_press.penalty_us
            return Penalised(player, t, self._locked_until[player])
        return self._enqueue(player, t)

    def _enqueue(self, player: Player, t: int) -> Queued:
        stamps = [b.t for b in self._queue]
        lo, hi = bisect.bisect_left(stamps, t), bisect.bisect_right(stamps, t)
        tied = tuple(b.player for b in self._queue[lo:hi])
        at = lo + self._rng.randint(0, hi - lo) if (tied and self.tie_rule is TieRule.RANDOM) else hi
        self._queue.insert(at, Buzz(player, t))
        return Queued(player, t, at, tied)
