"""A printable sheet of dice labels (``tabletop print-dice``): every face of every die of a set,
one row a die, at the size of the dice's faces, with a sidecar naming each label.

Families without the game's dice stick the labels on blank dice (or any cubes of the right
size): row ``k`` of the sheet goes on die ``k``, one label a face. The reader then knows each
die by the marks under its bar (:mod:`vision.dicelabels`).

>>> from rules.letter_dice_sets import DICE
>>> page, sidecar = dice_sheet(DICE["en"], language="en", dpi=100)
>>> page.shape[:2], len(sidecar["labels"]), sidecar["labels"][0]["letter"]
((1169, 827), 48, 'A')
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.dicelabels import JOKER, MAX_DICE, label_image
from vision.printing import PAPER_MM

#: the default label side: a 16 mm die's face less a millimetre of margin each side
LABEL_MM = 14.0


def dice_sheet(dice: tuple[tuple[str, ...], ...], *, language: str, paper: str = "A4", dpi: int = 200,
               label_mm: float = LABEL_MM) -> tuple[np.ndarray, dict]:
    """The sheet (BGR, portrait ``paper`` at ``dpi``) and its sidecar: ``{"language", "dpi",
    "label_mm", "dice": [[faces], ...], "labels": [{"die", "face", "letter", "box"}, ...]}`` with
    ``die`` and ``face`` numbered from 1 and ``box`` the label's ``[x0, y0, x1, y1]`` in pixels."""
    if paper not in PAPER_MM:
        raise ValueError(f"paper must be one of {', '.join(PAPER_MM)}, not {paper!r}")
    if not 1 <= len(dice) <= MAX_DICE:
        raise ValueError(f"a set of 1 to {MAX_DICE} dice can be printed, not {len(dice)}")
    if not 6.0 <= label_mm <= 40.0:
        raise ValueError(f"a label is 6 to 40 mm wide, not {label_mm:g}")
    px_mm = dpi / 25.4
    w_mm, h_mm = PAPER_MM[paper]
    page = np.full((round(h_mm * px_mm), round(w_mm * px_mm), 3), 255, np.uint8)
    side, gap = round(label_mm * px_mm), round(4 * px_mm)
    margin_x, top = round(30 * px_mm), round(30 * px_mm)
    widest = max(len(die) for die in dice)
    if margin_x + widest * (side + gap) > page.shape[1] or top + len(dice) * (side + gap) > page.shape[0]:
        raise ValueError(f"{label_mm:g} mm labels do not fit on {paper}; choose smaller labels or larger paper")
    title = f"Letter dice ({language}): one row a die, one label a face. Cut on the grey lines."
    cv2.putText(page, title, (round(10 * px_mm), round(15 * px_mm)), cv2.FONT_HERSHEY_SIMPLEX, px_mm / 10, (0, 0, 0),
                max(1, round(px_mm / 5)), cv2.LINE_AA)
    labels = []
    for d, die in enumerate(dice):
        y = top + d * (side + gap)
        cv2.putText(page, f"die {d + 1}", (round(8 * px_mm), y + side // 2), cv2.FONT_HERSHEY_SIMPLEX, px_mm / 12,
                    (0, 0, 0), max(1, round(px_mm / 6)), cv2.LINE_AA)
        for f, face in enumerate(die):
            x = margin_x + f * (side + gap)
            page[y:y + side, x:x + side] = label_image(face, d, side)[..., None]
            cv2.rectangle(page, (x - gap // 2, y - gap // 2), (x + side + gap // 2, y + side + gap // 2), (190, 190, 190), 1)
            labels.append({"die": d + 1, "face": f + 1, "letter": face, "joker": face == JOKER,
                           "box": [x, y, x + side, y + side]})
    sidecar = {"language": language, "dpi": dpi, "label_mm": label_mm, "paper": paper,
               "dice": [list(die) for die in dice], "labels": labels}
    return page, sidecar
