"""Camera confirmations: sure reads become writes at once, unsure ones wait for the host.

A read may carry a *lesson* (its new letters' images: :mod:`tabletop.session.hands`); once the
write is accepted, the lesson teaches the writer's hand.

A mixin of :class:`tabletop.session.core.Session` (it uses the session's lock, game, table
and :meth:`~tabletop.session.core.Session.submit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.session.core import Result

from tabletop.session.refusals import EntryRefused
from tabletop.session.base import SessionBase


class CameraReads(SessionBase):
    """Words the camera saw appear, credited to the player who is writing now."""

    def camera_write(self, detection: dict, source: str = "camera", lesson: dict | None = None) -> Result | None:
        """A word the camera saw appear: credited to the player who is writing now."""
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            result = self.submit({**detection, "type": "write", "player": writer}, source=source)
            self._learn_from(result, lesson)
            return result

    def camera_read(self, detection: dict, needs_confirmation: bool, source: str = "camera",
                    lesson: dict | None = None) -> Result | None:
        """A camera read: sure reads become writes at once; unsure ones wait for the host.
        ``lesson``: the read's new letters, which teach the writer's hand once the write is accepted."""
        if not needs_confirmation:
            return self.camera_write(detection, source=source, lesson=lesson)
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            self.pending_reads.append({"type": "write", **detection, "player": writer})   # a chip's read is a play
            self._pending_lessons.append(lesson)
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return None

    def _learn_from(self, result: Result, lesson: dict[str, Any] | None) -> None:
        if lesson is not None and result.accepted and result.event.get("player") in self.setup.players:
            try:
                self.teach_hand(str(result.event["player"]), lesson)
            except EntryRefused:
                pass  # a read whose images do not fit its letters teaches nothing

    def confirm_read(self, index: int = 0, source: str = "host") -> Result:
        """The host confirms an unsure camera read: it becomes the write event."""
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            lesson = self._pending_lessons.pop(index)  # appended beside each pending read
            event.pop("t", None)
            result = self.submit(event, source=f"camera+{source}")
            self._learn_from(result, lesson)
            return result

    def discard_read(self, index: int = 0) -> dict:
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            self._pending_lessons.pop(index)
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return event

