"""What became of one input to the session: :class:`Result`.

>>> Result(3, "accepted", "Ann writes CAT.", {"type": "write"}).accepted
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Result:
    """What became of one input: its journal ``seq``, ``accepted`` or ``rejected``, and why."""

    seq: int
    status: str                    # 'accepted' or 'rejected'
    message: str
    event: dict[str, Any]
    source: str | None = None
    turn: dict[str, Any] | None = None
    rule: str | None = None
    ignored: bool = False
    #: the player whose private things (a sealed word, a rack, a hand) the message shows: only
    #: that player's page and the host see it; everyone else sees :attr:`public_message`
    private_to: str | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    @property
    def public_message(self) -> str:
        """What everyone may see of the message: itself, or for a private refusal who it concerns.

        >>> Result(2, "rejected", "Ann's cards: M N.", {}, private_to="Ann").public_message
        "Ann's entry was refused: the reason is on Ann's own page."
        """
        if self.private_to is None:
            return self.message
        return f"{self.private_to}'s entry was refused: the reason is on {self.private_to}'s own page."

    def to_json(self) -> dict[str, Any]:
        """The result as the pages and the journal's outcome show it.

        >>> Result(1, "rejected", "Too late.", {}, rule="window").to_json()["rule"]
        'window'
        """
        data: dict[str, Any] = {"seq": self.seq, "status": self.status, "message": self.message,
                                "event": self.event, "source": self.source}
        if self.turn is not None:
            data["turn"] = self.turn
        if self.rule:
            data["rule"] = self.rule
        if self.ignored:
            data["ignored"] = True
        if self.private_to is not None:
            data["private_to"] = self.private_to
            data["public_message"] = self.public_message
        return data
