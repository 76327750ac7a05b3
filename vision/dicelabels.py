"""The printed labels of letter dice: what ``tabletop print-dice`` prints and the dice reader knows.

A label is a white square in a thick black frame. Inside: the face's letter (the Joker a
five-pointed star), a solid bar along the letter's foot (so a label seen at any angle has a
"down"), and under the bar three small squares, the die's number in binary (die 1 none filled,
die 8 all three: the leftmost mark is the lowest bit). The number lets the reader say which die
shows which face, so a roll is read in the set's order even where two dice share letters.

>>> img = label_image("A", 2, 96)
>>> img.shape, int(img[0, 0]), int(img[20:50, 30:66].min())  # the frame black, the letter ink
((96, 96), 0, 0)
>>> die_marks(5)
(True, False, True)
"""

from __future__ import annotations

import functools
import pathlib

import numpy as np

from rules.letter_dice_sets import JOKER

#: canonical size (pixels) of a label's inside, as the reader compares it
CANON = 64
#: the labels' font (Debian's fonts-dejavu-core: Latin and Cyrillic)
FONT = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
#: the frame's thickness, as a share of the label's side
FRAME = 0.11
#: how many dice a set may have (three marks: dice 1 to 8)
MAX_DICE = 8


def die_marks(die: int) -> tuple[bool, bool, bool]:
    """Which of the three marks under the bar are filled on die number ``die`` (0-based)."""
    if not 0 <= die < MAX_DICE:
        raise ValueError(f"a dice set has at most {MAX_DICE} dice (die {die + 1} asked)")
    return bool(die & 1), bool(die & 2), bool(die & 4)


@functools.lru_cache(maxsize=512)
def label_image(face: str, die: int, size: int = 256) -> np.ndarray:
    """The label of ``face`` on die number ``die`` (0-based), grey (0 black .. 255 white),
    ``size`` pixels square, frame included."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("L", (size, size), 255)
    draw = ImageDraw.Draw(img)
    frame = max(2, round(size * FRAME))
    draw.rectangle([0, 0, size - 1, size - 1], outline=0, width=frame)
    inner = size - 2 * frame

    def at(u: float, v: float) -> tuple[float, float]:       # a point of the inside, 0..1 each way
        return frame + u * inner, frame + v * inner

    draw.rectangle([*at(0.18, 0.64), *at(0.82, 0.71)], fill=0)            # the bar
    for k, filled in enumerate(die_marks(die)):
        u = 0.22 + k * 0.22
        box = [*at(u, 0.76), *at(u + 0.12, 0.87)]
        if filled:
            draw.rectangle(box, fill=0)
        else:
            draw.rectangle(box, outline=0, width=max(1, round(inner * 0.02)))
    if face == JOKER:
        cx, cy = at(0.5, 0.34)
        r = inner * 0.28
        points = [(cx + (r if k % 2 == 0 else r * 0.42) * np.cos(-np.pi / 2 + k * np.pi / 5),
                   cy + (r if k % 2 == 0 else r * 0.42) * np.sin(-np.pi / 2 + k * np.pi / 5)) for k in range(10)]
        draw.polygon(points, fill=0)
    else:
        font = ImageFont.truetype(str(FONT), max(8, round(inner * 0.57))) if FONT.exists() else ImageFont.load_default()
        left, top, right, bottom = draw.textbbox((0, 0), face, font=font)
        cx, cy = at(0.5, 0.34)
        draw.text((cx - (right - left) / 2 - left, cy - (bottom - top) / 2 - top), face, font=font, fill=0)
    return np.asarray(img, np.uint8)


@functools.lru_cache(maxsize=512)
def inner_template(face: str, die: int) -> np.ndarray:
    """The inside of the label (within the frame) at the reader's CANON size, as float32."""
    import cv2

    size = 4 * CANON
    img = label_image(face, die, size)
    frame = max(2, round(size * FRAME))
    inside = img[frame:size - frame, frame:size - frame]
    return cv2.resize(inside, (CANON, CANON), interpolation=cv2.INTER_AREA).astype(np.float32)
