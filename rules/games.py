"""The games the rules core knows, by their DESIGN.md id: one registry, filled by the games.

A game's rules module declares its class with :func:`register_game`; nothing else lists it.
The built-in games are the modules of this package that do so, found the first time a game is
looked up (a game's id ``letter-dice`` lives in ``rules/letter_dice.py``).

>>> sorted(game_ids())[:2]
['extradiction', 'extradiction-sp']
>>> game_class("extradiction-sp").__name__
'ExtradictionSPGame'
>>> game_class("chess")
Traceback (most recent call last):
...
rules.errors.RecordFormatError: unknown game 'chess'; the games are: ...
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TypeVar

from rules import errors
from rules.board import Board
from rules.game import Game, GameSetup
from rules.lexicon import Lexicon

_REGISTRY: dict[str, type[Game]] = {}
_discovered = False

G = TypeVar("G", bound=type[Game])


def register_game(cls: G) -> G:
    """Class decorator: make ``cls`` the rules of the game ``cls.game_id``.

    >>> @register_game
    ... class Toy(Game):
    ...     game_id = "toy-doctest"
    >>> game_class("toy-doctest") is Toy
    True
    >>> unregister_game("toy-doctest")
    """
    _REGISTRY[cls.game_id] = cls
    return cls


def unregister_game(game_id: str) -> None:
    """Forget a registered game (tests register toy games and take them away again)."""
    _REGISTRY.pop(game_id, None)


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import rules
    for info in pkgutil.iter_modules(rules.__path__):
        module = importlib.import_module(f"rules.{info.name}")
        del module


def game_ids() -> list[str]:
    """Every known game id, built-in games first found."""
    _discover()
    return list(_REGISTRY)


def game_class(game_id: str) -> type[Game]:
    """The rules class of ``game_id``; :class:`~rules.errors.RecordFormatError` if unknown."""
    if game_id not in _REGISTRY:
        module = game_id.replace("-", "_") if isinstance(game_id, str) else ""
        if module.isidentifier():
            try:
                importlib.import_module(f"rules.{module}")
            except ModuleNotFoundError:
                pass
    if game_id not in _REGISTRY:
        shown = game_id if isinstance(game_id, str) and len(game_id) <= 40 else "that"
        raise errors.RecordFormatError(f"unknown game {shown!r}; the games are: {', '.join(sorted(game_ids()))}")
    return _REGISTRY[game_id]


def new_game(setup: GameSetup, board: Board | None, lexicon: Lexicon) -> Game:
    """A fresh game of ``setup.game`` on ``board`` with ``lexicon``."""
    cls = game_class(setup.game)
    if board is None and cls.needs_board:
        raise errors.RecordFormatError(f"{cls.title} is played on a board, and none was given")
    return cls(setup, board, lexicon)  # type: ignore[arg-type]
