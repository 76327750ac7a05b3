"""Camera confirmations: sure reads become writes at once, unsure ones wait for the host.

A mixin of :class:`tabletop.session.core.Session` (it uses the session's lock, game, table
and :meth:`~tabletop.session.core.Session.submit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.session.core import Result

from tabletop.session.refusals import EntryRefused
from tabletop.session.base import SessionBase


class CameraReads(SessionBase):
    """Words the camera saw appear, credited to the player who is writing now."""

    def camera_write(self, detection: dict, source: str = "camera") -> Result | None:
        """A word the camera saw appear: credited to the player who is writing now."""
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            return self.submit({**detection, "type": "write", "player": writer}, source=source)

    def camera_read(self, detection: dict, needs_confirmation: bool, source: str = "camera") -> Result | None:
        """A camera read: sure reads become writes at once; unsure ones wait for the host."""
        if not needs_confirmation:
            return self.camera_write(detection, source=source)
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            self.pending_reads.append({"type": "write", **detection, "player": writer})   # a chip's read is a play
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return None

    def confirm_read(self, index: int = 0, source: str = "host") -> Result:
        """The host confirms an unsure camera read: it becomes the write event."""
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            event.pop("t", None)
            return self.submit(event, source=f"camera+{source}")

    def discard_read(self, index: int = 0) -> dict:
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return event

