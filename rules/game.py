"""What every game shares: its set-up, scored turns, outcomes and the event loop.

A game is built from a :class:`GameSetup`, a :class:`~rules.board.Board` and a
:class:`~rules.lexicon.Lexicon`, then fed events one at a time with :meth:`Game.apply`, which
returns an :class:`Outcome` or raises a :class:`~rules.errors.Rejection` and leaves the game as
it was (each game declares in ``changes`` what an event may change: :mod:`rules.snapshot`).
Games are compared by their state, so ``replay(record(game)) == game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from rules import errors
from rules.board import Board
from rules.chance import ChanceCard
from rules.events import SCHEMAS, Event, Schemas, parse_event
from rules.lexicon import Lexicon
from rules.scoring import WordScore
from rules.snapshot import GROWN, KEPT, Saving, Snapshot
from rules.squares import Square


#: the longest player name (it is shown on buttons and said aloud)
MAX_NAME = 40


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:          # a lone surrogate: bytes that were not UTF-8
        return False
    return True


@dataclass(frozen=True)
class GameSetup:
    """Everything fixed before the first event: which game, who plays, the seed, the options.

    >>> GameSetup("extradiction-sp", ("Ann", "Ben"), variant="classic").rounds_for(2)
    10
    """

    game: str
    players: tuple[str, ...]
    variant: str | None = None
    seed: int = 0
    language: str = "en"
    rounds: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if not self.players:
            raise errors.RecordFormatError("a game needs at least one player")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise errors.RecordFormatError(f"player names must be non-empty text, not {name!r}")
            if len(name) > MAX_NAME or not name.isprintable() or not _encodable(name):
                raise errors.RecordFormatError(
                    f"a player's name must be printable text of at most {MAX_NAME} characters, not {name[:50]!r}")
        if len(set(self.players)) != len(self.players):
            raise errors.RecordFormatError(f"two players have the same name: {list(self.players)}")
        if self.rounds is not None and (not isinstance(self.rounds, int) or self.rounds < 1):
            raise errors.RecordFormatError(f"'rounds' must be a whole number of at least 1, not {self.rounds!r}")

    def option(self, name: str, default: Any = None) -> Any:
        """A set-up option from the record (``pieces``, ``sheet``, ``excluded``...), or ``default``.

        >>> GameSetup("letter-dice", ("Ann",), options={"pieces": "virtual"}).option("pieces", "physical")
        'virtual'
        """
        return self.options.get(name, default)

    def rounds_for(self, n_players: int) -> int:
        """SP Classic's rounds: the agreed number, else 5 for 4+ players, 7 for 3, 10 for 2 (or 1)."""
        if self.rounds is not None:
            return self.rounds
        return {1: 10, 2: 10, 3: 7}.get(n_players, 5)


@dataclass
class Turn:
    """One scoring event: a write and what it earned (words, chance cards)."""

    #: a recorded turn changes only when a challenge (or the host) removes it
    changes: ClassVar[dict[str, Saving]] = {"removed": KEPT}

    player: str
    event_index: int
    text: str
    words: tuple[WordScore, ...]
    chance: tuple[ChanceCard, ...] = ()
    chance_delta: int = 0
    kind: str = ""
    late: bool = False
    removed: bool = False
    new_squares: tuple[Square, ...] = ()

    @property
    def score(self) -> int:
        """Points this turn adds to the player's total (0 once the answer is removed)."""
        if self.removed:
            return 0
        return sum(w.score for w in self.words) + self.chance_delta

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "score": self.score,
            "words": [w.to_json() for w in self.words],
        }
        if self.chance:
            data["chance"] = [c.to_json() for c in self.chance]
            data["chance_stars"] = self.chance_delta
        if self.removed:
            data["removed"] = True
        return data

    def explain(self) -> str:
        """One line for people: ``'Ann: MARKET 7 x 3 zones = 21 -> 21'``."""
        parts = "; ".join(w.explain() for w in self.words)
        if self.chance:
            parts += "; chance: " + ", ".join(c.name for c in self.chance) + f" ({self.chance_delta:+d})"
        tail = " (removed after a challenge: 0)" if self.removed else f" -> {self.score}"
        return f"{self.player}: {parts}{tail}"


@dataclass(frozen=True)
class Outcome:
    """What an accepted event did: a sentence to announce, and the turn it scored if any."""

    message: str
    turn: Turn | None = None
    ignored: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message}
        if self.turn is not None:
            data["turn"] = self.turn.to_json()
        if self.ignored:
            data["ignored"] = True
        return data


