"""Reading a whole board from one frame: locate -> cells -> letters -> words.

>>> from rules.board import parse_board
>>> from rules.squares import Square
>>> from vision.synth.scene import render_scene
>>> rows = ["1111111"] * 7
>>> b = parse_board("rows = 7\\ncols = 7\\n[layers]\\nvalues = %s\\nzones = %s" % (rows, ["......."] * 7))
>>> frame = render_scene(b, {Square(3, 2): "C", Square(3, 3): "A", Square(3, 4): "T"}, seed=2, tilt_deg=20, glare=False)
>>> read = BoardReader(b, lexicon=["CAT", "COT", "DOG"]).read(frame)
>>> read.rows[3], [w.text for w in read.words]
('..CAT..', ['CAT'])
"""

from __future__ import annotations

import pathlib

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from rules.board import Board
from rules.grid import Grid
from rules.squares import Direction, Square
from vision import acceptance as acceptance_model
from vision.cells import INK, OCCLUDED, STATE_NAMES, CellJudge
from vision.hands import HandMemory
from vision.letters import LetterModel, model_for, normalise, softmax
from vision.locate import MARGIN, Located, locate
from vision.readability import glare_reason, hidden_by_glare, unreadable_reason, washed_out
from vision.words import CONFIRM_BELOW, Decoded, LexiconIndex, Verification, decode, verify

#: how the photo is resampled to the canonical image the squares are judged and cut from: bicubic
#: keeps a blurred stroke a little sharper than bilinear (on the tuning writers' letters in camera
#: scenes, +0.4 points Latin and +0.6 Ukrainian, letter network unchanged; docs/vision.md,
#: "What the camera scene costs the letters")
INTERPOLATION = cv2.INTER_CUBIC


@dataclass
class ReadWord:
    """A run of two or more written squares, decoded."""

    text: str
    squares: tuple[Square, ...]
    direction: Direction
    confidence: float
    raw: str
    in_lexicon: bool
    alternatives: list = field(default_factory=list)
    weakest: float = 0.0  #: the smallest log-probability the letter network gave a letter of it
    known: int = 0  #: its letters that were already on the board (given to the decoding)
    #: taken without asking (the reader's :class:`vision.acceptance.Acceptance`); None: by the share alone
    sure: bool | None = None

    @property
    def needs_confirmation(self) -> bool:
        return not self.sure if self.sure is not None else self.confidence < CONFIRM_BELOW


@dataclass
class BoardRead:
    """What one frame shows: the grid as read, per-square states and probabilities, words."""

    rows: list[str]  #: one string a row, '.' empty, '?' occluded, letters as decoded
    states: np.ndarray  #: (rows, cols) 0 empty, 1 ink, 2 occluded
    probs: np.ndarray  #: (rows, cols, letters) letter probabilities (zeros where no ink)
    confidence: np.ndarray  #: (rows, cols) confidence of each written square's letter
    words: list[ReadWord]
    located: Located
    #: each written square's normalised letter image (28x28 uint8): what a player's hand memory learns from
    images: dict[Square, np.ndarray] = field(default_factory=dict)
    #: why this frame cannot be read (too small, too blurred: :mod:`vision.readability`), or None:
    #: an unreadable read is never taken for what the board shows
    unreadable: str | None = None

    @property
    def occluded(self) -> list[Square]:
        return [Square(int(r), int(c)) for r, c in zip(*np.nonzero(self.states == OCCLUDED))]

    def state(self, square: Square) -> str:
        return STATE_NAMES[int(self.states[square])]

    def logp(self, squares) -> np.ndarray:
        """Letter log-probabilities (n, letters) of ``squares`` in order."""
        return np.log(np.clip(np.stack([self.probs[sq] for sq in squares]), 1e-6, 1.0))

    def grid(self) -> Grid:
        """The letters read as a :class:`rules.grid.Grid` (occluded squares left empty)."""
        return Grid.from_rows([row.replace("?", ".") for row in self.rows])


