"""Held-out handwriting in pictures made the way someone else would make them: not by our scene
simulator, but from the printed PNG and its sidecar alone. Each letter is pasted into its
square's sidecar box (filling 70-100 % of it, drawn with a pen 3-10 % of the box wide), and the
page is then photographed in perspective at 1600x1200 (tilt up to 35°, a glare spot, blur,
sensor noise, JPEG). The acceptance test of the camera reader is pictures like these.

>>> page, side = outsider_page(small_test_board(), [], np.random.default_rng(0))
>>> page.shape[2], len(side["cells"])
(3, 25)
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.board import parse_board
from rules.squares import Square

INKS = ((30, 30, 30), (140, 50, 20), (40, 40, 170), (40, 120, 40))  #: BGR: black, blue, red, green
PHOTO_SIZE = (1600, 1200)


def small_test_board():
    """A 5x5 board (for the example above)."""
    return parse_board('rows = 5\ncols = 5\n[layers]\nvalues = ["11111", "11111", "11111", "11111", "11111"]\n'
                       'zones = [".....", ".....", ".....", ".....", "....."]')


def outsider_page(board, letters: list[tuple[Square, list[np.ndarray]]], rng: np.random.Generator):
    """The printed page with each ``(square, strokes)`` pasted into the square's sidecar box."""
    from vision.synth.handwriting import draw_strokes
    from vision.printing import print_board

    page, side = print_board(board)
    page = page.astype(np.float32)
    for sq, strokes in letters:
        x0, y0, x1, y1 = side["cells"][sq.row * side["cols"] + sq.col]
        w, h = x1 - x0, y1 - y0
        fill = rng.uniform(0.7, 1.0)
        box = (w * (1 - fill) / 2, h * (1 - fill) / 2, w * (1 + fill) / 2, h * (1 + fill) / 2)
        ink = draw_strokes(strokes, (h, w), box, w * rng.uniform(0.03, 0.10))[:, :, None]
        colour = np.array(INKS[int(rng.integers(len(INKS)))], np.float32)
        page[y0:y1, x0:x1] = page[y0:y1, x0:x1] * (1 - ink) + colour * ink
    return page, side


def photograph(page: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A camera picture of ``page``: perspective, glare, blur, noise, JPEG."""
    from vision.synth.scene import camera_homography

    fw, fh = PHOTO_SIZE
    h = camera_homography(page.shape[1], page.shape[0], PHOTO_SIZE, float(rng.uniform(0, 35)), rng,
                          fill=float(rng.uniform(0.8, 0.95)))
    background = tuple(float(v) for v in rng.uniform(40, 140, 3))
    photo = cv2.warpPerspective(page, h, PHOTO_SIZE, flags=cv2.INTER_AREA, borderValue=background)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    cx, cy, r = rng.uniform(0.2, 0.8) * fw, rng.uniform(0.2, 0.8) * fh, rng.uniform(0.05, 0.15) * fw
    photo += float(rng.uniform(40, 110)) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))[:, :, None]
    photo *= (0.85 + 0.15 * xx / fw)[:, :, None]  # light falling off to one side
    photo = cv2.GaussianBlur(photo, (0, 0), float(rng.uniform(0.5, 1.6))) + rng.normal(0, 3, photo.shape)
    ok, data = cv2.imencode(".jpg", np.clip(photo, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    assert ok and decoded is not None, "OpenCV could not round-trip a JPEG it made"
    return np.asarray(decoded)


def outsider_letters(boards, data, n_scenes: int, per_scene: int, log=print) -> tuple[int, int, dict]:
    """Letters read right, letters written, and the empty/ink errors (written squares read
    empty, empty squares read written, pictures where the board was not found) on ``n_scenes``
    such pictures of ``data``'s letters."""
    from vision.letters import ALPHABET
    from vision.reader import BoardReader

    readers = {b.name: BoardReader(b) for b in boards}
    right = total = missed = false = not_found = 0
    for k in range(n_scenes):
        rng = np.random.default_rng([7070, k])
        board = boards[k % len(boards)]
        squares = list(board.squares())
        chosen = [squares[i] for i in rng.choice(len(squares), min(per_scene, len(squares)), replace=False)]
        idx = rng.choice(len(data.labels), len(chosen), replace=False)
        page, _ = outsider_page(board, [(sq, data.strokes[i]) for sq, i in zip(chosen, idx)], rng)
        try:
            read = readers[board.name].read(photograph(page, rng))
        except Exception as error:  # noqa: BLE001 - counted, reported
            not_found += 1
            total += len(chosen)
            log(f"  outsider picture {k}: {error}")
            continue
        truth = np.zeros((board.rows, board.cols), bool)
        for sq in chosen:
            truth[sq] = True
        missed += int(((read.states == 0) & truth).sum())
        false += int(((read.states == 1) & ~truth).sum())
        for sq, i in zip(chosen, idx):
            total += 1
            right += int(read.states[sq] == 1 and ALPHABET[int(read.probs[sq].argmax())] == data.labels[i])
    return right, total, {"missed": missed, "false": false, "not_found": not_found}
