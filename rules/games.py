"""The games the rules core knows, by their DESIGN.md id.

>>> sorted(GAMES)
['extradiction', 'extradiction-sp']
"""

from __future__ import annotations

from rules import errors
from rules.board import Board
from rules.extradiction import ExtradictionGame
from rules.extradiction_sp import ExtradictionSPGame
from rules.game import Game, GameSetup
from rules.lexicon import Lexicon

GAMES: dict[str, type[Game]] = {
    ExtradictionGame.game_id: ExtradictionGame,
    ExtradictionSPGame.game_id: ExtradictionSPGame,
}


def new_game(setup: GameSetup, board: Board, lexicon: Lexicon) -> Game:
    """A fresh game of ``setup.game`` on ``board`` with ``lexicon``."""
    try:
        cls = GAMES[setup.game]
    except KeyError:
        raise errors.RecordFormatError(
            f"unknown game {setup.game!r}; the games are: {', '.join(sorted(GAMES))}") from None
    return cls(setup, board, lexicon)
