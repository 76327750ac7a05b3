"""Watching the dice: a video stream in, one ``roll`` event out per roll, once the dice are at rest.

Every frame is compared, shrunk to 160x120 and blurred, with the one before: a change anywhere
(tumbling dice, a hand reaching in) restarts the wait. When the picture has been still for
``still_seconds`` the dice are read; a second read ``still_seconds`` later must agree (same
faces, dice in the same places) before anything is said, so a frame with a tumbling die or a
hand in it never becomes a roll. A read that agrees with the roll already emitted (a hand passed
over the dice and left them as they were) is not a new roll: a roll is new when the faces
differ or a die has moved.

>>> from rules.letter_dice_sets import DICE
>>> from vision.dice import DiceReader
>>> from vision.synth.dicescene import dice_scene
>>> watcher = DiceWatcher(DiceReader(DICE["en"]), still_seconds=0.5)
>>> faces = ("E", "A", "T", "C", "P", "S", "N", "*")
>>> frames = [dice_scene(faces, seed=s, moving=True) for s in range(3)] + [dice_scene(faces, seed=9)] * 6
>>> [d.faces for t, f in enumerate(frames) if (d := watcher.feed(f, t * 0.25)) is not None]
[('E', 'A', 'T', 'C', 'P', 'S', 'N', '*')]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.dice import DiceNotFound, DiceReader, Roll, as_grey
from vision.motion import SteadyReads

#: a grey level change (0..255, on the shrunk picture) that counts as movement somewhere
MOTION_LEVEL = 12.0
#: a read is trusted when every die matched its face at least this well
MIN_CONFIDENCE = 0.5


@dataclass(frozen=True)
class RollDetection:
    """A roll seen at rest: the faces in the set's order, and when."""

    faces: tuple[str, ...]
    confidence: float          #: the least sure die's match
    t: float

    def to_event(self) -> dict:
        """A DESIGN.md ``roll`` event (the session adds ``t``).

        >>> RollDetection(("A", "*"), 0.9, 1.0).to_event()
        {'type': 'roll', 'faces': ['A', '*'], 'confidence': 0.9}
        """
        return {"type": "roll", "faces": list(self.faces), "confidence": round(self.confidence, 3)}


class DiceWatcher:
    """Turns frames (and their times, seconds) into :class:`RollDetection` s; ``status`` says
    what it is waiting for, in words a host can act on."""

    def __init__(self, reader: DiceReader, *, still_seconds: float = 0.6):
        self.reader = reader
        self.status = "waiting for the dice"
        self._steady = SteadyReads(still_seconds, MOTION_LEVEL)
        self._emitted: Roll | None = None

    def feed(self, frame: np.ndarray, t: float) -> RollDetection | None:
        """One frame taken at ``t``; the roll when this frame confirms dice newly at rest."""
        if self._steady.moved(as_grey(frame), t):
            self.status = "the dice are moving (or a hand is over them)"
            return None
        if not self._steady.due(t):
            return None
        try:
            roll = self.reader.read(frame)
        except DiceNotFound as error:
            self._steady.forget()
            self.status = str(error)
            return None
        if min(roll.confidence) < MIN_CONFIDENCE:
            self._steady.forget()
            self.status = "the dice are unclear: is the light too dim, or a label covered?"
            return None
        if not self._steady.agrees(roll, t, _same):
            self.status = "reading the dice"
            return None
        if self._emitted is not None and _same(roll, self._emitted):
            return None                            # the status stays what it was when they were read
        self._emitted = roll
        self.status = "read: " + " ".join(roll.faces)
        return RollDetection(roll.faces, float(min(roll.confidence)), t)


def _same(a: Roll, b: Roll) -> bool:
    """The same faces on dice lying where they lay (within a few pixels)."""
    if a.faces != b.faces:
        return False
    moved = np.abs(np.array(a.centres) - np.array(b.centres)).max(initial=0.0)
    return bool(moved < 6.0)

