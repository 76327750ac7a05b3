#!/usr/bin/env python3
"""What the camera scene costs the handwritten letters, condition by condition, on the *tuning*
writers (never the benchmark's held-out ones).

Each tuning letter is drawn once as marker ink in a square of the printed board (the very ink map
the scene simulator pastes) and read three ways by the network that never learnt from these
writers (:func:`vision.letters.tuning_model`):

* **clean**: that ink map normalised straight away (no board, no camera);
* **clean at 30 px**: the same ink shrunk to the reader's canonical square first (what the warp to
  ``cell`` pixels alone would cost with a perfect camera);
* **in the scene**: the board photographed (perspective, light, glare, blur, noise, marker ink) and
  read by :class:`vision.reader.BoardReader` as at the table.

The letters the scene reads wrong that the clean ink reads right are the scene's loss; the table
splits it by the square's size in the photo, the camera's tilt, the blur, the glare over the
square, the board, how near the letter comes to the square's edge and the ink colour.

    PYTHONPATH=. .venv/bin/python scripts/scene_cost.py [--language uk] [--passes 3]

The camera, blur, ink and board are drawn here (uniformly over what ``make_scene`` draws from)
and passed on, so every letter knows its conditions.
"""

import argparse
import os
import pathlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from vision.cells import CellJudge  # noqa: E402

PER_SCENE = 60
INK_NAMES = ("black", "blue", "red", "green")
#: (name, the letter's value, bin edges): how the loss table splits the letters
SPLITS: tuple[tuple[str, str, tuple[float, ...]], ...] = (
    ("square in the photo (px)", "square_px", (0, 20, 24, 28, 32, 1e9)),
    ("tilt (degrees)", "tilt", (0, 10, 20, 28, 36)),
    ("blur sigma (px)", "blur", (0, 0.55, 0.8, 1.05, 1.31)),
    ("glare over the square (grey levels)", "glare", (-1, 5, 30, 70, 1e9)),
    ("letter's ink to the square's edge (share of side)", "edge", (-1, 0.04, 0.08, 0.12, 1)),
)


@dataclass
class Letter:
    """One tuning letter as written in one scene, its conditions and how it was read."""

    label: int
    board: str
    ink: str
    square_px: float
    tilt: float
    blur: float
    glare: float
    edge: float
    clean: int  #: the letter read from its ink map straight away (class index)
    clean30: int  #: ... from its ink map shrunk to 30 px
    scene: dict  #: way name -> class read in the scene (-1: the square judged not written)


def tuning_letters(language: str):
    """(letters, ink renderer factory, alphabet) of the tuning writers of ``language``."""
    if language == "en":
        from train_letters import split_writers

        from vision.letters import ALPHABET
        from vision.synth.letterdata import StrokeQueue
        from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting

        data = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, 2026)[1]
        return data, (lambda part: StrokeQueue(data.strokes[i] for i in part)), ALPHABET
    from vision.letters import UK_ALPHABET
    from vision.synth.cyrillic import ImageQueue, tuning_split
    from vision.synth.handwriting import TABLE_HAND

    data = tuning_split()[1]
    return data, (lambda part: ImageQueue(data.images[part], TABLE_HAND)), UK_ALPHABET


