"""The clue deck at the table: the host draws the next card of the seeded deck for the player
the rules say asks next.

A part of the session (:mod:`tabletop.session.parts`); it writes no journal kind of its own
(a drawn card is a ``clue`` event, which the core journals).

>>> ClueCards(core=None, deck=None).next_clue() is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.session.parts import Part
from tabletop.session.refusals import BadEntry, EntryRefused

if TYPE_CHECKING:
    from tabletop.session.result import Result


class ClueCards(Part):
    """Drawing clue cards from the seeded deck (``deck``: ``None`` when the game has none)."""

    def __init__(self, core: Any, deck: Any):
        super().__init__(core)
        self.deck = deck

    def next_clue(self) -> Any:
        """The next card of the seeded deck and the clue to read: ``(card, clue)`` or ``None``."""
        if self.deck is None or len(self.deck) == 0:
            return None
        drawn = sum(1 for e in self.core.game.events if e.type == "clue")
        cards = list(self.deck)
        card = cards[drawn % len(cards)]
        return card, card.clues[0]

    def draw(self, source: str = "host", clue: int = 0) -> "Result":
        """The host's 'draw a clue card': a ``clue`` event for the player due to ask, with the
        card's clue number ``clue`` (an SP card has several; the asker picks one)."""
        with self.core.lock:
            player = self.asker()
            if player is None:
                raise EntryRefused("No clue card is due now.")
            drawn = self.next_clue()
            if drawn is None:
                raise EntryRefused("No clue deck is loaded: read a card and use the event form.")
            card, _first = drawn
            if not 0 <= clue < len(card.clues):
                raise BadEntry(f"Card {card.id} has {len(card.clues)} clue(s), not a clue {clue + 1}.")
            event = self.core.table.clue_event(self.core.game, player, card.clues[clue], card.id)
            return self.core.submit(event, source=source)

    def asker(self) -> str | None:
        """The player the rules say takes the next clue card now (their ``clue`` action), or ``None``."""
        action = next((a for a in self.core.game.actions() if a.key == "clue"), None)
        return None if action is None else action.event.get("player")
