"""The Chance deck of the original eXtraDICTION: star cards and rat cards, shuffled from a seed.

A letter newly written on a Chance square (``!``) earns one card, except for a floating word.
A star card is kept (its stars join the player's All-Star total); a rat card takes back as many
stars as it has rats (never more than the player has) and leaves play. Either way a drawn card
does not return to the deck; when the deck is empty no more cards are drawn.

>>> deck = ChanceDeck.standard(seed=7)
>>> len(deck), deck.draw().name in {c.name for c in STANDARD_CARDS}
(20, True)
>>> ChanceCard(stars=0, rats=2).name
'2 rats'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from rules.snapshot import COPIED, Saving


@dataclass(frozen=True)
class ChanceCard:
    """A Chance card: ``stars`` to keep, or ``rats`` that take stars back."""

    stars: int = 0
    rats: int = 0

    @property
    def name(self) -> str:
        if self.rats:
            return f"{self.rats} rat{'s' if self.rats != 1 else ''}"
        return f"{self.stars} star{'s' if self.stars != 1 else ''}"

    def to_json(self) -> dict[str, object]:
        return {"card": self.name, "stars": self.stars, "rats": self.rats}


#: the deck's make-up: 12 star cards (26 stars) and 8 rat cards (11 rats).
STANDARD_CARDS: tuple[ChanceCard, ...] = (
    (ChanceCard(stars=1),) * 6 + (ChanceCard(stars=2),) * 4 + (ChanceCard(stars=3),) * 2
    + (ChanceCard(rats=1),) * 5 + (ChanceCard(rats=2),) * 3
)


class ChanceDeck:
    """The face-down Chance cards, drawn from the top."""

    #: a draw takes the top card (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {"_cards": COPIED}

    def __init__(self, cards: tuple[ChanceCard, ...]):
        self._cards = list(cards)

    @classmethod
    def standard(cls, seed: int) -> "ChanceDeck":
        """The standard deck shuffled by a local ``random.Random(seed)`` (no global randomness)."""
        cards = list(STANDARD_CARDS)
        random.Random(seed).shuffle(cards)
        return cls(tuple(cards))

    def __len__(self) -> int:
        return len(self._cards)

    def draw(self) -> ChanceCard | None:
        """The top card, or ``None`` when the deck is used up."""
        return self._cards.pop(0) if self._cards else None

    def remaining(self) -> tuple[ChanceCard, ...]:
        return tuple(self._cards)
