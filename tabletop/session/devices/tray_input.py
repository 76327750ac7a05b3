"""Frames from a camera over plain letter dice (a family's box), read by the plain letter dice
reader (:mod:`vision.plaindice`): the word grid's tray becomes the round's ``tray`` event
(:class:`TrayCameraInput`), letter dice rolled from the box become the ``roll`` event
(:class:`PlainRollInput`), when the rules wait for one.

The reads follow the dice watcher's steadiness (:class:`vision.motion.SteadyReads`): a change
anywhere in the picture (dice still settling, a hand over them) restarts the wait; once the
picture is still the dice are read, and a second read a moment later must agree before anything
is played, so one frame alone never becomes a move. A read the rules could not trust is never
guessed: a grid of the wrong size, faces the reader is unsure of (``?``), dice missing, are
reported on the camera's status with what the host can do, and nothing is submitted.

>>> from vision.plaindice import PlainRead
>>> tray_problem(PlainRead((), (("A", "?"),) * 2), 4)
'the camera sees a 2x2 grid of dice, but the tray is 4x4: the host types the tray, or set the size with --option size=2'
"""

from __future__ import annotations

from typing import Any, Protocol

from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed

#: a grey level change (0..255, on the shrunk picture) that counts as movement somewhere
MOTION_LEVEL = 12.0
#: a die counts as lying where it lay when its centre moved less than this (pixels)
SAME_PLACE = 6.0
#: what the host can do when the camera cannot give the tray
TRAY_INSTEAD = "the host types the tray or the dice are shaken again"
#: what the host can do when the camera cannot give the roll
ROLL_INSTEAD = "the host types the roll or the dice are rolled again"

DiceSet = tuple[tuple[str, ...], ...]


class PlainDiceReading(Protocol):
    """What the inputs need of a reader (:class:`vision.plaindice.PlainDiceReader`)."""

    def read(self, image: Any, dice_set: DiceSet | None = None) -> Any: ...


def unsure_problem(faces: list[str], instead: str) -> str:
    """What is said when faces are unsure (``?``), or ``''``.

    >>> unsure_problem(["A", "?", "?"], "the host types the tray")
    '2 faces unsure: the host types the tray'
    """
    unsure = faces.count("?")
    if unsure == 1:
        return f"1 face unsure: {instead}"
    return f"{unsure} faces unsure: {instead}" if unsure else ""


def tray_problem(read: Any, size: int) -> str:
    """Why ``read`` (a :class:`vision.plaindice.PlainRead`) is not a ``size`` x ``size`` tray, or ``''``."""
    grid = read.grid
    if grid is None:
        return f"the camera sees {len(read.dice)} dice but not in a full grid: {TRAY_INSTEAD}"
    rows, cols = len(grid), len(grid[0]) if grid else 0
    if (rows, cols) != (size, size):
        return (f"the camera sees a {rows}x{cols} grid of dice, but the tray is {size}x{size}: "
                f"the host types the tray, or set the size with --option size={rows}")
    return unsure_problem([face for row in grid for face in row], TRAY_INSTEAD)


def tray_rows(grid: DiceSet) -> list[Any]:
    """A read grid as the ``tray`` event's rows: a row one text, or its faces when one has two letters.

    >>> tray_rows((("A", "B"), ("QU", "E")))
    ['AB', ['QU', 'E']]
    """
    return [list(row) if any(len(face) > 1 for face in row) else "".join(row) for row in grid]


def reading_order(read: Any) -> list[Any]:
    """The read's dice from the top of the photo down, left to right along a line of dice.

    >>> from vision.plaindice import PlainRead, ReadDie
    >>> dice = [ReadDie(f, c, 0.9, 0, (10.0, 10.0)) for f, c in (("B", (30, 2)), ("A", (5, 4)), ("C", (8, 30)))]
    >>> [d.face for d in reading_order(PlainRead(tuple(dice)))]
    ['A', 'B', 'C']
    """
    dice = sorted(read.dice, key=lambda d: d.centre[1])
    lines: list[list[Any]] = []
    for die in dice:
        if lines and die.centre[1] - lines[-1][0].centre[1] < 0.5 * max(die.size):
            lines[-1].append(die)
        else:
            lines.append([die])
    return [die for line in lines for die in sorted(line, key=lambda d: d.centre[0])]


