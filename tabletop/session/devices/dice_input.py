"""Frames from a camera over the dice, through the roll watcher, becoming ``roll`` events when the
game is waiting for a roll (a roll seen while the sand runs is shown, never played)."""

from __future__ import annotations

from typing import Any

from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed


class DiceCameraInput(CameraFeed):
    """Frames -> :class:`vision.dicewatch.DiceWatcher` -> ``roll`` events with the faces seen.

    The dice set is the game's language's (the labels ``tabletop print-dice`` prints).
    """

    def __init__(self, session: Session, camera: Any, *, still_seconds: float = 0.6):
        super().__init__()
        from rules.letter_dice_sets import DICE
        from vision.dice import DiceReader
        from vision.dicewatch import DiceWatcher

        language = session.setup.language
        if language not in DICE:
            raise ValueError(f"there are no printed dice for {language!r}")
        self.session, self.camera = session, camera
        self.watcher = DiceWatcher(DiceReader(DICE[language]), still_seconds=still_seconds)
        self.rolls = 0

    def roll_due(self) -> bool:
        """Whether the rules offer a roll now (the camera's roll then stands for it)."""
        return any(action.key == "roll" for action in self.session.game.actions())

    def feed(self, frame: Any, t: float) -> list:
        """One frame at table time ``t``; returns the session's results of the roll it completed."""
        detection = self.watcher.feed(frame, t)
        self.session.set_device("camera", self.watcher.status)
        if detection is None:
            return []
        if not self.roll_due():
            self.watcher.status = "dice seen, but no roll is due: finish the round, then roll again"
            self.session.set_device("camera", self.watcher.status)
            return []
        event = detection.to_event()
        event["t"] = t
        self.rolls += 1
        return [self.session.submit(event, source="camera")]
