"""The clue deck at the table: the host draws the next card of the seeded deck for the player
the rules say asks next.

A mixin of :class:`tabletop.session.core.Session`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.session.core import Result

from tabletop.session.refusals import BadEntry, EntryRefused
from tabletop.session.base import SessionBase


class ClueCards(SessionBase):
    """Drawing clue cards and doing the game's actions by their stable keys."""

    # -- clue cards -----------------------------------------------------------------------------
    def next_clue(self):
        """The next card of the seeded deck and the clue to read: ``(card, clue)`` or ``None``."""
        if self.deck is None or len(self.deck) == 0:
            return None
        drawn = sum(1 for e in self.game.events if e.type == "clue")
        cards = list(self.deck)
        card = cards[drawn % len(cards)]
        return card, card.clues[0]

    def draw(self, source: str = "host", clue: int = 0) -> Result:
        """The host's 'draw a clue card': a ``clue`` event for the player due to ask, with the
        card's clue number ``clue`` (an SP card has several; the asker picks one)."""
        with self._lock:
            player = self.clue_asker()
            if player is None:
                raise EntryRefused("No clue card is due now.")
            drawn = self.next_clue()
            if drawn is None:
                raise EntryRefused("No clue deck is loaded: read a card and use the event form.")
            card, _first = drawn
            if not 0 <= clue < len(card.clues):
                raise BadEntry(f"Card {card.id} has {len(card.clues)} clue(s), not a clue {clue + 1}.")
            return self.submit(self.table.clue_event(self.game, player, card.clues[clue], card.id), source=source)

    def clue_asker(self) -> str | None:
        """The player the rules say takes the next clue card now (their ``clue`` action), or ``None``."""
        action = next((a for a in self.game.actions() if a.key == "clue"), None)
        return None if action is None else action.event.get("player")

    def host_action(self, key: str, source: str = "host") -> Result | None:
        """Do what the game's action ``key`` says (``answer-right``, ``pass``...; ``clue`` draws a card).

        Buttons, the console and the pages all find actions by these stable keys, never by label.
        Returns ``None`` when no such action is possible now.
        """
        with self._lock:
            action = next((a for a in self.game.actions() if a.key == key), None)
            if action is None:
                return None
            if key == "clue" and self.deck is not None:
                return self.draw(source=source)
            return self.submit(dict(action.event), source=source)

