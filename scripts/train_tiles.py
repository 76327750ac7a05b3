"""Train the tile network (vision/models/tiles.onnx) on synthetic photos of tiles on boards.

    .venv/bin/python scripts/train_tiles.py [--scenes 1400] [--epochs 14] [--out vision/models/tiles.onnx] [--data windows.npz]
    .venv/bin/python scripts/train_tiles.py --light --out vision/models/tiles-light.onnx

The photos come from vision.synth.tilescene: the project's printed Questique board with printed
tiles, and boxed-set boards (coloured bonus squares, raised wooden or plastic tiles in the
typefaces of vision.synth.tilefonts.TRAINING, the colours of tilescene.TRAINING_PALETTES and
tilescene.MORE_WOOD: dark tiles with light letters too, on boards of any colour; half the sets print
a large letter with its value tucked against its foot, as the classic boxed sets do, and some are
wood of the board's own tone), English and Ukrainian, tilted up to 45 degrees,
under glare, a darker side, warm or cold light, blur and JPEG. Each photo is cut exactly as the
table cuts it (vision.tiles: warped from the grid's corners given a little off, light evened
out, a window round each square), a window centred a little off where the tile's face really
lies (an empty square's window often where a tile's raised face would be, as the reader reads it);
the label is the square's content. The typefaces of tilefonts.HELD_OUT, the colours of
tilescene.HELD_OUT_PALETTES and HELD_OUT_BOARDS, and seeds from 7000 up are never used here (the
benchmark's boards use them). A quarter of the windows are trained inverted (light on dark as
dark on light) and half of the batches with their colour channels shuffled. With --light, the sets are
light tiles with dark letters only, never inverted: the light network. PyTorch trains; the network is exported to ONNX
for ONNX Runtime (never imported at run time). Progress is shown with rich.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import sys
import time

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.board import Board, parse_board  # noqa: E402
from rules.questique_tiles import alphabet  # noqa: E402
from rules.squares import Square  # noqa: E402
from vision.tiles import BLANK, CELL, CLASSES, EMPTY, MARGIN, WINDOW, even_light, from_corners, glyph, windows  # noqa: E402


def boards() -> list[tuple[Board, str]]:
    """The boards the photos show: the printed Questique board, and boxed boards of a few sizes."""
    from tabletop.resources import load_board

    boxed = [parse_board(f"rows = {n}\ncols = {n}\n[layers]\n", f"boxed {n}x{n}", required=()) for n in (15, 15, 13, 17, 21)]
    return [(load_board("questique", required=("marks",)), "printed")] + [(b, "commercial") for b in boxed]


def random_tiles(board: Board, language: str, rng: np.random.Generator) -> dict[Square, str]:
    """Tiles as games leave them: words across and down, some loose tiles, blanks (more of them
    than a set has: a blank and an empty square are the hardest to tell apart), and on the
    printed board the exclusion blanks on some of the star squares."""
    letters = alphabet(language)
    tiles: dict[Square, str] = {}
    share = rng.uniform(0.08, 0.55)
    while len(tiles) < share * board.rows * board.cols:
        length = int(rng.integers(1, 9))
        across = rng.random() < 0.5
        r, c = int(rng.integers(board.rows)), int(rng.integers(board.cols))
        for k in range(length):
            sq = Square(r, c + k) if across else Square(r + k, c)
            if sq.row < board.rows and sq.col < board.cols:
                tiles[sq] = BLANK if rng.random() < 0.1 else letters[rng.integers(len(letters))]
    marks = board.layers.get("marks")
    if marks:
        stars = [Square(r, c) for r in range(board.rows) for c in range(board.cols) if marks[r][c] == "*"]
        for i in rng.permutation(len(stars))[:int(rng.integers(0, 9))]:
            tiles[stars[i]] = BLANK
    return tiles


#: with ``--pushed P``, a share P of the tiles is read from a window up to this many squares off
#: its face (the rest up to 0.2): hands push tiles off their squares, and tiles laid edge to edge
#: drift by a third of a square (tried in issue 24's ninth round, not in the shipped networks)
PUSHED_REACH = 0.38


def examples(job: tuple[int, int, bool, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The windows and labels of one photo (``job``: seed, board number, light tiles only, the
    share of boxed boards printed as current editions print theirs (``--modern``), the share of
    tiles read from farther off their face (``--pushed``)). Boxed
    boards show, three times in four, a set of :data:`vision.synth.tilescene.TRAINING_PALETTES`
    or :data:`~vision.synth.tilescene.MORE_WOOD` (dark tiles with light letters among them, unless
    light tiles only) on a board of any colour (light boards too), tilted up to 45°; half of these
    sets print a large letter with its value tucked against its foot, and one in five light sets
    is wood of the board's own tone (its blanks look like plain board but for their relief)."""
    from vision.synth.tilefonts import TRAINING
    from vision.synth.tilescene import BOARD_COLOURS, LIGHT_BOARDS, MORE_WOOD, TRAINING_PALETTES, tile_scene, varied_look

    seed, which, light_only, modern, pushed = job
    rng = np.random.default_rng([seed, 99])
    board, style = boards()[which]
    language = "uk" if rng.random() < 0.45 else "en"
    tiles = random_tiles(board, language, rng)
    size = (1280, 960) if rng.random() < 0.7 else (960, 720)
    look, colour, tilt = None, None, None
    if style == "commercial":
        tilt = float(rng.uniform(0, 45))
        if rng.random() < 0.75:
            palettes = TRAINING_PALETTES + MORE_WOOD
            if light_only:
                palettes = tuple(p for p in palettes if sum(p.face) > sum(p.ink))
            look = varied_look(rng, language, TRAINING, palettes, tucked=0.5)
            colours = BOARD_COLOURS + LIGHT_BOARDS
            colour = colours[int(rng.integers(len(colours)))] if rng.random() < 0.8 else None
            if sum(look.face) > sum(look.ink) and rng.random() < 0.2:
                look, colour = board_toned(look, rng)
    shot = tile_scene(board, tiles, seed=seed, style=style, language=language, faces=TRAINING, size=size,
                      look=look, board_colour=colour, tilt_deg=tilt, modern=modern)
    cell_px = np.linalg.norm(shot.corners[1] - shot.corners[0]) / board.cols
    corners = shot.corners + rng.normal(0, 0.05 * cell_px, (4, 2))
    located = from_corners(shot.frame.shape, corners, board.rows, board.cols, CELL)
    light = even_light(located.warp(shot.frame), CELL)
    empties = [Square(r, c) for r in range(board.rows) for c in range(board.cols) if Square(r, c) not in tiles]
    chosen = [empties[i] for i in rng.permutation(len(empties))[:len(tiles) // 2 + 20]]
    centres, labels = [], []
    for sq in list(tiles) + chosen:
        if sq in tiles:
            x, y = shot.faces[sq]
            labels.append(CLASSES.index(BLANK if tiles[sq] == BLANK else glyph(tiles[sq])))
        elif shot.raised is not None and rng.random() < 0.6:      # read where a tile's face would be
            x, y = shot.raised[sq.row, sq.col]
            labels.append(CLASSES.index(EMPTY))
        else:
            x, y = corners_free_middle(located, sq)
            labels.append(CLASSES.index(EMPTY))
        (cx, cy), = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), located.homography)[0:1, 0]
        reach = PUSHED_REACH if pushed and sq in tiles and rng.random() < pushed else 0.2
        centres.append((cx + rng.uniform(-reach, reach) * CELL, cy + rng.uniform(-reach, reach) * CELL))
    cut = windows(light, np.array(centres))
    return (np.clip(cut, -0.5, 1.0) * 127).astype(np.int8), np.array(labels, np.int16)


