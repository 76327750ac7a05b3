"""Game records (DESIGN.md) and replay: a game is always rebuildable from its record.

>>> rec = Record.from_json({"game": "extradiction-sp", "variant": "speed", "board": "extradiction-sp",
...                         "players": ["Ann", "Ben"], "seed": 7, "events": []})
>>> rec.setup().players, rec.to_json()["language"]
(('Ann', 'Ben'), 'en')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rules import errors
from rules.board import Board
from rules.events import MAX_TEXT
from rules.game import Game, GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon

#: the largest seed or count a record may hold
MAX_SEED = 2**63
#: the most players a record may name
MAX_PLAYERS = 16


def _plain_text(value: str) -> bool:
    """Short, encodable text (no lone surrogates from a broken decoder)."""
    if len(value) > MAX_TEXT:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else f"a {len(str(value))}-digit number"
    return text if len(text) <= 60 else text[:57] + "..."


_KNOWN = ("game", "variant", "board", "language", "players", "seed", "lexicon", "rounds", "events")
#: record fields for the dictionary, not the game (house rules: tabletop/records.py amends the lexicon)
HOUSE_RULES = ("add_words", "remove_words")


class ReplayError(errors.RulesError):
    """A record holding an illegal or malformed event: names its 1-based position and the reason."""

    def __init__(self, position: int, event: Mapping[str, Any], reason: Exception):
        player = event.get("player") if isinstance(event, Mapping) else None
        who = f" by {player}" if isinstance(player, str) and len(player) <= 40 else ""
        kind = event.get("type") if isinstance(event, Mapping) else None
        label = f" ({kind}{who})" if isinstance(kind, str) and len(kind) <= 40 else ""
        super().__init__(f"event {position}{label}: {reason}")
        self.position, self.event, self.reason = position, event, reason


@dataclass
class Record:
    """A whole game as data: the set-up and every event in order."""

    game: str
    players: tuple[str, ...]
    board: str
    variant: str | None = None
    language: str = "en"
    seed: int = 0
    lexicon: str | None = None
    rounds: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Record":
        """Validate a parsed JSON record; raise :class:`~rules.errors.RecordFormatError` naming the field."""
        if not isinstance(data, Mapping):
            raise errors.RecordFormatError("a record must be a JSON object")

        def need(key: str, kinds: type | tuple[type, ...], default: Any = None, required: bool = False) -> Any:
            if key not in data or data[key] is None:
                if required:
                    raise errors.RecordFormatError(f"the record has no {key!r}")
                return default
            value = data[key]
            if not isinstance(value, kinds) or isinstance(value, bool):   # JSON true is not a number
                raise errors.RecordFormatError(f"{key!r} has the wrong type: {_short(value)}")
            if isinstance(value, str) and not _plain_text(value):
                raise errors.RecordFormatError(f"{key!r} must be text of at most {MAX_TEXT} characters")
            if isinstance(value, int) and abs(value) > MAX_SEED:
                raise errors.RecordFormatError(f"{key!r} is too large: {_short(value)}")
            return value

        game = need("game", str, required=True)
        players = need("players", list, required=True)
        if not players or not all(isinstance(p, str) and p.strip() and _plain_text(p) for p in players):
            raise errors.RecordFormatError(f"'players' must be a non-empty list of names, not {_short(players)}")
        if len(players) > MAX_PLAYERS:
            raise errors.RecordFormatError(f"'players' names {len(players)} players; a table seats at most {MAX_PLAYERS}")
        events = need("events", list, default=[])
        return cls(
            game=game,
            players=tuple(players),
            board=need("board", str, default=game),
            variant=need("variant", str),
            language=need("language", str, default="en"),
            seed=need("seed", int, default=0),
            lexicon=need("lexicon", str),
            rounds=need("rounds", int),
            events=list(events),
            extra={k: v for k, v in data.items() if k not in _KNOWN},
        )

    def setup(self) -> GameSetup:
        """The game's set-up; the record's other fields (``pieces``, ``sheet``...) are its options
        (but the dictionary's house rules, :data:`HOUSE_RULES`)."""
        return GameSetup(self.game, self.players, variant=self.variant, seed=self.seed,
                         language=self.language, rounds=self.rounds,
                         options={k: v for k, v in self.extra.items() if k not in HOUSE_RULES})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game}
        if self.variant is not None:
            data["variant"] = self.variant
        if self.board:
            data["board"] = self.board
        data.update(language=self.language, players=list(self.players), seed=self.seed)
        if self.lexicon is not None:
            data["lexicon"] = self.lexicon
        if self.rounds is not None:
            data["rounds"] = self.rounds
        data.update(self.extra)
        data["events"] = [dict(e) for e in self.events]
        return data


def replay(record: Record, board: Board | None, lexicon: Lexicon) -> Game:
    """Rebuild the game a record describes; raise :class:`ReplayError` at the first bad event."""
    game = new_game(record.setup(), board, lexicon)
    for position, raw in enumerate(record.events, start=1):
        try:
            game.apply(raw)
        except (errors.Rejection, errors.EventFormatError) as error:
            raise ReplayError(position, raw, error) from error
    return game


def record_of(game: Game, board: str, lexicon: str | None = None) -> Record:
    """The record of a game in progress (``board``/``lexicon`` say where to find them)."""
    s = game.setup
    return Record(game=s.game, players=s.players, board=board, variant=s.variant, language=s.language,
                  seed=s.seed, lexicon=lexicon, rounds=s.rounds, events=[e.to_json() for e in game.events],
                  extra=dict(s.options))
