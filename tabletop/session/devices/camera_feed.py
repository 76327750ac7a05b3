"""What every camera input shares: frames taken from the camera on a thread of their own, fed to
the input's :meth:`CameraFeed.feed`, a failing frame reported once and survived."""

from __future__ import annotations

import threading
from typing import Any


class CameraFeed:
    """Base of the camera inputs; a subclass sets ``session`` and ``camera`` and defines ``feed``."""

    session: Any
    camera: Any

    def __init__(self) -> None:
        self.failure: str | None = None
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def feed(self, frame: Any, t: float) -> list:  # pragma: no cover - every input overrides it
        raise NotImplementedError

    @property
    def status(self) -> str:
        """What the input's watcher says now ('hand over the board', 'watching the board'...)."""
        watcher = getattr(self, "watcher", None) or getattr(self, "tracker", None)
        return str(getattr(watcher, "status", ""))

    def resync(self) -> None:
        """Take the board as the rules now hold it as what the camera has seen (after the host
        entered a move by hand); nothing to do for pieces that do not stay on a board."""

    def run_in_background(self, fps: float = 8.0, name: str = "camera") -> None:
        """Read the camera ``fps`` times a second until :meth:`close`."""
        def loop() -> None:
            while not self._stop.is_set():
                try:
                    frame = self.camera.read()
                    if frame is not None:
                        self.feed(frame, self.session.clock.now())
                    self.failure = None
                except Exception as error:        # keep watching: the next frame may read
                    if self.failure is None:
                        print(f"tabletop: camera: {error}")
                        self.session.set_device("camera", f"camera trouble: {error}")
                    self.failure = repr(error)
                self._stop.wait(1.0 / fps)
        self.thread = threading.Thread(target=loop, name=name, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self._stop.set()
        if self.thread:
            self.thread.join(timeout=2)
