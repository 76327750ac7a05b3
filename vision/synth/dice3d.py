"""Photos of letter dice as solid cubes (tests and benchmarks only): a second renderer, made
unlike :mod:`vision.synth.dicescene` on purpose, to measure the dice reader on pictures it was
not tuned on.

Each die is a 16 mm cube with a printed label on every one of its six faces (the die's six
faces, each label stuck turned any way), lying on a table or leaning on a neighbour (turned 10
to 30 degrees about a horizontal axis). A pinhole camera (a field of view of 55 to 75 degrees,
tilted up to 35 degrees, turned about its axis) sees the cubes: every face that looks at the
camera is drawn, nearest last, shaded by a light's direction; the cubes cast shadows on the
table. Hands (skin-coloured palms with fingers and an arm to the frame's edge) may hide some
dice completely and others in part. Then defocus (a disc of radius up to 2 pixels), camera
shake (a streak up to 4 pixels long), light falling off, noise and JPEG.

The ground truth is per die: the face on top (the one whose normal is nearest the table's up)
and how much of its label the camera sees (``seen``: all of it; ``hidden``: none; ``partly``).

>>> from rules.letter_dice_sets import DICE
>>> shot = dice_photo(DICE["en"], seed=4, family="tilted")
>>> shot.image.shape, len(shot.top), set(shot.state) <= {"seen", "partly", "hidden"}
((960, 1280, 3), 8, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from vision.synth.lens import lens_finish

#: a die's side (mm) and its labels' side
DIE_MM, LABEL_MM = 16.0, 14.0
#: the kinds of photos (what is hard in each), as :func:`dice_photo` draws them
FAMILIES = ("level", "tilted", "edge", "leaning", "hands", "soft", "shaken")
#: the cube's face normals in the die's own frame: +z is the top when the die lies flat
_NORMALS = np.array([(0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)], float)
#: body colours (BGR) of blank dice
_BODIES = [(235, 235, 232), (215, 225, 235), (50, 50, 190), (190, 110, 40), (60, 150, 60), (35, 35, 35), (80, 130, 180)]
_TEXTURE = 128


@dataclass(frozen=True)
class DicePhoto:
    """A rendered photo and its truth, per die of the set: ``top`` the face on top, ``state``
    ``"seen"``, ``"partly"`` or ``"hidden"`` (how much of the top label the camera sees), and
    the photo's parameters (``family``, ``tilt_deg``, ``defocus_px``, ``shake_px``)."""

    image: np.ndarray
    top: tuple[str, ...]
    state: tuple[str, ...]
    family: str
    tilt_deg: float
    defocus_px: float
    shake_px: float


@dataclass
class PinholeCamera:
    """A pinhole camera over the table (world in mm, z up): ``K`` its intrinsics, ``R`` the
    world-to-camera rotation (rows: right, down, forward), ``C`` its centre."""

    K: np.ndarray
    R: np.ndarray            # world -> camera rotation (rows: right, down, forward)
    C: np.ndarray            # the camera's centre (world, mm)

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (points - self.C) @ self.R.T
        pix = cam @ self.K.T
        return pix[:, :2] / pix[:, 2:3]

    def ray_to_table(self, pixel: tuple[float, float]) -> np.ndarray:
        ray = self.R.T @ np.linalg.solve(self.K, np.array([pixel[0], pixel[1], 1.0]))
        return self.C - self.C[2] / ray[2] * ray

    def table_homography(self) -> np.ndarray:
        """Table (x, y mm) -> pixels."""
        t = -self.R @ self.C
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])


def pinhole_camera(rng: np.random.Generator, size: tuple[int, int], tilt_deg: float, fov_deg: float,
                   distance: float, roll_deg: float = 20.0) -> PinholeCamera:
    """A camera ``distance`` mm from the table's origin, looking at it, tilted ``tilt_deg`` from
    straight down towards a random side, turned up to ``roll_deg`` about its axis, with a field
    of view ``fov_deg`` across a frame of ``size``."""
    w, h = size
    f = (w / 2) / np.tan(np.radians(fov_deg) / 2)
    K = np.array([[f, 0, w / 2 + rng.normal(0, 5)], [0, f, h / 2 + rng.normal(0, 5)], [0, 0, 1]])
    tau = np.radians(tilt_deg)
    right = np.array([1.0, 0, 0])
    forward = np.array([0, np.sin(tau), -np.cos(tau)])
    down = np.cross(forward, right)
    R = np.stack([right, down, forward])
    roll = np.radians(rng.uniform(-roll_deg, roll_deg))
    c, s = np.cos(roll), np.sin(roll)
    R = np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]) @ R
    azimuth = rng.uniform(0, 2 * np.pi)
    ca, sa = np.cos(azimuth), np.sin(azimuth)
    Rz = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]])
    C = Rz @ (-forward * distance)
    return PinholeCamera(K, R @ Rz.T, C)


