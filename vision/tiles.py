"""Reading letter tiles on a board: each square empty, a tile with its letter, or a blank tile.

The board is found by its printed markers, or, on a boxed board that has none, from the grid's
four outer corners in the photo (``corners``, from its top-left clockwise) or, without them, by
its grid (:mod:`vision.gridfind`: its lines and its premium squares' colours). The board's surface
is warped top-down at :data:`CELL` pixels a square and the light evened out (each pixel divided
by the brightest surface round it, so a darker side or a warm lamp reads like daylight). A small
network (``vision/models/tiles.onnx``, trained by ``scripts/train_tiles.py`` on synthetic photos
of printed and boxed sets, run by ONNX Runtime: :mod:`vision.onnxnet`) looks at a :data:`WINDOW`-pixel window round
each square (but plain squares of the board's colour with no tile beside them, or none at all
when the set's blanks cannot look like plain board) and says what lies there: ``.`` nothing (whatever the square has printed on it),
``?`` a blank tile, or one of the letter shapes of :data:`GLYPHS` (Latin, and the Ukrainian
letters that look like no Latin one); the set's language picks the letters that can be. It reads
light tiles with dark letters and dark tiles with light letters alike; a second network trained
on light tiles only (``tiles-light.onnx``, ``train_tiles.py --light``, more accurate on them) reads a board's
tiles instead when it too sees the board's likeliest tiles as tiles (light tiles): it reads
again only the squares the first read did not find clearly empty, and those beside them; the
general network reads them too, at the same place, and both networks' chances of a tile together
say whether a tile lies there (:func:`both_say`), the one that saw a tile naming it. A blank tile is told by its colour too: a square the network
takes for a blank must have the letter tiles' colour, and one it takes for empty but gives a fair chance of a blank is a blank
when it has their colour and not the board's; one of the board's own colour that the network is
unsure of, whose face lies off its square, must show at its own square the edge and side of a
raised tile (:func:`relief`), or it is plain board. A premium square read as a letter that shows its
premium class's own colour and not the letter tiles' is an empty square: its printed label (a
current Hasbro board prints them turned a quarter, three stripes an H). A letter read unsurely is read again from four
places a pixel round it, and the five reads averaged (a small stroke, И's diagonal, reads
differently from one pixel to the next).

Raised tiles in an oblique photo do not sit on their squares: their faces are nearer the camera,
and warped top-down through the board's plane they land off their squares, each square by its
own amount (more toward the camera's side, more the more oblique the view). The camera is worked
out from the grid (:mod:`vision.parallax`); a few tile heights are tried on the 30 squares that
look most like tiles (even shifts of the whole board instead when the grid does not tell the
camera: a photo already warped top-down, or a straight view), the height where the network reads
most of them surely wins (an even shift, a blind guess, only if it also makes the two networks
agree more than flat: :func:`agreement`), and the squares near tiles are read where a tile's face
of that height would be. The
printed board's own tiles are card: on a board found by its markers whose likeliest tiles read
surely where they lie, no height is tried.

With a dictionary, on a board whose runs mostly read as its words, the board's words settle the
read (:mod:`vision.tilewords`): runs of two or more tiles are decoded against it like handwriting
(a blank is a wildcard there), so an unsure letter inside a word comes out as the word's letter,
and a square read unsurely as empty becomes the letter its words need.

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
from typing import TYPE_CHECKING

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.errors import BadImage, BoardNotFound
from vision.locate import MARGIN, Located, NoMarkers, check_frame, locate
from vision.onnxnet import OnnxNet
from vision.parallax import RaisedFaces
from vision.tilewords import BLANK, EMPTY, Memo, TileWord, decode_runs, fill_gaps, plays_words
from vision.words import LexiconIndex

if TYPE_CHECKING:
    from vision.gridfind import GridFound

MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "tiles.onnx"
#: the network trained on light tiles with dark letters only (``train_tiles.py --light``): where it reads
#: a board's tiles surer than the general network, it reads that board
LIGHT_MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "tiles-light.onnx"
CELL = 26  #: pixels a square in the top-down image
WINDOW = 32  #: side of the window the network looks at, round a square's middle
#: the letter shapes the network tells apart: A-Z and the Ukrainian letters unlike any of them
GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZБГҐДЄЖЗИЇЙЛПУФЦЧШЩЬЮЯ"
CLASSES = EMPTY + BLANK + GLYPHS
#: Ukrainian capitals printed exactly like a Latin one
SAME_SHAPE = {"А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "К": "K", "М": "M", "О": "O",
              "Р": "P", "Т": "T", "Х": "X"}
#: the network's blank-tile probability is weighed by this before the squares are read: a blank
#: is a tenth of the tiles it trained on and about a fiftieth of a real set's (2 of 100), and an
#: empty premium square it takes for a blank is a false tile
BLANK_PRIOR = 0.2
#: a square read as a blank whose face's colour is further than this (in evened-light units, any
#: channel) from the letter tiles' faces is an empty square (true blanks on tuning renders: up to
#: 0.18; empty squares read as blanks: mostly 0.23-1.0)
BLANK_COLOUR = 0.22
#: a square read as empty is a blank when the network gives it at least this chance of being one,
#: its face's colour is within :data:`BLANK_FACE` of the letter tiles' and :data:`BLANK_COLOUR`
#: from the board's (six 10-photo tuning families: 6 of 8 blanks read empty found so, no empty square taken)
BLANK_RESCUE = 0.04
BLANK_FACE = 0.1
#: a square read as a blank less surely than :data:`RELIEF_UNSURE`, of the board's own colour
#: (within :data:`BLANK_FACE`), must show a raised tile's relief at its own square: the mean
#: gradient (grey, evened-light units a pixel, Sobel) over its middle (:data:`BLANK_PATCH` pixels)
#: at least this, or it is an empty square. A raised face lies off its square, and its edge and
#: side cross the square; plain board does not (tuning renders of pale wood on light boards, seeds
#: 53000-53129 and 53600-53629, squares so read: 52 blanks at 0.106-0.33, 16 empty squares at
#: 0.03-0.30, 7 of them under 0.1; an empty square beside a tile shows that tile's face)
BLANK_RELIEF = 0.1
RELIEF_UNSURE = 0.9
#: ... and only where its face was found at least this far (squares) off its square: a face on its
#: square (a straight view, a low tile) hides its edge and side, and a blank looks as plain as the
#: board (tuning renders of boxed boards, seeds 53800-53859: a blank 0.03 square off, relief 0.06)
RELIEF_OFF = 0.05
#: a premium square read as a letter within this (evened-light units, any channel) of its premium
#: class's median colour, and not of the letter tiles' colour, shows its own label (:meth:`TileReader._check_labels`)
LABEL_COLOUR = 0.1
#: the board's colour is the median of at most this many squares read clearly empty
BOARD_SQUARES = 40
#: the side (pixels) of the middle of a square whose colour is its face's
BLANK_PATCH = 18
#: a square read with less than this probability is *unsure*: the host is asked about it
UNSURE = 0.8
#: the heights (squares) tried for the tiles' faces: a card tile, wooden and plastic sets, tall ones
HEIGHTS = (0.0, 0.08, 0.16, 0.25, 0.35, 0.46, 0.58)
#: on a board found by its printed markers (the project's printed board: its tiles are card) no
#: height is tried when the board's likeliest tiles read at least this sure where they lie (the
#: mean of -log(1 - p): 4.9-6.1 on tuning renders of the printed board, seeds 47000-47019)
FLAT_SURE = 4.0
#: the network for the board and the height are judged on at most this many squares, those that
#: look most like letter tiles at first (20 read 7-10 fewer tiles of 1,151 on 30 tuning renders)
HEIGHT_SQUARES = 30
#: a square whose middle (this many pixels a side) is of one even colour (its channels' spread
#: under :data:`PLAIN_SPREAD`, in evened-light units), the board's (within :data:`PLAIN_COLOUR`),
#: is plain empty board: no network reads it (20-45 % of a boxed board's squares, 70 % of the
#: printed board's, on tuning renders; no tile among them)
PLAIN_PATCH = 16
PLAIN_SPREAD = 0.04
PLAIN_COLOUR = 0.08
#: squares read empty surer than this at first, with none beside them less sure, are not read again
CLEARLY_EMPTY = 0.98
#: below this shift (squares) anywhere on the board, the first pass stands
SHIFT_MATTERS = 0.08
#: a square read as a letter less surely than this is read again with its window moved by each of
#: :data:`STEADY_STEPS` (top-down pixels), the reads averaged (tuning renders of the dark family,
#: seeds 52000-52029: 96.66 -> 97.41 % of the tiles; 0.99 read one tile more at twice the windows)
STEADY_BELOW = 0.9
STEADY_STEPS = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
#: the even shifts of the whole board tried for raised faces (squares), in eight directions each
EVEN_SHIFTS = (0.15, 0.3)
#: windows a network call reads at most: with OpenCV's dnn, a read's few hundred windows in one
#: blob cost 90-145 µs a window, in calls of 16 about 65-90 (issue 24's sixth round); ONNX Runtime
#: reads calls of 16, 32 or 64 alike (75-78 ms of CPU a read of ten real photos, interleaved;
#: tenth round); every window's read is the same whatever the batch
BATCH = 16


def glyph(letter: str) -> str:
    """The shape class of a capital letter (``glyph("О") == "O"``: Cyrillic O looks like Latin O).

    >>> glyph("Ж"), glyph("Р"), glyph("Q")
    ('Ж', 'P', 'Q')
    """
    return SAME_SHAPE.get(letter, letter)


class TileModel:
    """The tile network, run by ONNX Runtime on the calling thread (:class:`vision.onnxnet.OnnxNet`),
    at most ``batch`` windows a call (:data:`BATCH`)."""

    def __init__(self, path: pathlib.Path = MODEL_PATH, batch: int = BATCH):
        if batch < 1:
            raise ValueError(f"a network call reads at least one window, not {batch}")
        self.net = OnnxNet(path, "tile model", "run scripts/train_tiles.py")
        self.batch = batch

    def predict(self, windows: np.ndarray) -> np.ndarray:
        """``windows`` (n, 3, WINDOW, WINDOW) float32 -> (n, len(CLASSES)) probabilities, read
        ``batch`` windows at a time (each window's read is the same whatever the batch).

        >>> model = default_model()
        >>> cut = np.random.default_rng(1).random((40, 3, WINDOW, WINDOW), dtype=np.float32) - 0.5
        >>> bool(np.abs(TileModel(batch=7).predict(cut) - model.predict(cut)).max() < 1e-6)
        True
        """
        if len(windows) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        windows = np.ascontiguousarray(windows, np.float32)
        logits = np.concatenate([self._forward(windows[k:k + self.batch]) for k in range(0, len(windows), self.batch)])
        logits -= logits.max(1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(1, keepdims=True)

    def _forward(self, windows: np.ndarray) -> np.ndarray:
        """The network's logits for a few contiguous ``windows``."""
        return np.asarray(self.net.run(windows)[0], np.float32)


@functools.lru_cache(maxsize=1)
def default_model() -> TileModel:
    """The shipped tile network, loaded once."""
    return TileModel()


@functools.lru_cache(maxsize=1)
def light_model() -> TileModel | None:
    """The shipped network for light tiles with dark letters, loaded once (None when absent)."""
    return TileModel(LIGHT_MODEL_PATH) if LIGHT_MODEL_PATH.exists() else None


def even_light(top_down: np.ndarray, cell: int = CELL) -> np.ndarray:
    """The top-down board as float32 BGR with the light evened out: each pixel divided by the
    brightest grey within about a square and a half (tiles' faces and white paper come out near
    1 wherever they lie: in glare, in a darker side, under a warm lamp)."""
    h, w = top_down.shape[:2]
    small = cv2.resize(cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY), (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    size = int(cell * 1.5 / 4) | 1                      # the light is worked out at a quarter size: it is smooth
    bright = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    bright = cv2.GaussianBlur(bright.astype(np.float32), (0, 0), cell * 0.75 / 4)
    bright = cv2.resize(bright, (w, h), interpolation=cv2.INTER_LINEAR)
    np.maximum(bright, np.float32(8.0), out=bright)
    # the 8-bit pixels are divided as float32 without a float copy of the image first (the same numbers)
    return np.divide(top_down, bright[..., None], dtype=np.float32)


def windows(light: np.ndarray, centres: np.ndarray, size: int = WINDOW) -> np.ndarray:
    """The ``size``-pixel windows round ``centres`` ((n, 2) x, y in the top-down image), as the
    network takes them (:data:`WINDOW` pixels): (n, 3, size, size), centred on 0."""
    out = np.empty((len(centres), size, size, 3), np.float32)
    cut, patch = cv2.getRectSubPix, (size, size)
    if light.dtype == np.float32:
        for k, centre in enumerate(np.asarray(centres, np.float64).tolist()):
            cut(light, patch, centre, out[k])           # written in place: no window copied twice
    else:
        for k, centre in enumerate(np.asarray(centres, np.float64).tolist()):
            out[k] = cut(light, patch, centre)
    out -= np.float32(0.5)
    return out.transpose(0, 3, 1, 2).copy()


def square_patches(image: np.ndarray, x: np.ndarray, y: np.ndarray, size: int) -> np.ndarray:
    """The ``size``-pixel patches of ``image`` (h, w, channels) round the pixels ``x``, ``y`` (two
    (rows, cols) integer grids, a board's squares row by row), from ``x - size // 2`` on, as one
    C-ordered (rows * cols, size, size, channels) array; pixel for pixel
    ``image[y + dy, x + dx]`` for ``dy, dx`` in ``range(-(size // 2), size - size // 2)``.

    A board's squares lie on an even grid: then the patches are read through a strided view of the
    image (one copy), not gathered pixel by pixel; an uneven grid, or one reaching past the image,
    is gathered (a negative index counts from the far edge, as numpy's do).

    >>> image = np.arange(10 * 12 * 1, dtype=np.float32).reshape(10, 12, 1)
    >>> xs, ys = np.meshgrid([3, 8], [2, 7])
    >>> square_patches(image, xs, ys, 2)[1, :, :, 0].tolist()
    [[19.0, 20.0], [31.0, 32.0]]
    """
    rows, cols = x.shape
    x0, y0 = int(x[0, 0]) - size // 2, int(y[0, 0]) - size // 2
    across = int(x[0, 1] - x[0, 0]) if cols > 1 else size
    down = int(y[1, 0] - y[0, 0]) if rows > 1 else size
    even = (np.array_equal(x, x0 + size // 2 + across * np.arange(cols)[None, :].repeat(rows, 0))
            and np.array_equal(y, y0 + size // 2 + down * np.arange(rows)[:, None].repeat(cols, 1)))
    inside = x0 >= 0 and y0 >= 0 and across > 0 and down > 0 and \
        x0 + across * (cols - 1) + size <= image.shape[1] and y0 + down * (rows - 1) + size <= image.shape[0]
    if not (even and inside):
        steps = np.arange(size) - size // 2
        xs, ys = x.ravel(), y.ravel()
        return image[(ys[:, None] + steps)[:, :, None], (xs[:, None] + steps)[:, None, :]]
    corner = image[y0:, x0:]
    s0, s1 = corner.strides[:2]
    view = np.lib.stride_tricks.as_strided(corner, (rows, cols, size, size) + image.shape[2:],
                                           (down * s0, across * s1, s0, s1) + corner.strides[2:], writeable=False)
    return np.ascontiguousarray(view.reshape((rows * cols, size, size) + image.shape[2:]))


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
        self.light = None if model is not None else light_model()
        m = MARGIN * cell
        xs, ys = np.meshgrid(m + (np.arange(board.cols) + 0.5) * cell, m + (np.arange(board.rows) + 0.5) * cell)
        self.middles = np.stack([xs.ravel(), ys.ravel()], 1)
        premiums = board.layers.get("premiums")
        #: each square's premium class (``.`` plain), row by row; None on a board without premiums
        self.premium_kinds = np.array([ch for row in premiums for ch in row]) if premiums else None

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
        found = self.find_grid(frame)
        located = from_corners(frame.shape, found.corners, rows, cols, self.cell)
        located.method = "grid"
        if found.straight is not None:                   # seen through a lens: the squares are read through it
            seen_to_straight = cv2.getPerspectiveTransform(found.corners.astype(np.float32),
                                                           found.straight.astype(np.float32))
            located.homography = located.homography @ np.linalg.inv(seen_to_straight)
            located.lens = found.lens
        return located

    def find_grid(self, frame: np.ndarray) -> GridFound:
        """The board's grid found in ``frame`` without corners (:func:`vision.gridfind.find_grid`,
        with the board's ``premiums`` layer and the squares this reader sees tiles on, so tiles on
        the corner squares are not taken for a lens's bend); :class:`BoardNotFound` when it is not."""
        from vision.gridfind import find_grid

        frame = check_frame(frame)
        return find_grid(frame, self.board.rows, self.board.cols, self.board.layers.get("premiums"),
                         covered=lambda corners: self.covered(frame, corners))

    def covered(self, frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """Which squares hold a tile, at a glance: the general network's first read of the board
        with its grid at ``corners`` (the photo's pixels, TL, TR, BR, BL), a (rows, cols) mask.

        >>> from tabletop.resources import load_board
        >>> from vision.synth.tilescene import tile_scene
        >>> board = load_board("examples/boards/boxed-15x15.toml", required=())
        >>> shot = tile_scene(board, {Square(7, 7): "A", Square(0, 14): "B"}, seed=3, style="commercial")
        >>> mask = TileReader(board).covered(shot.frame, shot.corners)
        >>> np.argwhere(mask).tolist()
        [[0, 14], [7, 7]]
        """
        rows, cols = self.board.rows, self.board.cols
        probs, _plain, _board = self._glance(even_light(from_corners(frame.shape, corners, rows, cols, self.cell).warp(frame),
                                                        self.cell))
        return (probs[:, 0] < 0.5).reshape(rows, cols)

    def _glance(self, light: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first read of the evened top-down board ``light``: (squares, codes) probabilities,
        the general network's on every square but the plainly empty ones (:meth:`_plain`, read as
        empty), which squares those are, and the board's colour."""
        probs = np.zeros((len(self.middles), len(self.codes)), np.float32)
        probs[:, 0] = 1.0
        plain, board_colour = self._plain(light)
        looked = np.flatnonzero(~plain)
        probs[looked] = self._classify(windows(light, self.middles[looked]), self.model)
        return probs, plain, board_colour

    def read(self, frame: np.ndarray, located: Located | None = None) -> TilesRead:
        """Read ``frame``; :class:`vision.errors.BoardNotFound` when the board is not in it."""
        frame = check_frame(frame)
        located = located or self.locate(frame)
        light = even_light(located.warp(frame), self.cell)
        probs, plain, board_colour = self._glance(light)
        tiles = probs[:, 0] < 0.5                             # as the first read sees them
        tile_like = self._tile_like(probs)[:HEIGHT_SQUARES]
        model, seen = self._network_for(probs, light, tile_like)
        offsets, searched, found = self._raised(light, tile_like, seen, located, frame.shape[:2], model, probs[tile_like])
        largest = float(np.abs(offsets).max()) / self.cell if len(offsets) else 0.0
        if model is not self.model or largest > SHIFT_MATTERS:
            again = np.setdiff1d(self._near_tiles(probs), searched)
            self._read_again(probs, again[~plain[again]], light, model, offsets)
            probs[searched] = found if model is self.model else \
                self._with_general(found, windows(light, self.middles[searched] + offsets[searched]))
        else:
            model, offsets = self.model, np.zeros_like(self.middles)
        if self._blank_may_look_plain(light, tile_like, board_colour):
            self._read_beside_tiles(probs, plain, tiles, light, model, offsets)
        self._check_blanks(probs, light, self.middles + offsets)
        self._check_labels(probs, light, self.middles + offsets)
        self._steady_letters(probs, light, model, offsets)
        return self._result(probs, located, largest)

    def _steady_letters(self, probs: np.ndarray, light: np.ndarray, model: TileModel, offsets: np.ndarray) -> None:
        """The squares read as letters less surely than :data:`STEADY_BELOW` read again by ``model``
        with their window moved a pixel each way (:data:`STEADY_STEPS`), all the reads averaged
        (``probs`` changed in place): a small letter's stroke (И's diagonal, Ї's dots) that a
        window's place blurs into another letter's reads more often right from a few places. Read
        by the light network, the general one too says whether a tile lies there (:func:`both_say`,
        the light network naming the letter)."""
        unsure = np.flatnonzero((probs.argmax(1) >= 2) & (probs.max(1) < STEADY_BELOW))
        if len(unsure) == 0:
            return
        centres = self.middles[unsure] + offsets[unsure]
        moved = np.concatenate([centres + step for step in STEADY_STEPS])
        cut = windows(light, moved)
        reads = self._classify(cut, model)
        if model is not self.model:
            reads = self._with_general(reads, cut, light_names=True)
        reads = reads.reshape(len(STEADY_STEPS), len(unsure), -1)
        probs[unsure] = (probs[unsure] + reads.sum(0)) / (len(STEADY_STEPS) + 1)

    def _read_again(self, probs: np.ndarray, squares: np.ndarray, light: np.ndarray, model: TileModel,
                    offsets: np.ndarray) -> None:
        """``squares`` read (again) by ``model`` where their tiles' faces would be (``offsets``),
        ``probs`` changed in place; read by the light network, by the general one too, at the
        same place, both networks' chances of a tile together say whether one lies there
        (:func:`both_say`). The light network never saw a board's printed marks up
        close, and the arrows of a premium square's edge, half a square off a raised tile's
        face, it reads as A or Л (tuning renders of wood and light tiles on light boards, seeds
        43000-43059); the general one reads a real photo's W as V (`bench tiles --photos`), and
        it reads wooden tiles of real photos the light network takes for empty squares (P 0.45-0.85)
        surely as tiles (issue 24's seventh round)."""
        if len(squares) == 0:
            return
        probs[squares] = self._read(windows(light, self.middles[squares] + offsets[squares]), model)

    def _read(self, cut: np.ndarray, model: TileModel) -> np.ndarray:
        """The windows ``cut`` read by ``model`` (:meth:`_classify`); when that is the light
        network, by the general one too (:meth:`_with_general`)."""
        read = self._classify(cut, model)
        return read if model is self.model else self._with_general(read, cut)

    def _with_general(self, read: np.ndarray, cut: np.ndarray, light_names: bool = False) -> np.ndarray:
        """The light network's ``read`` of the windows ``cut`` together with the general
        network's (:func:`both_say`), which reads only the windows the light network does not
        take clearly for empty squares (:data:`CLEARLY_EMPTY`: the general network would have to
        be surer of a tile to change them; the 21 real photos and 280 tuning renders, seeds
        61000-61669, read the same square for square as with every window read by both).
        Where the light network is as sure of a tile, the general one is asked: a pale board's
        plain square it takes surely for a blank is doubted so (test_tiles, seed 60055)."""
        asked = np.flatnonzero(read[:, 0] <= CLEARLY_EMPTY)
        out = read.copy()
        out[asked] = both_say(read[asked], self._classify(cut[asked], self.model), light_names)
        return out

    def _check_blanks(self, probs: np.ndarray, light: np.ndarray, centres: np.ndarray) -> None:
        """Blank tiles told by their colour and relief, ``probs`` changed in place. A tile's face
        has its set's colour: the median colour of the middle of its window (``centres``: where
        the squares were read) is the letter tiles' (the median over the squares read surely as
        letters). A square read as a blank whose colour is far from theirs (:data:`BLANK_COLOUR`)
        is an empty square (a premium square, most often); a square read as empty that the
        network gave some chance of being a blank (:data:`BLANK_RESCUE`), of the letter tiles'
        colour and far from the board's (the median over the squares read surely empty), is a
        blank. A square read unsurely as a blank but of the board's own colour, where colour
        cannot tell, whose face lies off its square (:data:`RELIEF_OFF`), is a blank only if its
        own square shows a raised tile's relief (:func:`relief`, :data:`BLANK_RELIEF`)."""
        codes = probs.argmax(1)
        letters = np.flatnonzero((codes >= 2) & (probs.max(1) > 0.9))
        blanks = np.flatnonzero(codes == 1)
        maybe = np.flatnonzero((codes == 0) & (probs[:, 1] >= BLANK_RESCUE))
        empty = np.flatnonzero(probs[:, 0] > CLEARLY_EMPTY)[::3][:BOARD_SQUARES]
        if len(letters) < 3 or len(blanks) + len(maybe) == 0:
            return
        chosen = np.concatenate([letters, blanks, maybe, empty])
        colours = face_colours(light, centres[chosen])
        face = np.median(colours[:len(letters)], 0)
        off_face = np.abs(colours - face).max(1)
        at = len(letters) + len(blanks)
        far = blanks[off_face[len(letters):at] > BLANK_COLOUR]
        probs[far, 1] = 0.0
        if len(empty) >= 3:
            board = np.median(colours[at + len(maybe):], 0)
            off_board = np.abs(colours[len(letters):at + len(maybe)] - board).max(1)
            found = maybe[(off_face[at:at + len(maybe)] <= BLANK_FACE) & (off_board[len(blanks):] >= BLANK_COLOUR)]
            probs[found, 1] = np.maximum(probs[found, 1], probs[found, 0] + 1e-3)
            off = np.hypot(*(centres[blanks] - self.middles[blanks]).T) >= RELIEF_OFF * self.cell
            plain = blanks[(off_board[:len(blanks)] <= BLANK_FACE) & (probs[blanks, 1] < RELIEF_UNSURE) & off]
            flat = plain[relief(light, self.middles[plain]) < BLANK_RELIEF]
            probs[flat, 1] = 0.0
            far = np.concatenate([far, flat])
        changed = np.concatenate([far, maybe])
        probs[changed] /= np.maximum(probs[changed].sum(1, keepdims=True), 1e-9)

    def _check_labels(self, probs: np.ndarray, light: np.ndarray, centres: np.ndarray) -> None:
        """Premium squares' printed labels read as letters, told by colour (``probs`` changed in
        place; boards with a ``premiums`` layer). A tile hides the square it lies on: its face has
        its set's colour whatever the square, and a label has its square's. A premium square read
        as a letter is an empty square when the middle of its window (``centres``) has its premium
        class's colour (within :data:`LABEL_COLOUR` of the median over all that class's squares,
        most of them uncovered) and, where three or more squares of no premium are read surely as
        letters, not the letter tiles' (further than :data:`BLANK_COLOUR` from their median colour).
        With fewer (an empty board, or nearly), a square of any class read as a blank is tested the
        same way, plain squares too (:meth:`_check_blanks` needs letters; a board whose plain
        squares are framed inside light lines looks like blank tiles). A current Hasbro board's
        labels, printed turned a quarter, read as H (issue 24's ninth round)."""
        kinds = self.premium_kinds
        codes = probs.argmax(1)
        if kinds is None or not (codes >= 1).any():
            return
        plain_letters = np.flatnonzero((codes >= 2) & (probs.max(1) > 0.9) & (kinds == "."))
        few = len(plain_letters) < 3               # then blanks too: :meth:`_check_blanks` needs letters
        doubted = np.flatnonzero((codes >= 2) & (kinds != ".") | few & (codes == 1))
        if len(doubted) == 0:
            return
        looked = np.flatnonzero(np.isin(kinds, list(set(kinds[doubted]))))   # the doubted squares' classes
        if not few:
            looked = np.union1d(looked, plain_letters)
        colours = np.zeros((len(kinds), 3), np.float32)
        colours[looked] = face_colours(light, centres[looked])
        own = {kind: np.median(colours[kinds == kind], 0) for kind in set(kinds[doubted])}
        own_colour = np.array([np.abs(colours[sq] - own[kinds[sq]]).max() <= LABEL_COLOUR for sq in doubted], bool)
        if not few:
            face = np.median(colours[plain_letters], 0)
            own_colour &= np.abs(colours[doubted] - face).max(1) > BLANK_COLOUR
        labels = doubted[own_colour]
        probs[labels] = 0.0
        probs[labels, 0] = 1.0

    def _plain(self, light: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The squares that are plainly empty board, not worth a network's look: the middle of the
        square (:data:`PLAIN_PATCH` pixels) of one even colour (:data:`PLAIN_SPREAD`), the board's
        (within :data:`PLAIN_COLOUR` of the median square's, returned too). A tile has a letter
        or, a blank, edges and a colour of its own; a premium square, its label."""
        x, y = np.round(self.middles).astype(int).T
        patches = square_patches(light, x.reshape(self.board.rows, self.board.cols),
                                 y.reshape(self.board.rows, self.board.cols), PLAIN_PATCH)
        mean, square = patches.mean((1, 2)), (patches * patches).mean((1, 2))
        spread = np.sqrt(np.maximum(square - mean * mean, 0.0)).max(1)
        board = np.median(mean, 0)
        return (spread < PLAIN_SPREAD) & (np.abs(mean - board).max(1) < PLAIN_COLOUR), board

    def _read_beside_tiles(self, probs: np.ndarray, plain: np.ndarray, tiles: np.ndarray, light: np.ndarray,
                           model: TileModel, offsets: np.ndarray) -> None:
        """The plain squares beside (across or down) a square the first read took for a tile, and
        beside those of them read as tiles in turn, read by ``model`` where faces are (``probs``,
        ``plain`` and ``tiles`` changed in place): a blank tile of the board's own colour looks
        plain, and in a game every tile lies beside another."""
        while True:
            looked = np.flatnonzero(plain & self._beside(tiles))
            if len(looked) == 0:
                return
            plain[looked] = False
            self._read_again(probs, looked, light, model, offsets)
            tiles[looked] = probs[looked, 0] < 0.5

    def _blank_may_look_plain(self, light: np.ndarray, tile_like: np.ndarray, board: np.ndarray) -> bool:
        """Whether a blank tile of this set could pass for plain board: the letter tiles' face
        colour (the median over the middles of the ``tile_like`` squares) within
        :data:`PLAIN_COLOUR` + :data:`BLANK_COLOUR` of the ``board`` colour (a plain square lies
        within the first of the board's colour, a blank within the second of its letter tiles';
        the printed board's card tiles lie 0.34-0.38 from its paper). True when fewer than three
        squares look like tiles."""
        if len(tile_like) < 3:
            return True
        cut = windows(light, self.middles[tile_like], BLANK_PATCH) + np.float32(0.5)   # as in the light, not centred
        face = np.median(np.median(cut.reshape(len(tile_like), 3, -1), 2), 0)
        return bool(np.abs(face - board).max() <= PLAIN_COLOUR + BLANK_COLOUR)

    def _beside(self, squares: np.ndarray) -> np.ndarray:
        """The squares beside (across or down) those of the boolean mask ``squares``."""
        grid = squares.reshape(self.board.rows, self.board.cols).astype(np.uint8)
        cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
        return cv2.dilate(grid, cross).astype(bool).ravel() & ~squares

    def _tile_like(self, probs: np.ndarray) -> np.ndarray:
        """The :data:`HEIGHT_SQUARES` squares the first read takes most surely for letter tiles."""
        letters = np.flatnonzero((probs.argmax(1) >= 2) & (probs[:, 0] < 0.9))
        return letters[np.argsort(probs[letters, 0], kind="stable")][:HEIGHT_SQUARES]

    def _near_tiles(self, probs: np.ndarray) -> np.ndarray:
        """The squares to read again where raised faces are: all but those read clearly empty with
        no square beside them (diagonals too) less clearly empty."""
        rows, cols = self.board.rows, self.board.cols
        doubtful = (probs[:, 0] < CLEARLY_EMPTY).reshape(rows, cols).astype(np.uint8)
        return np.flatnonzero(cv2.dilate(doubtful, np.ones((3, 3), np.uint8)))

    def _network_for(self, probs: np.ndarray, light: np.ndarray, tile_like: np.ndarray) -> tuple[TileModel, np.ndarray]:
        """The network for this board's tiles, and its read of the ``tile_like`` squares: the one
        for light tiles with dark letters when it too reads at least half of the squares the
        general network (whose read is ``probs``) takes most surely for letter tiles as tiles;
        the general one otherwise (dark tiles with light letters, which the light network takes
        for empty squares). The light network reads light tiles better (docs/vision.md), so it
        reads every board it can. The light network reads them a batch at a time and stops once
        too few are left to make half (a board of dark tiles: about half the windows)."""
        if self.light is None or len(tile_like) == 0:
            return self.model, probs[tile_like]
        parts, tiles, batch = [], 0, BATCH
        for k in range(0, len(tile_like), batch):
            parts.append(self._classify(windows(light, self.middles[tile_like[k:k + batch]]), self.light))
            tiles += int((parts[-1][:, 0] < 0.5).sum())
            if 2 * (tiles + len(tile_like) - k - len(parts[-1])) < len(tile_like):
                return self.model, probs[tile_like]              # half can no longer be tiles
        return self.light, np.concatenate(parts)

    def faces(self, located: Located, size: tuple[int, int]) -> RaisedFaces:
        """Where the squares' raised middles land top-down, seen by the camera ``located`` gives
        (``size`` the photo's (height, width))."""
        m = MARGIN * self.cell
        squares_to_top = np.array([[self.cell, 0, m], [0, self.cell, m], [0, 0, 1]], np.float64)
        squares_to_photo = np.linalg.inv(located.homography) @ squares_to_top
        return RaisedFaces(squares_to_photo, size, self.board.rows, self.board.cols, squares_to_top)

    def _raised(self, light: np.ndarray, tile_like: np.ndarray, seen: np.ndarray, located: Located,
                size: tuple[int, int], model: TileModel, first: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """How far (top-down pixels, (squares, 2)) each square's tile face lies from its square,
        and the squares it was judged on with ``model``'s read of them there.

        Two families of displacement are tried on the ``tile_like`` squares (read by ``model``
        where they are: ``seen``): the camera worked out from the grid
        (:class:`vision.parallax.RaisedFaces`) with each tile height of :data:`HEIGHTS`, and, for
        a photo already warped top-down or a view too straight for the grid to tell the camera,
        one even shift of the whole board (:data:`EVEN_SHIFTS` of a square in eight directions).
        The displacement where they read surest wins (the sum of -log(1 - p) of their likeliest
        tile, over the heights averaged with the heights beside them; none when nothing does
        better than flat). Such a sure read is not a right one: the sum favours a network's sure
        misreads (a real photo's O read surely as Q), and of 16 even shifts one may win by chance.
        An even shift read by the light network must also make the two networks agree more than
        flat does (:func:`agreement` of their reads of the same squares, ``first`` the general
        network's read of them where they lie), or flat stands (issue 24's seventh round: a
        straight-down real photo whose faces lie on their squares read 0.15 square off)."""
        flat = np.zeros_like(self.middles)
        if len(tile_like) == 0:
            return flat, tile_like, seen
        if located.method == "markers" and _sureness(seen).mean() >= FLAT_SURE:
            return flat, tile_like, seen                      # the printed board's card tiles, read surely flat
        faces = self.faces(located, size)
        fields = [faces.offsets(h) for h in HEIGHTS[1:]]
        if faces.told and np.abs(fields[-1]).max() < SHIFT_MATTERS * self.cell:
            return flat, tile_like, seen                      # a straight view: no height moves a face enough
        if not faces.told:
            fields += _even_shifts(len(self.middles), self.cell)
        centres = np.concatenate([self.middles[tile_like] + field[tile_like] for field in fields])
        tried = np.concatenate([seen, self._classify(windows(light, centres), model)])
        surest = tried[:, 1:].max(1).reshape(len(fields) + 1, len(tile_like))
        surest[:, seen[:, 0] >= 0.9] = 0.0                  # squares that looked like tiles only to the first network
        score = -np.log(1.0 - surest + 1e-4).sum(1)          # very sure reads weigh most
        n = len(HEIGHTS)                                      # neighbouring heights read alike: smoothed,
        padded = np.concatenate([score[:1], score[:n], score[n - 1:n]])   # one lucky square sways less
        score[:n] = (padded[:-2] + 2 * padded[1:-1] + padded[2:]) / 4
        best = int(score.argmax())
        reads = tried.reshape(len(fields) + 1, len(tile_like), -1)
        if best >= len(HEIGHTS) and model is not self.model:  # a blind even shift must make the networks agree more
            moved = self._classify(windows(light, self.middles[tile_like] + fields[best - 1][tile_like]), self.model)
            if agreement(seen, first) >= agreement(reads[best], moved):
                best = 0
        return (fields[best - 1] if best else flat), tile_like, reads[best]

    def _classify(self, cut: np.ndarray, model: TileModel) -> np.ndarray:
        """(squares, codes) probabilities of this set's codes (empty, blank, its letters), read by ``model``."""
        p = model.predict(cut)[:, self.columns]
        p[:, 1] *= BLANK_PRIOR
        return p / np.maximum(p.sum(1, keepdims=True), 1e-9)

    def _result(self, probs: np.ndarray, located: Located, shift: float) -> TilesRead:
        rows, cols = self.board.rows, self.board.cols
        grid = probs.reshape(rows, cols, -1)
        memo: Memo = {}
        index = self.index if self.index is not None and plays_words(grid, self.index, self.codes, memo) else None
        if index is not None:
            fill_gaps(grid, index, self.codes, memo)
        best = probs.argmax(1)
        codes = np.array(list(self.codes))[best].reshape(rows, cols)
        confidence = probs.max(1).reshape(rows, cols)
        words = tuple(decode_runs(grid, codes, confidence, index, self.letters, memo))
        return TilesRead(tuple("".join(row) for row in codes), confidence, words, located, shift)


def face_colours(light: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """The colour (n, 3; evened-light units, centred as the windows are) of the middle of each
    square round ``centres`` ((n, 2) x, y in ``light``): the median over its :data:`BLANK_PATCH`
    pixels, a tile's face colour whatever its letter's ink.

    >>> light = np.full((60, 60, 3), 0.8, np.float32)
    >>> [round(float(v), 2) for v in face_colours(light, np.array([[30.0, 30.0]]))[0]]
    [0.3, 0.3, 0.3]
    """
    return np.median(windows(light, centres, BLANK_PATCH).reshape(len(centres), 3, -1), 2)


def relief(light: np.ndarray, centres: np.ndarray, size: int = BLANK_PATCH) -> np.ndarray:
    """How much each square round ``centres`` ((n, 2) x, y in the evened-light top-down image
    ``light``) is crossed by edges: the mean gradient magnitude of its grey (Sobel, units a pixel)
    over the middle ``size`` pixels. Plain board is near 0 (its texture and the photo's noise:
    about 0.05 for the median square read clearly empty on renders of boxed boards); a raised tile
    seen obliquely shows the edge of its face and its side there.

    >>> flat = np.full((60, 60, 3), 0.8, np.float32)
    >>> edged = flat.copy(); edged[:, 30:] = 0.5
    >>> middle = np.array([[30.0, 30.0]])
    >>> round(float(relief(flat, middle)[0]), 2), round(float(relief(edged, middle)[0]), 2)
    (0.0, 0.13)
    """
    if len(centres) == 0:
        return np.zeros(0, np.float32)
    grey = windows(light, centres, size + 2).mean(1)
    out = np.empty(len(centres), np.float32)
    for k, g in enumerate(grey):
        gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        out[k] = np.hypot(gx, gy)[1:-1, 1:-1].mean()
    return out


def both_say(light: np.ndarray, general: np.ndarray, light_names: bool = False) -> np.ndarray:
    """The light network's and the ``general`` network's reads (squares, codes) of the same
    windows, together: the chance of a tile is the two networks' chances multiplied (their
    geometric mean, normalised: a network sure of a tile outweighs one unsure of an empty
    square, and the other way round), and the network that saw a tile says which (the light
    network where both did, and always with ``light_names``); a square both take for empty has
    their reads averaged. Where the light network reads an empty square and the general one a
    blank, the light network's read stands: plain pale board the general network takes for a
    blank (tuning renders of pale wood, seeds 61300-61319).

    >>> light, general = np.array([[0.9, 0.0, 0.1, 0.0]]), np.array([[0.01, 0.0, 0.0, 0.99]])
    >>> both_say(light, general).round(3).tolist()
    [[0.232, 0.0, 0.0, 0.768]]
    >>> both_say(np.array([[0.1, 0.0, 0.9, 0.0]]), np.array([[0.4, 0.0, 0.1, 0.5]])).round(3).tolist()
    [[0.214, 0.0, 0.786, 0.0]]
    >>> both_say(np.array([[0.6, 0.3, 0.1, 0.0]]), np.array([[0.3, 0.7, 0.0, 0.0]])).tolist()
    [[0.6, 0.3, 0.1, 0.0]]
    """
    said = light.argmax(1) != 0
    doubted = said | (general.argmax(1) != 1)
    out = light.copy()
    empty = np.sqrt(light[doubted, 0] * general[doubted, 0])
    empty /= np.maximum(empty + np.sqrt((1 - light[doubted, 0]) * (1 - general[doubted, 0])), 1e-9)
    both = (light[doubted] + general[doubted]) / 2              # an empty square: both networks' reads
    namer = light[doubted] if light_names else np.where(said[doubted][:, None], light[doubted], general[doubted])
    for read in (both, namer):                                  # scaled to the chance of a tile
        read[:, 1:] *= ((1 - empty) / np.maximum(read[:, 1:].sum(1), 1e-9))[:, None]
        read[:, 0] = empty
    out[doubted] = np.where((both.argmax(1) == 0)[:, None], both, namer)
    return out


def agreement(one: np.ndarray, other: np.ndarray) -> float:
    """How much two reads (squares, codes) of the same windows agree: the sum over the squares of
    their Bhattacharyya coefficient (1 for one read, 0 for reads sharing no code).

    >>> round(agreement(np.array([[0.0, 1.0], [0.5, 0.5]]), np.array([[0.0, 1.0], [1.0, 0.0]])), 3)
    1.707
    """
    return float(np.sqrt(np.maximum(one, 0.0) * np.maximum(other, 0.0)).sum())


def _sureness(read: np.ndarray) -> np.ndarray:
    """How surely each square of ``read`` (squares, codes) is a tile: -log(1 - p) of its likeliest
    tile, 0 where it is empty with at least 0.9 probability (very sure reads weigh most).

    >>> _sureness(np.array([[0.0, 0.0, 0.99, 0.01], [0.95, 0.0, 0.05, 0.0]])).round(2).tolist()
    [4.6, 0.0]
    """
    surest = read[:, 1:].max(1) * (read[:, 0] < 0.9)
    return np.maximum(-np.log(1.0 - surest + 1e-4), 0.0)


def _even_shifts(squares: int, cell: int) -> list[np.ndarray]:
    """The even shifts tried for raised faces: :data:`EVEN_SHIFTS` of a square in eight directions,
    each as a (squares, 2) field of top-down pixels.

    >>> len(_even_shifts(4, 10)), _even_shifts(4, 10)[0][0].tolist()
    (16, [1.5, 0.0])
    """
    turns = np.arange(8) * np.pi / 4
    steps = [size * cell * np.array([np.cos(t), np.sin(t)]) for size in EVEN_SHIFTS for t in turns]
    return [np.repeat(np.round(step, 6)[None, :], squares, 0) for step in steps]


__all__ = ["TileReader", "TilesRead", "TileWord", "TileModel", "BadImage", "BoardNotFound", "agreement", "both_say", "glyph",
           "relief", "square_patches"]