class BoardReader:
    """Reads frames of one board. ``language`` picks the letter network (:func:`vision.letters.model_for`:
    ``en`` A-Z, ``uk`` the Ukrainian alphabet) unless ``model`` is given. ``lexicon``: a
    :class:`rules.lexicon.Lexicon`, a list of words or a :class:`LexiconIndex` of the model's
    letters; without one, words are read letter by letter.
    ``marker_corners``: from a calibration (stick-on markers); default the printed layout.
    ``cache``: a folder where the board's printed look is kept and memory-mapped from on later
    runs (:mod:`vision.arraycache`); None computes it here.
    ``acceptance``: when a word is taken without asking (default: the one fitted for the letter
    network, :func:`vision.acceptance.for_model`)."""

    interpolation = INTERPOLATION  #: how the photo is resampled to the canonical image (OpenCV ``INTER_*``)

    def __init__(self, board: Board, lexicon=None, *, model: LetterModel | None = None, cell: int = 30,
                 marker_corners: dict | None = None, cache: pathlib.Path | None = None, language: str = "en",
                 acceptance: acceptance_model.Acceptance | None = None):
        self.board, self.cell = board, cell
        self.model = model or model_for(language)
        self.acceptance = acceptance or acceptance_model.for_model(getattr(self.model, "path", None))
        self.alphabet = self.model.alphabet
        if isinstance(lexicon, LexiconIndex) or lexicon is None:
            self.index = lexicon
        else:
            self.index = LexiconIndex(lexicon, alphabet=self.alphabet)
        if self.index is not None and self.index.alphabet != self.alphabet:
            raise ValueError(f"the dictionary is of the letters {self.index.alphabet[:3]}..., the letter model "
                             f"reads {self.alphabet[:3]}...: make the reading index with the model's alphabet")
        self.judge = CellJudge.cached(board, cell, cache)
        self.marker_corners = marker_corners

    def verify(self, read: BoardRead, squares, expected: str) -> Verification:
        """Is ``expected`` (the clue card's answer) what is written on ``squares``?"""
        return verify(read.logp(squares), expected, self.index, alphabet=self.alphabet)

    def locate(self, frame: np.ndarray) -> Located:
        return locate(frame, self.board.rows, self.board.cols, cell=self.cell, marker_corners=self.marker_corners)

    def canonical(self, frame: np.ndarray, located: Located) -> np.ndarray:
        """The top-down image of the board in ``frame`` at :attr:`cell` pixels a square, as the
        reader judges and cuts squares from it (resampled by :attr:`interpolation`)."""
        return located.warp(frame, self.interpolation)

    def read(self, frame: np.ndarray, located: Located | None = None, hand: HandMemory | None = None,
             known: dict[Square, str] | None = None) -> BoardRead:
        """Read ``frame``; raises :class:`vision.errors.BoardNotFound` when the board is not seen.
        ``hand``: the memory of the player who is writing (:mod:`vision.hands`), used on every
        written square (the words already on the board are the journal's, not this read's).
        ``known``: letters already on the board (confirmed before: :func:`known_letters`); a word
        read across one of them keeps it, and only the dictionary words that have it are weighed."""
        loc = located or self.locate(frame)
        canon = self.canonical(frame, loc)
        analysis = self.judge.analyse(canon)
        states = analysis.states
        rows, cols = states.shape
        probs = np.zeros((rows, cols, len(self.alphabet)), np.float32)
        inked = [Square(int(r), int(c)) for r, c in zip(*np.nonzero(states == INK))]
        images: dict[Square, np.ndarray] = {}
        if inked:
            normalised = np.stack([normalise(ink) for ink in analysis.ink_maps([(sq.row, sq.col) for sq in inked])])
            features, scores = self.model.outputs(normalised)
            if hand is not None:
                scores = hand.adjust(features, scores)
            for sq, pr, image in zip(inked, softmax(scores), normalised):
                probs[sq] = pr
                images[sq] = np.round(image * 255).astype(np.uint8)
        letters = np.full((rows, cols), ".", dtype="<U1")
        letters[states == OCCLUDED] = "?"
        conf = np.zeros((rows, cols), np.float32)
        for sq in inked:
            letters[sq] = self.alphabet[int(probs[sq].argmax())]
            conf[sq] = probs[sq].max()
        given = {sq: self.alphabet.index(ch) for sq, ch in (known or {}).items()
                 if ch in self.alphabet and 0 <= sq.row < rows and 0 <= sq.col < cols and states[sq] == INK}
        words = self._decode_words(states, probs, letters, conf, given, analysis.doubt)
        unreadable = None if loc.corners is None else unreadable_reason(frame, loc.corners, rows, cols)
        if unreadable is None and inked:
            hidden = hidden_by_glare(washed_out(canon, self.cell, rows, cols, MARGIN), states == INK)
            if hidden:
                unreadable = glare_reason([self.board.label(Square(r, c)) for r, c in hidden])
        return BoardRead(["".join(row) for row in letters], states, probs, conf, words, loc, images, unreadable)

    def _runs(self, states: np.ndarray):
        rows, cols = states.shape
        for direction in (Direction.ACROSS, Direction.DOWN):
            grid = states if direction is Direction.ACROSS else states.T
            for i, line in enumerate(grid):
                j = 0
                while j < len(line):
                    if line[j] != INK:
                        j += 1
                        continue
                    k = j
                    while k < len(line) and line[k] == INK:
                        k += 1
                    if k - j >= 2:
                        sqs = tuple(Square(i, x) if direction is Direction.ACROSS else Square(x, i) for x in range(j, k))
                        yield direction, sqs
                    j = k

    def _decode_words(self, states, probs, letters, conf, given: dict[Square, int],
                      doubt: np.ndarray | None = None) -> list[ReadWord]:
        """The runs of ``states`` decoded, the surest first (its letters fixed for the runs crossing
        it). A run beside a doubtful square (``doubt``: :attr:`vision.cells.CellAnalysis.doubt`) is
        never taken without asking: the written word may go on across a letter judged empty."""
        runs = list(self._runs(states))
        logp = np.log(np.clip(probs, 1e-6, 1.0)) / self.acceptance.temperature
        first = [decode(logp[tuple(np.array(s).T)], self.index, alphabet=self.alphabet) for _d, s in runs]
        order = sorted(range(len(runs)), key=lambda k: -first[k].confidence)
        fixed_letters: dict[Square, int] = dict(given)
        words: list[ReadWord | None] = [None] * len(runs)
        for k in order:
            direction, sqs = runs[k]
            fixed = {i: fixed_letters[s] for i, s in enumerate(sqs) if s in fixed_letters}
            d: Decoded = decode(logp[tuple(np.array(sqs).T)], self.index, fixed, self.alphabet) if fixed else first[k]
            for s, ch in zip(sqs, d.text):
                fixed_letters[s] = self.alphabet.index(ch)
                letters[s] = ch
                conf[s] = max(conf[s], d.confidence) if d.in_lexicon else conf[s]
            d = replace(d, known=sum(s in given for s in sqs))  # confirmed before, not this read's other words
            sure = self.acceptance.accepts(d) and not (doubt is not None and beside_doubt(sqs, direction, doubt))
            words[k] = ReadWord(d.text, sqs, direction, d.confidence, d.raw, d.in_lexicon, d.alternatives, d.weakest,
                                d.known, sure)
        return [w for w in words if w is not None]


