"""Sequence Letters' cards as data: the deck and the hands.

The deck has one letter card for every picture on the board (two for each letter of the
built-in board: 48 cards, each in its letter's colour), plus two ``X`` cards (take another
side's chip off) and two ``Z`` cards (a chip on any open picture): 52 cards, the size of the
rule text's deck, which names the two X and two Z and two pictures a letter. Hands: 5 cards
each with 2 or 3 players, 4 with 4 (two teams).

>>> from rules.board import parse_board
>>> board = parse_board('rows = 1\\ncols = 4\\n[layers]\\nletters = ["ABA."]\\ncolors = ["ryr."]', required=())
>>> deck_for(board)
['A', 'A', 'B', 'X', 'X', 'Z', 'Z']
>>> hand_size(3), hand_size(4)
(5, 4)
"""

from __future__ import annotations

from rules.board import Board

#: the special cards and how many of each the deck has
SPECIAL = {"X": 2, "Z": 2}


def deck_for(board: Board) -> list[str]:
    """The whole deck for ``board``, sorted (the game shuffles it from the seed)."""
    letters = sorted(ch for row in board.layers["letters"] for ch in row if ch != ".")
    return letters + [card for card, n in SPECIAL.items() for _ in range(n)]


def hand_size(players: int) -> int:
    """Cards dealt to each player: 5 with 2 or 3 players, 4 with 4."""
    return 4 if players >= 4 else 5
