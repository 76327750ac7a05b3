"""The letter-dice game's pieces as data: the dice of each language and the score sheet.

Each set is seven letter dice and one Joker die (``*`` on every face: the rule text's Joker die
"without letters counts as any letter"). The faces were chosen so that a roll usually allows
words of every row length (3 to 8 letters):

* **English**: two dice carry only vowels and Y (a roll always shows at least two vowels);
  the other five share the consonants by their frequency in English text (R S T L N on more
  faces than B F G K; J, V and X once each; Q and Z on none: without a U beside it a Q is
  rarely usable, and the Joker stands in for either).
* **Ukrainian**: three vowel dice (А О Е И І У Я Ю Є Ї: Ukrainian words need more vowels), and
  four consonant dice on which the common consonants (Н Т Р К) stand on two or three dice, so a
  roll like the rule book's К О Т И Р А Н with the Joker can happen; Ц Щ Ф Ь are on no die (the
  Joker stands in). Ґ and Г are different letters, on different dice; the apostrophe is no letter.

Letters that look alike when small stand on different dice (Г and Ґ, І and Ї, И and Й, and in
English M and W), so the camera, which knows each die by the marks on its printed labels
(:mod:`vision.dicelabels`), never has to tell them apart by their shape alone.

>>> len(DICE["en"]), all(len(die) == 6 for die in DICE["en"]), DICE["en"][-1]
(8, True, ('*', '*', '*', '*', '*', '*'))
>>> sorted({face for die in DICE["uk"] for face in die} & {"Ґ", "Г"})
['Г', 'Ґ']
>>> DEFAULT_SHEET[0], DEFAULT_SHEET[-1], len(DEFAULT_SHEET)
((3, 1), (8, 10), 12)
"""

from __future__ import annotations

JOKER = "*"

#: language -> dice, each a tuple of six faces (upper case letters, or ``*`` the Joker)
DICE: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (
        ("A", "E", "I", "O", "U", "E"),
        ("A", "E", "I", "O", "Y", "A"),
        ("R", "S", "T", "L", "N", "D"),
        ("R", "S", "T", "N", "C", "M"),
        ("L", "D", "P", "H", "G", "B"),
        ("S", "T", "C", "F", "W", "K"),
        ("N", "R", "M", "V", "J", "X"),
        (JOKER,) * 6,
    ),
    "uk": (
        ("А", "О", "Е", "И", "І", "У"),
        ("А", "О", "И", "Я", "Ю", "Ї"),
        ("О", "А", "Е", "И", "І", "Є"),
        ("Н", "Т", "Р", "В", "К", "Л"),
        ("С", "М", "Д", "П", "Н", "Р"),
        ("К", "Т", "Б", "Г", "Ш", "З"),
        ("Т", "Ж", "Х", "Ч", "Й", "Ґ"),
        (JOKER,) * 6,
    ),
}

#: the default score sheet, top row first: (squares, points); the rule book's pad has one row a
#: word for four rounds of three words (two players: three rounds of four), longer words worth more
DEFAULT_SHEET: tuple[tuple[int, int], ...] = (
    (3, 1), (3, 1), (4, 2), (4, 2), (4, 2), (5, 3), (5, 3), (5, 3), (6, 5), (6, 5), (7, 8), (8, 10),
)
