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

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

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
        return data
