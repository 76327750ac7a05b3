"""Duplicate play: the room deals the same thing to every table.

* letter dice: the room rolls once (:func:`room_roll`) and every table takes that roll;
  with room-wide uniqueness, a word scores in the room only if no player at another table wrote
  it from the same roll (:func:`room_unique_points`);
* eXtraDICTION SP: the room sends one seed, and every table deals its clue cards in that order.

>>> room_roll("club", 1) == room_roll("club", 1), len(room_roll("club", 1))
(True, 8)
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from rules.letter_dice_sets import DICE


def room_roll(room: str, number: int, language: str = "en") -> list[str]:
    """The room's roll number ``number``: one face of each of the built-in dice, from a seed
    made of the room's name and the number (the same roll again after a restart)."""
    rng = random.Random(f"room:{room}:{number}")
    return [rng.choice(die) for die in DICE.get(language, DICE["en"])]


def room_unique_points(replicas: Iterable[Any], rolls: Iterable[list[str]]) -> dict[tuple[str, str], int]:
    """``(table, player) -> points`` of words unique in the whole room, in the rounds each table
    played with one of the room's ``rolls``: a word written at two or more tables from the same
    roll scores nowhere (its row's score otherwise)."""
    wanted = {tuple(r) for r in rolls}
    by_roll: dict[tuple[str, ...], list[tuple[str, str, str, int]]] = {}
    for replica in replicas:
        game = replica.game
        if replica.setup.get("game") != "letter-dice" or not hasattr(game, "rounds_json"):
            continue
        for n, rnd in enumerate(game.rounds_json(), start=1):
            faces = tuple(game.faces_of(n))
            if faces not in wanted:
                continue
            for player, rows in rnd.items():
                for row in rows:
                    if row.get("word") and row.get("score", 0) > 0:
                        by_roll.setdefault(faces, []).append((replica.table, player, str(row["word"]),
                                                              int(row["score"])))
    points: dict[tuple[str, str], int] = {}
    for words in by_roll.values():
        tables_of: dict[str, set[str]] = {}
        for table, _player, word, _score in words:
            tables_of.setdefault(word, set()).add(table)
        for table, player, word, score in words:
            if len(tables_of[word]) == 1:
                points[(table, player)] = points.get((table, player), 0) + score
    return points
