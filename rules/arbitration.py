"""Buzz-in arbitration: timestamped presses in, an ordered queue of hands and decisions out.

Pure: no I/O, no clock (every call carries its time, in integer microseconds of the device
clock that stamped the presses), no global randomness (the ``random`` tie rule draws from a
``random.Random(seed)``). Both the Raspberry Pi buttons (``hardware``) and the USB buzzer box
(``firmware_bridge``) feed the same :class:`Arbiter`.

A turn of eXtraDICTION SP Classic, as the arbiter sees it:

1. :meth:`Arbiter.open` — the asker has finished reading the clue: the shared 30 s window opens.
2. :meth:`Arbiter.press` — a player raises a hand (presses her button). Presses join the queue
   in timestamp order, whatever order they arrive in; each player is in it at most once.
3. :meth:`Arbiter.recognise_next` — the asker tells the first hand to answer; that player has
   5 s, and nobody else can be recognised meanwhile (the lockout). Other hands still queue up.
4. :meth:`Arbiter.answer_result` — right ends the turn; wrong (or :meth:`Arbiter.tick` finding
   the 5 s gone) lets the next hand answer. Each player answers at most once a turn.
5. :meth:`Arbiter.reset` — the next turn (and, if it changes, the next set of answerers: the
   asker never buzzes, so leave her out of ``players``).

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
  :meth:`recognise_next` returns :class:`TieShown` and the asker chooses
  (``recognise_next(t, choose=player)``).
- ``TieRule.REBUZZ``: when a tie reaches the head, the tied players leave the queue
  (:class:`Rebuzz`) and must press again; their turn to answer is not used up.
- ``TieRule.RANDOM``: the tie is broken at once by the seeded generator (every order equally
  likely); the queue never holds a tie.

**Chatter**: a press is a player's first edge; a player already queued, answering or done is
ignored, so contact bounce can never make a second press. :class:`EdgeDebouncer` turns raw
edges into presses stamped at the first edge (debouncing never delays the stamp).

>>> a = Arbiter(["Ben", "Cat"])
>>> a.open(1_000_000)
[]
>>> a.press("Cat", 1_400_000).position, a.press("Ben", 1_400_050).position
(0, 1)
>>> a.recognise_next(2_000_000)
Recognised(player='Cat', t=2000000, deadline=7000000)
>>> a.answer_result(False, 3_000_000)
Answered(player='Cat', right=False, t=3000000, turn_over=False, next_player='Ben', timed_out=False)
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from enum import Enum
from typing import Hashable, Iterable, Union

Player = Hashable

WINDOW_US = 30_000_000  # shared by all answerers once the clue is read
ANSWER_US = 5_000_000  # for the recognised player


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
    READING = "reading"  # the clue is being read: the window is not open
    OPEN = "open"  # hands may go up; nobody is answering
    ANSWERING = "answering"  # someone was recognised: nobody else can be
    OVER = "over"  # right answer, time up, or nobody left


class Reason(Enum):
    """Why a press (or a host action) was ignored."""

    NOT_A_PLAYER = "not a player this turn (the asker never buzzes)"
    EARLY = "pressed before the clue was finished"
    LOCKED_OUT = "locked out for pressing early"
    ALREADY_QUEUED = "already in the queue (a repeat or contact chatter)"
    ALREADY_ANSWERED = "has answered (or lost the turn to answer) this turn"
    ANSWERING = "someone is answering"
    TOO_LATE = "the 30 s to answer are over"
    TURN_OVER = "the turn is over"
    NOT_OPEN = "the window is not open"
    NOBODY_WAITING = "no hand is up"
    NOBODY_ANSWERING = "nobody is answering"
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
    tied_with: tuple = ()


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
class Recognised:
    """``player`` answers now, until ``deadline``."""

    player: Player
    t: int
    deadline: int


@dataclass(frozen=True)
class TieShown:
    """The head of the queue is a tie: the asker chooses with ``recognise_next(t, choose=...)``."""

    players: tuple
    t: int


@dataclass(frozen=True)
class Rebuzz:
    """The tied players left the queue and must press again."""

    players: tuple
    t: int


@dataclass(frozen=True)
class Answered:
    """An answer was judged (or timed out); ``next_player`` is the next hand, if any."""

    player: Player
    right: bool
    t: int
    turn_over: bool
    next_player: Player | None = None
    timed_out: bool = False


@dataclass(frozen=True)
class TurnOver:
    """The window closed with nobody right: the asker writes the answer."""

    t: int
    reason: str


Decision = Union[Queued, Held, Penalised, Ignored, Recognised, TieShown, Rebuzz, Answered, TurnOver]


class Arbiter:
    """The buzz-in referee of one table; see the module docstring for the rules it applies.

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
        window_us: int = WINDOW_US,
        answer_us: int = ANSWER_US,
        queue_while_answering: bool = True,
    ) -> None:
        if not (early_press in (EarlyPress.IGNORE, EarlyPress.QUEUE) or isinstance(early_press, Lockout)):
            raise ValueError(f"early_press must be EarlyPress.IGNORE, QUEUE or LOCKOUT(us), not {early_press!r}")
        self.tie_rule = TieRule(tie_rule)
        self.early_press = early_press
        self.window_us = window_us
        self.answer_us = answer_us
        self.queue_while_answering = queue_while_answering
        self._rng = random.Random(seed)
        self.reset(players)

    # ---- state -----------------------------------------------------------------------------
    def reset(self, players: Iterable[Player] | None = None) -> None:
        """Start the next turn (clue not yet read); optionally with another set of answerers."""
        if players is not None:
            self.players = tuple(players)
        self.phase = Phase.READING
        self.opened_at: int | None = None
        self.answering: Buzz | None = None
        self.answer_deadline: int | None = None
        self._queue: list[Buzz] = []
        self._answered: set[Player] = set()
        self._early: dict[Player, int] = {}
        self._locked_until: dict[Player, int] = {}

    @property
    def queue(self) -> tuple[Buzz, ...]:
        """Hands waiting to answer, in order (equal ``t`` = a tie, under SHOW_TIE/REBUZZ)."""
        return tuple(self._queue)

    @property
    def window_deadline(self) -> int | None:
        return None if self.opened_at is None else self.opened_at + self.window_us

    def tied(self, player: Player) -> tuple:
        """The other queued players whose stamp equals ``player``'s."""
        t = next((b.t for b in self._queue if b.player == player), None)
        return tuple(b.player for b in self._queue if b.t == t and b.player != player)

    # ---- the asker's side ------------------------------------------------------------------
    def open(self, t: int) -> list[Decision]:
        """The clue has been read at ``t``: the window opens. Returns what early presses became."""
        if self.phase is not Phase.READING:
            return [Ignored(None, t, Reason.NOT_OPEN)]
        self.phase, self.opened_at = Phase.OPEN, t
        out: list[Decision] = []
        early, self._early = sorted(self._early.items(), key=lambda kv: kv[1]), {}
        for player, t_press in early:
            if self.early_press == EarlyPress.QUEUE:
                out.append(self._enqueue(player, t_press))
            else:
                self._locked_until[player] = t + self.early_press.penalty_us
                out.append(Penalised(player, t_press, self._locked_until[player]))
        return out

    def recognise_next(self, t: int, choose: Player | None = None) -> Decision:
        """The asker lets the first hand answer (``choose`` picks within a tie at the head)."""
        over = self._check_window(t)
        if over:
            return over
        if self.phase is not Phase.OPEN:
            return Ignored(None, t, Reason.ANSWERING if self.phase is Phase.ANSWERING else Reason.NOT_OPEN)
        if not self._queue:
            return Ignored(None, t, Reason.NOBODY_WAITING)
        head = [b for b in self._queue if b.t == self._queue[0].t]
        if self.tie_rule is TieRule.RANDOM:
            head = head[:1]  # already broken when the tie happened
        pick = head[0]
        if len(head) > 1:
            players = tuple(b.player for b in head)
            if self.tie_rule is TieRule.REBUZZ:
                for b in head:
                    self._queue.remove(b)
                return Rebuzz(players, t)
            if choose is None:
                return TieShown(players, t)
        if choose is not None:
            if choose not in [b.player for b in head]:
                return Ignored(choose, t, Reason.NOT_TIED)
            pick = next(b for b in head if b.player == choose)
        self._queue.remove(pick)
        self.phase, self.answering = Phase.ANSWERING, pick
        self.answer_deadline = t + self.answer_us
        return Recognised(pick.player, t, self.answer_deadline)

    def answer_result(self, right: bool, t: int, *, timed_out: bool = False) -> Decision:
        """The asker judged the answer: right ends the turn, wrong hands over to the next hand."""
        if self.phase is not Phase.ANSWERING or self.answering is None:
            return Ignored(None, t, Reason.NOBODY_ANSWERING)
        player = self.answering.player
        self._answered.add(player)
        self.answering, self.answer_deadline = None, None
        if right:
            self.phase = Phase.OVER
            return Answered(player, True, t, True, None, timed_out)
        self.phase = Phase.OPEN
        expired = self.window_deadline is not None and t >= self.window_deadline
        if expired or len(self._answered) >= len(self.players):
            self.phase = Phase.OVER
            return Answered(player, False, t, True, None, timed_out)
        nxt = self._queue[0].player if self._queue else None
        return Answered(player, False, t, False, nxt, timed_out)

    def forfeit(self, player: Player, t: int) -> Decision:
        """``player`` answered out of turn: the rulebook says she loses her turn to answer."""
        self._queue = [b for b in self._queue if b.player != player]
        self._early.pop(player, None)
        self._answered.add(player)
        return Ignored(player, t, Reason.ALREADY_ANSWERED)

    def tick(self, t: int) -> list[Decision]:
        """Let time pass to ``t``: the 5 s answer or the 30 s window may run out."""
        out: list[Decision] = []
        if self.phase is Phase.ANSWERING and self.answer_deadline is not None and t >= self.answer_deadline:
            out.append(self.answer_result(False, t, timed_out=True))
        over = self._check_window(t)
        if over:
            out.append(over)
        return out

    # ---- the players' side -----------------------------------------------------------------
    def press(self, player: Player, t: int) -> Decision:
        """A press by ``player`` stamped ``t`` (us); returns what it did (never raises)."""
        if player not in self.players:
            return Ignored(player, t, Reason.NOT_A_PLAYER)
        if self.phase is Phase.OVER:
            return Ignored(player, t, Reason.TURN_OVER)
        if player in self._answered:
            return Ignored(player, t, Reason.ALREADY_ANSWERED)
        if any(b.player == player for b in self._queue) or (self.answering and self.answering.player == player):
            return Ignored(player, t, Reason.ALREADY_QUEUED)
        if t < self._locked_until.get(player, t):
            return Ignored(player, t, Reason.LOCKED_OUT)
        if self.phase is Phase.READING or (self.opened_at is not None and t < self.opened_at):
            return self._early_press(player, t)
        if self.window_deadline is not None and t >= self.window_deadline:
            return Ignored(player, t, Reason.TOO_LATE)
        if self.phase is Phase.ANSWERING and not self.queue_while_answering:
            return Ignored(player, t, Reason.ANSWERING)
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
        if self.early_press == EarlyPress.QUEUE:
            return self._enqueue(player, t)
        self._locked_until[player] = self.opened_at + self.early_press.penalty_us
        return Penalised(player, t, self._locked_until[player])

    def _enqueue(self, player: Player, t: int) -> Queued:
        stamps = [b.t for b in self._queue]
        lo, hi = bisect.bisect_left(stamps, t), bisect.bisect_right(stamps, t)
        tied = tuple(b.player for b in self._queue[lo:hi])
        at = lo + self._rng.randint(0, hi - lo) if (tied and self.tie_rule is TieRule.RANDOM) else hi
        self._queue.insert(at, Buzz(player, t))
        return Queued(player, t, at, tied)

    def _check_window(self, t: int) -> TurnOver | None:
        if self.phase is Phase.OPEN and self.window_deadline is not None and t >= self.window_deadline:
            self.phase = Phase.OVER
            self._queue.clear()
            return TurnOver(t, "time")
        return None


