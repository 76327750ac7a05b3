"""Each table's game as the room knows it: rebuilt by the rules from the entries the table sent,
applied in ``seq`` order, exactly as the table's own ``resume`` and ``replay`` would.

An entry that arrives ahead of a missing one waits until the gap is filled; a duplicate of one
already applied is dropped; the same seq with a different entry is refused.

>>> replica = TableReplica("3", "g1", {"game": "extradiction", "players": ["Ann", "Ben"],
...                                    "board": "extradiction"})
>>> replica.offer({"seq": 1, "kind": "event", "status": "accepted", "t": 1.0,
...                "body": {"type": "pass", "player": "Ann", "t": 1.0}})
1
>>> replica.applied_seq, replica.totals
(1, {'Ann': 0, 'Ben': 0})
"""

from __future__ import annotations

import logging
from typing import Any

from rules import errors
from rules.game import Game
from rules.games import new_game
from tabletop.errors import UserError
from tabletop.session.core import load_game_parts
from tabletop.session.game_core import game_setup

log = logging.getLogger(__name__)

#: the most entries the room holds ahead of a gap for one table
MAX_WAITING = 5000


class ReplicaError(ValueError):
    """A table's game cannot be rebuilt here (an unknown game, a board or word list missing)."""


def _parts(setup: dict[str, Any]) -> tuple[Any, Any]:
    """The board and lexicon of a set-up; a word list only the table has falls back to the
    built-in dictionary of its language (said in the log)."""
    try:
        return load_game_parts(setup)
    except (UserError, OSError, KeyError, ValueError) as error:
        if setup.get("lexicon"):
            log.warning("the table's word list %s is not here (%s): the built-in dictionary scores it",
                        setup["lexicon"], error)
            return load_game_parts({**setup, "lexicon": None})
        raise ReplicaError(f"the game {setup.get('game')!r} cannot be rebuilt here: {error}") from None


class TableReplica:
    """The room's copy of one table's game (see the module docstring)."""

    def __init__(self, table: str, game_id: str, setup: dict[str, Any]):
        self.table, self.game_id, self.setup = table, game_id, setup
        try:
            self.board, self.lexicon = _parts(setup)
            self._setup = game_setup(setup)
            self.game: Game = new_game(self._setup, self.board, self.lexicon)
        except (errors.RulesError, KeyError, TypeError, ValueError) as error:
            raise ReplicaError(f"the game {str(setup.get('game'))[:40]!r} cannot be rebuilt here: {error}") from None
        self.applied_seq = 0                       # every entry up to this one is applied
        self.waiting: dict[int, dict[str, Any]] = {}
        self.accepted: list[int] = []              # seq of each event in game.events
        self.counted = 0                           # entries applied (each exactly once)
        self.last_at = 0.0                         # the table's wall time of the last entry applied
        self._summary: dict[str, Any] | None = None  # what the page shows, made again after a change

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.summary()["totals"])

    @property
    def ahead(self) -> int:
        """The highest seq received (applied or waiting)."""
        return max([self.applied_seq, *self.waiting])

    def offer(self, entry: dict[str, Any]) -> int:
        """Take entry ``entry`` (its ``seq``, ``kind``, ``status``, ``body``); apply it and any that
        waited for it; how many entries were applied now."""
        seq = int(entry["seq"])
        if seq <= self.applied_seq or seq in self.waiting:
            return 0
        if len(self.waiting) >= MAX_WAITING:
            raise ValueError(f"table {self.table} is more than {MAX_WAITING} entries ahead of a gap")
        self.waiting[seq] = entry
        self._summary = None
        done = 0
        while self.applied_seq + 1 in self.waiting:
            following = self.waiting.pop(self.applied_seq + 1)
            self._apply(following)
            self.applied_seq += 1
            self.counted += 1
            self.last_at = float(following.get("at") or 0.0)
            self._summary = None
            done += 1
        return done

    def _apply(self, entry: dict[str, Any]) -> None:
        kind = entry["kind"]
        if kind == "event":       # the rules decide again (a refused event changes nothing), whatever the status says
            try:
                self.game.apply(entry["body"])
                self.accepted.append(int(entry["seq"]))
            except (errors.Rejection, errors.EventFormatError) as error:
                log.info("table %s entry %s is refused here too: %s", self.table, entry["seq"], error)
            except Exception:                      # the rules failing on an entry must never stop the room
                log.exception("table %s entry %s could not be applied; it changes nothing", self.table, entry["seq"])
                self._rebuild([e.to_json() for e in self.game.events])
        elif kind == "undo":
            target = entry["body"].get("seq")
            if self.accepted and self.accepted[-1] == target:
                self._rebuild([e.to_json() for e in self.game.events[:-1]])
                self.accepted.pop()
            else:
                log.warning("table %s: undo of %s is not of the last accepted event; ignored", self.table, target)

    def _rebuild(self, events: list[dict[str, Any]]) -> None:
        """The game made again from ``events`` (after an undo, or an entry the rules failed on)."""
        self.game = new_game(self._setup, self.board, self.lexicon)
        for event in events:
            self.game.apply(event)

    def summary(self) -> dict[str, Any]:
        """What the room page shows of the table's game (kept until the next entry changes it)."""
        if self._summary is not None:
            return self._summary
        game = self.game
        self._summary = {"game_id": self.game_id, "game": self.setup.get("game"),
                         "variant": self.setup.get("variant"), "players": list(self.setup.get("players") or []),
                         "totals": dict(game.totals), "over": game.over,
                         "winner": game.winner if game.over else None, "applied_seq": self.applied_seq,
                         "waiting": len(self.waiting), "events": len(game.events)}
        return self._summary