def _rotation(axis: np.ndarray | tuple[float, ...], angle: float) -> np.ndarray:
    return cv2.Rodrigues(np.asarray(axis, float) * angle)[0]


def _face_texture(label: np.ndarray, body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One face of a die as a picture: the body's colour, the label stuck on it (a little off
    centre, askew, turned any way), the cube's edges a little darker."""
    t = _TEXTURE
    face = np.empty((t, t, 3), np.float32)
    face[:] = body
    side = int(round(t * LABEL_MM / DIE_MM))
    paper = cv2.resize(label, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    paper = np.rot90(paper, int(rng.integers(4))).copy()
    tint = np.array([rng.uniform(0.9, 1.0), rng.uniform(0.94, 1.0), 1.0], np.float32)
    move = np.asarray(cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(-4, 4), 1.0), np.float64)
    move[:, 2] = move[:, 2] + (t - side) / 2 + rng.uniform(-0.02, 0.02, 2) * t
    ink = cv2.warpAffine(paper, move, (t, t), borderValue=255.0)[..., None] * tint
    stuck = cv2.warpAffine(np.ones((side, side), np.float32), move, (t, t))[..., None]
    face = face * (1 - stuck) + ink * stuck
    yy, xx = np.mgrid[0:t, 0:t]
    edge = np.minimum(np.minimum(xx, t - 1 - xx), np.minimum(yy, t - 1 - yy)).astype(np.float32)
    return face * (0.8 + 0.2 * np.clip(edge / 4, 0, 1))[..., None]


