"""Per-square judgement on the canonical image: empty, ink or occluded.

The photo is compared with the board's own printed look (the reference drawing at the same
scale): light is normalised by the ratio photo/reference, then *ink* is whatever is darker than
anything printed nearby, so square colours, value digits, stars, '!' marks and zone lines never
read as ink. Large solid changes (a hand, an arm, a pen held over the board) make squares
*occluded*; letters never do, however densely the board is written: strokes are removed before
anything is joined, and only across printed lines (see :meth:`CellJudge._objects`).

>>> EMPTY, INK, OCCLUDED
(0, 1, 2)
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from rules.board import Board
from vision import arraycache
from vision.layout import grid_squares
from vision.locate import MARGIN
from vision.printing import draw_board

EMPTY, INK, OCCLUDED = 0, 1, 2
STATE_NAMES = {EMPTY: "empty", INK: "ink", OCCLUDED: "occluded"}
#: an empty square is *doubtful* (:attr:`CellAnalysis.doubt`) when its ink passes this share of
#: ``min_ink`` or its faint strokes this share of ``min_stroke`` (0.004 of the inner area, two to
#: three pixels of a 30-pixel square): a thin stroke (an І) judged empty often leaves some, clean
#: paper almost never does (on the tuning writers, 1 empty square in 11,000; docs/vision.md)
DOUBT_INK = 0.5
DOUBT_STROKE = 0.2


def reference_image(board: Board, cell: int) -> np.ndarray:
    """The board as printed, in canonical pixels (grid at ``MARGIN`` cells from the corner)."""
    w, h = int(round((board.cols + 2 * MARGIN) * cell)), int(round((board.rows + 2 * MARGIN) * cell))
    canvas = np.full((h, w, 3), 252, np.uint8)
    return draw_board(board, cell, origin=(MARGIN * cell, MARGIN * cell), canvas=canvas, markers=False)


@dataclass
class LetterCut:
    """What a square's letter shape is cut from: the canonical photo, the letters' light (its
    light-probe blocks) and the letters' printed look. Cut on demand, for the squares asked about
    only (a read cuts its written squares; the whole board's map is :attr:`CellAnalysis.letter_darkness`)."""

    canon: np.ndarray  #: the canonical photo (uint8, a copy of its own)
    light_small: np.ndarray  #: the letters' light on the light-probe blocks (resized to full size when cut)
    ref_letter: np.ndarray  #: the printed look widened by a pixel (:attr:`CellJudge.ref_letter`)
    cell: int
    rows: int
    cols: int

    def _light(self) -> np.ndarray:
        h, w = self.canon.shape[:2]
        return cv2.resize(self.light_small, (w, h), interpolation=cv2.INTER_LINEAR)

    def darkness(self) -> np.ndarray:
        """The whole canonical image's letter darkness (0..1, less each square's paper level)."""
        norm = _divide_by_light(_unit_float(self.canon), self._light())
        return _less_paper_level(_darker_than(self.ref_letter, norm), self.cell, self.rows, self.cols)

    def squares(self, where: list[tuple[int, int]]) -> np.ndarray:
        """(n, cell, cell) letter darkness of the squares ``where`` ((row, col) each): the same
        values as :meth:`darkness` there, from the squares' pixels only (the grid ``MARGIN``
        squares from the image's corner, a whole number of pixels)."""
        c, m, n = self.cell, int(round(MARGIN * self.cell)), len(where)
        if n == 0:
            return np.zeros((0, c, c), np.float32)
        at = np.array(where, np.intp).reshape(n, 2)
        rs, cs = at[:, 0], at[:, 1]

        def cut(image: np.ndarray) -> np.ndarray:  # the squares' pixels, one above the other
            return grid_squares(image, c, self.rows, self.cols, m)[rs, cs].reshape(n * c, c, 3)

        norm = _divide_by_light(_unit_float(cut(self.canon)), cut(self._light()))
        darkness = _darker_than(cut(self.ref_letter), norm).reshape(1, n, c, c)
        return _less_paper_level(darkness, c, 1, n, whole_squares=True).reshape(n, c, c)


@dataclass
class CellAnalysis:
    states: np.ndarray  #: (rows, cols) EMPTY / INK / OCCLUDED
    ink_fraction: np.ndarray  #: (rows, cols) share of the square's inner area that is ink
    darkness: np.ndarray  #: canonical-size float32 map: how much darker than printed (0..1)
    occlusion: np.ndarray  #: canonical-size bool mask of foreign objects (hands, arms, pens)
    letters: LetterCut  #: what letter shapes are cut from (:meth:`ink_map`, :attr:`letter_darkness`)
    faint: np.ndarray  #: (rows, cols) share of the square's inner area that is faint stroke
    #: (rows, cols) bool: judged EMPTY, yet with some ink (:data:`DOUBT_INK`, :data:`DOUBT_STROKE`);
    #: a word read beside one is asked about (:class:`vision.reader.BoardReader`)
    doubt: np.ndarray

    @cached_property
    def letter_darkness(self) -> np.ndarray:
        """Canonical-size float32 map like :attr:`darkness`, with a closer printed look, for letter
        shapes (made when first asked for: a read cuts only its written squares, :meth:`ink_maps`)."""
        return self.letters.darkness()

    def _cut_alone(self, cell: int) -> bool:
        """Whether squares of ``cell`` pixels are cut on their own (:meth:`LetterCut.squares`): the
        board-wide map is not made yet, and its grid starts a whole number of pixels in."""
        return "letter_darkness" not in self.__dict__ and cell == self.letters.cell and MARGIN * cell == int(MARGIN * cell)

    def ink_map(self, row: int, col: int, cell: int) -> np.ndarray:
        """The square's ink, scaled 0..1 (input of the letter model)."""
        if self._cut_alone(cell):
            return _ink_scaled(self.letters.squares([(row, col)])[0])
        m = MARGIN * cell
        y0, x0 = int(round(m + row * cell)), int(round(m + col * cell))
        return _ink_scaled(self.letter_darkness[y0:y0 + cell, x0:x0 + cell])

    def ink_maps(self, squares: list[tuple[int, int]]) -> list[np.ndarray]:
        """:meth:`ink_map` of each of ``squares`` ((row, col) each) at the judge's cell size, cut together."""
        c = self.letters.cell
        if not self._cut_alone(c):
            return [self.ink_map(r, col, c) for r, col in squares]
        return list(_inks_scaled(self.letters.squares(squares)))


def _ink_scaled(d: np.ndarray) -> np.ndarray:
    """A square's letter darkness as ink scaled 0..1 (its 99th percentile is full ink)."""
    return _inks_scaled(d[None])[0]


def _inks_scaled(darkness: np.ndarray) -> np.ndarray:
    """:func:`_ink_scaled` of each of ``darkness``'s squares (n, cell, cell), all at once: each
    square less 0.08, over its 99th percentile (at least 0.2) less 0.08, clipped to 0..1, and
    under 0.25 none (the divisor rounded to ``darkness``'s type, as NumPy rounds a Python float
    beside a float32 array).

    >>> d = (np.arange(2 * 900, dtype=np.float32).reshape(2, 30, 30) % 89) / 89
    >>> def plain(s):
    ...     ink = np.clip((s - 0.08) / (max(float(np.percentile(s, 99)), 0.2) - 0.08), 0, 1)
    ...     ink[ink < 0.25] = 0
    ...     return ink
    >>> all(np.array_equal(a, plain(b)) for a, b in zip(_inks_scaled(d), d))
    True
    """
    p99 = _percentile_99(darkness.reshape(len(darkness), -1))
    scale = (np.maximum(p99.astype(np.float64), 0.2) - 0.08).astype(darkness.dtype)
    ink = np.clip((darkness - 0.08) / scale[:, None, None], 0, 1)
    ink[ink < 0.25] = 0
    return ink


def _percentile_99(rows: np.ndarray) -> np.ndarray:
    """Each row's ``np.percentile(row, 99)`` (linear) by a partial sort, a sixth of the time on a
    square's 900 pixels, where NumPy's own spends most of it checking its arguments. The same
    value to the bit on 30x30 squares (checked on 20,000), within the last bit on other sizes.

    >>> d = np.arange(900, dtype=np.float32).reshape(30, 30) % 97
    >>> bool(_percentile_99(d.reshape(1, -1))[0] == np.percentile(d, 99))
    True
    """
    at = 0.99 * (rows.shape[1] - 1)
    low = int(at)
    high = min(low + 1, rows.shape[1] - 1)
    part = np.partition(rows, (low, high), axis=1)
    a, b = part[:, low], part[:, high]
    t = rows.dtype.type(at - low)
    return a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)   # NumPy's lerp, from the nearer end


