"""The word grid's reveal on the scoreboard: each finished round's tray, every player's words (a
word two players wrote struck out), and the best words the tray held, commonest first among
words of a length (remembered: the scoreboard asks again at every change).
"""

from __future__ import annotations

from typing import Any, Callable

from rules.word_grid import WordGridGame, min_letters
from rules.word_grid_solver import best_words
from rules.word_grid_tray import Tray

#: how many of the tray's best words the reveal shows
SHOWN = 8

_BEST: dict[tuple[int, Tray], list[str]] = {}


def tray_best(game: WordGridGame, tray: Tray) -> list[str]:
    """The tray's :data:`SHOWN` best words in the game's dictionary (longest, then commonest)."""
    key = (id(game.lexicon), tray)
    if key not in _BEST:
        if len(_BEST) > 256:
            _BEST.clear()
        _BEST[key] = best_words(tray, game.lexicon, min_letters(tray.size), game.setup.language, limit=SHOWN,
                                rank=_frequency(game.setup.language))
    return _BEST[key]


def _frequency(language: str) -> Callable[[str], float] | None:
    from tabletop.lexicons import word_frequencies

    return word_frequencies(language)


def by_length(words: list[str]) -> dict[str, list[str]]:
    """``{"7 letters": [...], "5 letters": [...]}``, longest first, as the reveal lists them.

    >>> by_length(["STAPLER", "APRON", "PRISON", "DRONE"])
    {'7 letters': ['STAPLER'], '6 letters': ['PRISON'], '5 letters': ['APRON', 'DRONE']}
    """
    groups: dict[str, list[str]] = {}
    for word in sorted(words, key=lambda w: -len(w)):
        groups.setdefault(f"{len(word)} letters", []).append(word)
    return groups


def reveal(game: WordGridGame) -> list[dict[str, Any]]:
    """One object a finished round: its tray, every player's scored words, the clashes and the
    tray's best words (never a sealed word: only scored rounds are shown)."""
    out = []
    for number, rnd in enumerate(game.rounds_json(), start=1):
        tray = game.trays[number - 1]
        writers: dict[str, list[str]] = {}
        for player, words in rnd.items():
            for w in words:
                if player not in writers.setdefault(w["word"], []):
                    writers[w["word"]].append(player)
        out.append({"round": number, "tray": tray.rows(), "faces": list(tray.faces), "rows": rnd,
                    "clashes": {w: ps for w, ps in writers.items() if len(ps) > 1},
                    "best": by_length(tray_best(game, tray)), "best_label": "Best words the tray held"})
    return out
