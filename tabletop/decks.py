"""Clue decks on disk: the built-in decks that ship with the package, and a player's own deck file.

The format is documented in ``docs/decks.md``; parsing is :func:`rules.deck.parse_deck`.

>>> deck = builtin_deck("en")
>>> len(deck) >= 300, sorted(deck.counts())
(True, ['blue', 'green', 'red'])
"""

from __future__ import annotations

import functools
import os
import pathlib

from rules.deck import Deck, DeckFormatError, parse_deck
from tabletop.errors import UserError

DECKS = pathlib.Path(__file__).resolve().parent / "data" / "decks"


def builtin_decks() -> list[str]:
    """Languages that have a built-in deck, e.g. ``['en']``."""
    return sorted(p.stem for p in DECKS.glob("*.toml") if not p.stem.startswith("pictures-"))


@functools.lru_cache(maxsize=4)
def picture_deck(language: str = "en") -> Deck:
    """The built-in picture cards for children (``pictures-<language>.toml``): simple words, each
    with a picture (an emoji) and a definition a child understands.

    >>> deck = picture_deck("en")
    >>> card = next(iter(deck)); card.clues[0].answer, bool(card.clues[0].picture)
    ('CAT', True)
    """
    path = DECKS / f"pictures-{language}.toml"
    if not path.is_file():
        raise UserError(f"no picture cards for language {language!r}")
    return _read(path, source=path.name)


@functools.lru_cache(maxsize=4)
def builtin_deck(language: str = "en") -> Deck:
    """The built-in deck for ``language`` (``tabletop/data/decks/<language>.toml``), read once per process."""
    path = DECKS / f"{language}.toml"
    if not path.is_file():
        available = ", ".join(builtin_decks()) or "none"
        raise UserError(f"no built-in clue deck for language {language!r} (built-in decks: {available})")
    return _read(path, source=path.name)


def deck_of_kind(kind: str, language: str) -> Deck:
    """The built-in deck a table asks for (:meth:`tabletop.games.table.TableGame.deck_kind`)."""
    return picture_deck(language) if kind == "pictures" else builtin_deck(language)


def load_deck(path: str | os.PathLike) -> Deck:
    """A deck file of one's own; a missing, unreadable or malformed file is a :class:`UserError`."""
    path = pathlib.Path(path)
    if path.is_dir():
        raise UserError(f"deck file {path} is a directory, not a .toml file")
    if not path.exists():
        raise UserError(f"deck file not found: {path}")
    return _read(path, source=str(path))


def _read(path: pathlib.Path, source: str) -> Deck:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise UserError(f"deck file {path} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise UserError(f"cannot read deck file {path}: {error.strerror or error}") from None
    try:
        return parse_deck(text, source=source)
    except DeckFormatError as error:
        raise UserError(f"bad deck file: {error}") from None
