"""The letter-dice game (``letter-dice``, rule text ``letter-dice.txt``), in English and Ukrainian.

A round: the dice are rolled (``roll``), the sand timer runs, every player writes words on free
rows of her score sheet (``word``; sealed until the round ends), the sand runs out
(``end_round``) and the round is scored:

* the roll's faces are what the players' dice show (any letters, ``*`` the Joker); a roll with
  no faces is rolled by the table from the seed with the built-in dice (:mod:`rules.letter_dice_sets`);
* a word fills its row exactly (an apostrophe is no letter), uses each die (the Joker too) at
  most once, the Joker standing for any letter, and must be in the dictionary;
* a unique word scores its row's points; the same word from two or more players this round
  scores 0 for each; a word another player wrote in an earlier round scores 0 now (the earlier
  score stands);
* a player gives the round's quota of words (3; 4 with two players): extra words are
  disqualified in the order given (0), and a player with fewer has the rest crossed out (0);
* 4 rounds (3 with two players); the most points wins, a tie goes to the best final round.

A word with the wrong number of letters for its row, on a row already used, or outside a round
is refused (:class:`RowRejected`). A word that fits but is not a word, or needs letters the dice
do not show, is kept and scores 0 with the reason. Settings where the rule text is silent are
set-up options (docs/games/letter-dice.md): ``own_repeats`` ("score": a player's own earlier
word scores again, the default, since the text only forbids *someone else's*; "zero"),
``invalid_words_block`` (false: a word that scored 0 for being wrong blocks nobody), ``cross_out``
("lowest": the missed words cross out the lowest-scoring free rows; "highest"), ``sheet``
(``[[squares, points], ...]``), ``sand_seconds`` (90).

>>> from rules.lexicon import Lexicon
>>> g = LetterDiceGame(GameSetup("letter-dice", ("Ann", "Ben")), None, Lexicon(["cat", "act", "tea"]))
>>> _ = g.apply({"type": "roll", "faces": ["C", "A", "T", "E", "S", "O", "N", "*"]})
>>> g.apply({"type": "word", "player": "Ann", "row": 1, "word": "cat"}).message
"Ann's word for row 1 is in."
>>> _ = g.apply({"type": "word", "player": "Ben", "row": 2, "word": "CAT"})
>>> _ = g.apply({"type": "word", "player": "Ben", "row": 1, "word": "tea"})
>>> [(w.player, w.word, w.score, w.reason) for w in g.apply({"type": "end_round"}).details][:3]
[('Ann', 'CAT', 0, 'also written by Ben'), ('Ben', 'CAT', 0, 'also written by Ann'), ('Ben', 'TEA', 1, '')]
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable

from rules import errors
from rules.board import Board
from rules.events import BOOL, INT, NUM, TEXT, TEXT_LIST, TEXT_OR_NULL, Event, Schemas
from rules.game import ANY_PIECES, Action, Deadline, Game, GameSetup, OptionField, Outcome, Turn
from rules.games import register_game
from rules.letter_dice_sets import DEFAULT_SHEET, DICE, JOKER
from rules.lexicon import Lexicon, letters_of, normalise, spelling
from rules.roll_words import letters_missing, words_from_roll
from rules.scoring import WordScore
from rules.sand_rounds import NoRound, rounds_json, sand_deadline
from rules.snapshot import COPIED, GROWN, KEPT, NESTED, OWN, Saving

SCHEMAS: Schemas = {
    "roll": ({}, {"faces": TEXT_LIST, "confidence": NUM}),   # confidence: the camera's, when it read the dice
    "word": ({"player": TEXT, "row": INT, "word": TEXT_OR_NULL}, {}),
    "end_round": ({}, {"player": TEXT}),
    "time": ({}, {}),
    "end": ({}, {"player": TEXT}),
    "undo_word": ({"player": TEXT, "row": INT}, {"confirm": BOOL}),
}


#: the most dice a roll shows (and so the longest row of a sheet)
MOST_DICE = 20


class RowRejected(errors.Rejection):
    """A word that cannot go on that row: wrong length, a row used already, no such row."""

    rule = "not for this row"


class BadRoll(errors.Rejection):
    """A roll the dice cannot show (wrong number of dice, a face no die has)."""

    rule = "not a roll of these dice"


class Phase(enum.StrEnum):
    """Where the game stands."""

    ROLL = "roll"            # the dice are to be rolled
    WRITING = "writing"      # the sand runs: everyone writes, sealed
    OVER = "over"


@dataclass(frozen=True)
class Entry:
    """What a player wrote on a row this round (``word`` None: crossed out)."""

    player: str
    row: int
    word: str | None


@dataclass(frozen=True)
class ScoredWord:
    """One row of one round, scored: ``reason`` says why a score is 0."""

    player: str
    row: int
    word: str | None
    score: int
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"row": self.row, "word": self.word, "score": self.score}
        if self.score == 0:
            data["reason"] = self.reason
        return data


@dataclass(frozen=True)
class RoundOutcome(Outcome):
    """The outcome of an ``end_round``: every scored row, in the order written."""

    details: tuple[ScoredWord, ...] = ()


@dataclass
class RoundState:
    """The round under way (or the last one)."""

    #: words come and go while the sand runs (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {"entries": COPIED}

    number: int
    faces: tuple[str, ...]
    started: float | None = None
    entries: list[Entry] = field(default_factory=list)


def fits_dice(word: str, faces: Iterable[str]) -> bool:
    """Can ``word``'s letters be made from the dice, each once, a Joker for any letter?

    >>> fits_dice("CAT", "CAT*"), fits_dice("CAAT", "CAT*"), fits_dice("CAAAT", "CAT*")
    (True, True, False)
    """
    have = Counter(faces)
    jokers = have.pop(JOKER, 0)
    return letters_missing(letters_of(word), have) <= jokers


def best_words(lexicon: Lexicon, faces: Iterable[str], length: int, limit: int = 5,
               rank: Callable[[str], float] | None = None) -> list[str]:
    """The words of ``length`` letters the roll allows: fewest Jokers first, then the highest
    ``rank`` (say, how common a word is), then alphabetical.

    >>> best_words(Lexicon(["cat", "act", "tac", "dog", "cot"]), "CAT*", 3)
    ['ACT', 'CAT', 'TAC', 'COT']
    >>> best_words(Lexicon(["cat", "act", "tac"]), "CAT", 3, rank={"CAT": 2.0, "ACT": 1.0}.get)
    ['CAT', 'ACT', 'TAC']
    """
    found = [(jokers, -(rank(word) or 0.0) if rank else 0.0, word)
             for word, jokers in words_from_roll(lexicon, faces, length).items()]
    return [w for _, _, w in sorted(found)[:limit]]


@register_game
class LetterDiceGame(Game):
    """The letter-dice game; see the module docstring."""

    game_id = "letter-dice"
    title = "Letter dice"
    schemas = SCHEMAS
    min_players, max_players = 2, 8
    needs_board = False
    after_end = ("time",)
    changes = Game.changes | {"round": OWN, "writing": KEPT, "used_rows": NESTED, "scored": GROWN,
                              "history": NESTED}

    #: the sheet, the sand timer and the house rules (docs/games/letter-dice.md); ``pieces`` for
    #: ``play --pieces`` (the table rolls for the table either way)
    option_fields = (OptionField("sheet"), OptionField("sand_seconds"), OptionField("own_repeats"),
                     OptionField("cross_out"), OptionField("invalid_words_block"), ANY_PIECES,
                     # the table's, not the rules': the reveal's best words leave out vulgar words
                     # unless false (tabletop/family_filter.py)
                     OptionField("family_filter", (True, False)))

    def __init__(self, setup: GameSetup, board: Board | None, lexicon: Lexicon):
        super().__init__(setup, board, lexicon)  # type: ignore[arg-type]
        if setup.language not in DICE:
            raise errors.RecordFormatError(f"letter dice is played in {', '.join(DICE)}, not {setup.language!r}")
        self.dice = DICE[setup.language]
        self.sheet = self._sheet(setup.option("sheet"))
        two = len(setup.players) == 2
        self.rounds_total = setup.rounds or (3 if two else 4)
        self.quota = 4 if two else 3
        if self.rounds_total * self.quota > len(self.sheet):
            raise errors.RecordFormatError(f"the sheet has {len(self.sheet)} rows, too few for {self.rounds_total} "
                                           f"rounds of {self.quota} words")
        self.sand_seconds = self._number(setup.option("sand_seconds", 90), "sand_seconds")
        self.own_repeats = self._choice(setup.option("own_repeats", "score"), "own_repeats", ("score", "zero"))
        self.cross_out = self._choice(setup.option("cross_out", "lowest"), "cross_out", ("lowest", "highest"))
        blocks = setup.option("invalid_words_block", False)
        if not isinstance(blocks, bool):
            raise errors.RecordFormatError(f"'invalid_words_block' must be true or false, not {blocks!r}")
        self.invalid_words_block = blocks
        self.round: RoundState | None = None
        self.writing = False
        self.used_rows: dict[str, set[int]] = {p: set() for p in setup.players}
        self.scored: list[list[ScoredWord]] = []          # per finished round
        self.history: dict[str, list[tuple[str, int]]] = {}  # word -> [(player, round)] of words that block

    # -- set-up ---------------------------------------------------------------------------------
    @staticmethod
    def _sheet(value: Any) -> tuple[tuple[int, int], ...]:
        if value is None:
            return DEFAULT_SHEET
        if not isinstance(value, list) or not value or len(value) > 40:
            raise errors.RecordFormatError("'sheet' must be a list of [squares, points] rows")
        rows = []
        for n, row in enumerate(value, start=1):
            if (not isinstance(row, list) or len(row) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                      for v in row)
                    or not 1 <= row[0] <= MOST_DICE or not 0 <= row[1] <= 1000):
                raise errors.RecordFormatError(f"sheet row {n} must be [squares 1-{MOST_DICE}, points 0-1000], "
                                               f"not {row!r}")
            rows.append((row[0], row[1]))
        return tuple(rows)

    @staticmethod
    def _number(value: Any, name: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 5 <= value <= 3600:
            raise errors.RecordFormatError(f"{name!r} must be a number of seconds from 5 to 3600, not {value!r}")
        return float(value)

    @staticmethod
    def _choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            raise errors.RecordFormatError(f"{name!r} must be one of {', '.join(choices)}, not {value!r}")
        return str(value)

    # -- events ---------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        handler: Callable[[Event], Outcome] | None = {
            "roll": self._roll, "word": self._word, "end_round": self._end_round,
            "time": lambda e: Outcome(""), "undo_word": self._undo_word,
        }.get(event.type)
        if handler is None:
            raise errors.WrongPhase(f"A {event.type!r} event has no place in letter dice.")
        return handler(event)

    def _roll(self, event: Event) -> Outcome:
        if self.writing:
            raise errors.WrongPhase("The dice are already rolled: the sand is still running.")
        number = len(self.scored) + 1
        if number > self.rounds_total:
            raise errors.GameOver(f"All {self.rounds_total} rounds have been played.")
        faces = self._faces(event.get("faces"), number)
        self.round = RoundState(number, faces, event.t)
        self.writing = True
        shown = " ".join(f if f != JOKER else "Joker" for f in faces)
        return Outcome(f"Round {number}: the dice show {shown}. Turn the sand timer!")

    def _faces(self, given: list[str] | None, number: int) -> tuple[str, ...]:
        """The roll's faces: as the record says (the players' own dice, whatever their set), or
        rolled by the table from the seed when it says none ("roll for us")."""
        if given is None:
            rng = random.Random(f"{self.setup.seed}:{number}")
            return tuple(rng.choice(die) for die in self.dice)
        faces = tuple(JOKER if normalise(f) in (JOKER, "JOKER", "ДЖОКЕР") else normalise(f) for f in given)
        if not 1 <= len(faces) <= MOST_DICE:
            raise BadRoll(f"A roll shows the dice's faces, 1 to {MOST_DICE} of them, not {len(faces)}.")
        bad = [f for f in faces if f != JOKER and not (len(f) == 1 and f.isalpha())]
        if bad:
            raise BadRoll(f"A die shows one letter or the Joker (*), not {bad[0]!r}.")
        return faces

    def _word(self, event: Event) -> Outcome:
        # a word is sealed until the reveal: a refusal that shows it is told to its writer alone
        player, row, raw = event.by, event["row"], event["word"]
        shown = "a cross" if raw is None else (letters_of(raw) or repr(raw))
        if not self.writing or self.round is None:
            raise NoRound(f"{player} wrote {shown} on row {row}, but no round is under way: "
                          f"words wait for the next roll.", private_to=player)
        if not 1 <= row <= len(self.sheet):
            raise RowRejected(f"{player}'s sheet has rows 1 to {len(self.sheet)}, not row {row} ({shown}).", private_to=player)
        if row in self.used_rows[player]:
            raise RowRejected(f"{player} has used row {row} already; {shown} must go on a free row.", private_to=player)
        squares = self.sheet[row - 1][0]
        if raw is not None and len(letters_of(raw)) != squares:
            raise RowRejected(f"Row {row} has {squares} squares, and {shown} has {len(letters_of(raw))} letters: "
                              f"a word fills its row exactly.", private_to=player)
        self.used_rows[player].add(row)
        self.round.entries.append(Entry(player, row, None if raw is None else spelling(raw)))
        what = "cross" if raw is None else "word"
        return Outcome(f"{player}'s {what} for row {row} is in.")

    def _undo_word(self, event: Event) -> Outcome:
        """Take back one's own entry of this round (a slip of the finger), while the sand runs."""
        player, row = event.by, event["row"]
        if not self.writing or self.round is None:
            raise NoRound(f"{player} can change row {row} only while the sand runs.")
        entry = next((e for e in self.round.entries if e.player == player and e.row == row), None)
        if entry is None:
            raise RowRejected(f"{player} has written nothing on row {row} this round.")
        self.round.entries.remove(entry)
        self.used_rows[player].discard(row)
        return Outcome(f"{player}'s row {row} is free again.")

    def _end_round(self, event: Event) -> Outcome:
        if not self.writing or self.round is None:
            raise NoRound("The sand can only run out while a round is under way.")
        details = self._score_round(self.round)
        self.scored.append(details)
        self.writing = False
        for w in details:
            self.turns.append(Turn(w.player, len(self.events), w.word or "",
                                   (WordScore(w.word or "-", (), w.score, (), w.score, multiplied=False),),
                                   kind="letter-dice"))
        if len(self.scored) >= self.rounds_total:
            self.ended = True
        best = max(self.setup.players, key=lambda p: sum(w.score for w in details if w.player == p))
        points = {p: sum(w.score for w in details if w.player == p) for p in self.setup.players}
        top = [p for p, v in points.items() if v == points[best]]
        lead = f"{top[0]} wins the round with {points[best]}" if len(top) == 1 else "The round is a tie"
        return RoundOutcome(f"Time is up! Round {self.round.number}: {lead}. {self.standings()}", None,
                            details=tuple(details))

    # -- scoring --------------------------------------------------------------------------------
    def _score_round(self, rnd: RoundState) -> list[ScoredWord]:
        by_player: dict[str, list[Entry]] = {p: [] for p in self.setup.players}
        for entry in rnd.entries:
            by_player[entry.player].append(entry)
        counted: dict[str, list[Entry]] = {}
        extra: dict[str, list[Entry]] = {}
        for p, entries in by_player.items():
            counted[p], extra[p] = entries[:self.quota], entries[self.quota:]
        valid: dict[tuple[str, int], str] = {}          # (player, row) -> why it scores 0 for being wrong
        for p, entries in counted.items():
            for e in entries:
                if e.word is not None:
                    valid[(p, e.row)] = self._fault(e.word, rnd.faces)
        writers: dict[str, list[str]] = {}
        for p, entries in counted.items():
            for e in entries:
                if e.word is not None and (not valid[(p, e.row)] or self.invalid_words_block):
                    writers.setdefault(e.word, []).append(p)
        out: list[ScoredWord] = []
        for entry in rnd.entries:
            p = entry.player
            if entry in extra[p]:
                out.append(ScoredWord(p, entry.row, entry.word, 0, f"an extra word: {self.quota} count a round"))
                continue
            if entry.word is None:
                out.append(ScoredWord(p, entry.row, None, 0, "crossed out"))
                continue
            out.append(self._score_word(p, entry, valid[(p, entry.row)], writers, rnd.number))
        for p, entries in counted.items():            # too few words: the rest crossed out
            for row in self._rows_to_cross(p, self.quota - len(entries)):
                self.used_rows[p].add(row)
                out.append(ScoredWord(p, row, None, 0, "no word: crossed out"))
        for entry in rnd.entries:                     # words that block later rounds
            fault = valid.get((entry.player, entry.row), "")
            if entry.word is not None and entry not in extra[entry.player] and (not fault or self.invalid_words_block):
                self.history.setdefault(entry.word, []).append((entry.player, rnd.number))
        return out

    def _fault(self, word: str, faces: tuple[str, ...]) -> str:
        if not fits_dice(word, faces):
            return "needs letters the dice do not show"
        if word not in self.lexicon:
            return "not in the dictionary"
        return ""

    def _score_word(self, p: str, entry: Entry, fault: str, writers: dict[str, list[str]], number: int) -> ScoredWord:
        word = entry.word or ""
        if fault:
            return ScoredWord(p, entry.row, word, 0, fault)
        others = [q for q in writers.get(word, []) if q != p]
        if others:
            return ScoredWord(p, entry.row, word, 0, "also written by " + ", ".join(others))
        earlier = [(q, n) for q, n in self.history.get(word, []) if n < number]
        by_others = [(q, n) for q, n in earlier if q != p]
        if by_others:
            q, n = by_others[0]
            return ScoredWord(p, entry.row, word, 0, f"written by {q} in round {n}")
        if earlier and self.own_repeats == "zero":
            return ScoredWord(p, entry.row, word, 0, f"written by {p} in round {earlier[0][1]}")
        return ScoredWord(p, entry.row, word, self.sheet[entry.row - 1][1])

    def _rows_to_cross(self, player: str, count: int) -> list[int]:
        free = [r for r in range(1, len(self.sheet) + 1) if r not in self.used_rows[player]]
        free.sort(key=lambda r: (self.sheet[r - 1][1], r), reverse=self.cross_out == "highest")
        return sorted(free[:max(0, count)])

    # -- what the table asks --------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        return Phase.WRITING if self.writing else Phase.ROLL

    def free_rows(self, player: str) -> list[int]:
        """The rows of ``player``'s sheet still free (the page offers them)."""
        return [r for r in range(1, len(self.sheet) + 1) if r not in self.used_rows[player]]

    def entries_count(self, player: str) -> int:
        """How many rows ``player`` has filled this round (words stay sealed until the sand runs out)."""
        return sum(1 for e in self.round.entries if e.player == player) if self.writing and self.round else 0

    def deadlines(self) -> tuple[Deadline, ...]:
        return sand_deadline(self.round.started if self.writing and self.round else None, self.sand_seconds)

    def actions(self) -> tuple[Action, ...]:
        if self.over:
            return ()
        if self.writing:
            return (Action("end-round", "The sand has run out", {"type": "end_round"}),) + super().actions()
        return (Action("roll", "Roll for us (no dice at hand)", {"type": "roll"}),) + super().actions()

    # -- results --------------------------------------------------------------------------------
    def _round_points(self, number: int) -> dict[str, int]:
        points = {p: 0 for p in self.setup.players}
        for w in self.scored[number - 1]:
            points[w.player] += w.score
        return points

    @property
    def winner(self) -> str | None:
        """The most points; a tie goes to the best final round; still a tie: nobody."""
        totals = self.totals
        best = max(totals.values())
        leaders = [p for p, v in totals.items() if v == best]
        if len(leaders) > 1 and self.scored:
            final = self._round_points(len(self.scored))
            top = max(final[p] for p in leaders)
            leaders = [p for p in leaders if final[p] == top]
        return leaders[0] if len(leaders) == 1 else None

    def rounds_json(self) -> list[dict[str, list[dict[str, Any]]]]:
        """``replay --json``'s ``rounds``: per round, player -> rows as ``{row, word, score, reason}``."""
        return rounds_json(self.setup.players, self.scored)

    def result_json(self) -> dict[str, Any]:
        data = super().result_json()
        data["rounds"] = self.rounds_json()
        data["winner"] = self.winner
        return data

    def report(self) -> list[str]:
        lines = []
        for n, details in enumerate(self.scored, start=1):
            lines.append(f"  round {n}: dice " + " ".join(self.faces_of(n)))
            for w in details:
                word = w.word or "-"
                why = f" ({w.reason})" if w.score == 0 else ""
                lines.append(f"    {w.player}: row {w.row} {word} -> {w.score}{why}")
        return lines

    def faces_of(self, number: int) -> tuple[str, ...]:
        """What the dice showed in round ``number`` (from 1)."""
        rolls = [e for e in self.events if e.type == "roll"]
        return self._faces(rolls[number - 1].get("faces"), number) if number <= len(rolls) else ()

    def state(self) -> dict[str, Any]:
        state = super().state()
        state.update(phase=self.phase.value, round=len(self.scored) + (1 if self.writing else 0),
                     rounds=self.rounds_json(), faces=list(self.round.faces) if self.round else None,
                     sealed=[[e.player, e.row, e.word] for e in self.round.entries] if self.writing and self.round else [],
                     used_rows={p: sorted(r) for p, r in self.used_rows.items()})
        return state
