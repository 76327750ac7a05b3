"""Frames from a camera through the vision tracker, becoming ``write`` events for the player
writing now (unsure reads wait for the host). The tracker reads with the writer's hand
(:mod:`vision.hands`), rebuilt from the session's journalled lessons."""

from __future__ import annotations

from tabletop.session.camera_reads import CameraMove
from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed
from tabletop.session.devices.hand_memories import HandMemories


class CameraInput(CameraFeed):
    """Frames -> the vision tracker -> ``write`` events credited to the player writing now."""

    def __init__(self, session: Session, camera, *, reader=None):
        super().__init__()
        from tabletop.lexicons import reading_index
        from vision.reader import BoardReader, known_letters
        from vision.tracker import Tracker
        self.session, self.camera = session, camera
        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.reader = reader or BoardReader(session.board, lexicon=reading_index(session.lexicon, session.setup.language),
                                             language=session.setup.language)
        self.tracker = Tracker(self.reader, baseline=session.game.state().get("grid"))
        self.tracker.known = lambda: known_letters(session.game.state().get("grid"))  # confirmed letters decide crossings
        self.tracker.expected = lambda: getattr(session.game, "awaited_word", lambda: None)()  # a clue card's answer
        self.detections = 0
        self.hands = HandMemories(session.hands, self.reader.model)

    def feed(self, frame, t: float) -> list:
        """One frame at table time ``t``; returns the session results of the writes it completed."""
        results = []
        writer = self.session.table.writer(self.session.game)
        self.tracker.hand = self.hands.of(writer) if writer is not None else None
        detections = self.tracker.feed(frame, t)
        self.session.set_device("camera", self.tracker.status)
        if self.tracker.status == "committed":
            self.session.set_board_read(self.tracker.committed_rows)
        for detection in detections:
            self.detections += 1
            move = CameraMove(detection.to_event(), t, sure=not detection.needs_confirmation, lesson=detection.lesson(),
                              readings=detection.readings(self.tracker.last_read))
            result = self.session.camera_move(move)
            if result is not None:
                results.append(result)
        return results

    def resync(self) -> None:
        """Take the board as the rules hold it as what the camera has seen (after the host typed a word)."""
        self.tracker.committed = [list(row) for row in self.session.game.state()["grid"]]
