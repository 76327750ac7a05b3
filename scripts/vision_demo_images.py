#!/usr/bin/env python3
"""Make the README's vision images: a printed board, a synthetic camera photo of it with
handwriting (glare, tilt, blur, noise) and what ``tabletop score`` read from that photo.

    .venv/bin/python scripts/vision_demo_images.py --out docs/img
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

import cv2

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from rules.scoring import score_board  # noqa: E402
from rules.squares import Square  # noqa: E402
from tabletop.lexicons import builtin_lexicon  # noqa: E402
from tabletop.resources import load_board  # noqa: E402
from vision.locate import MARGIN  # noqa: E402
from vision.printing import print_board  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.synth.scene import make_scene  # noqa: E402

WORDS = [("MARKET", 9, 5, True), ("PENETRATE", 5, 10, False), ("INVISIBLE", 16, 1, True)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/img")
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args(argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    board = load_board("extradiction-sp")
    page, _side = print_board(board, "A4", 200)
    small = cv2.resize(page, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out / "printed-board.png"), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    letters = {}
    for text, row, col, across in WORDS:
        for k, ch in enumerate(text):
            letters[Square(row, col + k) if across else Square(row + k, col)] = ch
    scene = make_scene(board, letters, seed=args.seed, tilt_deg=28, ink="blue", fill=0.97)
    cv2.imwrite(str(out / "camera-photo.jpg"), scene.frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    reader = BoardReader(board, builtin_lexicon("en"))
    read = reader.read(scene.frame)
    canon = read.located.warp(scene.frame)
    cell, m = reader.cell, MARGIN * reader.cell
    for r in range(board.rows):
        for c in range(board.cols):
            ch = read.rows[r][c]
            if ch not in ".?":
                x, y = int(m + c * cell), int(m + r * cell)
                cv2.rectangle(canon, (x + 1, y + 1), (x + cell - 2, y + cell - 2), (0, 160, 0), 1)
                cv2.putText(canon, ch, (x + cell - 11, y + cell - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 200), 1, cv2.LINE_AA)
    cv2.imwrite(str(out / "read-result.jpg"), canon, [cv2.IMWRITE_JPEG_QUALITY, 85])
    scores = score_board(board, read.grid())
    result = {"grid": [row.replace("?", ".") for row in read.rows], "words": [s.to_json() for s in scores],
              "score": sum(s.score for s in scores)}
    (out / "read-result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result["words"]), result["score"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