class PlainDiceFeed(CameraFeed):
    """The loop both inputs share: steady frames, a read while the rules wait (their action
    ``due_key`` is offered), the read checked (:meth:`problem`), two agreeing reads played once
    (:meth:`to_event`). ``reader``: anything with the reader's ``read(image, dice_set)``
    (default: the shipped networks, loaded at the first read); ``dice_set``: the box's own dice
    (``play --dice``), which settle faces one read alone cannot."""

    #: the key of the rules' action the camera's move stands for
    due_key = ""
    #: what the host can do instead
    instead = ""
    #: the status while nothing is read yet, and while a read waits for a second to agree
    waiting, reading = "waiting for the dice", "reading the dice"

    def __init__(self, session: Session, camera: Any, *, reader: PlainDiceReading | None = None,
                 dice_set: DiceSet | None = None, still_seconds: float = 0.6):
        super().__init__()
        from vision.motion import SteadyReads

        self.session, self.camera = session, camera
        self.reader, self.dice_set = reader, dice_set
        self._status = self.waiting
        self.played = 0
        self._steady = SteadyReads(still_seconds, MOTION_LEVEL)
        self._last: Any = None

    # -- what an input says ---------------------------------------------------------------------
    def problem(self, read: Any) -> str:  # pragma: no cover - every input overrides it
        """Why ``read`` cannot be played, or ``''``."""
        raise NotImplementedError

    def same(self, a: Any, b: Any) -> bool:
        """Whether two reads show the same dice."""
        return bool(a.grid == b.grid)

    def to_event(self, read: Any) -> dict[str, Any]:  # pragma: no cover - every input overrides it
        raise NotImplementedError

    def shown(self, read: Any) -> str:
        """The read in a status line."""
        return " ".join(die.face for die in read.dice)

    # -- the loop -------------------------------------------------------------------------------
    def due(self) -> bool:
        """Whether the rules wait for the dice now."""
        return any(action.key == self.due_key for action in self.session.game.actions())

    @property
    def status(self) -> str:
        """What the input says now, in words the host can act on."""
        return self._status

    def _say(self, status: str) -> None:
        self._status = status
        self.session.set_device("camera", status)

    def feed(self, frame: Any, t: float) -> list:
        """One frame at table time ``t``; returns the session's result of the move it completed."""
        from vision.dice import as_grey
        from vision.errors import VisionError

        if self._steady.moved(as_grey(frame), t):
            if self.due():
                self._say("the dice are moving (or a hand is over them)")
            return []
        if not self.due():
            return []
        if self.session.setup.language != "en":
            self._say(f"the camera reads Latin letters only: {self.instead}")
            return []
        if not self._steady.due(t):
            return []
        if self.reader is None:
            from vision.plaindice import default_reader

            self.reader = default_reader()
        try:
            read = self.reader.read(frame, self.dice_set)
        except VisionError as error:
            self._steady.forget()
            self._say(str(error))
            return []
        problem = self.problem(read)
        if problem:
            self._steady.forget()
            self._say(problem)
            return []
        if not self._steady.agrees(read, t, self.same):
            self._say(self.reading)
            return []
        if self._last is not None and self.same(read, self._last):   # not shaken since the last move
            self._say(f"these are the dice already played: {self.instead}")
            return []
        self._last = read
        self.played += 1
        self._say("read: " + self.shown(read))
        event = self.to_event(read)
        event["confidence"] = round(float(min((die.confidence for die in read.dice), default=1.0)), 3)
        event["t"] = t
        return [self.session.submit(event, source="camera")]


class TrayCameraInput(PlainDiceFeed):
    """Frames -> the plain dice reader -> the word grid's ``tray`` event: a full grid of the
    game's size (its ``size`` option), every face sure, read the same twice."""

    due_key, instead = "shake", TRAY_INSTEAD
    waiting, reading = "waiting for the tray", "reading the tray"

    @property
    def size(self) -> int:
        return int(self.session.setup.option("size", 4))

    def problem(self, read: Any) -> str:
        return tray_problem(read, self.size)

    def to_event(self, read: Any) -> dict[str, Any]:
        return {"type": "tray", "grid": tray_rows(read.grid)}

    def shown(self, read: Any) -> str:
        return " / ".join(" ".join(row) for row in read.grid)


class PlainRollInput(PlainDiceFeed):
    """Frames -> the plain dice reader -> letter dice's ``roll`` event: every die of the box
    (``dice_set``) seen, each face sure and one letter (or ``*``), the same dice in the same
    places twice; the faces in reading order."""

    due_key, instead = "roll", ROLL_INSTEAD

    def problem(self, read: Any) -> str:
        faces = [die.face for die in reading_order(read)]
        if self.dice_set is not None and len(faces) != len(self.dice_set):
            return f"the camera sees {len(faces)} dice, and the box has {len(self.dice_set)}: {ROLL_INSTEAD}"
        unsure = unsure_problem(faces, ROLL_INSTEAD)
        if unsure:
            return unsure
        double = next((face for face in faces if len(face) > 1), None)
        if double is not None:
            return f"a die shows {double}, and letter dice take one letter a face: {ROLL_INSTEAD}"
        return ""

    def same(self, a: Any, b: Any) -> bool:
        first, second = reading_order(a), reading_order(b)
        return len(first) == len(second) and all(
            x.face == y.face and abs(x.centre[0] - y.centre[0]) < SAME_PLACE and abs(x.centre[1] - y.centre[1]) < SAME_PLACE
            for x, y in zip(first, second))

    def to_event(self, read: Any) -> dict[str, Any]:
        return {"type": "roll", "faces": [die.face for die in reading_order(read)]}

    def shown(self, read: Any) -> str:
        return " ".join(die.face for die in reading_order(read))
