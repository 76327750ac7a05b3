"""Reading letter dice from a photo: the faces of a roll, wherever the dice lie, turned any way.

The dice carry printed labels (:func:`vision.dicelabels.label_image`, printed by ``tabletop
print-dice``): a white square in a thick black frame, the letter (the Joker a star), a bar along
the letter's foot and, under the bar, the die's number in three marks. The reader finds the
labels' frames (the light squares inside dark square outlines), warps each to a canonical square
and compares it, in its four turns, with every face of every die of the set. The set constrains
the answer: each label goes to a different die and shows one of that die's six faces (the
assignment with the largest total match), so a smudged letter can only be read as a face of a die
not yet taken, and the faces come out in the set's order, one per die.

>>> from rules.letter_dice_sets import DICE
>>> from vision.synth.dicescene import dice_scene
>>> scene = dice_scene(("E", "A", "T", "C", "P", "S", "N", "*"), seed=3)
>>> read_roll(scene, DICE["en"]).faces
('E', 'A', 'T', 'C', 'P', 'S', 'N', '*')
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dicelabels import CANON, inner_template
from vision.diceup import on_top
from vision.errors import BadImage, VisionError

#: a label whose best match is below this is not trusted (a hand's edge, a box, a shadow)
MIN_MATCH = 0.35
#: a label's outline may look this many times longer one way than the other (a die's top seen
#: from low down, near the photo's edge)
MAX_SQUEEZE = 3.0
#: a top label matching its face less well than this is no face (a hand over part of it, a side
#: of a die whose marks are misread): the die is not seen rather than guessed
TOP_MATCH = 0.5
#: labels are looked for on the photo shrunk to this short side (then read at full size)
FIND_SIDE = 720
#: how far (pixels of the photo labels are found on) a label's outline lies outside its white inside
INSET = 1.25


class DiceNotFound(VisionError):
    """Fewer labels than dice were seen (a hand over them, dice off the photo, or no dice)."""

    def __init__(self, seen: int, wanted: int):
        super().__init__(f"{seen} of {wanted} dice seen: is a hand over them, or a die off the photo?")
        self.seen, self.wanted = seen, wanted


@dataclass(frozen=True)
class Roll:
    """What the dice show, in the order of the set's dice.

    ``confidence`` is per die (0..1, the label's match with the face it was read as);
    ``centres`` are the labels' centres in the photo (pixels), per die.
    """

    faces: tuple[str, ...]
    confidence: tuple[float, ...]
    centres: tuple[tuple[float, float], ...]

    def to_json(self) -> dict:
        """``{"faces": [...]}`` as DESIGN.md's ``score --json`` prints it, with the confidences.

        >>> Roll(("A", "*"), (0.9, 0.8), ((1.0, 2.0), (3.0, 4.0))).to_json()["faces"]
        ['A', '*']
        """
        return {"faces": list(self.faces), "confidence": [round(c, 3) for c in self.confidence]}


@dataclass(frozen=True)
class DiceSeen:
    """What each die of the set shows on top, None where its top label is not seen (see
    :meth:`DiceReader.look`); ``confidence`` 0 and ``centres`` None for those dice."""

    faces: tuple[str | None, ...]
    confidence: tuple[float, ...]
    centres: tuple[tuple[float, float] | None, ...]


def _order(quad: np.ndarray) -> np.ndarray:
    """Four corners clockwise from the one nearest the photo's top left."""
    centre = quad.mean(0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(1)))
    return np.roll(quad, -start, axis=0).astype(np.float32)


