"""The simulated players' vocabulary: scripted, seeded, and always legal.

A script (each game's table module has its own) is a generator of :class:`Action` s that reads
the live game after each one (so it always plans against the board as it stands): wait on the
table clock, a host or player event, a buzz-in press, or a word written on the board. The runner
(:mod:`tabletop.table.demo`) carries each action through the devices: presses through the
buzzer box, words through the synthetic camera and the vision pipeline. The helpers here pick
clue cards that fit the board and plausible wrong answers, for the clue-card games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tabletop.players.planner import best_placement


@dataclass
class Action:
    kind: str                      # 'wait', 'event', 'buzz', 'write' (a word written, a chip put down), 'roll'
    seconds: float = 0.0
    event: dict | None = None
    player: str | None = None
    source: str = "host"
    note: str = ""
    write: dict | None = field(default=None, repr=False)


def usable(answer: str) -> bool:
    return answer.isalpha() and 3 <= len(answer) <= 9


def pick_clue(game, cards, start: int, player: str):
    """The first card from ``start`` with a single-word clue that fits the board; (index, card, clue, write)."""
    for i in range(start, start + len(cards)):
        card = cards[i % len(cards)]
        for clue in card.clues:
            if not usable(clue.answer):
                continue
            write = best_placement(game, player, clue.answer)
            if write is not None:
                return i + 1, card, clue, write
    return None


def wrong_guess(clue, rng: random.Random, lexicon) -> str:
    """A plausible wrong answer: a word of the same length and first letter, else a near miss."""
    candidates = [w for w in lexicon.words_of_length(len(clue.answer))
                  if w.startswith(clue.answer[0]) and w != clue.answer and w.isalpha()][:200]
    return rng.choice(candidates) if candidates else clue.answer[::-1]
