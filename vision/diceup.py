"""Which of the labels seen on dice are on top: a photo of cubes shows their sides too.

A die lying on the table (or leaning on another, by up to 30 degrees) has its top face's normal
within 30 degrees of the table's up; its sides' normals are 60 degrees or more from it. Each
label's square outline, seen in perspective, gives the direction its face looks to (its normal,
from the outline's corners and a camera of a usual phone's field of view; a small square gives
two possible normals, mirror images about the line of sight, and both are kept). The table's up
is the direction most labels' normals agree on: the top faces of the dice lying flat all share
it, while the sides point every way. A label is on top when one of its normals is within
:data:`TOP_DEG` of the table's up; the others are sides, which the reader never reads.

>>> square = np.array([(100, 100), (140, 100), (140, 140), (100, 140)], np.float32)
>>> flat = [square + (60 * k, 0) for k in range(4)]
>>> on_top(flat, (480, 640)).tolist()
[True, True, True, True]
"""

from __future__ import annotations

import cv2
import numpy as np

#: a label's normal within this many degrees of the table's up is a top (dice lean up to 30)
TOP_DEG = 45.0
#: normals within this many degrees of each other agree on the table's up
AGREE_DEG = 20.0
#: the vote of a label's less likely normal (see :func:`table_up`)
SECOND_VOTE = 0.25
#: labels of one die lie within this many times a label's side of one another
NEXT_TO = 1.3
#: the focal length assumed, as a share of the photo's long side (a phone: about 65 degrees across)
FOCAL = 0.78


def label_normals(quad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The two directions (2 x 3, unit, in the camera's frame: x right, y down, z ahead) the face
    of the label whose four corners are ``quad`` (clockwise) may look to, the likelier first
    (its outline's perspective fits it better); both towards the camera.

    >>> quad = np.array([(300, 220), (340, 220), (340, 260), (300, 260)], np.float32)
    >>> (np.round(label_normals(quad, (480, 640))[0], 2) + 0.0).tolist()
    [0.0, 0.0, -1.0]
    """
    h, w = shape[:2]
    f = FOCAL * max(h, w)
    camera = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    side = 1.0
    square = np.array([(-side, side, 0), (side, side, 0), (side, -side, 0), (-side, -side, 0)], np.float64) / 2
    try:
        ok, rvecs, _, _ = cv2.solvePnPGeneric(square, quad.astype(np.float64).reshape(4, 1, 2), camera, None,
                                             flags=cv2.SOLVEPNP_IPPE_SQUARE)
    except cv2.error:                      # a degenerate outline (three corners in a line): no pose
        ok, rvecs = False, ()
    normals = []
    for rvec in (rvecs if ok else ())[:2]:
        n = cv2.Rodrigues(np.asarray(rvec, np.float64))[0][:, 2]
        if np.isfinite(n).all():
            normals.append(n if n[2] < 0 else -n)
    while len(normals) < 2:
        normals.append(normals[0] if normals else np.array([0.0, 0.0, -1.0]))
    return np.array(normals)


def table_up(normals: np.ndarray) -> np.ndarray:
    """The direction most labels agree on (``normals``: labels x 2 x 3, each label's likelier
    normal first), as a unit vector. A label's likelier normal is a whole vote, the other a quarter
    of one: seen from 45 degrees, a top's mirror image is a side's normal and the reverse, and
    only the outlines' perspective tells which is which.

    >>> up = table_up(np.array([[[0, 0, -1], [0, 0, -1]]] * 3 + [[[1, 0, 0], [0, 1, 0]]], float))
    >>> up.tolist()
    [0.0, 0.0, -1.0]
    """
    candidates = normals.reshape(-1, 3)
    agree = np.cos(np.radians(AGREE_DEG))
    # per candidate, per label, per normal: does it agree with the candidate?
    close = np.einsum("ck,lnk->cln", candidates, normals) >= agree
    votes = np.where(close[:, :, 0], 1.0, np.where(close[:, :, 1], SECOND_VOTE, 0.0)).sum(1)
    best = candidates[int(np.argmax(votes))]
    nearest = normals[np.arange(len(normals)), np.argmax(normals @ best, axis=1)]
    members = nearest[nearest @ best >= agree]
    up = members.sum(0)
    return up / np.linalg.norm(up)


def on_top(quads: list[np.ndarray], shape: tuple[int, ...], dice: np.ndarray | None = None) -> np.ndarray:
    """Which of the labels ``quads`` (each four corners, clockwise, in a photo of ``shape``) are
    on top of their dice (a boolean per label; see the module docstring). ``dice`` says which
    die each label belongs to (by its marks): of the labels of one die (its marks, next to one
    another) that face up, only the highest one (the furthest along the table's up as the photo
    shows it there) is on top; a side of a die is always lower than its top, whichever way the
    camera looks."""
    if not quads:
        return np.zeros(0, bool)
    normals = np.array([label_normals(q, shape) for q in quads])
    up = table_up(normals)
    top = np.asarray((normals @ up).max(1) >= np.cos(np.radians(TOP_DEG)))
    if dice is None:
        return top
    h, w = shape[:2]
    f = FOCAL * max(h, w)
    centres = np.array([q.mean(0) for q in quads], float)
    for members in _same_die(quads, centres, np.asarray(dice)):
        if len(members) < 2:
            continue
        x, y = (centres[members].mean(0) - (w / 2, h / 2)) / f
        rising = np.array([up[0] - x * up[2], up[1] - y * up[2]])
        height = np.where(top[members], centres[members] @ rising, -np.inf)
        highest = members[int(np.argmax(height))]
        top[members] = False
        top[highest] = bool(np.isfinite(height.max()))
    return top


def _same_die(quads: list[np.ndarray], centres: np.ndarray, dice: np.ndarray) -> list[np.ndarray]:
    """The labels in groups, each the labels of one die: the same die's marks, and next to one
    another (a label's centre within :data:`NEXT_TO` of its longest side from another's)."""
    sides = np.array([max(float(np.linalg.norm(q[i] - q[(i + 1) % 4])) for i in range(4)) for q in quads])
    group = np.arange(len(quads))
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            near = np.linalg.norm(centres[i] - centres[j]) <= NEXT_TO * max(sides[i], sides[j])
            if dice[i] == dice[j] and near:
                group[group == group[j]] = group[i]
    return [np.flatnonzero(group == g) for g in np.unique(group)]