class Recording:
    """An ink renderer that keeps each ink map it draws (in call order)."""

    def __init__(self, inner: Callable):
        self.inner, self.inks = inner, []

    def __call__(self, letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
        ink = self.inner(letter, size, rng)
        self.inks.append(ink)
        return ink


def edge_share(ink: np.ndarray) -> float:
    """How close the ink comes to its square's edge, as a share of the side.

    >>> ink = np.zeros((50, 50)); ink[2:40, 10:30] = 1
    >>> edge_share(ink)
    0.04
    """
    ys, xs = np.nonzero(ink > 0.25)
    if len(xs) == 0:
        return 1.0
    n = ink.shape[0]
    return float(min(xs.min(), ys.min(), n - 1 - xs.max(), n - 1 - ys.max())) / n


def in_photo(scene, cols: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(len(rows), len(cols), 2): where the board's points at ``cols`` x ``rows`` (in squares from
    the printed grid's top left) are in the scene's photo, x and y."""
    ox, oy = scene.print_origin
    c = scene.print_cell
    xs, ys = np.meshgrid(ox + np.asarray(cols, np.float64) * c, oy + np.asarray(rows, np.float64) * c)
    pts = cv2.perspectiveTransform(np.stack([xs, ys], -1).reshape(-1, 1, 2).astype(np.float64), scene.board_to_frame)
    return pts.reshape(len(rows), len(cols), 2)


def square_sizes(scene, board) -> np.ndarray:
    """(rows, cols): each square's side in the photo, the root of its area there."""
    p = in_photo(scene, np.arange(board.cols + 1), np.arange(board.rows + 1))
    a, b, cc, d = p[:-1, :-1], p[:-1, 1:], p[1:, 1:], p[1:, :-1]

    def cross(u, v):
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    area = 0.5 * np.abs(cross(cc - a, d - b))
    return np.sqrt(area)


def glare_over(scene, glared: np.ndarray, plain: np.ndarray, board) -> np.ndarray:
    """(rows, cols): the grey levels the glare adds at each square's centre in the photo."""
    pts = in_photo(scene, np.arange(board.cols) + 0.5, np.arange(board.rows) + 0.5).reshape(-1, 2)
    diff = glared.astype(np.float32).mean(2) - plain.astype(np.float32).mean(2)
    diff = cv2.blur(diff, (5, 5))
    x = np.clip(np.round(pts[:, 0]).astype(int), 0, diff.shape[1] - 1)
    y = np.clip(np.round(pts[:, 1]).astype(int), 0, diff.shape[0] - 1)
    return diff[y, x].reshape(board.rows, board.cols)


@dataclass(frozen=True)
class Way:
    """One way of reading a scene: how the photo is resampled to the canonical image, whether
    letters are cut in light of one colour (:attr:`vision.cells.CellJudge.letter_light_colourless`)
    and the share of a square faint strokes must cover for it to be written (``min_stroke``)."""

    interpolation: int
    colourless: bool
    min_stroke: float = CellJudge.MIN_STROKE

    def setup(self, reader) -> None:
        reader.interpolation = self.interpolation
        reader.judge.letter_light_colourless = self.colourless
        reader.judge.min_stroke = self.min_stroke


#: the ways compared: the reader before 2026-11-26's first change, each part of it alone, the reader
#: after it ("bicubic one-colour": faint strokes still had to cover 0.04 of a square), and as shipped
WAYS = {"before": Way(cv2.INTER_LINEAR, False, 0.04), "cubic": Way(cv2.INTER_CUBIC, False, 0.04),
        "one-colour light": Way(cv2.INTER_LINEAR, True, 0.04), "bicubic one-colour": Way(cv2.INTER_CUBIC, True, 0.04),
        "shipped": Way(cv2.INTER_CUBIC, True)}


@dataclass
class EmptyCount:
    """Empty squares of the scenes (of boards judged readable) read as written, per way."""

    squares: int = 0
    readable: int = 0
    written: dict | None = None
    written_readable: dict | None = None


def collect(language: str, passes: int, seed: int, ways: dict[str, Way], log=print) -> tuple[list[Letter], EmptyCount]:
    """Every tuning letter written ``passes`` times into scenes and read every way of ``ways``;
    and how many empty squares each way read as written."""
    from tabletop.benchmarks.scenes import board_15
    from tabletop.resources import load_board
    from vision.cells import INK
    from vision.errors import BoardNotFound
    from vision.letters import normalise, tuning_model
    from vision.reader import BoardReader
    from vision.synth.scene import make_scene

    data, renderer, alphabet = tuning_letters(language)
    model = tuning_model(language)
    boards = [load_board("extradiction"), board_15(), load_board("extradiction-sp")]
    readers = {b.name: BoardReader(b, model=model) for b in boards}
    rng = np.random.default_rng([seed, 55])
    out: list[Letter] = []
    counts = EmptyCount(written=dict.fromkeys(ways, 0), written_readable=dict.fromkeys(ways, 0))
    t0 = time.time()
    k = 0
    for p in range(passes):
        order = rng.permutation(len(data.labels))
        for at in range(0, len(order), PER_SCENE):
            part = order[at:at + PER_SCENE]
            board = boards[k % len(boards)]
            k += 1
            squares = list(board.squares())
            chosen = [squares[i] for i in rng.choice(len(squares), len(part), replace=False)]
            letters = {sq: str(data.labels[i]) for sq, i in zip(chosen, part)}
            tilt, blur, ink = float(rng.uniform(0, 35)), float(rng.uniform(0.3, 1.3)), INK_NAMES[k % 4]
            noise, scene_seed = float(rng.uniform(1.5, 5)), int(rng.integers(1 << 30))
            recording = Recording(renderer(part))
            options = dict(seed=scene_seed, tilt_deg=tilt, blur=blur, noise=noise, ink=ink)
            scene = make_scene(board, letters, ink_renderer=recording, **options)
            plain = make_scene(board, letters, ink_renderer=renderer(part), glare=False, **options).frame
            sizes, glare = square_sizes(scene, board), glare_over(scene, scene.frame, plain, board)
            inks = recording.inks
            clean = model.outputs(np.stack([normalise(i) for i in inks]))[1].argmax(1)
            small = [cv2.resize(i, (30, 30), interpolation=cv2.INTER_AREA) for i in inks]
            clean30 = model.outputs(np.stack([normalise(i) for i in small]))[1].argmax(1)
            reader = readers[board.name]
            read: dict[str, np.ndarray] = {}
            empty = np.ones((board.rows, board.cols), bool)
            for sq in chosen:
                empty[sq] = False
            try:
                located = reader.locate(scene.frame)
                for name, way in ways.items():
                    way.setup(reader)
                    got = reader.read(scene.frame, located)
                    read[name] = np.array([int(got.probs[sq].argmax()) if got.states[sq] == INK else -1 for sq in chosen])
                    invented = int(((got.states == INK) & empty).sum())
                    counts.written[name] += invented
                    counts.written_readable[name] += invented if got.unreadable is None else 0
                counts.squares += int(empty.sum())
                counts.readable += int(empty.sum()) if got.unreadable is None else 0
            except BoardNotFound as error:  # a board not found reads nothing
                log(f"  scene {k}: {error}")
                read = {name: np.full(len(chosen), -1) for name in ways}
            for j, (sq, i) in enumerate(zip(chosen, part)):
                out.append(Letter(alphabet.index(str(data.labels[i])), board.name, ink, float(sizes[sq]), tilt, blur,
                                  float(glare[sq]), edge_share(inks[j]), int(clean[j]), int(clean30[j]),
                                  {name: int(v[j]) for name, v in read.items()}))
        log(f"  pass {p + 1} of {passes}: {len(out)} letters ({time.time() - t0:.0f} s)")
    return out, counts


def rows_of(letters: list[Letter], cutter: str) -> Iterator[tuple[str, str, list[Letter]]]:
    yield "all", "", letters
    for title, key, edges in SPLITS:
        values = np.array([getattr(x, key) for x in letters])
        for lo, hi in zip(edges[:-1], edges[1:]):
            group = [x for x, v in zip(letters, values) if lo <= v < hi]
            top = "+" if hi >= 1e8 else f"{hi:g}"
            yield title, f"{lo:g}-{top}" if lo >= 0 else f"<{top}", group
    for name in sorted({x.board for x in letters}):
        yield "board", name, [x for x in letters if x.board == name]
    for name in INK_NAMES:
        yield "ink", name, [x for x in letters if x.ink == name]


def table(letters: list[Letter], cutter: str = "shipped") -> str:
    """The loss table (markdown): per condition, the letters, clean, clean at 30 px, in the
    scene, the scene's loss and the share of all the scene's lost letters that fall there."""
    lost_all = sum(int(x.clean == x.label and x.scene[cutter] != x.label) for x in letters)
    lines = ["| condition | value | letters | clean | clean at 30 px | in the scene | loss (points) | "
             "share of the letters lost | written squares judged empty |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for title, value, group in rows_of(letters, cutter):
        if not group:
            continue
        n = len(group)
        clean = sum(x.clean == x.label for x in group) / n
        c30 = sum(x.clean30 == x.label for x in group) / n
        scene = sum(x.scene[cutter] == x.label for x in group) / n
        lost = sum(int(x.clean == x.label and x.scene[cutter] != x.label) for x in group)
        empty = sum(x.scene[cutter] < 0 for x in group)
        lines.append(f"| {title} | {value} | {n} | {100 * clean:.1f} | {100 * c30:.1f} | {100 * scene:.1f} | "
                     f"{100 * (clean - scene):+.1f} | {100 * lost / max(1, lost_all):.0f} % | {empty} |")
    return "\n".join(lines)


def compare(letters: list[Letter], counts: EmptyCount, ways: list[str]) -> str:
    """Each way's share right, the letters it reads right and the first one wrong and the other
    way round (the same letters in the same scenes), and the empty squares it read as written."""
    first = ways[0]
    lines = ["| way | letters right | against " + first + " (+ right only here / - wrong only here) | "
             "empty squares read written (of readable boards) |", "|---|---:|---:|---:|"]
    base = np.array([x.scene[first] == x.label for x in letters])
    for name in ways:
        right = np.array([x.scene[name] == x.label for x in letters])
        lines.append(f"| {name} | {100 * right.mean():.2f} % of {len(letters)} | +{int((right & ~base).sum())} / "
                     f"-{int((base & ~right).sum())} | {counts.written[name]} of {counts.squares} "
                     f"({counts.written_readable[name]} of {counts.readable}) |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--language", default="en", choices=("en", "uk"))
    ap.add_argument("--passes", type=int, default=3, help="scenes each tuning letter is written into")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--ways", default=",".join(WAYS), help="comma-separated names of WAYS to compare; the loss "
                    "table is of the first and the last")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = args.ways.split(",")
    letters, counts = collect(args.language, args.passes, args.seed, {n: WAYS[n] for n in names})
    for name in dict.fromkeys((names[0], names[-1])):
        print(f"The scene's loss, read {name!r}:")
        print(table(letters, name))
        print()
    print(compare(letters, counts, names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