# Per-pixel sums over the three channels, on channel views of the image: each makes one
# single-channel result and no full-size copy (a hand-sized saving on a 19x19 board's 4 MB images).

def _channel_max(image: np.ndarray) -> np.ndarray:
    """The largest of each pixel's three channels.

    >>> _channel_max(np.array([[[1, 5, 3], [9, 2, 4]]], np.float32)).tolist()
    [[5.0, 9.0]]
    """
    out = np.maximum(image[:, :, 0], image[:, :, 1])
    return np.maximum(out, image[:, :, 2], out=out)


def _channel_min(image: np.ndarray) -> np.ndarray:
    """The smallest of each pixel's three channels."""
    out = np.minimum(image[:, :, 0], image[:, :, 1])
    return np.minimum(out, image[:, :, 2], out=out)


def _chroma(image: np.ndarray) -> np.ndarray:
    """How colourful each pixel is: its largest channel less its smallest."""
    high = _channel_max(image)
    return np.subtract(high, _channel_min(image), out=high)


def _darker_than(reference: np.ndarray, image: np.ndarray) -> np.ndarray:
    """``reference - image`` in the channel where it is largest: how much darker than the
    reference each pixel is (the channel max of the difference).

    >>> _darker_than(np.full((1, 1, 3), 0.5, np.float32), np.array([[[0.25, 0.5, 0.75]]], np.float32)).tolist()
    [[0.25]]
    """
    difference = cv2.subtract(reference, image)  # one contiguous pass (the same values as NumPy's)
    return _channel_max(difference)