@dataclass(frozen=True)
class Deadline:
    """A time limit running now: for people (``name``), until table time ``ends``.

    ``expiry`` is the event the table's clock submits once ``ends`` has passed (without ``t``:
    the table stamps it), or ``None`` when running out changes nothing by itself.

    >>> Deadline("Ben answers", 35.0, 5.0, "Ben", {"type": "answer", "player": "Ben", "correct": False}).due(36.0)
    True
    """

    name: str
    ends: float
    seconds: float
    player: str | None = None
    expiry: Mapping[str, Any] | None = None

    def due(self, now: float) -> bool:
        """Has it run out at ``now``, with an event to submit?"""
        return self.expiry is not None and now > self.ends

    def to_json(self) -> dict[str, Any]:
        """The countdown as the pages show it: name, end, length, player."""
        return {"name": self.name, "ends": self.ends, "seconds": self.seconds, "player": self.player}


@dataclass(frozen=True)
class Action:
    """Something a person at the table can do now, as the event it stands for.

    ``key`` is stable (buttons, the console and the pages find an action by it, never by its
    label): ``'pass'``, ``'answer-right'``, ``'end'``... ``event`` is the whole event, ready to
    submit; ``label`` says it for people.

    >>> Action("pass", "Ann passes", {"type": "pass", "player": "Ann"}).to_json()["key"]
    'pass'
    """

    key: str
    label: str
    event: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "event": dict(self.event)}


@dataclass(frozen=True)
class OptionField:
    """A set-up option a game reads from its record: its name and, for a choice, its values
    (empty: the game checks the value itself, with its own sentence)."""

    name: str
    choices: tuple[Any, ...] = ()


#: every game may be played with the physical pieces (what ``play --pieces physical`` sets)
PHYSICAL_PIECES = OptionField("pieces", ("physical",))
#: a game the table can also deal for: its own cards, tiles or dice from the seed
ANY_PIECES = OptionField("pieces", ("physical", "virtual"))


def check_options(title: str, options: Mapping[str, Any], fields: tuple[OptionField, ...]) -> None:
    """A :class:`~rules.errors.RecordFormatError` for an option ``title`` does not declare in
    ``fields``, or a choice outside its values; each names what is valid.

    >>> check_options("Questique", {"pieces": "holographic"}, (ANY_PIECES,))
    Traceback (most recent call last):
    ...
    rules.errors.RecordFormatError: 'pieces' must be one of physical, virtual, not 'holographic'
    >>> check_options("eXtraDICTION", {"sheet": []}, (PHYSICAL_PIECES,))
    Traceback (most recent call last):
    ...
    rules.errors.RecordFormatError: eXtraDICTION has no set-up option 'sheet'; its options are: pieces
    """
    declared = {f.name: f for f in fields}
    for name, value in options.items():
        field_ = declared.get(name)
        if field_ is None:
            known = ", ".join(sorted(declared)) or "none"
            raise errors.RecordFormatError(f"{title} has no set-up option {str(name)[:40]!r}; its options are: {known}")
        if field_.choices and not any(value == c and type(value) is type(c) for c in field_.choices):
            raise errors.RecordFormatError(
                f"{name!r} must be {'one of ' if len(field_.choices) > 1 else ''}"
                f"{', '.join(str(c) for c in field_.choices)}, not {str(value)[:40]!r}")