def beside_doubt(squares: tuple[Square, ...], direction: Direction, doubt: np.ndarray) -> bool:
    """Is the square just before ``squares``' first or just after their last, in ``direction``,
    doubtful (``doubt``: :attr:`vision.cells.CellAnalysis.doubt`)? Then the run may be part of a
    longer written word whose letter there was judged empty.

    >>> doubt = np.zeros((1, 5), bool); doubt[0, 2] = True
    >>> beside_doubt((Square(0, 0), Square(0, 1)), Direction.ACROSS, doubt)
    True
    >>> beside_doubt((Square(0, 3), Square(0, 4)), Direction.ACROSS, doubt)
    True
    >>> beside_doubt((Square(0, 3), Square(0, 4)), Direction.ACROSS, np.zeros((1, 5), bool))
    False
    """
    dr, dc = direction.step
    first, last = squares[0], squares[-1]
    for r, c in ((first.row - dr, first.col - dc), (last.row + dr, last.col + dc)):
        if 0 <= r < doubt.shape[0] and 0 <= c < doubt.shape[1] and doubt[r, c]:
            return True
    return False


def known_letters(rows: list[str] | None) -> dict[Square, str]:
    """The letters of a board's rows (``'.'`` empty, ``'?'`` unknown) by square: what
    :meth:`BoardReader.read` takes as ``known``.

    >>> known_letters(["C.", "AT"])
    {Square(row=0, col=0): 'C', Square(row=1, col=0): 'A', Square(row=1, col=1): 'T'}
    """
    return {Square(r, c): ch for r, row in enumerate(rows or []) for c, ch in enumerate(row) if ch not in ".?"}