def find_labels(gray: np.ndarray) -> list[np.ndarray]:
    """Candidate labels' inner squares (four corners each, clockwise) in a grey photo: the light
    holes of dark outlines that are squares of plausible size, seen in any perspective. Some are
    no label (a white die's body round its label, a letter's counter): the reader keeps, of
    candidates nested in one another, the one that best matches a face.

    >>> find_labels(np.full((100, 100), 200, np.uint8))
    []
    """
    scale = min(1.0, FIND_SIDE / min(gray.shape))
    if scale < 1.0:
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return [quad / scale for quad in find_labels(small)]
    h, w = gray.shape
    block = max(15, (min(h, w) // 20) | 1)
    binary = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7)
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    min_area, max_area = (min(h, w) * 0.015) ** 2, (min(h, w) * 0.35) ** 2
    found: list[np.ndarray] = []
    for index in np.flatnonzero(hierarchy[0][:, 3] >= 0):      # holes: the light inside of a dark frame
        contour = contours[int(index)]
        x, y, bw, bh = cv2.boundingRect(contour)
        if bw * bh < min_area:
            continue
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        hull = cv2.convexHull(contour)
        approx = cv2.approxPolyDP(hull, 0.06 * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        quad = _refine(contour.reshape(-1, 2).astype(np.float32), _order(approx.reshape(4, 2).astype(np.float32)))
        sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
        if max(sides) > MAX_SQUEEZE * min(sides) or area < 0.75 * cv2.contourArea(quad):
            continue
        found.append(quad)
    return found


def _refine(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad's corners to a fraction of a pixel: a line fitted through the outline's points
    along each side (away from the corners), the corners where neighbouring lines cross."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab)) + 1e-6
        along = (points - a) @ ab / length ** 2
        rel = points - a
        across = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = points[(along > 0.15) & (along < 0.85) & (across < max(2.0, 0.08 * length))]
        if len(near) < 3:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] + v[0] * u[1]
        if abs(det) < 1e-3:
            return quad
        t = ((q - p)[0] * -v[1] + v[0] * (q - p)[1]) / det
        corners.append(p + t * u)
    refined = np.array(corners, np.float32)
    if float(np.abs(refined - quad).max()) > 0.2 * np.linalg.norm(quad[1] - quad[0]):
        return quad
    # the outline runs on the frame's own pixels: step INSET pixels in, onto the white
    towards = refined.mean(0) - refined
    return (refined + towards / np.linalg.norm(towards, axis=1, keepdims=True) * INSET * np.sqrt(2)).astype(np.float32)


def _best_of_nested(quads: list[np.ndarray], score: np.ndarray) -> np.ndarray:
    """The indices of the quads to keep: of quads lying one inside another (a white die's body
    around its label's inside; a letter's counter inside it), the best matching one."""
    kept: list[int] = []
    for i in np.argsort(-score):
        centre = tuple(float(v) for v in quads[i].mean(0))
        if not any(cv2.pointPolygonTest(quads[j], centre, False) >= 0 or
                   cv2.pointPolygonTest(quads[i], tuple(float(v) for v in quads[j].mean(0)), False) >= 0
                   for j in kept):
            kept.append(int(i))
    return np.array(sorted(kept), int)


def _canonical(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The label's inside, warped to CANON x CANON and blurred a little (as the templates are)."""
    target = np.array([(0, 0), (CANON - 1, 0), (CANON - 1, CANON - 1), (0, CANON - 1)], np.float32)
    patch = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad, target), (CANON, CANON),
                                flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    return cv2.GaussianBlur(patch, (0, 0), 1.0)


def _unit_rows(stack: np.ndarray) -> np.ndarray:
    """Each row made zero-mean and unit-length, so a dot product is a normalised correlation."""
    flat = stack.reshape(len(stack), -1).astype(np.float32)
    flat = flat - flat.mean(1, keepdims=True)
    return flat / (np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6)


class DiceReader:
    """Reads rolls of one dice set (a tuple of dice, each its six faces).

    >>> from rules.letter_dice_sets import DICE
    >>> reader = DiceReader(DICE["uk"]); len(reader.dice)
    8
    """

    def __init__(self, dice: tuple[tuple[str, ...], ...]):
        self.dice = tuple(tuple(die) for die in dice)
        self._pairs = [(d, face) for d, die in enumerate(self.dice) for face in sorted(set(die))]
        templates = np.stack([cv2.GaussianBlur(inner_template(face, d), (0, 0), 1.0) for d, face in self._pairs])
        self._templates = _unit_rows(templates)

    def read(self, frame: np.ndarray) -> Roll:
        """The faces the dice show in ``frame`` (BGR or grey), one per die, in the set's order.

        Raises :class:`DiceNotFound` when fewer dice than the set's are seen, :class:`BadImage`
        for a frame that is not an image.
        """
        seen = self.look(frame)
        if None in seen.faces:
            raise DiceNotFound(sum(face is not None for face in seen.faces), len(self.dice))
        return Roll(tuple(str(face) for face in seen.faces), seen.confidence,
                    tuple(centre or (0.0, 0.0) for centre in seen.centres))

    def look(self, frame: np.ndarray) -> DiceSeen:
        """What each die shows on top in ``frame``, or None for a die whose top label is not seen
        (a hand over it, a die leaning over it, the die off the photo): never a side's label.

        >>> from rules.letter_dice_sets import DICE
        >>> DiceReader(DICE["en"]).look(np.full((480, 640), 120, np.uint8)).faces[:2]
        (None, None)
        """
        gray = as_grey(frame)
        quads = find_labels(gray)
        if quads:
            patches = np.stack([np.rot90(_canonical(gray, q), k) for q in quads for k in range(4)])
            match = (_unit_rows(patches) @ self._templates.T).reshape(len(quads), 4, -1).max(1)
        else:
            match = np.zeros((0, len(self._pairs)))
        # per label, per die: the best face of that die and its score
        per_die = np.full((len(quads), len(self.dice)), -1.0)
        face_of = np.zeros((len(quads), len(self.dice)), int)
        for k, (d, _) in enumerate(self._pairs):
            better = match[:, k] > per_die[:, d]
            per_die[better, d], face_of[better, d] = match[better, k], k
        best = per_die.max(1, initial=-1.0)
        labels = _best_of_nested(quads, best)
        labels = labels[best[labels] >= MIN_MATCH] if len(labels) else labels
        if len(labels):
            up = on_top([quads[i] for i in labels], gray.shape, per_die[labels].argmax(1))
            labels = labels[up]
        faces: list[str | None] = [None] * len(self.dice)
        confidence = [0.0] * len(self.dice)
        centres: list[tuple[float, float] | None] = [None] * len(self.dice)
        if not len(labels):
            return DiceSeen(tuple(faces), tuple(confidence), tuple(centres))
        from scipy.optimize import linear_sum_assignment

        rows, dice = linear_sum_assignment(-per_die[labels])
        for row, die in zip(rows, dice):
            label = int(labels[row])
            if per_die[label, die] < TOP_MATCH:
                continue
            faces[die] = self._pairs[face_of[label, die]][1]
            confidence[die] = float(max(0.0, per_die[label, die]))
            cx, cy = quads[label].mean(0)
            centres[die] = (float(cx), float(cy))
        return DiceSeen(tuple(faces), tuple(confidence), tuple(centres))


def read_roll(frame: np.ndarray, dice: tuple[tuple[str, ...], ...]) -> Roll:
    """One read of ``frame`` with a :class:`DiceReader` for ``dice`` (see the module's example)."""
    return DiceReader(dice).read(frame)


def as_grey(frame: np.ndarray) -> np.ndarray:
    """``frame`` as one grey channel; :class:`BadImage` if it is no 8-bit grey or colour image.

    >>> as_grey(np.zeros((4, 4, 3), np.uint8)).shape
    (4, 4)
    """
    if not isinstance(frame, np.ndarray) or frame.size == 0 or frame.ndim not in (2, 3):
        raise BadImage("a photo of the dice must be an image")
    if frame.dtype != np.uint8:
        raise BadImage(f"a photo of the dice must have 8-bit pixels, not {frame.dtype}")
    if frame.ndim == 2:
        return frame
    if frame.shape[2] not in (3, 4):
        raise BadImage(f"a photo of the dice must be grey or colour, not {frame.shape[2]} channels")
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
