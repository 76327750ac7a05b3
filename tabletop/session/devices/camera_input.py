"""Frames from a camera through the vision tracker, becoming ``write`` events for the player
writing now (unsure reads wait for the host)."""

from __future__ import annotations


from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed


class CameraInput(CameraFeed):
    """Frames -> the vision tracker -> ``write`` events credited to the player writing now."""

    def __init__(self, session: Session, camera, *, reader=None):
        super().__init__()
        from tabletop.lexicons import reading_index
        from vision.reader import BoardReader
        from vision.tracker import Tracker
        self.session, self.camera = session, camera
        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.reader = reader or BoardReader(session.board, lexicon=reading_index(session.lexicon, session.setup.language))
        self.tracker = Tracker(self.reader, baseline=session.game.state().get("grid"))
        self.detections = 0

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
