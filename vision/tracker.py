"""Live tracking: turn a video stream into ``write`` events, once each, never from a frame with
a hand in it.

Every frame is first compared, at 160x90, with the previous one (the cheap steady-state path).
Once the picture has been still for ``still_seconds`` after a change, one full read is made (and
every ``recheck_seconds`` anyway, for changes too slow to see between two frames); if any square is
occluded (a hand, an arm, a pen over the board) nothing is committed and the tracker waits for
the next movement. Otherwise the read is compared with the last committed board: vision reports
what changed, each new run of letters with its confidence and images, and the rules infer the write
it stands for (:func:`rules.placement.infer_write`); the two together are a :class:`WriteDetection`.

>>> from rules.board import parse_board
>>> from rules.squares import Square
>>> from vision.reader import BoardReader
>>> from vision.synth.scene import render_scene
>>> b = parse_board("rows = 7\\ncols = 7\\n[layers]\\nvalues = %s\\nzones = %s" % (["1111111"] * 7, ["......."] * 7))
>>> tracker = Tracker(BoardReader(b, lexicon=["CAT", "DOG"]))
>>> empty = render_scene(b, {}, seed=4, tilt_deg=10, glare=False)
>>> cat = render_scene(b, {Square(3, 2): "C", Square(3, 3): "A", Square(3, 4): "T"}, seed=4, tilt_deg=10, glare=False)
>>> events = [e for t, f in enumerate([empty] * 3 + [cat] * 4) for e in tracker.feed(f, t * 0.25)]
>>> [e.to_event() for e in events]
[{'type': 'write', 'text': 'CAT', 'row': 3, 'col': 2, 'dir': 'across', 'confidence': 1.0}]
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from rules.errors import NotInOneLine
from rules.grid import Grid
from rules.placement import InferredWrite, infer_write
from rules.squares import Direction, Square
from vision.cells import INK, OCCLUDED
from vision.errors import BadImage, BoardNotFound
from vision.locate import check_frame
from vision.hands import HandMemory
from vision.reader import BoardRead, BoardReader
from vision.words import CONFIRM_BELOW


@dataclass(frozen=True)
class WriteDetection:
    """New letters read in one line (what changed on the board), and the write they stand for."""

    write: InferredWrite  #: the whole word the new letters make, letters already there included
    confidences: tuple[float, ...]  #: per new square
    confidence: float  #: the word's (lexicon decoding) confidence
    t: float
    #: the new squares' normalised letter images (what the writer's hand memory learns once the word is confirmed)
    images: tuple[np.ndarray, ...] = field(default=(), compare=False, repr=False)
    #: taken without asking (the reader's acceptance of the word read); None: by the confidence alone
    sure: bool | None = field(default=None, compare=False)

    @property
    def squares(self) -> tuple[Square, ...]:
        """The newly written squares, in reading order."""
        return self.write.new_squares

    @property
    def letters(self) -> str:
        """The letters read in :attr:`squares`."""
        return "".join(letter for _, letter in self.write.new_letters)

    @property
    def text(self) -> str:
        """The whole word along :attr:`direction` after the write."""
        return self.write.text

    @property
    def start(self) -> Square:
        return self.write.start

    @property
    def direction(self) -> Direction:
        return self.write.direction

    @property
    def needs_confirmation(self) -> bool:
        return not self.sure if self.sure is not None else self.confidence < CONFIRM_BELOW

    def lesson(self) -> dict | None:
        """The new squares' letters and images as a hand lesson (:mod:`tabletop.session.hands`):
        ``{"letters": ..., "images": [base64, ...]}``; None when the images are missing."""
        if len(self.images) != len(self.letters) or not self.letters:
            return None
        return {"letters": self.letters,
                "images": [base64.b64encode(np.ascontiguousarray(i, np.uint8).tobytes()).decode("ascii") for i in self.images]}

    def readings(self, read: BoardRead | None, most: int = 3) -> tuple[str, ...]:
        """This write's text and the reader's next-best readings of the same squares (as long, best
        first): what the writer is offered when the table is unsure. ``read``: the board read the
        write was found in (``None``: only the text)."""
        found = [self.text]
        for word in read.words if read is not None else ():
            if word.direction is self.direction and tuple(word.squares) == tuple(self.write.squares):
                found += [text for text, _share in word.alternatives
                          if len(text) == len(self.text) and text not in found]
                break
        return tuple(found[:most])

    def to_event(self) -> dict:
        """A DESIGN.md ``write`` event (the session adds ``player``)."""
        return {**self.write.event(), "confidence": round(float(self.confidence), 3)}


class Tracker:
    """Feeds on frames (``feed(frame, t)``); see the module docstring."""

    def __init__(self, reader: BoardReader, *, still_seconds: float = 0.5, motion_level: float = 6.0,
                 recheck_seconds: float = 3.0, baseline: list[str] | None = None):
        self.reader = reader
        self.still_seconds, self.motion_level, self.recheck_seconds = still_seconds, motion_level, recheck_seconds
        self._last_read_t: float | None = None
        rows, cols = reader.board.rows, reader.board.cols
        self.committed = [list(r) for r in baseline] if baseline else [["."] * cols for _ in range(rows)]
        self._previous: np.ndarray | None = None
        self._still_since: float | None = None
        self._dirty = True  #: something may have changed since the last committed read
        self._last: tuple | None = None
        self.last_read: BoardRead | None = None
        self.status = "waiting"  #: 'moving', 'still', 'hand', 'no board', 'committed'
        self.hand: HandMemory | None = None  #: the writing player's letters (:mod:`vision.hands`), set by the table
        #: the letters the game holds on the board (confirmed: :func:`vision.reader.known_letters`),
        #: asked for at each read, set by the table; words read across them keep them
        self.known: Callable[[], dict[Square, str]] | None = None
        #: the word the game awaits now (a clue card's answer), asked for at each write, set by the
        #: table: a write read as it is taken without asking when the answer checks out
        #: (:meth:`vision.reader.BoardReader.verify`), though the reading alone was unsure
        self.expected: Callable[[], str | None] | None = None

    @property
    def committed_rows(self) -> list[str]:
        return ["".join(r) for r in self.committed]

    def moved(self, frame: np.ndarray) -> bool:
        """The cheap per-frame check: did the picture change since the previous frame?"""
        gray = cv2.cvtColor(cv2.resize(frame, (160, 90), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        prev, self._previous = self._previous, gray
        if prev is None or prev.shape != gray.shape:
            return True
        diff = cv2.absdiff(gray, prev)
        # a new letter changes a few pixels clearly; sensor noise averages out at this size
        return float(np.mean(diff)) > self.motion_level * 0.25 or int(np.count_nonzero(diff > 2 * self.motion_level)) > 3

    def feed(self, frame: np.ndarray, t: float) -> list[WriteDetection]:
        """One video frame at time ``t`` (seconds); returns the writes it completes (usually none)."""
        try:
            frame = check_frame(frame)
        except BadImage:
            self.status = "bad frame"
            return []
        if self.moved(frame):
            self._still_since, self._dirty, self.status = t, True, "moving"
            return []
        if self._still_since is None:
            self._still_since = t
        if self._last_read_t is not None and t - self._last_read_t >= self.recheck_seconds:
            self._dirty = True  # a slow change the frame difference missed: look again now and then
        if not self._dirty or t - self._still_since < self.still_seconds:
            return []
        self._dirty = False  # one read per still period
        self._last_read_t = t
        try:
            read = self.reader.read(frame, hand=self.hand, known=self.known() if self.known is not None else None)
        except BoardNotFound:
            self.status = "no board"
            return []
        self.last_read = read
        if read.unreadable:
            self.status = read.unreadable  # never a letter from a board too small or too blurred
            return []
        if (read.states == OCCLUDED).any():
            self.status = "hand"  # never commit a frame with something over the board
            return []
        self.status = "committed"
        return self.commit(read, t)

    def commit(self, read: BoardRead, t: float) -> list[WriteDetection]:
        """Take ``read`` as what the board now shows: the writes it holds that the committed board
        did not (a photo read apart from the video, such as a phone's scan, comes in here).

        A lone mark, a written square with no written square beside it, is no word in any of the
        games: it is neither reported nor committed (a glare speck read as a letter, or the first
        letter of a word still being written, is looked at again with its neighbours). New letters
        that make no single word (an L of letters written in one go) are committed as read but
        reported as no write: the host enters what they are."""
        rows, cols = read.states.shape
        inked = read.states == INK
        beside = np.zeros_like(inked)
        beside[1:, :] |= inked[:-1, :]
        beside[:-1, :] |= inked[1:, :]
        beside[:, 1:] |= inked[:, :-1]
        beside[:, :-1] |= inked[:, 1:]
        standing = inked & beside
        new = [Square(r, c) for r in range(rows) for c in range(cols)
               if standing[r, c] and self.committed[r][c] == "."]
        for r in range(rows):
            for c in range(cols):
                self.committed[r][c] = read.rows[r][c] if standing[r, c] else "."
        written = Grid.from_rows(self.committed_rows)
        out = []
        for group in _groups(new, written):
            det = self._detection(read, group, written, t)
            if det is None:
                continue
            key = (det.text, det.start, det.direction, det.squares)
            if key != self._last:
                self._last = key
                out.append(det)
        return out

    def _detection(self, read: BoardRead, group: list[Square], written: Grid, t: float) -> WriteDetection | None:
        """The new squares of ``group`` as a write on the ``written`` board (None when they make
        no single word: an L of letters)."""
        try:
            write = infer_write(written.without(group), {q: written[q] for q in group})
        except NotInOneLine:
            return None
        word = next((w for w in read.words if w.direction is write.direction and set(group) <= set(w.squares)), None)
        confidence = word.confidence if word is not None else float(min(read.confidence[q] for q in group))
        sure = None if word is None else not word.needs_confirmation
        awaited = self.expected() if self.expected is not None and not sure else None
        if awaited and awaited.upper() == write.text:
            checked = self.reader.verify(read, write.squares, awaited)
            sure = checked.matches and not checked.needs_confirmation
        return WriteDetection(write, tuple(float(read.confidence[q]) for q in write.new_squares), confidence, t,
                              tuple(read.images[q] for q in write.new_squares if q in read.images), sure)


def _groups(squares: list[Square], written: Grid) -> list[list[Square]]:
    """New squares split into the writes they may be: two belong together when they are in one
    row or column with nothing but ``written`` squares between them. Letters put on both sides
    of a word already there are one write; two words written apart in one row are two.

    >>> g = Grid.from_rows(["AB..CD", "..X...", "..YZ.."])
    >>> _groups([Square(0, 0), Square(0, 1), Square(0, 4), Square(0, 5)], g)
    [[Square(row=0, col=0), Square(row=0, col=1)], [Square(row=0, col=4), Square(row=0, col=5)]]
    >>> _groups([Square(0, 1), Square(2, 3)], g)   # B and Z are not in one line: apart
    [[Square(row=0, col=1)], [Square(row=2, col=3)]]
    """
    new, left, groups = set(squares), set(squares), []
    while left:
        stack, group = [left.pop()], []
        while stack:
            square = stack.pop()
            group.append(square)
            for direction in Direction:
                for way in (1, -1):
                    other = square.step(direction, way)
                    while other in written and other not in new:
                        other = other.step(direction, way)
                    if other in left:
                        left.remove(other)
                        stack.append(other)
        groups.append(sorted(group))
    return sorted(groups)
