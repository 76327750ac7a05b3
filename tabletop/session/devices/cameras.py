"""Cameras: the Pi camera (picamera2), a USB camera (OpenCV), and the simulated twins: the
synthetic camera that renders the printed board with the letters written so far, and the one
that renders the dice tumbling and at rest."""

from __future__ import annotations

from typing import Any


class SyntheticCamera:
    """The camera's twin: renders the printed board with the letters written so far."""

    def __init__(self, board, *, seed: int = 0, tilt_deg: float = 12.0):
        self.board, self.seed, self.tilt = board, seed, tilt_deg
        self.letters: dict = {}
        self._frame: Any = None
        self.renders = 0

    def show(self, letters: dict) -> None:
        if letters != self.letters:
            self.letters = dict(letters)
            self._frame = None

    def hand_frame(self, seed: int = 0):
        """A frame with the writer's hand still over the board (the tracker must not read it)."""
        from vision.synth.scene import render_scene
        self.renders += 1
        return render_scene(self.board, self.letters, seed=self.seed, tilt_deg=self.tilt, glare=False,
                            hand=True)

    def read(self):
        if self._frame is None:
            from vision.synth.scene import render_scene
            self._frame = render_scene(self.board, self.letters, seed=self.seed, tilt_deg=self.tilt, glare=False)
            self.renders += 1
        return self._frame


class SyntheticDiceCamera:
    """The dice camera's twin: the table before a roll, the dice tumbling, then at rest.

    >>> cam = SyntheticDiceCamera(seed=1); cam.read().shape
    (960, 1280, 3)
    """

    def __init__(self, *, seed: int = 0):
        self.seed = seed
        self.faces: tuple[str, ...] = ()
        self.rolls = 0
        self.moving = False
        self._frame: Any = None
        self._tumbles = 0

    def roll(self, faces) -> None:
        """The dice are thrown: they tumble until :meth:`settle`."""
        self.faces, self.moving, self._frame = tuple(faces), True, None
        self.rolls += 1

    def settle(self) -> None:
        """The dice come to rest."""
        self.moving, self._frame = False, None

    def read(self):
        from vision.synth.dicescene import dice_scene

        layout = self.seed * 1000 + self.rolls
        if self.moving:
            self._tumbles += 1
            return dice_scene(self.faces, seed=layout + 500_000 + self._tumbles, moving=True)
        if self._frame is None:
            self._frame = dice_scene(self.faces, seed=layout)
        return self._frame


class SyntheticChipCamera:
    """The camera's twin over the Sequence Letters board: the printed board with the chips on
    it, and a child's hand over it while a chip goes down."""

    def __init__(self, board, *, seed: int = 0):
        self.board, self.seed = board, seed
        self.chips: dict = {}
        self._frame: Any = None
        self._hands = 0

    def show(self, chips: dict) -> None:
        if chips != self.chips:
            self.chips, self._frame = dict(chips), None

    def hand_frame(self):
        from vision.synth.chipscene import chip_scene

        self._hands += 1
        return chip_scene(self.board, self.chips, seed=self.seed, hand=True)

    def read(self):
        if self._frame is None:
            from vision.synth.chipscene import chip_scene
            self._frame = chip_scene(self.board, self.chips, seed=self.seed)
        return self._frame


class SyntheticTileCamera:
    """The camera's twin over a board of letter tiles (the printed board and tiles): the tiles on
    it (square -> capital, ``?`` a blank tile), and a hand over it while tiles go down."""

    def __init__(self, board, *, seed: int = 0, language: str = "en"):
        self.board, self.seed, self.language = board, seed, language
        self.tiles: dict = {}
        self._frame: Any = None

    def show(self, tiles: dict) -> None:
        if tiles != self.tiles:
            self.tiles, self._frame = dict(tiles), None

    def _scene(self, hand: bool):
        from vision.synth.tilescene import tile_scene

        return tile_scene(self.board, self.tiles, seed=self.seed, language=self.language, hand=hand).frame

    def hand_frame(self):
        return self._scene(hand=True)

    def read(self):
        if self._frame is None:
            self._frame = self._scene(hand=False)
        return self._frame


class OpenCVCamera:
    """A USB camera through OpenCV (``index`` 0 = the first)."""

    def __init__(self, index: int = 0, size=(1280, 720)):
        import glob
        import os
        if not glob.glob("/dev/video*"):
            raise RuntimeError("no /dev/video* device")
        os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
        import cv2
        self.cap = cv2.VideoCapture(index)
        self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if not self.cap.isOpened():
            raise RuntimeError(f"no camera at index {index}")

    def read(self):
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        self.cap.release()


class PiCamera:
    """The Raspberry Pi camera through picamera2."""

    def __init__(self, size=(1280, 720)):
        from picamera2 import Picamera2
        self.cam = Picamera2()
        self.cam.configure(self.cam.create_video_configuration(main={"size": size, "format": "BGR888"}))
        self.cam.start()

    def read(self):
        return self.cam.capture_array()

    def close(self) -> None:
        self.cam.stop()


def open_camera(kind: str = "auto", index: int = 0):
    """``auto``: the Pi camera where present, else a USB camera, else ``None`` (use the synthetic one)."""
    if kind in ("auto", "pi"):
        try:
            return PiCamera()
        except Exception:
            if kind == "pi":
                raise
    if kind in ("auto", "usb"):
        try:
            return OpenCVCamera(index)
        except Exception:
            if kind == "usb":
                raise
    return None
