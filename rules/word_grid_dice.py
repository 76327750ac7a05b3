"""The word grid's pieces as data: each language's letters and its sixteen letter dice.

A tray the table shakes for the players (``"pieces": "virtual"``, or the host's "shake for
us") is rolled from these dice; a record's tray is whatever the players' own dice show, any
box, any size (4x4, 5x5, 6x6), and is checked only against the language's letters.

* **English**: the faces follow the letters' frequency in English words (E on 12 faces, A on 8,
  O and I on 7 ... J, X and Z once); Q stands on one face only as ``QU`` (a Q without its U
  is rarely usable); one die carries the rare consonants.
* **Ukrainian**: О on 9 faces, А on 8, І and Е on 6 ... down to Ф, Ю, Є and Ї once; Щ and Ґ
  are on no die (a record's tray may show them). The apostrophe is no letter.

A 5x5 or 6x6 tray shaken by the table uses the sixteen dice, then the same dice again (as if two
or three boxes were poured together), each rolled once.

>>> len(DICE["en"]), all(len(die) == 6 for die in DICE["uk"]), sum(die.count("E") for die in DICE["en"])
(16, True, 12)
>>> dice_for("en", 25)[16] == DICE["en"][0]
True
"""

from __future__ import annotations

#: the wild face: it stands for any one letter
WILD = "*"

#: each language's letters, in its alphabet's order
ALPHABETS: dict[str, str] = {
    "en": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "uk": "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ",
}


def _dice(*faces: str | tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(die) for die in faces)


#: language -> sixteen dice of six faces (a letter, or two letters on one face: ``QU``)
DICE: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": _dice("AEENST", "AOIRLT", "EIONSD", "AEUHRM", "OIETCL", "AIYWNG", "EOUDPS", "AIETRB",
                "OENHFV", "EIAKSL", "OATRCM", "EIUNXG", "AOESTH", "EIYRDW", ("QU", "M", "H", "N", "R", "O"),
                "ZJPFBT"),
    "uk": _dice("ОАНИТВ", "ОІЕРСК", "АОЛУДМ", "ИІНТПЯ", "ОЕВРЗЬ", "АІСКГБ", "ОИНЕЛЧ", "АУТВДХ",
                "ІОРМЖЙ", "ЕАСПШЮ", "ИОНКЦЄ", "АІТРЯЇ", "ОЕВЛУФ", "ИАСДМЬ", "ОІНКПЗ", "АЕТРГЛ"),
}


def dice_for(language: str, count: int) -> tuple[tuple[str, ...], ...]:
    """The ``count`` dice the table rolls for a tray: the language's sixteen, again as needed.

    >>> len(dice_for("uk", 36)), dice_for("uk", 36)[35] == DICE["uk"][3]
    (36, True)
    """
    dice = DICE[language]
    return tuple(dice[i % len(dice)] for i in range(count))