class Game:
    """Base of every game: the event loop, totals and the record of applied events."""

    game_id = "game"
    #: the game's name for people ("eXtraDICTION SP")
    title = "game"
    variants: tuple[str, ...] = ()
    #: events still accepted once the game is over (a last challenge, the clock)
    after_end: tuple[str, ...] = ("time",)
    #: the event types this game knows (docs/events.md)
    schemas: Schemas = SCHEMAS
    #: how many players the rules allow
    min_players = 1
    max_players = 8
    #: False for a game played without a board (letter dice): ``board`` may then be ``None``
    needs_board = True
    #: the board layers the game reads (a board file must have them)
    board_layers: tuple[str, ...] = ("values", "zones")
    #: the set-up options the game reads from its record (any other is refused: :func:`check_options`)
    option_fields: tuple[OptionField, ...] = (PHYSICAL_PIECES,)
    #: every attribute an event may change, and how it is saved (:mod:`rules.snapshot`); a game
    #: adds its own: ``changes = Game.changes | {"chips": COPIED, ...}``
    changes: ClassVar[dict[str, Saving]] = {"events": GROWN, "turns": GROWN, "ended": KEPT, "last_time": KEPT}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Lexicon):
        check_options(self.title, setup.options, self.option_fields)
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            allowed = (f"{self.min_players}" if self.min_players == self.max_players
                       else f"{self.min_players} to {self.max_players}")
            raise errors.RecordFormatError(f"{self.title} is played by {allowed} players, not {n}.")
        self.setup = setup
        self.board = board
        self.lexicon = lexicon
        self.events: list[Event] = []
        self.turns: list[Turn] = []
        self.ended = False
        self.last_time: float | None = None

    # -- the event loop -------------------------------------------------------------------------
    def apply(self, raw: Mapping[str, Any] | Event) -> Outcome:
        """Apply one event. On a :class:`~rules.errors.Rejection` the game is left unchanged."""
        event = self._parse(raw)
        saved = Snapshot(self)
        try:
            return self._run(event)
        except errors.Rejection:
            saved.restore()
            raise

    def trial(self, raw: Mapping[str, Any] | Event) -> Outcome:
        """What :meth:`apply` would answer for ``raw``, leaving the game exactly as it was (a
        synthetic player trying moves). Raises the same :class:`~rules.errors.Rejection`.

        The game's declared ``changes`` (:mod:`rules.snapshot`) are saved before and put back
        after, whatever the event did.
        """
        event = self._parse(raw)
        saved = Snapshot(self)
        try:
            return self._run(event)
        finally:
            saved.restore()

    def _parse(self, raw: Mapping[str, Any] | Event) -> Event:
        event = raw if isinstance(raw, Event) else parse_event(raw, self.schemas)
        if event.player is not None and event.player not in self.setup.players and not self._is_host(event):
            raise errors.UnknownPlayer(
                f"{event.player!r} is not playing; the players are {', '.join(self.setup.players)}.")
        return event

    def _run(self, event: Event) -> Outcome:
        """Handle ``event`` and record it (the caller saved the game and restores it on a refusal)."""
        if event.type == "end":
            outcome = self._end(event)
        else:
            if self.ended and event.type not in self.after_end:
                raise errors.GameOver(f"The game is over; {self._over_reason()}.")
            outcome = self._handle(event)
        self.events.append(event)
        if event.t is not None:
            self.last_time = event.t if self.last_time is None else max(self.last_time, event.t)
        return outcome

    def _is_host(self, event: Event) -> bool:
        return event.type in ("remove", "end", "time") and event.player in (None, "host")

    def _handle(self, event: Event) -> Outcome:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    def _end(self, event: Event) -> Outcome:
        self.ended = True
        return Outcome(f"The game ends. {self.standings()}")

    def _over_reason(self) -> str:
        return "it was ended"

    # -- what the table asks ----------------------------------------------------------------------
    def whose_turn(self) -> str | None:
        """The player the table waits for now (``None``: nobody in particular, or the game is over)."""
        return None

    def deadlines(self) -> tuple[Deadline, ...]:
        """The time limits running now (the table shows them and submits their expiry events)."""
        return ()

    def due(self, now: float) -> list[dict[str, Any]]:
        """The events the clock produces at table time ``now``: the first expired deadline's.

        One at a time, since each changes what is due next.
        """
        for deadline in self.deadlines():
            if deadline.due(now):
                return [dict(deadline.expiry or {})]
        return []

    def actions(self) -> tuple[Action, ...]:
        """What people at the table can do now, as ready events (the host console's buttons)."""
        return () if self.over else (Action("end", "End the game", {"type": "end"}),)

    # -- results --------------------------------------------------------------------------------
    @property
    def totals(self) -> dict[str, int]:
        """Each player's total: the sum of the scores of the player's turns."""
        totals = {p: 0 for p in self.setup.players}
        for turn in self.turns:
            totals[turn.player] += turn.score
        return totals

    @property
    def over(self) -> bool:
        return self.ended

    @property
    def winner(self) -> str | None:
        """The player with the highest total, or ``None`` on a tie."""
        totals = self.totals
        best = max(totals.values())
        leaders = [p for p, v in totals.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def standings(self) -> str:
        ranked = sorted(self.totals.items(), key=lambda kv: -kv[1])
        text = ", ".join(f"{p} {v}" for p, v in ranked)
        winner = self.winner
        return f"Scores: {text}." + (f" {winner} wins." if self.over and winner else "")

    def report(self) -> list[str]:
        """The replay for people, one line a scoring turn (games without turns say their own)."""
        return [f"{n:3d}. {turn.explain()}" for n, turn in enumerate(self.turns, start=1)]

    def result_json(self) -> dict[str, Any]:
        """The ``replay --json`` object of DESIGN.md: ``turns``, ``totals``, ``winner``."""
        return {
            "turns": [t.to_json() for t in self.turns],
            "totals": self.totals,
            "winner": self.winner,
        }

    # -- equality by state ----------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Everything that defines where the game stands (used for equality and the scoreboard)."""
        return {
            "game": self.game_id,
            "variant": self.setup.variant,
            "players": list(self.setup.players),
            "totals": self.totals,
            "turns": [t.to_json() for t in self.turns],
            "over": self.over,
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(self) is type(other) and self.state() == other.state() \
            and self.setup == other.setup

    __hash__ = None  # type: ignore[assignment]
