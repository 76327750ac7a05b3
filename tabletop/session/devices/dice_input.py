"""Frames from a camera over the dice, through the roll watcher, becoming ``roll`` events when the
game is waiting for a roll (a roll seen while the sand runs is shown, never played)."""

from __future__ import annotations

import threading
from typing import Any

from tabletop.session.core import Session


class DiceCameraInput:
    """Frames -> :class:`vision.dicewatch.DiceWatcher` -> ``roll`` events with the faces seen.

    The dice set is the game's language's (the labels ``tabletop print-dice`` prints).
    """

    def __init__(self, session: Session, camera: Any, *, still_seconds: float = 0.6):
        from rules.letter_dice_sets import DICE
        from vision.dice import DiceReader
        from vision.dicewatch import DiceWatcher

        language = session.setup.language
        if language not in DICE:
            raise ValueError(f"there are no printed dice for {language!r}")
        self.session, self.camera = session, camera
        self.watcher = DiceWatcher(DiceReader(DICE[language]), still_seconds=still_seconds)
        self.rolls = 0
        self.failure: str | None = None
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

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

    def run_in_background(self, fps: float = 8.0) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                try:
                    frame = self.camera.read()
                    if frame is not None:
                        self.feed(frame, self.session.clock.now())
                    self.failure = None
                except Exception as error:        # keep watching: the next frame may read
                    if self.failure is None:
                        print(f"tabletop: camera: {error}")
                        self.session.set_device("camera", f"camera trouble: {error}")
                    self.failure = repr(error)
                self._stop.wait(1.0 / fps)
        self.thread = threading.Thread(target=loop, name="dice-camera", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self._stop.set()
        if self.thread:
            self.thread.join(timeout=2)
