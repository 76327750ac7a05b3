"""A phone (or any laptop's webcam) as the table's camera, live.

The camera page (``/camera?token=...``) streams JPEG frames over a WebSocket; each is fed to the
same camera input a wired camera feeds (the game's kind of piece gives it:
``tabletop.pieces.of_game(game).camera_input(session, camera)``), so handwriting, tiles, chips
and dice are all read as with a camera over the table.

* :class:`PhoneCamera` is the camera device, behind the interface of the real drivers
  (``read()`` the newest frame, ``close()``), fed by the socket instead of a sensor.
* :class:`CameraStation` is the table's end of the page: which phone holds the camera's role
  (the first keeps it, through reloads and sleep, until the host switches), the one image gate
  every frame passes (:mod:`vision.imagegate`: bytes and pixels checked before decoding), the
  frame's capture time put on the table clock, the reply the page shows (what the table sees,
  and aiming help), and recording for a bug report (off unless the host turns it on: frames
  are read and dropped, never stored).

>>> capture_time(12.0, now=12.4, last=None), capture_time(None, now=12.4, last=None)
(12.0, 12.4)
>>> aim(None, (1280, 720), 140.0)
['point the camera at the board: all of it in view']
"""

from __future__ import annotations

import hmac
import math
import pathlib
import struct
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from tabletop.session.refusals import BadEntry

if TYPE_CHECKING:
    from tabletop.session.core import Session
    from tabletop.session.devices.camera_feed import CameraFeed

#: the largest frame the page may send (a 1280-pixel JPEG is 100-300 KB)
FRAME_BYTES = 2 * 1024 * 1024
#: the most pixels a frame may declare (the page sends at most :data:`SEND_SIDE` on its longer side)
FRAME_PIXELS = 4_000_000
#: the longer side the page downscales to on the phone: what the readers need (the synthetic
#: scenes they are measured on are 1280x720); a larger frame is shrunk to it on the table
SEND_SIDE = 1280
#: a capture time older than this (seconds before it arrived) is taken as this old
MOST_LATE = 3.0
#: the most frames a second the page sends, however fast the table acknowledges
MAX_FPS = 10.0
#: frames kept at most while recording for a bug report
RECORD_FRAMES = 3000
#: how often the board's outline is looked for (table seconds), for the page's aiming help
OUTLINE_EVERY = 0.8
#: the frame's mean brightness (0-255) below which the page says it is too dark
DARK = 55.0
#: the board's size (the square root of its area) as a share of the frame's shorter side, below
#: which the page says to move closer (its squares become too small to read)
CLOSE = 0.4
#: the device name the station reports its link under (the input reports as ``camera``)
DEVICE = "phone camera"

#: a frame on the socket: its capture time on the table clock (little-endian float64; NaN when the
#: phone's clock is not synchronised yet), then the JPEG
HEADER = struct.Struct("<d")


def camera_token(tokens: dict[str, Any]) -> str:
    """The camera page's token: the journal's own (``tokens["camera"]``, made with the seats'),
    or, for a game journalled before there was one, one derived from the host's token (so a
    resumed game keeps its camera link).

    >>> camera_token({"host": "h", "camera": "c"})
    'c'
    >>> camera_token({"host": "h"}) == camera_token({"host": "h"}) != camera_token({"host": "i"})
    True
    """
    if tokens.get("camera"):
        return str(tokens["camera"])
    host = str(tokens.get("host", ""))
    if not host:
        return ""
    return hmac.new(host.encode(), b"tabletop camera page", "sha256").hexdigest()[:16]


def capture_time(claimed: float | None, *, now: float, last: float | None) -> float:
    """The table time a frame is taken at: the phone's capture time (``claimed``, on the table
    clock), never after ``now`` (its arrival), never more than :data:`MOST_LATE` before it, and
    never before the ``last`` frame's (the readers need time to run forward). ``None``: ``now``.

    >>> capture_time(5.0, now=10.0, last=None)      # a stamp too old for a live frame
    7.0
    >>> capture_time(11.0, now=10.0, last=None)     # from the future: the arrival
    10.0
    >>> capture_time(9.5, now=10.0, last=9.8)       # overtaken by an earlier frame's: never back
    9.8
    """
    t = now if claimed is None or not math.isfinite(claimed) else min(claimed, now)
    t = max(t, now - MOST_LATE)
    return t if last is None else max(t, last)


