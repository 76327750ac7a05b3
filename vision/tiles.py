"""Reading letter tiles on a board: each square empty, a tile with its letter, or a blank tile.

The board is found by its printed markers, or, on a boxed board that has none, from the grid's
four outer corners in the photo (``corners``, from its top-left clockwise) or, without them, by
its grid (:mod:`vision.gridfind`: its lines and its premium squares' colours). The board's surface
is warped top-down at :data:`CELL` pixels a square and the light evened out (each pixel divided
by the brightest surface round it, so a darker side or a warm lamp reads like daylight). A small
network (``vision/models/tiles.onnx``, trained by ``scripts/train_tiles.py`` on synthetic photos
of printed and boxed sets, run by OpenCV's ``dnn``) looks at a :data:`WINDOW`-pixel window round
each square and says what lies there: ``.`` nothing (whatever the square has printed on it),
``?`` a blank tile, or one of the letter shapes of :data:`GLYPHS` (Latin, and the Ukrainian
letters that look like no Latin one); the set's language picks the letters that can be.

Raised tiles in an oblique photo do not sit on their squares: their faces are nearer the camera
and shift away from it. A first pass finds the sure tiles (when few of the tile-like squares are
sure, it looks for them a third of a square off their squares too); where each sure tile's face
lies is found by sliding a face-sized box round it to where the face's tone is; those shifts are
fitted across the board (a plane for each axis: the shift grows with the distance from the
camera), and a second pass reads every square where its tile's face is.

Runs of two or more tiles are decoded against the dictionary like handwriting
(:func:`vision.words.decode`; a blank is a wildcard there), so an unsure letter inside a word
comes out as the word's letter; a word the dictionary lacks is read as the letters show.

>>> from tabletop.resources import load_board
>>> from rules.squares import Square
>>> from vision.synth.tilescene import tile_scene
>>> board = load_board("questique", required=("marks",))
>>> shot = tile_scene(board, {Square(9, 8): "C", Square(9, 9): "A", Square(9, 10): "T"}, seed=2)
>>> read = TileReader(board, "en").read(shot.frame)
>>> read.rows[9][7:12], [w.text for w in read.words]
('.CAT.', ['CAT'])
"""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Direction, Square
from vision.errors import BadImage, BoardNotFound
from vision.locate import MARGIN, Located, NoMarkers, check_frame, locate
from vision.words import Decoded, LexiconIndex, decode

MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "tiles.onnx"
CELL = 26  #: pixels a square in the top-down image
WINDOW = 32  #: side of the window the network looks at, round a square's middle
#: the letter shapes the network tells apart: A-Z and the Ukrainian letters unlike any of them
GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZБГҐДЄЖЗИЇЙЛПУФЦЧШЩЬЮЯ"
EMPTY, BLANK = ".", "?"
CLASSES = EMPTY + BLANK + GLYPHS
#: Ukrainian capitals printed exactly like a Latin one
SAME_SHAPE = {"А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "К": "K", "М": "M", "О": "O",
              "Р": "P", "Т": "T", "Х": "X"}
#: a square read with less than this probability is *unsure*: the host is asked about it
UNSURE = 0.8
#: tiles surer than this place the fit of how far raised tiles' faces are shifted
SURE = 0.95
#: below this shift (squares) anywhere on the board, the first pass stands
SHIFT_MATTERS = 0.15
#: when fewer than this share of the tile-like squares are sure, the tiles are looked for off
#: their squares (:meth:`TileReader._search`): at most SEARCH_MOST squares, SEARCH_STEP squares off
SEARCH_BELOW, SEARCH_MOST, SEARCH_STEP = 0.6, 60, 0.3
#: how far (squares) round where a sure tile was read its face is looked for, and by how much the
#: share of face-toned pixels in the box must vary there (else no face stands out)
FACE_REACH, FACE_STANDS_OUT = 0.3, 0.25
#: where the places the box fits best spread wider than this (squares) along an axis, the face's
#: place along it is not known (tiles that touch, along a word)
FACE_SPREAD = 0.2
#: pixels within this share of the face's tone (round the letter read) count as the face
FACE_TONE = 0.12


