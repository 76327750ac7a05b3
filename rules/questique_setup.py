"""A Questique game's set-up: its variant and the record's options, checked once.

``variant`` is one of :data:`VARIANTS`, or several joined by ``+`` (``"elimination+partner"``,
the handicap options mixed as the rule text allows). The record's options (DESIGN.md and
docs/games/questique.md): ``pieces``, ``first``, ``excluded``, ``individual``, ``targets``,
``themes``, ``tokens``.

>>> rules = QuestiqueRules.parse("elimination+partner")
>>> rules.individual_letters, rules.elimination, rules.partner, rules.speed
(True, True, True, False)
>>> QuestiqueRules.parse("chess")
Traceback (most recent call last):
...
rules.errors.RecordFormatError: unknown Questique variant 'chess'; the variants are: standard, extra, ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rules import errors
from rules.lexicon import normalise
from rules.squares import Square

#: every variant of questique.txt, by the name a record gives it
VARIANTS = ("standard", "extra", "elimination", "handicap", "themed", "token", "partner", "speed", "solo")
#: stars a player needs to win, and partners together
TARGET, PARTNER_TARGET = 4, 7
#: tokens each player puts into the pool in token play
TOKENS = 8
#: exclusion blanks in a set
EXCLUSION_BLANKS = 8


@dataclass(frozen=True)
class QuestiqueRules:
    """Which of the rule text's variants are in play."""

    names: tuple[str, ...] = ("standard",)

    @classmethod
    def parse(cls, variant: str | None) -> "QuestiqueRules":
        """The variants named by a record's ``variant`` (``None``: standard play)."""
        if variant is None:
            return cls()
        names = tuple(part.strip().lower() for part in str(variant).split("+"))
        for name in names:
            if name not in VARIANTS:
                raise errors.RecordFormatError(
                    f"unknown Questique variant {name[:40]!r}; the variants are: {', '.join(VARIANTS)}")
        if "solo" in names and len(names) > 1:
            raise errors.RecordFormatError("solo play is played on its own, not mixed with other variants")
        return cls(names)

    def has(self, name: str) -> bool:
        return name in self.names

    @property
    def individual_letters(self) -> bool:
        """Individually placed letters are on the board (standard play extra, and elimination)."""
        return self.has("extra") or self.has("elimination")

    @property
    def elimination(self) -> bool:
        return self.has("elimination")

    @property
    def partner(self) -> bool:
        return self.has("partner")

    @property
    def speed(self) -> bool:
        return self.has("speed")

    @property
    def solo(self) -> bool:
        return self.has("solo")

    @property
    def themed(self) -> bool:
        return self.has("themed")

    @property
    def tokens(self) -> bool:
        return self.has("token")

    def check_players(self, players: tuple[str, ...]) -> None:
        """Solo play is one player; partner play four; the others two to four."""
        n = len(players)
        if self.solo and n != 1:
            raise errors.RecordFormatError(f"Solo play is for one player, not {n}.")
        if self.partner and n != 4:
            raise errors.RecordFormatError(f"Partner play is for four players (two pairs), not {n}.")
        if not self.solo and not 2 <= n <= 4:
            raise errors.RecordFormatError(f"Questique is played by 2 to 4 players (or 1 in solo play), not {n}.")


def parse_squares(value: Any, name: str) -> list[Square]:
    """A list of ``[row, col]`` pairs from a record's option ``name``.

    >>> parse_squares([[0, 0], [0, 8]], "excluded")
    [Square(row=0, col=0), Square(row=0, col=8)]
    >>> parse_squares([[0]], "excluded")
    Traceback (most recent call last):
    ...
    rules.errors.RecordFormatError: 'excluded' must be a list of [row, col] pairs, not [[0]]
    """
    if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
            for p in value):
        raise errors.RecordFormatError(f"{name!r} must be a list of [row, col] pairs, not {str(value)[:60]}")
    return [Square(r, c) for r, c in value]


def parse_individual(value: Any, players: tuple[str, ...]) -> list[tuple[str, str, Square]]:
    """The record's ``individual`` letters: ``{player, letter, row, col}`` each.

    >>> parse_individual([{"player": "Ann", "letter": "r", "row": 1, "col": 3}], ("Ann", "Ben"))
    [('Ann', 'R', Square(row=1, col=3))]
    """
    if not isinstance(value, list):
        raise errors.RecordFormatError("'individual' must be a list of {player, letter, row, col} objects")
    letters = []
    for item in value:
        if not isinstance(item, Mapping) or not {"player", "letter", "row", "col"} <= set(item):
            raise errors.RecordFormatError(
                f"each 'individual' letter is {{player, letter, row, col}}, not {str(item)[:60]}")
        player, letter, row, col = item["player"], item["letter"], item["row"], item["col"]
        if player not in players:
            raise errors.RecordFormatError(f"'individual' names {str(player)[:40]!r}, who is not playing")
        if not (isinstance(letter, str) and len(letter) == 1 and letter.isalpha()):
            raise errors.RecordFormatError(f"an individual letter is one letter, not {str(letter)[:20]!r}")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (row, col)):
            raise errors.RecordFormatError("an individual letter's row and col are whole numbers")
        if len(normalise(letter)) != 1:
            raise errors.RecordFormatError(f"{player}'s individual letter {letter!r} reads as {normalise(letter)}, "
                                           "not one letter of the tiles")
        letters.append((player, normalise(letter), Square(row, col)))
    return letters


def parse_targets(value: Any, players: tuple[str, ...]) -> dict[str, int]:
    """Each player's stars to win (handicap play): the record's ``targets``, others the standard 4.

    >>> parse_targets({"Ben": 3}, ("Ann", "Ben"))
    {'Ann': 4, 'Ben': 3}
    """
    targets = {p: TARGET for p in players}
    if value is None:
        return targets
    if not isinstance(value, Mapping):
        raise errors.RecordFormatError("'targets' maps each player to the stars they need to win")
    for player, stars in value.items():
        if player not in players:
            raise errors.RecordFormatError(f"'targets' names {str(player)[:40]!r}, who is not playing")
        if not isinstance(stars, int) or isinstance(stars, bool) or not 1 <= stars <= 16:
            raise errors.RecordFormatError(f"{player}'s target must be 1 to 16 stars, not {str(stars)[:20]}")
        targets[player] = stars
    return targets


def parse_themes(value: Any, players: tuple[str, ...]) -> dict[str, frozenset[str]]:
    """Each player's theme word list (themed play): player -> words.

    >>> sorted(parse_themes({"Ann": ["piano", "drum"]}, ("Ann",))["Ann"])
    ['DRUM', 'PIANO']
    """
    if not isinstance(value, Mapping) or set(value) != set(players):
        raise errors.RecordFormatError(
            "themed play needs 'themes': each player's theme word list ({player: [words]}), for every player")
    themes = {}
    for player, words in value.items():
        if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
            raise errors.RecordFormatError(f"{player}'s theme must be a non-empty list of words")
        themes[player] = frozenset(normalise(w) for w in words)
    return themes
