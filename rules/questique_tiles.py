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

from rules import errors

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
