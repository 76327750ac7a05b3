"""Frames from a camera over the word grid's tray, read by the plain letter dice reader
(:mod:`vision.plaindice`), becoming the round's ``tray`` event when the rules wait for one.

The reads follow the dice watcher's steadiness (:class:`vision.motion.SteadyReads`): a change
anywhere in the picture (dice still settling, a hand over the tray) restarts the wait; once the
picture is still the tray is read, and a second read a moment later must give the same grid
before anything is played, so one frame alone never becomes a tray. A read the rules could not
trust is never guessed: a grid of the wrong size, or with faces the reader is unsure of (``?``),
is reported on the camera's status with what the host can do, and nothing is submitted.

>>> from vision.plaindice import PlainRead
>>> TrayWatch(size=4).check(PlainRead((), (("A", "?"),) * 2))
'the camera sees a 2x2 grid of dice, but the tray is 4x4: the host types the tray, or set the size with --option size=2'
"""

from __future__ import annotations

from typing import Any, Protocol

from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed

#: a grey level change (0..255, on the shrunk picture) that counts as movement somewhere
MOTION_LEVEL = 12.0
#: what the host can do when the camera cannot give the tray
INSTEAD = "the host types the tray or the dice are shaken again"


class PlainDiceReading(Protocol):
    """What the tray input needs of a reader (:class:`vision.plaindice.PlainDiceReader`)."""

    def read(self, image: Any, dice_set: tuple[tuple[str, ...], ...] | None = None) -> Any: ...


class TrayWatch:
    """Whether one read is a tray the game can take (:meth:`check`), and the steady frames it
    waits for (:meth:`moved`, :meth:`due`, :meth:`agrees`)."""

    def __init__(self, size: int, *, still_seconds: float = 0.6):
        from vision.motion import SteadyReads

        self.size = size
        self.status = "waiting for the tray"
        self._steady = SteadyReads(still_seconds, MOTION_LEVEL)

    def check(self, read: Any) -> str:
        """Why ``read`` (a :class:`vision.plaindice.PlainRead`) is not this game's tray, or ``''``."""
        grid = read.grid
        if grid is None:
            return (f"the camera sees {len(read.dice)} dice but not in a full grid: {INSTEAD}")
        rows, cols = len(grid), len(grid[0]) if grid else 0
        if (rows, cols) != (self.size, self.size):
            return (f"the camera sees a {rows}x{cols} grid of dice, but the tray is {self.size}x{self.size}: "
                    f"the host types the tray, or set the size with --option size={rows}")
        unsure = sum(face == "?" for row in grid for face in row)
        if unsure == 1:
            return f"1 face unsure: {INSTEAD}"
        if unsure:
            return f"{unsure} faces unsure: {INSTEAD}"
        return ""

    def moved(self, frame: Any, t: float) -> bool:
        """Whether the picture changed at ``t`` (the wait for a still picture starts again)."""
        return self._steady.moved(_grey(frame), t)

    def due(self, t: float) -> bool:
        """Whether to read the tray now."""
        return self._steady.due(t)

    def forget(self) -> None:
        """The read could not be used: the next one waits for another to agree with it."""
        self._steady.forget()

    def agrees(self, grid: tuple[tuple[str, ...], ...], t: float) -> bool:
        """Whether ``grid`` read at ``t`` is the grid read a moment before."""
        return self._steady.agrees(grid, t)


def _grey(frame: Any) -> Any:
    from vision.dice import as_grey

    return as_grey(frame)


def tray_rows(grid: tuple[tuple[str, ...], ...]) -> list[Any]:
    """A read grid as the ``tray`` event's rows: a row one text, or its faces when one has two letters.

    >>> tray_rows((("A", "B"), ("QU", "E")))
    ['AB', ['QU', 'E']]
    """
    return [list(row) if any(len(face) > 1 for face in row) else "".join(row) for row in grid]


class TrayCameraInput(CameraFeed):
    """Frames -> the plain dice reader -> the round's ``tray`` event, when a tray is due.

    ``reader``: anything with the reader's ``read(image, dice_set)`` (default: the shipped
    networks, loaded at the first read); ``dice_set``: the box's own dice (``play --dice``),
    which settle faces one read alone cannot.
    """

    def __init__(self, session: Session, camera: Any, *, reader: PlainDiceReading | None = None,
                 dice_set: tuple[tuple[str, ...], ...] | None = None, still_seconds: float = 0.6):
        super().__init__()
        self.session, self.camera = session, camera
        self.reader, self.dice_set = reader, dice_set
        self.watcher = TrayWatch(int(session.setup.option("size", 4)), still_seconds=still_seconds)
        self.trays = 0
        self._played: tuple[tuple[str, ...], ...] | None = None

    def tray_due(self) -> bool:
        """Whether the rules wait for the tray now (their ``shake`` action is offered)."""
        return any(action.key == "shake" for action in self.session.game.actions())

    def _say(self, status: str) -> None:
        self.watcher.status = status
        self.session.set_device("camera", status)

    def feed(self, frame: Any, t: float) -> list:
        """One frame at table time ``t``; returns the session's result of the tray it completed."""
        from vision.errors import VisionError

        watch = self.watcher
        if watch.moved(frame, t):
            if self.tray_due():
                self._say("the dice are moving (or a hand is over the tray)")
            return []
        if not self.tray_due():
            return []
        if self.session.setup.language != "en":
            self._say(f"the camera reads Latin letters only: {INSTEAD}")
            return []
        if not watch.due(t):
            return []
        if self.reader is None:
            from vision.plaindice import default_reader

            self.reader = default_reader()
        try:
            read = self.reader.read(frame, self.dice_set)
        except VisionError as error:
            watch.forget()
            self._say(str(error))
            return []
        problem = watch.check(read)
        if problem:
            watch.forget()
            self._say(problem)
            return []
        grid = tuple(tuple(row) for row in read.grid or ())
        if not watch.agrees(grid, t):
            self._say("reading the tray")
            return []
        if grid == self._played:          # the last round's tray still lying there: not a new shake
            self._say(f"the tray is the last round's: {INSTEAD}")
            return []
        sure = min((die.confidence for die in read.dice), default=1.0)
        self._played = grid
        self.trays += 1
        self._say("read: " + " / ".join(" ".join(row) for row in grid))
        event = {"type": "tray", "grid": tray_rows(grid), "confidence": round(float(sure), 3), "t": t}
        return [self.session.submit(event, source="camera")]
