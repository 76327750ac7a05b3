"""Letter images as the reader sees them: handwriting drawn on a printed board, photographed
(in perspective, with glare, blur and noise), found again, and cut into normalised squares.

Training and checking the letter model both go through this one path, so the model learns
exactly the input it will get at the table.

>>> from tabletop.resources import load_board
>>> reader = BoardReader(load_board("extradiction"))
>>> images, labels = scene_letter_images(reader, "CAT", seed=3)
>>> images.shape, images.dtype, labels.tolist()
((3, 28, 28), dtype('uint8'), [2, 0, 19])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vision.errors import BoardNotFound
from vision.letters import ALPHABET, normalise
from vision.reader import BoardReader
from vision.synth.scene import make_scene

InkRenderer = Callable[[str, int, np.random.Generator], np.ndarray]


def scene_letter_images(reader: BoardReader, letters: Sequence[str], seed: int,
                        ink_renderer: InkRenderer | None = None, alphabet: str = ALPHABET) -> tuple[np.ndarray, np.ndarray]:
    """Write ``letters`` on random squares of ``reader.board`` (one each), photograph the board
    with a random camera (fixed by ``seed``) and return the squares' normalised images (uint8,
    0-255, N x 28 x 28) as ``reader`` cuts them out, and the letters' indices in
    :data:`ALPHABET` (or ``alphabet``). An empty result if the board is not found in the photo."""
    board = reader.board
    rng = np.random.default_rng([seed, 7])
    squares = list(board.squares())
    n = min(len(letters), len(squares))
    chosen = [squares[i] for i in rng.choice(len(squares), n, replace=False)]
    written = dict(zip(chosen, letters[:n]))
    frame = make_scene(board, written, seed=seed, ink_renderer=ink_renderer).frame
    try:
        located = reader.locate(frame)
    except BoardNotFound:
        return np.zeros((0, 28, 28), np.uint8), np.zeros(0, np.int64)
    analysis = reader.judge.analyse(reader.canonical(frame, located))
    images = [np.round(normalise(ink) * 255) for ink in analysis.ink_maps([(sq.row, sq.col) for sq in chosen])]
    return np.stack(images).astype(np.uint8), np.array([alphabet.index(ch) for ch in letters[:n]], np.int64)


class StrokeQueue:
    """An ink renderer that draws recorded strokes, one sample per call, in order (so a scene
    can show real handwriting: pass the samples in the order the letters are written)."""

    def __init__(self, samples):
        self.samples = list(samples)

    def __call__(self, letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
        from vision.synth.realdata import render_sample

        return render_sample(self.samples.pop(0), size, rng)