def _unit_float(image: np.ndarray) -> np.ndarray:
    """An 8-bit image as float32 in 0..1 (the same values as ``image.astype(np.float32) / 255``,
    without a second full-size copy).

    >>> _unit_float(np.array([[0, 51, 255]], np.uint8)).tolist()
    [[0.0, 0.20000000298023224, 1.0]]
    """
    out = image.astype(np.float32)
    out /= np.float32(255.0)
    return out


def _one_colour(light: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """``light`` (h, w, 3) made one colour: at each pixel the level its channels agree on (the
    smallest of each channel over ``colour``'s), times ``colour``. A channel lifted above the others
    (by a neighbouring square's tint) no longer counts.

    >>> light = np.array([[[1.0, 1.0, 1.0], [1.0, 1.3, 1.0]]], np.float32)
    >>> _one_colour(light, np.ones(3, np.float32)).tolist()
    [[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]
    """
    level = _channel_min(np.divide(light, colour))[:, :, None]  # (the same as .min(axis=2), a fifth of the time)
    return np.multiply(level, colour).astype(np.float32)


def _divide_by_light(obs: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``obs / max(light, Scalar(0.05))`` computed in ``light``'s own memory (which it takes)."""
    # OpenCV's stub has no (array, scalar) overload; the scalar is OpenCV's Scalar(0.05), as before
    cv2.max(light, 0.05, dst=light)  # type: ignore[call-overload]
    return cv2.divide(obs, light, dst=light)


def _less_paper_level(darkness: np.ndarray, cell: int, rows: int, cols: int, whole_squares: bool = False) -> np.ndarray:
    """``darkness`` (changed in place) less each grid square's own paper level (its median),
    clipped to 0..1; ``whole_squares``: ``darkness`` is (rows, cols, cell, cell) already."""
    grid_d = darkness if whole_squares else grid_squares(darkness, cell, rows, cols, int(round(MARGIN * cell)))
    flat = grid_d.reshape(grid_d.shape[0], grid_d.shape[1], -1)
    bias = np.partition(flat, flat.shape[2] // 2, axis=2)[:, :, flat.shape[2] // 2]
    grid_d -= np.maximum(bias, 0)[:, :, None, None]  # (a view: corrects ``darkness`` itself)
    return np.clip(darkness, 0, 1, out=darkness)


#: the darkest 8-bit level that is glare (a pixel all of whose channels are at least this is
#: never "darker"): the first above 0.97 as :func:`_unit_float` makes it, so the test can be made on
#: the 8-bit photo
GLARE_LEVEL = int(np.argmax(_unit_float(np.arange(256, dtype=np.uint8)) > 0.97))

#: bump when what CellJudge computes from a board changes, so cached judges are drawn again
JUDGE_FORMAT = "3"


class CellJudge:
    """Compares canonical images of one board with its printed reference."""

    #: cut letters in light of one colour (the local light's level times the light's colour over the
    #: whole board) instead of the local light's own colour: near a square of another printed colour,
    #: the local estimate takes that square's colour ratio across the border wherever the print and
    #: the photo disagree on colour (glare washing a tint out, a printer's or camera's colours), and
    #: a band along the square's edge then looks darker than the paper in one channel, a stroke to the
    #: letter network. The empty/ink judgement keeps the local light.
    letter_light_colourless = True

    #: a square is written when faint strokes (:meth:`_judge`) cover more than this share of its inner
    #: area (0.02: a dozen pixels of a 30-pixel square). It was 0.04 until 2026-11-26: under glare or
    #: blur a written square's strokes, washed out, often cover 0.02-0.04 of it, while no empty square
    #: showed more than 0.005 in the tuning scenes (some 39,000) nor more than 0.010 under harsh light
    #: (a glare spot and a dark side: docs/vision.md, "Faint strokes are ink")
    MIN_STROKE = 0.02
    #: ... counting only faint strokes that are valleys of the photo itself (:meth:`_valleys`); faint
    #: strokes anywhere write a square from this share (0.04, as before). Beside a saturated glare
    #: spot the local light spreads the glare over paper it does not light, and that paper looks
    #: like a faint arc, but in the photo it is flat, not a valley
    min_stroke_anywhere = 0.04
    #: how much darker than the photo on both sides of it a valley is, as a share of that brightness
    #: (half of ``stroke_threshold``: a washed-out stroke's valley in the photo is about as deep, as a
    #: share, as its faint stroke in the darkness)
    valley_depth = 0.06

    def __init__(self, board: Board, cell: int, ink_threshold: float = 0.28, min_ink: float = 0.018,
                 stroke_threshold: float = 0.12, min_stroke: float = MIN_STROKE):
        self.board, self.cell = board, cell
        self.ref = reference_image(board, cell).astype(np.float32) / 255.0
        k = max(3, int(cell * 0.14) | 1)
        self.ref_min = cv2.erode(self.ref, np.ones((k, k), np.uint8))  # printed dark things, widened
        # Letter shapes are cut from a look widened by one pixel only: the wider one, safe for
        # telling ink from print, hides a band of a tenth of a square along every printed line,
        # and with it the bar of a T or a Z written close to the square's edge.
        self.ref_letter = cv2.erode(self.ref, np.ones((3, 3), np.uint8))
        h, w = self.ref.shape[:2]
        step = max(2, cell // 6)
        self.bright = (self.ref_min.min(axis=2) > 0.5).astype(np.float32)[:, :, None]  # plain paper: light probe
        self.printed = (self.bright[:, :, 0] == 0).astype(np.uint8)  # lines, digits, marks: nothing looks darker
        self.ref_chroma = cv2.dilate(_chroma(self.ref), np.ones((k, k), np.uint8))
        self.ref_safe = np.maximum(self.ref, 0.05)
        self.bright_small = cv2.resize(self.bright[:, :, 0], (w // step, h // step), interpolation=cv2.INTER_AREA)
        hs, ws = self.bright_small.shape
        yy, xx = np.mgrid[0:hs, 0:ws].astype(np.float32)
        xx, yy = xx / ws - 0.5, yy / hs - 0.5
        self.light_design = np.stack([np.ones_like(xx), xx, yy, xx * xx, xx * yy, yy * yy], -1).reshape(-1, 6)
        every_other = np.zeros((hs, ws), bool)
        every_other[::2, ::2] = True  # a quarter of the blocks is plenty for six coefficients
        self.paper_blocks = (self.bright_small > 0.99).astype(np.float32)[:, :, None]  # all plain paper
        self.light_probes = np.flatnonzero(self.paper_blocks[:, :, 0] * every_other)
        self.ink_threshold, self.min_ink = ink_threshold, min_ink
        self.stroke_threshold, self.min_stroke = stroke_threshold, min_stroke
        self.solid_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(cell * 0.45) | 1,) * 2)
        self.bridge_kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (int(cell * 0.4) | 1,) * 2)  # > a zone line
        self.grow_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(cell * 0.9) | 1,) * 2)
        self.light_kernel = np.ones((3, 3), np.uint8)
        self.stroke_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(cell * 0.3) | 1,) * 2)  # > a stroke
        inner = np.zeros((cell, cell), bool)
        b = max(1, int(cell * 0.1))
        inner[b:-b, b:-b] = True
        self.inner = inner
        # Inner paper a little away from anything printed (a print edge a pixel off looks like a
        # thin stroke) and a stroke's width away from where one printed colour meets another
        # (glare washes two colours out unequally, which leaves a step in the darkness).
        near_print = cv2.dilate(self.printed, np.ones((5, 5), np.uint8))
        edges = cv2.morphologyEx(self.ref, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).max(axis=2) > 0.02
        beside_print = cv2.dilate(self.printed, np.ones((3, 3), np.uint8)) > 0  # a printed line's own edge
        colour_edges = (edges & ~beside_print).astype(np.uint8)  # two paper colours meeting
        bridged = cv2.dilate(colour_edges, self.stroke_kernel)
        self.clear_paper = (self._cells(near_print | bridged) == 0) & inner  # type: ignore[operator]  # uint8 masks
        # a hatched square is mostly print: too little paper between the lines to judge strokes on
        self.clear_paper &= (self.clear_paper.sum((2, 3)) >= 0.3 * inner.sum())[:, :, None, None]

    @classmethod
    def cached(cls, board: Board, cell: int, folder: pathlib.Path | None) -> "CellJudge":
        """The judge of ``board``, its printed look's arrays kept in ``folder`` (keyed by the board's
        layers and the cell size) and memory-mapped from there, so a command that reads one photo
        neither draws them again nor holds a copy of the ones it does not use."""
        if folder is None:
            return cls(board, cell)
        built: list[CellJudge] = []

        def build() -> dict[str, np.ndarray | float]:
            built.append(cls(board, cell))
            return {k: v for k, v in vars(built[0]).items() if isinstance(v, (np.ndarray, float)) and not k.startswith("_")}

        key = arraycache.source_key("judge", JUDGE_FORMAT, str(cell), board.to_toml())
        kept = arraycache.arrays(folder, f"judge-{key}", build)
        if built:
            return built[0]
        judge = cls.__new__(cls)
        judge.board, judge.cell = board, cell
        for name, value in kept.items():
            setattr(judge, name, value.item() if value.ndim == 0 else value)
        return judge

    def analyse(self, canon_bgr: np.ndarray) -> CellAnalysis:
        # Full-size float images are 4 MB each on a 19x19 board: each is reused in place or let
        # go as soon as it has served (the arithmetic is the same; only fewer are alive at once).
        obs = _unit_float(canon_bgr)
        h, w = obs.shape[:2]
        num = self._paper_ratio(obs)
        small = num / np.maximum(self.bright_small, 1e-3)[:, :, None]
        colour = self._paper_colour(small) if self.letter_light_colourless else None
        small = cv2.dilate(small, self.light_kernel)  # ink only lowers the ratio: take the local max
        small = cv2.GaussianBlur(small, (0, 0), 1.5)
        norm = _divide_by_light(obs, cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))
        darkness = _darker_than(self.ref_min, norm)
        del norm
        # the letters' own light (see letter_light_colourless); their shapes are cut when asked for
        letter_light = small if colour is None else _one_colour(small, colour)
        letters = LetterCut(canon_bgr.copy(), letter_light, self.ref_letter, self.cell, self.board.rows, self.board.cols)
        # glare: brighter than the light model can say, never "darker" (tested on the 8-bit photo when it is one)
        saturated = (_channel_min(canon_bgr) >= GLARE_LEVEL) if canon_bgr.dtype == np.uint8 else (_channel_min(obs) > 0.97)
        flat = _divide_by_light(obs, self._board_light(num, (w, h)))
        del obs
        return self._judge(darkness, self._objects(flat, saturated), letters, canon_bgr)

    def _paper_colour(self, ratio: np.ndarray) -> np.ndarray:
        """The light's colour over the board: each channel's photo/printed ratio on plain paper
        over the dimmest channel's (the median over the light probes; 1, 1, 1 for white light)."""
        probes = ratio.reshape(-1, 3)[self.light_probes]
        level = probes.min(axis=1)
        lit = level > 0.05
        if not lit.any():
            return np.ones(3, np.float32)
        return np.median(probes[lit] / level[lit, None], axis=0).astype(np.float32)

    def light(self, canon_bgr: np.ndarray) -> np.ndarray:
        """The board-wide light of a canonical image (photo / printed look, per channel), as the
        occlusion test sees it: ``(h, w, 3)`` float32, 1.0 where the paper looks as printed."""
        obs = _unit_float(canon_bgr)
        return self._board_light(self._paper_ratio(obs), obs.shape[1::-1])

    def _paper_ratio(self, obs: np.ndarray) -> np.ndarray:
        """Photo / printed look on plain paper (zero elsewhere), summed into light-probe blocks of
        a sixth of a square (divide by ``bright_small`` for the mean)."""
        h, w = obs.shape[:2]
        step = max(2, self.cell // 6)
        ratio = cv2.divide(obs, self.ref_safe)
        np.multiply(ratio, self._bright_channels, out=ratio)   # 0 off plain paper, the ratio itself on it
        return cv2.resize(ratio, (w // step, h // step), interpolation=cv2.INTER_AREA)

    @cached_property
    def _bright_channels(self) -> np.ndarray:
        """:attr:`bright` repeated in three channels (kept once made, never in the cache: its name
        starts with ``_``): a product with it is a fifth of the time of one that broadcasts
        ``bright``'s one channel."""
        return np.repeat(self.bright, 3, axis=2)

    def _objects(self, flat: np.ndarray, saturated: np.ndarray) -> np.ndarray:
        """Mask of foreign objects (hands, arms, pens) on the canonical image, ``flat`` being the
        photo divided by the board-wide light and ``saturated`` where the photo is glare (brighter
        than the light model can say, so never "darker").

        A pixel *changed* when it is darker than anything printed near it or more colourful than
        the print there (skin, sleeves). The changes are opened with a disc of 0.45 square first,
        so marker strokes vanish however close together they are (letters in neighbouring squares,
        touching the borders); the solid pieces left are then joined across printed lines and
        digits (under a hand nothing there can look darker), never across paper. Pieces of more
        than 1.5 squares are objects; they take back the changed pixels they touch (fingers, edges
        washed out by glare) and are grown by most of a square (shadows, soft edges)."""
        darker = (_darker_than(self.ref_min, flat) > 0.22) & ~saturated
        recoloured = cv2.subtract(_chroma(flat), self.ref_chroma) > 0.16  # skin or sleeve on plain paper
        change = (darker | recoloured).astype(np.uint8)
        solid = self._join_across_print(cv2.morphologyEx(change, cv2.MORPH_OPEN, self.solid_kernel))
        least = 1.5 * self.cell * self.cell  # an object's area: more than the solid heart of a letter
        if cv2.countNonZero(solid) < least:  # no piece can be that large (the usual frame: no hand)
            return np.zeros_like(solid)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
        large = stats[:, cv2.CC_STAT_AREA] >= least
        large[0] = False  # the background
        if not large.any():
            return np.zeros_like(solid)
        objects = large[labels]
        n, labels = cv2.connectedComponents(self._join_across_print(change | objects.astype(np.uint8)), connectivity=8)
        touched = np.zeros(n, bool)
        touched[labels[objects]] = True
        return cv2.dilate(touched[labels].astype(np.uint8), self.grow_kernel)

    def _join_across_print(self, mask: np.ndarray) -> np.ndarray:
        """``mask`` with the printed pixels between its parts filled (up to a zone line's width)."""
        return mask | (cv2.morphologyEx(mask, cv2.MORPH_CLOSE, self.bridge_kernel) & self.printed)

    def _board_light(self, num: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Board-wide light as a quadratic surface fitted to the paper (robust to a hand over a
        quarter of the board, which a local estimate would take for shade).

        Fitted on the light-probe blocks (a sixth of a square) that are all plain paper, each
        taking the brightest such block round it, so ink never lowers it: a board written in
        every square still leaves hundreds of them. Blocks darkened by a hand or a shadow, or
        brightened by glare, are dropped as outliers."""
        probes = self.light_design[self.light_probes]
        paper = num * self.paper_blocks / np.maximum(self.bright_small, 1e-3)[:, :, None]
        paper = cv2.dilate(paper, self.light_kernel)  # ink only darkens: the brightest paper block nearby
        target = paper.reshape(-1, 3)[self.light_probes]
        # the dimmest channel: glare adds white light, which lifts a tinted square's weak channel
        # far above the light it gets, but leaves the dimmest one as on white paper
        level = target.min(axis=1)
        use = np.ones(len(level), bool)
        coef = np.array([1, 0, 0, 0, 0, 0], np.float32)
        for _ in range(4):
            if use.sum() < 12:
                break
            a = probes[use]
            coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(6), a.T @ level[use])  # normal equations: 6 unknowns
            use = np.abs(level - probes @ coef) < 0.08  # drop hands, ink, shadows and glare
        fit = self.light_design @ coef
        if use.sum():  # a quadratic may overshoot at the board's edges: stay within what the paper shows
            gains = np.median(target[use] / np.maximum(level[use, None], 1e-3), axis=0)
            fit = np.clip(fit, np.percentile(level[use], 1), np.percentile(level[use], 99))
        else:
            gains = np.ones(3)
        fit = (fit[:, None] * gains[None, :]).reshape(*num.shape[:2], 3).astype(np.float32)
        return cv2.resize(fit, size, interpolation=cv2.INTER_LINEAR)

    def _valleys(self, canon_bgr: np.ndarray) -> np.ndarray:
        """Canonical-size bool mask: where the photo itself (its dimmest channel, before any light
        is divided out) is darker than on both sides, by more than :attr:`valley_depth` of the
        brightness round it (a black top-hat of a stroke's width)."""
        dim = _channel_min(canon_bgr) if canon_bgr.ndim == 3 else canon_bgr
        closed = cv2.morphologyEx(dim, cv2.MORPH_CLOSE, self.stroke_kernel)
        depth = cv2.subtract(closed, dim).astype(np.float32)
        darkest = 1.0 if dim.dtype == np.uint8 else 1 / 255  # (a black photo has no valleys)
        return depth > self.valley_depth * np.maximum(closed.astype(np.float32), darkest)

    def _cells(self, image: np.ndarray) -> np.ndarray:
        return grid_squares(image, self.cell, self.board.rows, self.board.cols, int(round(MARGIN * self.cell)))

    def _less_paper_level(self, darkness: np.ndarray) -> np.ndarray:
        """``darkness`` (changed in place) less each square's own paper level (its median), clipped to 0..1."""
        return _less_paper_level(darkness, self.cell, self.board.rows, self.board.cols)

    def _judge(self, darkness: np.ndarray, solid: np.ndarray, letters: LetterCut,
               photo: np.ndarray | None = None) -> CellAnalysis:
        """The squares' states from ``darkness`` (changed in place), ``solid`` (foreign objects) and
        the canonical ``photo`` (its valleys, :meth:`_valleys`, looked for only where faint strokes
        alone might write a square; None: every faint stroke counts)."""
        self._less_paper_level(darkness)
        grid_d = self._cells(darkness)
        inked = (grid_d > self.ink_threshold) & self.inner
        frac = inked.sum((2, 3)) / self.inner.sum()
        # pale ink (light colours, thin strokes, glare that washes the contrast out): strokes that
        # stand out from the paper right round them, however little darker they are overall.
        # Opening with a disc wider than any stroke leaves the paper's own slow shading; what it
        # removes (a top-hat) is stroke-sized darkening.
        strokes = self._cells(darkness - cv2.morphologyEx(darkness, cv2.MORPH_OPEN, self.stroke_kernel))
        stroked = (strokes > self.stroke_threshold) & self.clear_paper
        faint = stroked.sum((2, 3)) / self.inner.sum()
        written = faint > self.min_stroke_anywhere
        maybe = (faint > self.min_stroke) & ~written
        if photo is not None and maybe.any():  # (most reads have no such square: no valleys looked for)
            in_valleys = (stroked & self._cells(self._valleys(photo))).sum((2, 3)) / self.inner.sum()
            written |= maybe & (in_valleys > self.min_stroke)
        else:
            written |= maybe
        frac = np.where(written, np.maximum(frac, self.min_ink + 1e-3), frac)
        covered = self._cells(solid).mean((2, 3))
        occluded = (covered > 0.1) | ((covered > 0.01) & (frac > self.min_ink))  # a fingertip or pen end, not ink
        if occluded.any():  # beside a hand its shadow falls: marks there are not to be trusted
            near = cv2.dilate(occluded.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            occluded |= near & (frac > self.min_ink)
        states = np.where(occluded, OCCLUDED, np.where(frac > self.min_ink, INK, EMPTY)).astype(np.int8)
        doubt = (states == EMPTY) & ((frac > DOUBT_INK * self.min_ink) | (faint > DOUBT_STROKE * self.min_stroke))
        return CellAnalysis(states, frac, darkness, solid.astype(bool), letters, faint, doubt)

