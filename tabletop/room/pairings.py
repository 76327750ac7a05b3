"""Who sits where next round: Swiss pairings from the standings (a club night) or random seats
(a class).

Swiss: players in standings order, dealt into tables of ``size`` top down, so leaders meet
leaders; a player who already shared a table with everyone at theirs is swapped with the next
one down when that avoids a repeat.

>>> swiss(["Ann", "Ben", "Cai", "Dan"], 2)
[['Ann', 'Ben'], ['Cai', 'Dan']]
>>> swiss(["Ann", "Ben", "Cai", "Dan"], 2, met={("Ann", "Ben")})
[['Ann', 'Cai'], ['Ben', 'Dan']]
>>> sorted(sum(random_seats(["Ann", "Ben", "Cai", "Dan", "Eve"], 2, seed=1), []))
['Ann', 'Ben', 'Cai', 'Dan', 'Eve']
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence


def _tables(players: Sequence[str], size: int) -> list[list[str]]:
    """Deal ``players`` in order into tables of ``size`` (the last table takes the remainder,
    or its few join the one before when they would sit alone)."""
    if size < 1:
        raise ValueError("a table seats at least one player")
    tables = [list(players[i:i + size]) for i in range(0, len(players), size)]
    if len(tables) > 1 and len(tables[-1]) == 1:
        last = tables.pop()
        tables[-1] += last
    return tables


def swiss(ranked: Sequence[str], size: int, met: Iterable[tuple[str, str]] = ()) -> list[list[str]]:
    """Tables of ``size`` from ``ranked`` (best first), avoiding pairs in ``met`` where a swap
    with the next player down can."""
    seen = {frozenset(pair) for pair in met}
    order = list(ranked)
    for i in range(len(order)):
        start = (i // size) * size
        mates = order[start:i]
        if any(frozenset((order[i], m)) in seen for m in mates):
            for j in range(i + 1, len(order)):
                if not any(frozenset((order[j], m)) in seen for m in mates):
                    order[i], order[j] = order[j], order[i]
                    break
    return _tables(order, size)


def random_seats(players: Sequence[str], size: int, seed: int | None = None) -> list[list[str]]:
    """Tables of ``size``, seats drawn at random (``seed``: the same draw again)."""
    order = list(players)
    random.Random(seed).shuffle(order)
    return _tables(order, size)