def aim(corners: Any, size: tuple[int, int], brightness: float) -> list[str]:
    """Aiming help for the page: from the board's outline in the frame (``corners``: four (x, y)
    points in pixels, top-left clockwise, or ``None`` when no board was found), the frame's
    ``size`` (width, height) and its mean ``brightness`` (0-255). Empty when all is well.

    >>> aim([(100, 60), (1180, 60), (1180, 660), (100, 660)], (1280, 720), 140.0)
    []
    >>> aim([(500, 300), (780, 300), (780, 460), (500, 460)], (1280, 720), 140.0)
    ['move closer']
    >>> aim([(300, 380), (980, 380), (980, 700), (300, 700)], (1280, 720), 30.0)
    ['too dark: more light on the board', 'tilt down']
    """
    hints = []
    if brightness < DARK:
        hints.append("too dark: more light on the board")
    if corners is None:
        hints.append("point the camera at the board: all of it in view")
        return hints
    width, height = size
    xs = [float(x) / width for x, _ in corners]
    ys = [float(y) / height for _, y in corners]
    area = 0.5 * abs(sum(xs[i] * ys[(i + 1) % 4] - xs[(i + 1) % 4] * ys[i] for i in range(4))) * width * height
    side = math.sqrt(area) / min(width, height)       # the board's size as a share of the frame's shorter side
    cx, cy = sum(xs) / 4, sum(ys) / 4
    if cy > 0.62:
        hints.append("tilt down")            # the board is low in the picture: the camera looks past it
    elif cy < 0.38:
        hints.append("tilt up")
    if cx > 0.62:
        hints.append("turn right")
    elif cx < 0.38:
        hints.append("turn left")
    if min(xs) < 0.01 or min(ys) < 0.01 or max(xs) > 0.99 or max(ys) > 0.99:
        hints.append("move back: the board's edge is cut off")
    elif side < CLOSE:
        hints.append("move closer")
    return hints


#: what the inputs' statuses mean to the person holding the phone
_SAYS = {"moving": "hold still", "something is moving over the board": "hold still",
         "hand": "a hand is in the way", "no board": "the board is not in view",
         "committed": "watching the board", "still": "watching the board", "waiting": "watching the board",
         "bad frame": "the frame could not be read"}


def says(status: str | None) -> str:
    """The camera input's status in the page's words.

    >>> says("hand"), says("watching the board")
    ('a hand is in the way', 'watching the board')
    """
    if not status:
        return "waiting for the first frame"
    if "pictures covered" in status:
        return "a hand is in the way"
    return _SAYS.get(status, status)


class PhoneCamera:
    """The camera device the page feeds: ``read()`` gives each new frame once (``None`` until
    the next arrives), like the real drivers give the newest frame; nothing is kept but it."""

    def __init__(self) -> None:
        self._frame: Any = None
        self._lock = threading.Lock()
        self.frames = 0
        self.t: float | None = None    #: the newest frame's capture time (table seconds)

    def put(self, frame: Any, t: float) -> None:
        """The socket's newest frame, taken at table time ``t`` (the older one is dropped)."""
        with self._lock:
            self._frame, self.t = frame, t
            self.frames += 1

    def read(self) -> Any:
        with self._lock:
            frame, self._frame = self._frame, None
        return frame

    def close(self) -> None:
        with self._lock:
            self._frame = None


@dataclass
class Link:
    """One camera page's connection: the phone's own id (kept by the page across reloads)."""

    camera_id: str
    opened: float = field(default_factory=time.monotonic)
    frames: int = 0
    sent: list[float] = field(default_factory=list)   #: the last frames' arrival times (monotonic)

    def fps(self) -> float:
        """Frames a second over the last few seconds."""
        now = time.monotonic()
        recent = [t for t in self.sent if now - t <= 4.0]
        return len(recent) / 4.0 if recent else 0.0


