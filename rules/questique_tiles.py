"""Questique's letter tiles: 150 a set, 3 of them blanks, in an English and a Ukrainian mix.

The rule text gives only the total (150 tiles including 3 blanks), so the 147 letters are
shared out here (docs/games/questique.md says how):

* English: the well-known Scrabble counts (98 letters) scaled by 1.5, then A, I and O one
  more each to reach 147.
* Ukrainian: one of each of the 33 letters, and the other 114 by each letter's share of the
  letters of Debian's Ukrainian word list (proper nouns left out), largest remainders first.

>>> sum(TILES["en"].values()), sum(TILES["uk"].values())
(150, 150)
>>> TILES["en"]["E"], TILES["en"][BLANK], TILES["uk"]["О"]
(18, 3, 11)
>>> bag("en")[:5]
['?', '?', '?', 'A', 'A']
>>> alphabet("uk")[:6]
'АБВГҐД'
"""

from __future__ import annotations

import random
from typing import ClassVar

from rules import errors
from rules.snapshot import COPIED, KEPT, NESTED, Saving

#: a blank tile in a bag or rack (on the board it shows the lowercase letter it stands for)
BLANK = "?"
#: tiles in a set, and how many of them are blanks
SET_SIZE, BLANKS = 150, 3


def _counts(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in text.split():
        counts[item[0]] = int(item[1:])
    counts[BLANK] = BLANKS
    return counts


TILES: dict[str, dict[str, int]] = {
    "en": _counts("A14 B3 C3 D6 E18 F3 G4 H3 I14 J1 K2 L6 M3 N9 O13 P3 Q1 R9 S6 T9 U6 V3 W3 X1 Y3 Z1"),
    "uk": _counts("А10 Б3 В7 Г3 Ґ1 Д4 Е7 Є2 Ж2 З3 И8 І6 Ї1 Й2 К5 Л6 М6 Н8 О11 П5 Р7 С7 Т7 У6 Ф1 Х2 Ц2 Ч2 "
                  "Ш2 Щ1 Ь4 Ю3 Я3"),
}


def tile_counts(language: str) -> dict[str, int]:
    """The tile set of ``language`` (letter -> count, ``?`` the blanks).

    >>> tile_counts("fr")
    Traceback (most recent call last):
    ...
    rules.errors.RecordFormatError: Questique's tiles come in en or uk, not 'fr'.
    """
    if language not in TILES:
        raise errors.RecordFormatError(f"Questique's tiles come in {' or '.join(TILES)}, not {language!r}.")
    return dict(TILES[language])


def bag(language: str) -> list[str]:
    """Every tile of a set, sorted (a game shuffles it with its seed)."""
    return sorted(tile for tile, n in tile_counts(language).items() for _ in range(n))


def alphabet(language: str) -> str:
    """The letters a tile of ``language`` can show, in alphabetical order (blanks left out)."""
    return "".join(t for t in TILES[language] if t != BLANK)


class TileSupply:
    """The virtual pieces: a bag shuffled from the seed and a rack of 7 for each player.

    Draws take tiles off the end of the bag; exchanged tiles go back at places chosen by a
    generator seeded from the game's seed and the exchange's number, so a replay draws the same.
    Nothing is created or lost: the bag and the racks always hold the tiles not on the board.

    >>> supply = TileSupply("en", seed=1, players=("Ann", "Ben"))
    >>> len(supply.racks["Ann"]), len(supply.bag), supply.in_hand()
    (7, 136, 150)
    >>> supply.take("Ann", supply.racks["Ann"][:2])
    >>> supply.refill("Ann"), len(supply.racks["Ann"])
    (2, 7)
    """

    #: draws, exchanges and refills change the bag, the racks and the count of exchanges (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {"bag": COPIED, "racks": NESTED, "exchanges": KEPT}

    RACK = 7

    def __init__(self, language: str, seed: int, players: tuple[str, ...]):
        self.seed = seed
        self.bag = bag(language)
        random.Random(seed).shuffle(self.bag)
        self.exchanges = 0
        self.racks: dict[str, list[str]] = {}
        for player in players:
            self.racks[player] = []
            self.refill(player)

    def draw(self) -> str | None:
        """One tile from the bag (``None`` once it is empty)."""
        return self.bag.pop() if self.bag else None

    def refill(self, player: str) -> int:
        """Fill ``player``'s rack back to 7 from the bag; how many tiles were drawn."""
        rack = self.racks[player] = list(self.racks[player])
        drawn = 0
        while len(rack) < self.RACK and self.bag:
            rack.append(self.bag.pop())
            drawn += 1
        return drawn

    def missing(self, player: str, tiles: list[str]) -> list[str]:
        """The tiles of ``tiles`` that ``player``'s rack does not hold (``?`` for a blank)."""
        rack = list(self.racks[player])
        short = []
        for tile in tiles:
            if tile in rack:
                rack.remove(tile)
            else:
                short.append(tile)
        return short

    def take(self, player: str, tiles: list[str]) -> None:
        """Take ``tiles`` off ``player``'s rack (check :meth:`missing` first)."""
        rack = self.racks[player] = list(self.racks[player])
        for tile in tiles:
            rack.remove(tile)

    def give(self, player: str, tile: str) -> None:
        """Put ``tile`` on ``player``'s rack (a blank taken back)."""
        self.racks[player] = list(self.racks[player]) + [tile]

    def exchange(self, player: str, tiles: list[str]) -> None:
        """``player`` swaps ``tiles`` for as many from the bag (check :meth:`missing` and the bag)."""
        self.take(player, tiles)
        self.bag = list(self.bag)
        fresh = [self.bag.pop() for _ in tiles]
        self.exchanges += 1
        rng = random.Random(f"{self.seed}:{self.exchanges}")
        for tile in tiles:
            self.bag.insert(rng.randrange(len(self.bag) + 1), tile)
        self.racks[player] = self.racks[player] + fresh

    def in_hand(self) -> int:
        """Tiles in the bag and on the racks together."""
        return len(self.bag) + sum(len(r) for r in self.racks.values())