def glyph(letter: str) -> str:
    """The shape class of a capital letter (``glyph("О") == "O"``: Cyrillic O looks like Latin O).

    >>> glyph("Ж"), glyph("Р"), glyph("Q")
    ('Ж', 'P', 'Q')
    """
    return SAME_SHAPE.get(letter, letter)


class TileModel:
    """The tile network, run by OpenCV's ``dnn`` on one thread's worth of work per call."""

    def __init__(self, path: pathlib.Path = MODEL_PATH):
        if not path.exists():
            raise FileNotFoundError(f"no tile model at {path}: run scripts/train_tiles.py")
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def predict(self, windows: np.ndarray) -> np.ndarray:
        """``windows`` (n, 3, WINDOW, WINDOW) float32 -> (n, len(CLASSES)) probabilities."""
        if len(windows) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        self.net.setInput(np.ascontiguousarray(windows, np.float32))
        logits = np.asarray(self.net.forward(), np.float32)
        logits -= logits.max(1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(1, keepdims=True)


@functools.lru_cache(maxsize=1)
def default_model() -> TileModel:
    """The shipped tile network, loaded once."""
    return TileModel()


def even_light(top_down: np.ndarray, cell: int = CELL) -> np.ndarray:
    """The top-down board as float32 BGR with the light evened out: each pixel divided by the
    brightest grey within about a square and a half (tiles' faces and white paper come out near
    1 wherever they lie: in glare, in a darker side, under a warm lamp)."""
    image = top_down.astype(np.float32)
    h, w = image.shape[:2]
    small = cv2.resize(cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY), (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    size = int(cell * 1.5 / 4) | 1                      # the light is worked out at a quarter size: it is smooth
    bright = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    bright = cv2.GaussianBlur(bright.astype(np.float32), (0, 0), cell * 0.75 / 4)
    bright = cv2.resize(bright, (w, h), interpolation=cv2.INTER_LINEAR)
    return image / np.maximum(bright, 8.0)[..., None]


def windows(light: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """The :data:`WINDOW`-pixel windows round ``centres`` ((n, 2) x, y in the top-down image),
    as the network takes them: (n, 3, WINDOW, WINDOW), centred on 0."""
    out = np.empty((len(centres), WINDOW, WINDOW, 3), np.float32)
    for k, (x, y) in enumerate(centres):
        out[k] = cv2.getRectSubPix(light, (WINDOW, WINDOW), (float(x), float(y)))
    return out.transpose(0, 3, 1, 2) - 0.5


def from_corners(shape: tuple[int, ...], corners: np.ndarray, rows: int, cols: int, cell: int = CELL) -> Located:
    """The board of ``rows`` x ``cols`` squares whose grid has its outer ``corners`` (TL, TR, BR,
    BL) there in a photo of ``shape``; :class:`BoardNotFound` when they cannot frame one.

    >>> from_corners((600, 800, 3), np.array([[100, 50], [50, 550], [750, 550], [700, 50]]), 15, 15)
    Traceback (most recent call last):
    ...
    vision.errors.BoardNotFound: board not found: the four corners given do not frame a board (give them from the top-left, clockwise)
    """
    h, w = shape[:2]
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    if not np.isfinite(corners).all() or (corners < -0.05 * max(h, w)).any() or \
            (corners[:, 0] > 1.05 * w).any() or (corners[:, 1] > 1.05 * h).any():
        raise BoardNotFound(f"the corners given lie outside the {w}x{h} photo")
    outline = corners.astype(np.float32)
    (ax, ay), (bx, by) = outline[1] - outline[0], outline[2] - outline[1]
    clockwise = float(ax * by - ay * bx) > 0                     # as seen in the photo (y runs down)
    if cv2.contourArea(outline) < 0.01 * h * w or not cv2.isContourConvex(outline) or not clockwise:
        raise BoardNotFound("the four corners given do not frame a board (give them from the top-left, clockwise)")
    grid = (np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64) + MARGIN) * cell
    homography = cv2.getPerspectiveTransform(outline, grid.astype(np.float32))
    located = Located(homography, "corners", (), cell, rows, cols)
    located.corners = corners
    return located


@dataclass(frozen=True)
class TileWord:
    """A run of two or more tiles, decoded (``text`` has the word's letters, blanks included)."""

    text: str
    squares: tuple[Square, ...]
    direction: Direction
    confidence: float
    raw: str
    in_lexicon: bool

    def to_json(self) -> dict[str, object]:
        return {"word": self.text, "squares": [[s.row, s.col] for s in self.squares],
                "direction": self.direction.value, "confidence": round(self.confidence, 3),
                "in_dictionary": self.in_lexicon, "raw": self.raw}


@dataclass(frozen=True)
class TilesRead:
    """What lies on the board: ``rows`` as DESIGN.md's grid (``.`` empty, a capital letter, ``?``
    a blank tile), how sure each square is, the words the tiles make, and where the board was."""

    rows: tuple[str, ...]
    confidence: np.ndarray
    words: tuple[TileWord, ...]
    located: Located
    shift: float = 0.0  #: the largest shift of raised tiles' faces found, in squares

    @property
    def unsure(self) -> list[Square]:
        """The squares read with less than :data:`UNSURE` probability (ask the host)."""
        return [Square(int(r), int(c)) for r, c in zip(*np.nonzero(self.confidence < UNSURE))]

    def tile(self, square: Square) -> str | None:
        code = self.rows[square.row][square.col]
        return None if code == EMPTY else code


class TileReader:
    """Reads the tiles on one board (see the module docstring).

    ``language`` is the tile set's (en, uk); ``corners`` the grid's four outer corners in the
    photo (TL, TR, BR, BL; a board without markers); ``index`` the dictionary the words are
    decoded with (:func:`tabletop.lexicons.reading_index` with the set's alphabet), or None.
    """

    def __init__(self, board: Board, language: str = "en", *, corners: np.ndarray | None = None,
                 index: LexiconIndex | None = None, model: TileModel | None = None, cell: int = CELL):
        from rules.questique_tiles import alphabet

        self.board, self.cell, self.index = board, cell, index
        self.letters = alphabet(language)
        self.columns = np.array([CLASSES.index(EMPTY), CLASSES.index(BLANK)] +
                                [CLASSES.index(glyph(ch)) for ch in self.letters])
        self.codes = EMPTY + BLANK + self.letters
        self.corners = None if corners is None else np.asarray(corners, np.float64).reshape(4, 2)
        self.model = model or default_model()
        m = MARGIN * cell
        xs, ys = np.meshgrid(m + (np.arange(board.cols) + 0.5) * cell, m + (np.arange(board.rows) + 0.5) * cell)
        self.middles = np.stack([xs.ravel(), ys.ravel()], 1)

    def locate(self, frame: np.ndarray) -> Located:
        """Where the board is: from ``corners`` when given, else by the printed markers, else
        (none in view: a boxed board) by its grid (:func:`vision.gridfind.find_grid`, with the
        board's ``premiums`` layer when it has one); :class:`BoardNotFound` when none of them is."""
        rows, cols = self.board.rows, self.board.cols
        if self.corners is not None:
            return from_corners(check_frame(frame).shape, self.corners, rows, cols, self.cell)
        try:
            return locate(frame, rows, cols, cell=self.cell, outline=False)
        except NoMarkers:
            pass
        from vision.gridfind import find_grid

        found = find_grid(check_frame(frame), rows, cols, self.board.layers.get("premiums"))
        located = from_corners(frame.shape, found.corners, rows, cols, self.cell)
        located.method = "grid"
        return located

    def read(self, frame: np.ndarray, located: Located | None = None) -> TilesRead:
        """Read ``frame``; :class:`vision.errors.BoardNotFound` when the board is not in it."""
        located = located or self.locate(frame)
        light = even_light(located.warp(check_frame(frame)), self.cell)
        probs = self._classify(windows(light, self.middles))
        sure = np.nonzero(probs[:, 2:].max(1) > SURE)[0]
        start = np.zeros((len(sure), 2))
        tile_like = np.nonzero(probs[:, 0] < 0.5)[0]
        if len(sure) < SEARCH_BELOW * len(tile_like):
            sure, start = self._search(light, tile_like[np.argsort(probs[tile_like, 0])][:SEARCH_MOST])
        shift = self._shift(light, sure, start)
        largest = float(np.abs(shift).max()) / self.cell if len(shift) else 0.0
        if largest > SHIFT_MATTERS:
            probs = self._classify(windows(light, self.middles + shift))
        return self._result(probs, located, largest)

    def _classify(self, cut: np.ndarray) -> np.ndarray:
        """(squares, codes) probabilities of this set's codes (empty, blank, its letters)."""
        p = self.model.predict(cut)[:, self.columns]
        return p / np.maximum(p.sum(1, keepdims=True), 1e-9)

    def _search(self, light: np.ndarray, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where raised tiles stand far off their squares (a low camera, tall tiles) few tiles are
        sure in their squares' windows: look at ``squares`` again at eight offsets round their
        middles. The offset where most tiles are sure wins (a tile half-way between two squares
        is sure from both; the board's tiles all lean one way); each square keeps the offset at
        or next to it where its letter is surest. Returns the squares found sure and their
        offsets (pixels)."""
        step = SEARCH_STEP * self.cell
        offsets = np.array([(dx, dy) for dy in (-step, 0.0, step) for dx in (-step, 0.0, step)])
        letter = np.stack([self._classify(windows(light, self.middles[squares] + offset))[:, 2:].max(1)
                           for offset in offsets])
        winner = offsets[int((letter > SURE).sum(1).argmax())]
        near = np.abs(offsets - winner).max(1) <= step + 1e-9
        letter[~near] = 0.0
        best = letter.argmax(0)
        found = letter[best, np.arange(len(squares))] > SURE
        return squares[found], offsets[best[found]]

    def _shift(self, light: np.ndarray, sure: np.ndarray, start: np.ndarray) -> np.ndarray:
        """How far each square's tile face lies from its square (pixels, (squares, 2)), fitted as
        a plane over the board (each axis on its own) from where the faces of the ``sure`` tiles
        are (looked for round ``start`` pixels off their squares' middles)."""
        shift = np.zeros_like(self.middles)
        if len(sure) < 3:
            return shift
        offsets, known = self._faces(light, self.middles[sure] + start)
        for axis in (0, 1):
            use = known[:, axis]
            if use.sum() >= 3:
                shift[:, axis] = self._plane(self.middles[sure[use]], start[use, axis] + offsets[use, axis])
        return shift

    def _plane(self, at: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``values`` seen at ``at`` (pixels) fitted as a plane over the board, outliers left out,
        and read at every square; no further than the values seen (a plane fitted to a few rows
        must not run away); their median where they are too few for a plane."""
        if len(at) < 6:
            return np.full(len(self.middles), float(np.median(values)))
        scale = self.cell * max(self.board.rows, self.board.cols)
        design = np.hstack([np.ones((len(at), 1)), at / scale])
        keep = np.ones(len(at), bool)
        for _ in range(2):
            coef, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
            residual = np.abs(design @ coef - values)
            keep = residual < max(0.1 * self.cell, float(np.median(residual)) * 2.5)
            if keep.sum() < 6:
                break
        fitted = np.hstack([np.ones((len(self.middles), 1)), self.middles / scale]) @ coef
        seen, slack = (values[keep] if keep.any() else values), 0.2 * self.cell
        return np.clip(fitted, seen.min() - slack, seen.max() + slack)

    def _faces(self, light: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each tile's face is, from ``centres`` (pixels): the middle of the places where a
        box three quarters of a square wide holds most pixels of the face's tone (taken round
        the letter read there; the tile's sides and shadow are darker, the board another colour,
        and the letter is inside the box wherever it lies on the face). Returns the offsets
        (pixels, (tiles, 2)) and, for each tile and axis, whether the face showed where it is
        along it: not where the face does not stand out from what lies round it (a flat tile on
        white paper), nor along a word (the box slides along tiles that touch)."""
        grey = np.ascontiguousarray(light.mean(2) if light.ndim == 3 else light, np.float32)
        side = int(round(1.7 * self.cell)) | 1
        box = int(round(0.75 * self.cell))
        reach = int(round(FACE_REACH * self.cell))
        mid = side // 2
        offsets = np.zeros((len(centres), 2))
        known = np.zeros((len(centres), 2), bool)
        for k, (x, y) in enumerate(centres):
            patch = cv2.getRectSubPix(grey, (side, side), (float(x), float(y)))
            level = float(np.percentile(patch[mid - box // 3:mid + box // 3 + 1, mid - box // 3:mid + box // 3 + 1], 80))
            face = (np.abs(patch - level) < FACE_TONE * level).astype(np.float32)   # the tone of the face read there
            score = cv2.boxFilter(face, -1, (box, box))[mid - reach:mid + reach + 1, mid - reach:mid + reach + 1]
            if score.max() < 0.5 or score.max() - score.min() < FACE_STANDS_OUT or score[reach, reach] < 0.6 * score.max():
                continue                 # no face stands out, or the bright thing is not the tile read there
            ys, xs = np.nonzero(score >= score.max() - 0.02)
            offsets[k] = (xs.mean() - reach, ys.mean() - reach)
            known[k] = (np.ptp(xs) <= FACE_SPREAD * self.cell, np.ptp(ys) <= FACE_SPREAD * self.cell)
        return offsets, known

    def _result(self, probs: np.ndarray, located: Located, shift: float) -> TilesRead:
        rows, cols = self.board.rows, self.board.cols
        best = probs.argmax(1)
        codes = np.array(list(self.codes))[best].reshape(rows, cols)
        confidence = probs.max(1).reshape(rows, cols)
        probs = probs.reshape(rows, cols, -1)
        words = tuple(self._decode(probs, codes, confidence))
        return TilesRead(tuple("".join(row) for row in codes), confidence, words, located, shift)

    def _decode(self, probs: np.ndarray, codes: np.ndarray, confidence: np.ndarray) -> list[TileWord]:
        """Each run of two or more tiles decoded against the dictionary; a letter the word
        settles is written into ``codes`` (a blank stays ``?``), and it is as sure as the word."""
        tiled = codes != EMPTY
        letters = probs[:, :, 2:]
        logp = np.log(np.clip(letters / np.maximum(letters.sum(2, keepdims=True), 1e-9), 1e-6, 1.0))
        blank = codes == BLANK
        logp[blank] = -np.log(len(self.letters))
        words = []
        for direction, squares in _runs(tiled):
            index = tuple(np.array(squares).T)
            found: Decoded = decode(logp[index], self.index, alphabet=self.letters)
            for sq, ch in zip(squares, found.text):
                if not blank[sq] and found.in_lexicon and found.confidence > confidence[sq]:
                    codes[sq], confidence[sq] = ch, found.confidence
            words.append(TileWord(found.text, tuple(Square(*s) for s in squares), direction, found.confidence,
                                  found.raw, found.in_lexicon))
        return words


def _runs(tiled: np.ndarray):
    """(direction, squares) of every run of two or more tiled squares, across then down."""
    for direction, grid in ((Direction.ACROSS, tiled), (Direction.DOWN, tiled.T)):
        for i, line in enumerate(grid):
            j = 0
            while j < len(line):
                if not line[j]:
                    j += 1
                    continue
                k = j
                while k < len(line) and line[k]:
                    k += 1
                if k - j >= 2:
                    yield direction, [(i, x) if direction is Direction.ACROSS else (x, i) for x in range(j, k)]
                j = k


__all__ = ["TileReader", "TilesRead", "TileWord", "TileModel", "BadImage", "BoardNotFound", "glyph"]
