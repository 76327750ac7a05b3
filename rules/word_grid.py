"""The word grid (``word-grid``): a Boggle-style tray of 16, 25 or 36 letter dice, in English and
Ukrainian. No rule text ships with it: every choice is in docs/games/word-grid.md.

A round: the tray is shaken and read (``tray``), the sand runs (the round's ``minutes``, 3 by
default: the clock ends the round), every player writes the words she finds (``word``, any
number, sealed until the reveal), the sand runs out (``end_round``) and the round is scored:

* a word must chain through dice that touch (also diagonally), each die once
  (:meth:`rules.word_grid_tray.Tray.chain`), have at least 3 letters (4 on a 5x5 or 6x6 tray)
  and be in the dictionary; otherwise it is kept and scores 0 with the reason;
* a word written by two or more players this round scores 0 for all of them; a player's own
  second copy of a word scores 0 (it counts once);
* the others score by their letters: 3-4: 1, 5: 2, 6: 3, 7: 5, 8 or more: 11 (``QU`` is two).

Rounds go on until the host ends the game (``end``), or for the record's ``rounds``. The most
points win; a tie is nobody's (``winner: null``).

>>> from rules.lexicon import Lexicon
>>> g = WordGridGame(GameSetup("word-grid", ("Ann", "Ben")), None, Lexicon(["taps", "soap", "pat"]))
>>> _ = g.apply({"type": "tray", "grid": ["TAPE", "SORL", "NIXU", "EDCH"]})
>>> g.apply({"type": "word", "player": "Ann", "word": "soap"}).message
"Ann's word is in (1 this round)."
>>> _ = g.apply({"type": "word", "player": "Ben", "word": "SOAP"})
>>> _ = g.apply({"type": "word", "player": "Ben", "word": "pat"})
>>> [(w.player, w.word, w.score, w.reason) for w in g.apply({"type": "end_round"}).details]
[('Ann', 'SOAP', 0, 'also written by Ben'), ('Ben', 'SOAP', 0, 'also written by Ann'), ('Ben', 'PAT', 1, '')]
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from rules import errors
from rules.board import Board
from rules.events import NUM, ROWS, TEXT, Event, Schemas
from rules.game import ANY_PIECES, Action, Deadline, Game, GameSetup, OptionField, Outcome, Turn
from rules.games import register_game
from rules.lexicon import Lexicon, letters_of, spelling
from rules.scoring import WordScore
from rules.sand_rounds import NoRound, rounds_json, sand_deadline
from rules.snapshot import COPIED, GROWN, KEPT, OWN, Saving
from rules.word_grid_dice import ALPHABETS, dice_for
from rules.word_grid_tray import SEARCH_STEPS, TooHardToCheck, Tray

SCHEMAS: Schemas = {
    "tray": ({}, {"grid": ROWS, "confidence": NUM}),   # confidence: the camera's, when it read the tray
    "word": ({"player": TEXT, "word": TEXT}, {}),
    "end_round": ({}, {"player": TEXT}),
    "time": ({}, {}),
    "end": ({}, {"player": TEXT}),
}


def points(letters: int) -> int:
    """A unique good word's points by its letters: 3-4: 1, 5: 2, 6: 3, 7: 5, 8 or more: 11.

    >>> [points(n) for n in range(3, 10)]
    [1, 1, 2, 3, 5, 11, 11]
    """
    return 11 if letters >= 8 else {5: 2, 6: 3, 7: 5}.get(letters, 1)


def min_letters(size: int) -> int:
    """The fewest letters a word may have on a ``size`` x ``size`` tray.

    >>> min_letters(4), min_letters(5), min_letters(6)
    (3, 4, 4)
    """
    return 3 if size == 4 else 4


class Phase(enum.StrEnum):
    """Where the game stands."""

    SHAKE = "shake"          # the tray is to be shaken
    FINDING = "finding"      # the sand runs: everyone writes, sealed
    OVER = "over"


@dataclass(frozen=True)
class ScoredWord:
    """One word of one round, scored: ``reason`` says why a score is 0."""

    player: str
    word: str
    score: int
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"word": self.word, "score": self.score}
        if self.score == 0:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """The outcome of an ``end_round``: every word scored, in the order written."""

    details: tuple[ScoredWord, ...] = ()


@dataclass
class RoundState:
    """The round under way (or the last one): its tray and the words written, in order."""

    #: words come in while the sand runs (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {"entries": COPIED}

    number: int
    tray: Tray
    started: float | None = None
    entries: list[tuple[str, str]] = field(default_factory=list)    # (player, word as spelled)


@register_game
class WordGridGame(Game):
    """The word grid; see the module docstring."""

    game_id = "word-grid"
    title = "Word grid"
    schemas = SCHEMAS
    min_players, max_players = 1, 8
    needs_board = False
    after_end = ("time",)
    changes = Game.changes | {"round": OWN, "finding": KEPT, "scored": GROWN, "trays": GROWN}
    #: the sand timer's minutes and the size of a tray the table shakes (docs/games/word-grid.md)
    option_fields = (OptionField("minutes"), OptionField("size", (4, 5, 6)), ANY_PIECES)

    def __init__(self, setup: GameSetup, board: Board | None, lexicon: Lexicon):
        super().__init__(setup, board, lexicon)  # type: ignore[arg-type]
        if setup.language not in ALPHABETS:
            raise errors.RecordFormatError(f"the word grid is played in {', '.join(ALPHABETS)}, not {setup.language!r}")
        minutes = setup.option("minutes", 3)
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0.1 <= minutes <= 60:
            raise errors.RecordFormatError(f"'minutes' must be a number of minutes from 0.1 to 60, not {minutes!r}")
        self.sand_seconds = float(minutes) * 60
        self.shake_size: int = setup.option("size", 4)
        self.round: RoundState | None = None
        self.finding = False
        self.scored: list[list[ScoredWord]] = []       # per finished round
        self.trays: list[Tray] = []                    # per round begun

    # -- events ---------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        handler: Callable[[Event], Outcome] | None = {
            "tray": self._tray, "word": self._word, "end_round": self._end_round, "time": lambda e: Outcome(""),
        }.get(event.type)
        if handler is None:
            raise errors.WrongPhase(f"A {event.type!r} event has no place in the word grid.")
        return handler(event)

    def _tray(self, event: Event) -> Outcome:
        if self.finding:
            raise errors.WrongPhase("The tray is already shaken: the sand is still running.")
        number = len(self.scored) + 1
        if self.setup.rounds is not None and number > self.setup.rounds:
            raise errors.GameOver(f"All {self.setup.rounds} rounds have been played.")
        grid = event.get("grid")
        tray = self._shake(number) if grid is None else Tray.parse(grid, self.setup.language)
        self.round = RoundState(number, tray, event.t)
        self.trays.append(tray)
        self.finding = True
        return Outcome(f"Round {number}: the {tray.size}x{tray.size} tray is ready. Turn the sand timer!")

    def _shake(self, number: int) -> Tray:
        """The table's own dice, rolled from the seed and placed at random ("shake for us")."""
        rng = random.Random(f"{self.setup.seed}:word-grid:{number}")
        dice = list(dice_for(self.setup.language, self.shake_size ** 2))
        rng.shuffle(dice)
        return Tray(self.shake_size, tuple(rng.choice(die) for die in dice))

    def _word(self, event: Event) -> Outcome:
        # a word is sealed until the reveal: a refusal that shows it is told to its writer alone
        player, raw = event.by, event["word"]
        shown = letters_of(raw) or repr(raw[:20])
        if not self.finding or self.round is None:
            raise NoRound(f"{player} wrote {shown}, but no round is under way: words wait for the next tray.",
                          private_to=player)
        if not letters_of(raw):
            raise errors.BadText(f"{player}'s entry {shown} has no letters: a word is written in letters.",
                                 private_to=player)
        word = spelling(raw)
        again = (player, word) in self.round.entries
        self.round.entries.append((player, word))
        count = sum(1 for p, _ in self.round.entries if p == player)
        if again:
            return Outcome(f"{player} has written {word} already this round: it counts once.")
        return Outcome(f"{player}'s word is in ({count} this round).")

    def _end_round(self, event: Event) -> Outcome:
        if not self.finding or self.round is None:
            raise NoRound("The sand can only run out while a round is under way.")
        details = self._score(self.round)
        self.scored.append(details)
        self.finding = False
        for player in self.setup.players:
            mine = [w for w in details if w.player == player]
            if mine:
                self.turns.append(Turn(player, len(self.events), " ".join(w.word for w in mine),
                                       tuple(WordScore(w.word, (), w.score, (), w.score, multiplied=False) for w in mine),
                                       kind="word-grid"))
        if self.setup.rounds is not None and len(self.scored) >= self.setup.rounds:
            self.ended = True
        got = {p: sum(w.score for w in details if w.player == p) for p in self.setup.players}
        best = max(got.values())
        top = [p for p, v in got.items() if v == best]
        lead = f"{top[0]} wins the round with {best}" if len(top) == 1 else "The round is a tie"
        return RoundOutcome(f"Time is up! Round {self.round.number}: {lead}. {self.standings()}", None,
                            details=tuple(details))

    # -- scoring --------------------------------------------------------------------------------
    def fault(self, word: str, tray: Tray) -> str:
        """Why ``word`` (as spelled) scores 0 on ``tray`` whoever wrote it, or ``''``."""
        letters, fewest = letters_of(word), min_letters(tray.size)
        if len(letters) < fewest:
            return f"shorter than {fewest} letters"
        try:
            chained = tray.chain(letters) is not None
        except TooHardToCheck:
            return f"too long to check: no chain found in {SEARCH_STEPS:,} steps"
        if not chained:
            return "not in the tray: no chain of touching dice, each once, reads it"
        if word not in self.lexicon:
            return "not in the dictionary"
        return ""

    def _score(self, rnd: RoundState) -> list[ScoredWord]:
        faults = {word: self.fault(word, rnd.tray) for _, word in rnd.entries}
        writers: dict[str, list[str]] = {}
        for player, word in rnd.entries:
            if player not in writers.setdefault(word, []):
                writers[word].append(player)
        out: list[ScoredWord] = []
        seen: set[tuple[str, str]] = set()
        for player, word in rnd.entries:
            others = [q for q in writers[word] if q != player]
            if faults[word]:
                out.append(ScoredWord(player, word, 0, faults[word]))
            elif (player, word) in seen:
                out.append(ScoredWord(player, word, 0, f"written twice by {player}: it counts once"))
            elif others:
                out.append(ScoredWord(player, word, 0, "also written by " + ", ".join(others)))
            else:
                out.append(ScoredWord(player, word, points(len(letters_of(word)))))
            seen.add((player, word))
        return out

    # -- what the table asks --------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        return Phase.FINDING if self.finding else Phase.SHAKE

    def words_of(self, player: str) -> list[str]:
        """``player``'s own words this round, in order (her page shows them; nobody else's does)."""
        return [w for p, w in self.round.entries if p == player] if self.finding and self.round else []

    def entries_count(self, player: str) -> int:
        """How many words ``player`` has written this round (the words stay sealed)."""
        return len(self.words_of(player))

    def deadlines(self) -> tuple[Deadline, ...]:
        return sand_deadline(self.round.started if self.finding and self.round else None, self.sand_seconds)

    def actions(self) -> tuple[Action, ...]:
        if self.over:
            return ()
        if self.finding:
            return (Action("end-round", "The sand has run out", {"type": "end_round"}),) + super().actions()
        return (Action("shake", "Shake the tray for us (the table's dice)", {"type": "tray"}),) + super().actions()

    # -- results --------------------------------------------------------------------------------
    def rounds_json(self) -> list[dict[str, list[dict[str, Any]]]]:
        """``replay --json``'s ``rounds``: per round, player -> words as ``{word, score, reason}``."""
        return rounds_json(self.setup.players, self.scored)

    def result_json(self) -> dict[str, Any]:
        data = super().result_json()
        data["rounds"] = self.rounds_json()
        return data

    def report(self) -> list[str]:
        lines = []
        for n, details in enumerate(self.scored, start=1):
            lines.append(f"  round {n}: tray " + " / ".join(" ".join(row) for row in self.trays[n - 1].rows()))
            for w in details:
                why = f" ({w.reason})" if w.score == 0 else ""
                lines.append(f"    {w.player}: {w.word} -> {w.score}{why}")
        return lines

    def state(self) -> dict[str, Any]:
        state = super().state()
        state.update(phase=self.phase.value, round=len(self.scored) + (1 if self.finding else 0),
                     rounds=self.rounds_json(), trays=[t.rows() for t in self.trays],
                     sealed=[list(e) for e in self.round.entries] if self.finding and self.round else [])
        return state
