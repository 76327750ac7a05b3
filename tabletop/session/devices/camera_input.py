"""Frames from a camera through the vision tracker, becoming ``write`` events for the player
writing now (unsure reads wait for the host)."""

from __future__ import annotations

import threading

from tabletop.session.core import Session


class CameraInput:
    """Frames -> the vision tracker -> ``write`` events credited to the player writing now."""

    def __init__(self, session: Session, camera, *, reader=None):
        from tabletop.lexicons import reading_index
        from vision.reader import BoardReader
        from vision.tracker import Tracker
        self.session, self.camera = session, camera
        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.reader = reader or BoardReader(session.board, lexicon=reading_index(session.lexicon, session.setup.language))
        self.tracker = Tracker(self.reader, baseline=session.game.state().get("grid"))
        self.detections = 0
        self.failure: str | None = None
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def feed(self, frame, t: float) -> list:
        """One frame at table time ``t``; returns the session results of the writes it completed."""
        results = []
        detections = self.tracker.feed(frame, t)
        self.session.set_device("camera", self.tracker.status)
        if self.tracker.status == "committed":
            self.session.set_board_read(self.tracker.committed_rows)
        for detection in detections:
            self.detections += 1
            event = detection.to_event()
            event["t"] = t
            result = self.session.camera_read(event, bool(getattr(detection, "needs_confirmation", False)))
            if result is not None:
                results.append(result)
        return results

    def run_in_background(self, fps: float = 8.0) -> None:
        def loop():
            while not self._stop.is_set():
                try:
                    frame = self.camera.read()
                    if frame is not None:
                        self.feed(frame, self.session.clock.now())
                    self.failure = None
                except Exception as error:        # keep watching: the next frame may read
                    if self.failure is None:
                        print(f"tabletop: camera: {error!r}")
                    self.failure = repr(error)
                self._stop.wait(1.0 / fps)
        self.thread = threading.Thread(target=loop, name="camera", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self._stop.set()
        if self.thread:
            self.thread.join(timeout=2)
