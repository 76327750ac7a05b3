"""Frames from a camera over the Sequence Letters board, through the chip watcher, becoming the
plays they show: a chip put down is a ``play`` of the picture's letter by the player whose turn
it is; a chip taken off is an ``X``. With the table's own cards, a chip on a picture whose letter
the player does not hold is a ``Z`` if she holds one, and that waits for the host to confirm
(the host page's camera reads, or ``confirm`` at the console)."""

from __future__ import annotations

from typing import Any

from tabletop.session.camera_reads import CameraMove
from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed


class ChipCameraInput(CameraFeed):
    """Frames -> :class:`vision.chipwatch.ChipWatcher` -> ``play`` events for the player whose turn it is."""

    def __init__(self, session: Session, camera: Any, *, still_seconds: float = 0.6):
        super().__init__()
        from vision.chips import ChipReader
        from vision.chipwatch import ChipWatcher

        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.session, self.camera = session, camera
        self.watcher = ChipWatcher(ChipReader(session.board), baseline=session.game.state().get("grid"),
                                   still_seconds=still_seconds)
        self.plays = 0

    def event_for(self, change: Any) -> dict[str, Any] | None:
        """The play a chip change stands for, without its player (the session credits it; ``None``:
        nobody's turn, the game is over)."""
        game = self.session.game
        player = self.session.table.writer(game)
        if player is None:
            return None
        square = change.square
        if change.after is None:
            card = "X"
        else:
            card = game.board.cell("letters", square)
            hand = getattr(game, "hands", {}).get(player)
            if hand and card not in hand and "Z" in hand:
                card = "Z"
        return {"type": "play", "card": card, "row": square.row, "col": square.col}

    def feed(self, frame: Any, t: float) -> list:
        """One frame at table time ``t``; returns the session's results of the plays it saw."""
        changes = self.watcher.feed(frame, t)
        self.session.set_device("camera", self.watcher.status)
        results = []
        for change in sorted(changes, key=lambda c: c.after is not None):   # chips taken off first
            event = self.event_for(change)
            if event is None:
                continue
            self.plays += 1
            # a Z: the picture's letter could not be the card, so the host confirms it
            result = self.session.camera_move(CameraMove(event, t, sure=event["card"] != "Z"))
            if result is not None:
                results.append(result)
        if results:                                  # what the rules accepted is the board now
            self.resync()
        return results

    def resync(self) -> None:
        """Take the board as the rules hold it as what the camera has seen (after the host entered a play)."""
        self.watcher.committed = list(self.session.game.state()["grid"])