def table_picture(camera: PinholeCamera, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The table as the camera sees it: wood (grain along one direction) or a cloth."""
    w, h = size
    inverse = np.linalg.inv(camera.table_homography())
    yy, xx = np.mgrid[0:h:4, 0:w:4].astype(np.float32) + 1.5      # the grain is smooth: worked out coarse
    pts = np.stack([xx, yy, np.ones_like(xx)], -1) @ inverse.T.astype(np.float32)
    tx, ty = pts[..., 0] / pts[..., 2], pts[..., 1] / pts[..., 2]
    base = np.array(rng.choice([(70, 110, 160), (60, 90, 130), (130, 130, 125), (90, 70, 50), (45, 100, 45)]), np.float32)
    angle = rng.uniform(0, np.pi)
    along = tx * np.cos(angle) + ty * np.sin(angle)
    grain = 10 * np.sin(along * rng.uniform(0.3, 1.2) + 3 * np.sin(along * 0.05)) * rng.uniform(0.2, 1.0)
    grain = cv2.resize(grain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    noise = 4 * rng.standard_normal((h, w), dtype=np.float32)
    return base + (grain + noise)[..., None]


def _draw_quad(canvas: np.ndarray, ids: np.ndarray, texture: np.ndarray, quad: np.ndarray, face_id: int) -> None:
    """``texture`` warped onto ``quad`` (pixels) of ``canvas``; ``ids`` records the face drawn."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    t = texture.shape[0]
    src = np.array([(0, 0), (t, 0), (t, t), (0, t)], np.float32)
    H = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    layer = cv2.warpPerspective(texture, H, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    window = canvas[y0:y1, x0:x1]
    window[:] = window * (1 - mask[..., None]) + layer * mask[..., None]
    ids[y0:y1, x0:x1][mask > 0.5] = face_id


@dataclass
class _Die:
    centre: np.ndarray       # world (mm)
    R: np.ndarray            # die frame -> world
    faces: list[str]         # the face on each of _NORMALS
    textures: list[np.ndarray]

    def corners(self, k: int) -> np.ndarray:
        n = _NORMALS[k]
        a = _NORMALS[2] if abs(n[0]) < 0.5 else _NORMALS[4]
        b = np.cross(a, n)
        half = DIE_MM / 2
        local = [n * half + (sa * a + sb * b) * half for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        return self.centre + np.array(local) @ self.R.T

    def label_corners(self, k: int) -> np.ndarray:
        corners = self.corners(k)
        middle = corners.mean(0)
        return middle + (corners - middle) * (LABEL_MM / DIE_MM)

    def top(self) -> int:
        return int(np.argmax((_NORMALS @ self.R.T)[:, 2]))

    def vertices(self) -> np.ndarray:
        return np.vstack([self.corners(k) for k in range(6)])


def _place_dice(dice, rng, camera, size, family, labels) -> list[_Die]:
    w, h = size
    lean_share = 0.6 if family == "leaning" else 0.12
    placed: list[_Die] = []
    margin = 0.03 if family == "edge" else 0.12
    for d, die in enumerate(dice):
        faces = list(die)
        order = rng.permutation(6)
        on_normal = [faces[i] for i in order]
        body = np.array(_BODIES[int(rng.integers(len(_BODIES)))], np.float32) * rng.uniform(0.9, 1.05)
        textures = [_face_texture(labels(face, d, 4 * _TEXTURE), body, rng) for face in on_normal]
        for attempt in range(400):
            yaw = _rotation((0, 0, 1), rng.uniform(0, 2 * np.pi))
            lean = np.eye(3)
            if placed and rng.random() < lean_share and attempt < 200:
                other = placed[int(rng.integers(len(placed)))]
                angle = rng.uniform(0, 2 * np.pi)
                toward = -np.array([np.cos(angle), np.sin(angle), 0])
                tilt = np.radians(rng.uniform(10, 30))
                lean = _rotation(np.cross((0, 0, 1), toward), tilt)
                centre = other.centre.copy()
                centre[:2] -= toward[:2] * DIE_MM * (1.05 + 0.5 * np.sin(tilt) + 0.35)
            elif family == "edge" and rng.random() < 0.7:
                u = rng.choice([rng.uniform(margin, 0.15), rng.uniform(0.85, 1 - margin)])
                v = rng.uniform(margin, 1 - margin)
                if rng.random() < 0.5:
                    u, v = v, u
                centre = camera.ray_to_table((u * w, v * h))
            else:
                centre = camera.ray_to_table((rng.uniform(margin, 1 - margin) * w, rng.uniform(margin, 1 - margin) * h))
            R = lean @ yaw
            centre = np.array([centre[0], centre[1], 0.0])
            local = np.array([(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * DIE_MM / 2
            centre[2] = -(local @ R.T)[:, 2].min()
            candidate = _Die(centre, R, on_normal, textures)
            if any(np.linalg.norm(candidate.centre[:2] - o.centre[:2]) < DIE_MM * 1.3 for o in placed):
                continue
            pix = camera.project(candidate.vertices())
            if pix.min() < 6 or pix[:, 0].max() > w - 6 or pix[:, 1].max() > h - 6:
                continue
            break
        placed.append(candidate)
    return placed


def _hands(dice: list[_Die], camera: PinholeCamera, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A mask (0..1) of one or two hands: one palm over a die (hiding it all), maybe another
    over part of a die."""
    w, h = size
    mask = np.zeros((h, w), np.float32)
    order = rng.permutation(len(dice))
    for n, d in enumerate(order[:int(rng.integers(1, 3))]):
        pix = camera.project(dice[d].vertices())
        centre, extent = pix.mean(0), float(np.linalg.norm(pix.max(0) - pix.min(0)))
        whole = n == 0 or rng.random() < 0.5
        radius = extent * rng.uniform(0.85, 1.2)
        if not whole:
            angle = rng.uniform(0, 2 * np.pi)
            centre = centre + np.array([np.cos(angle), np.sin(angle)]) * (radius + extent * rng.uniform(0.0, 0.35))
        palm = np.zeros((h, w), np.uint8)
        cv2.ellipse(palm, (int(centre[0]), int(centre[1])), (int(radius), int(radius * rng.uniform(0.8, 1.0))),
                    float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
        edge = np.array([(0, centre[1]), (w, centre[1]), (centre[0], 0), (centre[0], h)])
        far = edge[int(np.argmin([centre[0], w - centre[0], centre[1], h - centre[1]]))]
        cv2.line(palm, (int(centre[0]), int(centre[1])), (int(far[0]), int(far[1])), 255, int(radius * 1.2), cv2.LINE_AA)
        away = np.arctan2(centre[1] - far[1], centre[0] - far[0])
        for finger in range(4):
            a = away + (finger - 1.5) * 0.35
            start = centre + radius * 0.7 * np.array([np.cos(a), np.sin(a)])
            end = start + radius * rng.uniform(0.6, 0.9) * np.array([np.cos(a), np.sin(a)])
            cv2.line(palm, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255,
                     max(3, int(radius * 0.28)), cv2.LINE_AA)
        mask = np.maximum(mask, palm.astype(np.float32) / 255)
    return mask


def dice_photo(dice: tuple[tuple[str, ...], ...], *, seed: int, family: str = "level", size: tuple[int, int] = (1280, 960),
               labels: Callable[[str, int, int], np.ndarray] | None = None) -> DicePhoto:
    """A photo of ``dice`` (the set: each die its six faces) rolled, of one of :data:`FAMILIES`."""
    from vision.dicelabels import label_image

    if family not in FAMILIES:
        raise ValueError(f"the photo family must be one of {', '.join(FAMILIES)}, not {family!r}")
    labels = labels or label_image
    rng = np.random.default_rng(seed)
    w, h = size
    tilt = {"level": rng.uniform(0, 12), "tilted": rng.uniform(20, 35)}.get(family, rng.uniform(0, 35))
    fov = rng.uniform(65, 75) if family == "edge" else rng.uniform(55, 75)
    f = (w / 2) / np.tan(np.radians(fov) / 2)
    camera = pinhole_camera(rng, size, tilt, fov, f * DIE_MM / rng.uniform(60, 95))
    placed = _place_dice(dice, rng, camera, size, family, labels)
    image = table_picture(camera, size, rng)
    light = np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a), 0.0]) * np.cos(e := np.radians(rng.uniform(35, 75)))
    light[2] = np.sin(e)
    shadows = np.zeros((h, w), np.float32)
    for die in placed:
        verts = die.vertices()
        ground = verts - (verts[:, 2:3] / light[2]) * light
        pix = camera.project(ground).astype(np.float32)
        cv2.fillConvexPoly(shadows, np.round(cv2.convexHull(pix).reshape(-1, 2) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    image *= (1 - 0.45 * cv2.GaussianBlur(shadows, (0, 0), 3))[..., None]
    ids = np.full((h, w), -1, np.int32)
    faces = []
    for d, die in enumerate(placed):
        for k in range(6):
            normal = die.R @ _NORMALS[k]
            middle = die.corners(k).mean(0)
            if normal @ (camera.C - middle) > 0:
                faces.append((float(np.linalg.norm(camera.C - middle)), d, k, normal))
    for _, d, k, normal in sorted(faces, reverse=True):
        shade = 0.5 + 0.55 * max(0.0, float(normal @ light))
        _draw_quad(image, ids, placed[d].textures[k] * shade, camera.project(placed[d].corners(k)), d * 6 + k)
    hands = _hands(placed, camera, size, rng) if family == "hands" or (family != "level" and rng.random() < 0.1) \
        else np.zeros((h, w), np.float32)
    if hands.any():
        yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
        skin = np.array(rng.choice([(120, 150, 205), (95, 125, 175), (70, 95, 140), (140, 170, 220)]), np.float32)
        shaded = skin * (0.85 + 0.15 * np.sin(yy / 37))[..., None]
        image = image * (1 - hands[..., None]) + shaded * hands[..., None]
    state = []
    for d, die in enumerate(placed):
        top = die.top()
        quad = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(quad, np.round(camera.project(die.label_corners(top))).astype(np.int32), 1)
        inside = quad > 0
        seen = float(((ids[inside] == d * 6 + top) & (hands[inside] < 0.5)).mean()) if inside.any() else 0.0
        state.append("seen" if seen > 0.995 else "hidden" if seen < 0.01 else "partly")
    defocus = rng.uniform(0.6, 2.0) if family == "soft" else rng.uniform(0, 0.8)
    shake = rng.uniform(1.5, 4.0) if family == "shaken" else rng.uniform(0, 1.0)
    image = lens_finish(image, rng, defocus, shake)
    return DicePhoto(image, tuple(die.faces[die.top()] for die in placed), tuple(state), family, float(tilt),
                     float(defocus), float(shake))
