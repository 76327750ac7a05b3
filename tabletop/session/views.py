"""What the pages show: the public scoreboard, the host's console, the board's layers.

A mixin of :class:`tabletop.session.core.Session`. Nothing in :meth:`Views.view` is secret (no
card answers, no hidden entries); the host's view adds the actions, entries and camera reads.
"""

from __future__ import annotations


from typing import Any

from tabletop.session.base import SessionBase


class Views(SessionBase):
    """The session seen by the scoreboard, the host console and the board drawing."""

    def set_device(self, name: str, status: str) -> None:
        """A device reports its status (camera: 'hand over the board', buzzer box: 'connected'...)."""
        if self.devices.get(name) != status:
            self.devices[name] = status
            self._publish({"kind": "device", "device": name, "status": status})

    def set_board_read(self, rows: list[str]) -> None:
        """The camera's latest still read of the board (letters the game does not count show as stale)."""
        if rows != self.board_read:
            self.board_read = list(rows)
            self._publish({"kind": "device", "device": "camera"})

    def title(self) -> str:
        """The game's name for people: 'eXtraDICTION SP (classic)'."""
        variant = getattr(self.game, "variant", None) or getattr(self.game, "level", None)
        label = str(variant).replace("level", "Level ") if variant else ""
        return f"{self.game.title}{f' ({label})' if label else ''}"

    def view(self) -> dict:
        """The public scoreboard: nothing here is secret (no card answers, no hidden entries)."""
        with self._lock:
            game, state = self.game, self.game.state()
            last = game.turns[-1] if game.turns else None
            for turn in reversed(game.turns):
                if not turn.removed:
                    last = turn
                    break
            view = {
                "game_id": self.game_id, "game": self.setup.game, "title": self.title(), "variant": getattr(game, "variant", None)
                or getattr(game, "level", None), "players": list(self.setup.players), "totals": game.totals,
                "turn": game.whose_turn(), "over": game.over, "winner": game.winner if game.over else None,
                "now": self.clock.now(), "paused": self.paused, "grid": state.get("grid"),
                "timers": [d.to_json() for d in game.deadlines()],
                "last": {"text": last.text, "player": last.player, "squares": [list(s) for s in last.new_squares]}
                if last else None,
                "turns": [t.to_json() for t in game.turns],
                "log": list(self.log[-12:]), "windows": [w.to_json() for w in self.windows()],
                "events": len(game.events), "devices": dict(self.devices), "read": self.board_read,
            }
            view.update(self.table.summary(game))
            view["status"] = self.table.status(game)
            return view

    def host_view(self) -> dict:
        with self._lock:
            view = self.view()
            clue = None
            events = [e for e in self.game.events if e.type == "clue"]
            if events:
                clue = events[-1].to_json()
            view["clue"] = clue
            actions = [{**a.to_json(), "action": None, "args": {}} for a in self.game.actions()]
            drawn = self.next_clue() if self.table.uses_clue_deck else None
            at = next((i for i, a in enumerate(actions) if a["key"] == "clue"), None)
            if at is not None:                 # the deck's card: one button per clue, the asker picks
                asker = actions[at]["event"]["player"]
                if drawn is None:
                    actions[at].update(event=None, action="draw", args={})
                else:
                    card, _ = drawn
                    actions[at:at + 1] = [
                        {"key": f"clue:{i}", "label": f"{asker} reads card {card.id}: {c.answer.lower()} — {c.card_text()}",
                         "event": None, "action": "draw", "args": {"clue": i}} for i, c in enumerate(card.clues)]
            view["actions"] = actions
            view["entries"] = self.entries_for(None)
            view["can_undo"] = bool(self.applied)
            view["pending_reads"] = [dict(r) for r in self.pending_reads]
            return view

    def board_json(self) -> dict[str, Any]:
        """The board's size and every layer it has (values, zones, marks, letters, colors...),
        one string a row; ``{}`` for a game without a board."""
        b = self.board
        if b is None:
            return {}
        data: dict[str, Any] = {"name": b.name, "rows": b.rows, "cols": b.cols}
        data.update({name: list(rows) for name, rows in b.layers.items()})
        data.setdefault("marks", ["." * b.cols] * b.rows)
        return data

