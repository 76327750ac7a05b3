"""Handwriting fonts as a second source of letter shapes for training.

The stroke skeletons of :mod:`vision.synth.strokefont` are one designer's idea of how people write
capitals; a few dozen handwriting fonts (each drawn from one real person's hand) add shapes
nobody thought to put there. A font's glyph is thinned or thickened to a marker's stroke width,
slanted, rotated, stretched and smoothly warped, then placed in the square the way
:func:`vision.synth.handwriting.letter_box` places a handwritten letter.

Fonts are only used to *make training images*; nothing here runs at the table.

>>> fonts = HandwritingFonts.find([FONT_DIR])       # doctest: +SKIP
>>> ink = fonts.render("A", 40, np.random.default_rng(0))  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import pathlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.handwriting import TABLE_HAND, Hand, letter_box
from vision.letters import ALPHABET

#: where ``scripts/fetch_fonts.sh`` puts the handwriting fonts (see scripts/handwriting-fonts.txt)
FONT_DIR = pathlib.Path(__file__).resolve().parents[2] / ".fonts"

#: cv2's anti-aliased polylines (how strokes are drawn) come out about 1.5x their nominal width
#: at the 0.5 ink level; glyphs are matched to that, so both sources give the same marker.
DRAWN_WIDTH = 1.5

_WEB_FONT_SUBSET = re.compile(r"-\d+-(normal|italic)$")  # caveat-cyrillic-400-normal


class NoFontsFound(FileNotFoundError):
    """No usable handwriting font (one with every capital of the alphabet) was found."""


@dataclass(frozen=True)
class FontFile:
    family: str
    path: pathlib.Path


def font_files(dirs: Iterable[pathlib.Path | str], subset: str = "latin") -> list[FontFile]:
    """Font files under ``dirs`` (searched recursively): ``.ttf``, ``.otf`` and ``.woff``.

    Web-font packages split a face into subsets (``caveat-latin-400-normal.woff``,
    ``caveat-cyrillic-...``): only the upright files of ``subset`` (the plain Latin one unless
    told, ``"cyrillic"`` for the Ukrainian capitals) are kept, and the family is the part before
    the subset, so that a family's weights count as one hand.

    >>> import tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("caveat-latin-400-normal.woff", "caveat-cyrillic-400-normal.woff", "Hand.ttf"):
    ...     _ = (d / name).write_bytes(b"")
    >>> [(f.family, f.path.name) for f in font_files([d])]
    [('Hand', 'Hand.ttf'), ('caveat', 'caveat-latin-400-normal.woff')]
    >>> [(f.family, f.path.name) for f in font_files([d], subset="cyrillic")]
    [('Hand', 'Hand.ttf'), ('caveat', 'caveat-cyrillic-400-normal.woff')]
    """
    upright = re.compile(rf"^(?P<family>.+)-{re.escape(subset)}-\d+-normal$")
    out = []
    for d in dirs:
        d = pathlib.Path(d)
        if not d.is_dir():
            continue
        for path in sorted(d.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf", ".woff"):
                continue
            family = path.stem
            if _WEB_FONT_SUBSET.search(path.stem):
                m = upright.match(path.stem)
                if m is None:
                    continue
                family = m["family"]
            out.append(FontFile(family, path))
    return out


@functools.lru_cache(maxsize=8192)
def glyph_mask(path: pathlib.Path, letter: str, px: int = 96) -> np.ndarray | None:
    """The glyph of ``letter`` drawn at ``px`` pixels to the em, cropped to its ink (float32 0-1);
    None when the font has no such glyph or cannot be read."""
    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.truetype(str(path), px)
        left, top, right, bottom = font.getbbox(letter)
    except (OSError, ValueError):
        return None
    if right <= left or bottom <= top:
        return None
    image = Image.new("L", (int(right - left) + 8, int(bottom - top) + 8), 0)
    ImageDraw.Draw(image).text((4 - left, 4 - top), letter, font=font, fill=255)
    ink = np.asarray(image, np.float32) / 255
    ys, xs = np.nonzero(ink > 0.1)
    if len(ys) == 0:
        return None
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def has_capitals(path: pathlib.Path, alphabet: str = ALPHABET) -> bool:
    """Does the font draw every capital of ``alphabet`` (the 26 Latin ones unless told), each its
    own shape? A font without them draws one placeholder box, pixel for pixel the same, for every
    missing letter (Н and П of a plain sans may have the same size and ink, not the same pixels)."""
    masks = [m for m in (glyph_mask(path, ch) for ch in alphabet) if m is not None]
    if len(masks) < len(alphabet):
        return False
    return len({(m.shape, np.round(m, 2).tobytes()) for m in masks}) == len(alphabet)


def stroke_width(mask: np.ndarray) -> float:
    """Mean stroke width of a glyph in pixels: twice its area over its outline's length (a
    long stroke of width w and length l has area w*l and outline about 2*l; the ends make it
    read a little low).

    >>> bar = np.zeros((40, 60), np.float32); bar[10:16, 5:55] = 1  # 6 px wide
    >>> round(stroke_width(bar))
    6
    """
    m = (mask > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * float(m.sum()) / outline if outline > 0 else 0.0


def with_stroke_width(mask: np.ndarray, target: float) -> np.ndarray:
    """``mask`` eroded or dilated (through distance transforms, so by fractions of a pixel)
    until its strokes are about ``target`` pixels wide; padded so nothing is cut off."""
    m = (mask > 0.5).astype(np.uint8)
    width = stroke_width(m)
    pad = int(max(0.0, target - width)) + 3
    m = np.pad(m, pad)
    if target < width:
        inside = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        return np.clip(inside - (width - target) / 2, 0, 1).astype(np.float32)
    outside = cv2.distanceTransform(1 - m, cv2.DIST_L2, 5)
    return np.clip((target - width) / 2 + 1 - outside, 0, 1).astype(np.float32)


class HandwritingFonts:
    """A set of handwriting fonts that each have every capital of ``alphabet`` (the 26 Latin ones
    unless told); an ink renderer (see :data:`vision.synth.letterdata.InkRenderer`) that draws a
    letter in a random one of them.

    ``render`` picks a family uniformly (so a family with four weights is not four times as
    likely), then one of its files."""

    def __init__(self, files: Sequence[FontFile], hand: Hand = TABLE_HAND, alphabet: str = ALPHABET):
        self.hand = hand  #: how large and thick the letters are drawn
        usable = [f for f in files if has_capitals(f.path, alphabet)]
        if not usable:
            raise NoFontsFound(f"no handwriting font with all {len(alphabet)} capitals of {alphabet} was found")
        families: dict[str, list[pathlib.Path]] = {}
        for f in usable:
            families.setdefault(f.family, []).append(f.path)
        self.families = {k: tuple(v) for k, v in sorted(families.items())}

    @classmethod
    def find(cls, dirs: Iterable[pathlib.Path | str], families: Iterable[str] | None = None,
             hand: Hand = TABLE_HAND, alphabet: str = ALPHABET, subset: str = "latin") -> "HandwritingFonts":
        """The fonts under ``dirs`` (web fonts: their ``subset`` files); only ``families`` (names
        as in :func:`font_files`) if given; each must draw every capital of ``alphabet``."""
        files = font_files(dirs, subset)
        if families is not None:
            wanted = set(families)
            files = [f for f in files if f.family in wanted]
        return cls(files, hand, alphabet)

    def __len__(self) -> int:
        return len(self.families)

    def __call__(self, letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.render(letter, size, rng)

    def render(self, letter: str, size: int, rng: np.random.Generator, thickness: float | None = None) -> np.ndarray:
        """An ink map (float32, 0-1, ``size`` x ``size``) of ``letter`` in a random font."""
        names = list(self.families)
        paths = self.families[names[int(rng.integers(len(names)))]]
        glyph = glyph_mask(paths[int(rng.integers(len(paths)))], letter)
        if glyph is None:             # the fonts were checked for every capital when loaded
            raise ValueError(f"the font has no {letter!r}")
        if thickness is None:
            thickness = size * rng.uniform(*self.hand.thickness)
        x0, y0, x1, y1 = letter_box(size, rng, self.hand)
        shear, rot, stretch = rng.normal(0, 0.15), np.radians(rng.normal(0, 5)), np.exp(rng.normal(0, 0.15))
        affine = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]]) @ np.array([[stretch, shear], [0, 1]])
        h, w = glyph.shape
        corners = (np.array([[0, 0], [w, 0], [0, h], [w, h]]) - [w / 2, h / 2]) @ affine.T
        span = corners.max(0) - corners.min(0)
        scale = min((x1 - x0) / span[0], (y1 - y0) / span[1])
        glyph = with_stroke_width(glyph, DRAWN_WIDTH * thickness / scale)
        h, w = glyph.shape
        matrix = np.hstack([affine * scale, np.zeros((2, 1))])
        matrix[:, 2] = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) - matrix[:, :2] @ [w / 2, h / 2]
        ink = cv2.warpAffine(glyph, matrix, (size, size), flags=cv2.INTER_LINEAR)
        return _smooth_warp(ink, rng, size * 0.025)


def _smooth_warp(ink: np.ndarray, rng: np.random.Generator, amplitude: float) -> np.ndarray:
    """Move every pixel by a smooth random field (a 3x3 grid of offsets, interpolated)."""
    size = ink.shape[0]
    field = rng.normal(0, amplitude, (2, 3, 3)).astype(np.float32)
    dx = cv2.resize(field[0], (size, size), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(field[1], (size, size), interpolation=cv2.INTER_CUBIC)
    gx, gy = np.meshgrid(np.arange(size, dtype=np.float32), np.arange(size, dtype=np.float32))
    return cv2.remap(ink, gx + dx, gy + dy, cv2.INTER_LINEAR)