class EdgeDebouncer:
    """Raw button edges in, presses out: a press is the first falling edge, stamped at that edge.

    After a press the button is disarmed until it has been released continuously for
    ``rearm_us``; every edge before that is chatter (or a button held down) and makes nothing.
    So the stamp is never delayed by debouncing, and a bouncy switch never presses twice.

    >>> d = EdgeDebouncer(rearm_us=20_000)
    >>> [d.edge("Ann", down, t) for down, t in [(True, 100), (False, 130), (True, 160), (False, 5_000)]]
    [100, None, None, None]
    >>> d.edge("Ann", True, 30_000)
    30000
    """

    def __init__(self, rearm_us: int = 20_000) -> None:
        self.rearm_us = rearm_us
        self._disarmed: dict[Player, int | None] = {}  # player -> release time (None: held down)

    def edge(self, player: Player, down: bool, t: int) -> int | None:
        """Feed one edge (``down`` = pressed); returns the press stamp if this edge is a press."""
        if player not in self._disarmed:
            if not down:
                return None
            self._disarmed[player] = None
            return t
        released = self._disarmed[player]
        if down:
            if released is not None and t - released >= self.rearm_us:
                self._disarmed[player] = None
                return t
            self._disarmed[player] = None  # bounced back down: still held
            return None
        self._disarmed[player] = t
        return None

    def held(self, player: Player) -> bool:
        """True while the player's last edge was a press (or chatter after it)."""
        return player in self._disarmed and self._disarmed[player] is None