def board_toned(look, rng: np.random.Generator):
    """``look`` as wood of the same tone as a light board it lies on: the look and the board's
    colour (BGR), a light board's colour a little lighter or darker, greyer or yellower."""
    import dataclasses

    from vision.synth.tilescene import BOARD_COLOURS, LIGHT_BOARDS

    light = [c for c in BOARD_COLOURS + LIGHT_BOARDS if sum(c) > 450]
    board = np.array(light[int(rng.integers(len(light)))], np.float64) + rng.normal(0, 10, 3)
    face = board * rng.uniform(0.88, 1.12) + rng.normal(0, 6, 3)
    as_int = tuple(int(v) for v in np.clip(face, 0, 255))
    return (dataclasses.replace(look, face=as_int, grain=float(rng.uniform(0.02, 0.08))),
            tuple(int(v) for v in np.clip(board, 0, 255)))


def corners_free_middle(located, sq: Square) -> tuple[float, float]:
    """Where in the photo the middle of ``sq`` is on the board's surface (through ``located``)."""
    top = np.array([[[(MARGIN + sq.col + 0.5) * CELL, (MARGIN + sq.row + 0.5) * CELL]]], np.float64)
    (x, y), = cv2.perspectiveTransform(top, np.linalg.inv(located.homography))[0:1, 0]
    return float(x), float(y)