class CameraStation:
    """The table's end of the camera page (see the module docstring).

    ``make_input(camera)`` makes the camera input the frames are fed to (made at the first
    frame); ``recordings``: the folder a bug report's frames go to when the host turns recording on.
    """

    def __init__(self, session: "Session", make_input: Callable[[PhoneCamera], "CameraFeed"], *,
                 recordings: pathlib.Path | None = None):
        self.session = session
        self.camera = PhoneCamera()
        self._make_input = make_input
        self.input: CameraFeed | None = None
        self.recordings = recordings
        self.recording = False
        self.recorded = 0
        self.active: str | None = None            #: the camera id holding the role
        self.links: list[Link] = []               #: every page connected now
        self.waiting: str | None = None           #: the newest other camera that asked for the role
        self.last_t: float | None = None
        self.last_word = ""
        self.corners: list[list[float]] | None = None
        self._outline_at: float | None = None
        self._busy = threading.Lock()
        self._lock = threading.Lock()
        _stations[session] = self

    # -- the role ---------------------------------------------------------------------------------
    def connect(self, camera_id: str) -> Link:
        """A camera page connected; the first camera takes the role, the same camera (a reload, a
        phone waking up) takes it back, any other waits for the host."""
        link = Link(camera_id[:64])
        with self._lock:
            self.links.append(link)
            if self.active is None:
                self.active = link.camera_id
            elif link.camera_id != self.active:
                self.waiting = link.camera_id
        self._report()
        return link

    def disconnect(self, link: Link) -> None:
        with self._lock:
            if link in self.links:
                self.links.remove(link)
            if self.waiting == link.camera_id and not any(x.camera_id == link.camera_id for x in self.links):
                self.waiting = None
        self._report()

    def role(self, link: Link) -> str:
        """``active`` (its frames are read) or ``standby`` (another camera holds the role)."""
        return "active" if link.camera_id == self.active else "standby"

    def connected(self) -> bool:
        """Whether the camera holding the role is connected now."""
        return any(x.camera_id == self.active for x in self.links)

    def switch(self) -> str:
        """The host gives the role to the camera waiting (the newest other one connected)."""
        with self._lock:
            others = [x for x in self.links if x.camera_id != self.active]
            if not others:
                raise BadEntry("No other camera page is open: open the camera link on the other phone first.")
            chosen = next((x for x in reversed(others) if x.camera_id == self.waiting), others[-1])
            self.active, self.waiting = chosen.camera_id, None
            self.last_t = None                    # another phone's clock: time starts again from its frames
        self._report()
        return "The camera is now the other phone."

    def record(self, on: bool) -> str:
        """The host turns recording for a bug report on or off (off: frames are never stored)."""
        if on and self.recordings is None:
            raise BadEntry("This table has nowhere to keep recordings (its journal is in memory).")
        self.recording = on
        self._report()
        if on:
            return f"Recording the camera's frames for a bug report in {self.folder()} (at most {RECORD_FRAMES})."
        return f"Recording stopped ({self.recorded} frames kept in {self.folder()}); frames are dropped again."

    def folder(self) -> pathlib.Path:
        assert self.recordings is not None
        return self.recordings / f"camera-{self.session.game_id}"

    def status(self) -> str:
        """The host's line for the camera page."""
        if self.active is None:
            return "no phone camera yet: open the camera link on a phone"
        with self._lock:
            mine = next((x for x in self.links if x.camera_id == self.active), None)
            waiting = self.waiting is not None and any(x.camera_id == self.waiting for x in self.links)
        line = (f"streaming ({mine.fps():.0f} frames/s)" if mine is not None and mine.frames
                else "connected" if mine is not None
                else "disconnected: waiting for it to come back (a reload, a phone asleep)")
        if waiting:
            line += "; another camera is waiting: the host can switch"
        if self.recording:
            line += f"; recording ({self.recorded} frames)"
        return line

    def _report(self) -> None:
        self.session.set_device(DEVICE, self.status())

    # -- frames -----------------------------------------------------------------------------------
    def frame(self, link: Link, data: bytes) -> dict[str, Any]:
        """One frame from ``link`` (:data:`HEADER` then the JPEG): read and dropped. Returns the
        page's acknowledgement: what the table sees, the aiming help, the last word read."""
        if self.role(link) != "active":
            return {**self.reply(link), "dropped": "another camera is in use; the host can switch"}
        if not self._busy.acquire(blocking=False):     # one frame at a time: the page waits for its ack
            return {**self.reply(link), "dropped": "the table is still reading the last frame"}
        try:
            return self._read(link, data)
        finally:
            self._busy.release()

    def _read(self, link: Link, data: bytes) -> dict[str, Any]:
        import cv2
        import numpy as np

        from vision import imagegate

        if len(data) <= HEADER.size:
            return {**self.reply(link), "error": "That frame was empty."}
        (claimed,) = HEADER.unpack_from(data)
        jpeg = data[HEADER.size:]
        try:
            frame = imagegate.decode(jpeg, "camera frame", max_side=SEND_SIDE, max_bytes=FRAME_BYTES,
                                     max_pixels=FRAME_PIXELS, wait=2.0)
        except imagegate.ImageRefused as refused:
            return {**self.reply(link), "error": str(refused)}
        side = max(frame.shape[:2])
        if side > SEND_SIDE:
            frame = cv2.resize(frame, None, fx=SEND_SIDE / side, fy=SEND_SIDE / side, interpolation=cv2.INTER_AREA)
        t = capture_time(claimed, now=self.session.clock.now(), last=self.last_t)
        self.last_t = t
        link.frames += 1
        link.sent = [s for s in link.sent[-40:] if time.monotonic() - s <= 4.0] + [time.monotonic()]
        if self.recording:
            self._keep(jpeg)
        self.camera.put(frame, t)
        if self.input is None:
            self.input = self._make_input(self.camera)
        results = self.input.feed(self.camera.read(), t)
        for result in results:
            if result.accepted and result.event.get("type") in ("write", "play", "roll"):
                self.last_word = result.message
        small = cv2.resize(frame, (160, 90), interpolation=cv2.INTER_AREA)
        brightness = float(np.mean(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)))
        self._outline(frame, t)
        if link.frames == 1 or link.frames % 10 == 0:
            self._report()
        height, width = frame.shape[:2]
        corners = None if self.corners is None else [[x * width, y * height] for x, y in self.corners]
        hints = (aim(corners, (width, height), brightness) if self.session.board is not None      # dice lie on no board
                 else aim([(0, 0), (width, 0), (width, height), (0, height)], (width, height), brightness))
        return {**self.reply(link), "t": round(t, 3), "hints": hints,
                "brightness": round(brightness), "size": [width, height]}

    def _outline(self, frame: Any, t: float) -> None:
        """The board's corners in the frame (as shares of its width and height), looked for at
        most every :data:`OUTLINE_EVERY` seconds on a small copy (cheap enough for every kind)."""
        board = self.session.board
        if board is None or (self._outline_at is not None and 0 <= t - self._outline_at < OUTLINE_EVERY):
            return
        self._outline_at = t
        import cv2

        from vision.errors import VisionError
        from vision.locate import locate

        height, width = frame.shape[:2]
        scale = min(1.0, 800 / max(width, height))
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame
        try:
            corners = locate(small, board.rows, board.cols).corners
        except (VisionError, ValueError):
            self.corners = None
            return
        self.corners = None if corners is None else [
            [round(float(x) / small.shape[1], 4), round(float(y) / small.shape[0], 4)] for x, y in corners]

    def _keep(self, jpeg: bytes) -> None:
        if self.recorded >= RECORD_FRAMES:
            return
        folder = self.folder()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self.recorded:05d}.jpg").write_bytes(jpeg)
        self.recorded += 1

    def reply(self, link: Link) -> dict[str, Any]:
        """What the page shows whatever the frame: its role, the input's status, the last word."""
        role = self.role(link)
        status = self.session.devices.get("camera") if self.input is not None else None
        return {"type": "ack", "role": role, "status": says(status), "word": self.last_word,
                "corners": self.corners if role == "active" else None, "recording": self.recording,
                "message": ("" if role == "active" else "another camera is in use; the host can switch"),
                "frames": link.frames}


_stations: "weakref.WeakKeyDictionary[Session, CameraStation]" = weakref.WeakKeyDictionary()


def station(session: "Session") -> CameraStation:
    """The camera station of ``session``'s pages; :class:`BadEntry` when its pages serve none
    (the game reads nothing with a camera, or no pages are served)."""
    found = _stations.get(session)
    if found is None:
        raise BadEntry("This table has no camera page: its game reads nothing with a camera.")
    return found