def make_data(scenes: int, start: int, workers: int, light_only: bool = False, modern: float = 0.0,
              pushed: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    from rich.progress import Progress

    n_boards = len(boards())
    jobs = [(start + k, k % n_boards if k % 3 else 0, light_only, modern, pushed) for k in range(scenes)]
    xs, ys = [], []
    with Progress() as progress, multiprocessing.Pool(workers) as pool:
        task = progress.add_task(f"photos {start}..", total=scenes)
        for x, y in pool.imap_unordered(examples, jobs, chunksize=4):
            xs.append(x)
            ys.append(y)
            progress.advance(task)
    return np.concatenate(xs), np.concatenate(ys)


def network():
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]

    return nn.Sequential(*block(3, 8), *block(8, 16), *block(16, 32), nn.Flatten(),
                         nn.Linear(32 * (WINDOW // 8) ** 2, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, len(CLASSES)))


def train(x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, epochs: int, invert: float = 0.25):
    import torch
    from rich.progress import Progress

    torch.manual_seed(0)
    model = network()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(x) // 256 + 1)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    gen = torch.Generator().manual_seed(1)
    with Progress() as progress:
        task = progress.add_task("training", total=steps)
        for epoch in range(epochs):
            model.train()
            order = torch.randperm(len(xt), generator=gen)
            for k in range(0, len(order), 256):
                idx = order[k:k + 256]
                batch = xt[idx].float() / 127
                gain = 1 + 0.15 * torch.randn(len(idx), 3, 1, 1, generator=gen)
                batch = (batch + 0.5) * gain - 0.5 + 0.03 * torch.randn(batch.shape, generator=gen)
                flip = torch.rand(len(idx), 1, 1, 1, generator=gen) < invert      # light on dark <-> dark on light
                batch = torch.where(flip, -batch, batch)
                if torch.rand(1, generator=gen).item() < 0.5:                   # any board and tile colours
                    batch = batch[:, torch.randperm(3, generator=gen)]
                loss = torch.nn.functional.cross_entropy(model(batch), yt[idx], label_smoothing=0.02)
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                schedule.step()
                progress.advance(task)
            accuracy = evaluate(model, xv, yv)
            progress.console.print(f"epoch {epoch + 1}: loss {loss.item():.3f}, held-out windows {accuracy:.2%} right")
    return model


def evaluate(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    model.eval()
    with torch.no_grad():
        guess = torch.cat([model(torch.from_numpy(x[k:k + 2048]).float() / 127).argmax(1)
                           for k in range(0, len(x), 2048)]).numpy()
    return float((guess == y).mean())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1400)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(ROOT / "vision" / "models" / "tiles.onnx"))
    parser.add_argument("--data", help="an .npz the windows are kept in: read when it is there, else written")
    parser.add_argument("--light", action="store_true",
                        help="light tiles with dark letters only, never inverted (the light network, tiles-light.onnx)")
    parser.add_argument("--modern", type=float, default=0.0,
                        help="the share of boxed boards printed as current editions print theirs (labels turned a "
                             "quarter, serrated bonus squares, framed plain squares); 0 as the shipped networks")
    parser.add_argument("--pushed", type=float, default=0.0,
                        help=f"the share of tiles read from a window up to {PUSHED_REACH} square off their face; "
                             "0 as the shipped networks")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    started = time.time()
    if args.data and pathlib.Path(args.data).exists():
        kept = np.load(args.data)
        x, y, xv, yv = kept["x"], kept["y"], kept["xv"], kept["yv"]
    else:
        x, y = make_data(args.scenes, 0, args.workers, args.light, args.modern, args.pushed)
        xv, yv = make_data(max(40, args.scenes // 25), 1_000_000, args.workers, args.light, args.modern, args.pushed)
        if args.data:
            np.savez(args.data, x=x, y=y, xv=xv, yv=yv)
    print(f"{len(x)} training windows, {len(xv)} held-out windows ({time.time() - started:.0f} s)")
    model = train(x, y, xv, yv, args.epochs, 0.0 if args.light else 0.25)
    model.eval()
    import torch.onnx

    torch.onnx.export(model, torch.zeros(1, 3, WINDOW, WINDOW), args.out, dynamo=False, input_names=["windows"],
                      output_names=["logits"], dynamic_axes={"windows": {0: "n"}, "logits": {0: "n"}})
    print(f"wrote {args.out} ({pathlib.Path(args.out).stat().st_size // 1024} KB) in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
