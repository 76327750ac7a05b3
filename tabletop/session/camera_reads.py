"""Camera reads: a move the camera saw, credited once to the player the table says made it;
sure reads are submitted at once, unsure ones wait: a word for its writer's own phone first
(its best readings, one tap), then, disputed or unanswered, for the host (confirm or discard).

Every camera input (handwriting, tiles, chips, dice) and the phone's scan hands the session a
:class:`CameraMove`: the rules event *without* its player, its table time, whether it is sure,
the lesson its new letters teach and its best readings. The session adds the player here and
nowhere else. Waiting reads and their answers are journalled (``camera-read``,
``camera-settled``), so a resumed game offers them again.

>>> CameraMove({"type": "write", "text": "CAT", "row": 0, "col": 0, "dir": "across"}, t=2.0).sure
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from tabletop.session.parts import Part, Replayer
from tabletop.session.refusals import BadEntry, EntryRefused

#: at most this many reads wait for the host; a newer one replaces the oldest
MOST_PENDING = 8
#: a word its writer may settle on their own phone goes to the host after this many table seconds
WRITER_SECONDS = 20.0

if TYPE_CHECKING:
    from tabletop.session.hands import Hands
    from tabletop.session.result import Result


@dataclass(frozen=True)
class CameraMove:
    """A move the camera saw, before anyone is credited with it.

    ``event``: the rules event without ``player`` (its ``type`` says what it is: ``write``,
    ``play``, ``take_blank``, ``roll``); ``t``: when the camera saw it (table time; ``None``:
    now); ``sure``: False when the host must confirm it; ``lesson``: the new letters' images,
    which teach the writer's hand once the move is accepted.
    """

    event: Mapping[str, Any]
    t: float | None = None
    sure: bool = True
    lesson: dict[str, Any] | None = field(default=None, compare=False)
    #: a write's best readings, best first (the event's text among them): what its writer is offered
    readings: tuple[str, ...] = ()

    def credited(self, player: str) -> dict[str, Any]:
        """The rules event, credited to ``player``.

        >>> CameraMove({"type": "play", "card": "A", "row": 1, "col": 2}, t=3.5).credited("Ann")
        {'type': 'play', 'card': 'A', 'row': 1, 'col': 2, 'player': 'Ann', 't': 3.5}
        """
        event = {key: value for key, value in self.event.items() if key not in ("player", "t")}
        event["player"] = player
        if self.t is not None:
            event["t"] = self.t
        return event


@dataclass(frozen=True)
class PendingRead:
    """An unsure read waiting for the host: its journal ``seq`` (its id), the credited event, its lesson."""

    seq: int
    event: dict[str, Any]
    lesson: dict[str, Any] | None = field(default=None, compare=False)
    readings: tuple[str, ...] = ()
    seen: float = 0.0                 #: table time the read was journalled
    disputed: bool = False            #: the writer's own answer was refused by the rules: the host decides

    @property
    def writer(self) -> str | None:
        """Who the read is credited to, when it is a word they wrote (they may settle it on their phone)."""
        return self.event.get("player") if self.event.get("type") == "write" else None


class CameraReads(Part):
    """Moves the camera saw, credited to the player the table says made them.

    Unsure reads are journalled (kind ``camera-read``) and so are the host's answers
    (``camera-settled``: confirmed or discarded), so a resumed game still offers what was waiting.
    """

    kinds = ("camera-read", "camera-settled")

    def __init__(self, core: Any, hands: "Hands"):
        super().__init__(core)
        self.hands = hands
        #: unsure moves waiting for the host, oldest first
        self.pending: list[PendingRead] = []

    def replayers(self) -> Mapping[str, Replayer]:
        return {"camera-read": lambda entry: self._keep(PendingRead(
                    entry.seq, dict(entry.body["event"]), entry.body.get("lesson"),
                    tuple(str(r) for r in entry.body.get("readings", ())), float(entry.t))),
                "camera-settled": self._replay_settled}

    def _replay_settled(self, entry: Any) -> None:
        if entry.body.get("how") == "disputed":
            self._dispute(int(entry.body["read"]))
        else:
            self._forget(int(entry.body["read"]))

    def reads(self) -> list[dict[str, Any]]:
        """The pending reads' events, oldest first (what the host console lists)."""
        with self.core.lock:
            return [dict(read.event) for read in self.pending]

    def seen(self, move: CameraMove, source: str = "camera") -> "Result | None":
        """The camera saw ``move``: credited to the player the table says made it (``None``: nobody
        plays now), submitted if sure, else journalled and kept for the host (``None``)."""
        with self.core.lock:
            player = self.core.table.writer(self.core.game)
            if player is None:
                return None
            event = move.credited(player)
            if move.sure:
                result = self.core.submit(event, source=source)
                self._learn_from(result, move.lesson)
                return result
            if any(_same(event, read.event) for read in self.pending):
                return None                       # the same read again (a second scan, a second look)
            body: dict[str, Any] = {"event": event}
            if move.lesson is not None:
                body["lesson"] = move.lesson
            readings = tuple(move.readings) if event.get("type") == "write" else ()
            if readings:
                body["readings"] = list(readings)
            seen = self.core.clock.now()
            seq = self.core.append("camera-read", body, source, t=seen)
            self._keep(PendingRead(seq, event, move.lesson, readings, seen))
            self.core.publish({"kind": "camera", "pending": len(self.pending)})
            return None

    def _keep(self, read: PendingRead) -> None:
        """A read waits; beyond :data:`MOST_PENDING`, the oldest gives way (on resume too)."""
        with self.core.lock:
            self.pending.append(read)
            del self.pending[:-MOST_PENDING]

    def _dispute(self, seq: int) -> None:
        with self.core.lock:
            self.pending = [PendingRead(r.seq, r.event, r.lesson, r.readings, r.seen, True) if r.seq == seq else r
                            for r in self.pending]

    def _forget(self, seq: int) -> None:
        with self.core.lock:
            self.pending = [read for read in self.pending if read.seq != seq]

    def _learn_from(self, result: "Result", lesson: dict[str, Any] | None) -> None:
        if lesson is not None and result.accepted and result.event.get("player") in self.core.setup.players:
            try:
                self.hands.teach(str(result.event["player"]), lesson)
            except EntryRefused:
                pass  # a read whose images do not fit its letters teaches nothing

    def _read(self, index: int) -> PendingRead:
        if not 0 <= index < len(self.pending):
            raise EntryRefused("No camera read is waiting for confirmation.")
        return self.pending[index]

    def confirm(self, index: int = 0, source: str = "host") -> "Result":
        """The host confirms pending read ``index``: it is submitted as made now, then settled
        (a crash in between offers it again, never loses it)."""
        with self.core.lock:
            read = self._read(index)
            event = {k: v for k, v in read.event.items() if k != "t"}
            result = self.core.submit(event, source=f"camera+{source}")
            self._settle(read, "confirmed", source)
            self._learn_from(result, read.lesson)
            return result

    def for_writer(self, seat: str) -> list[PendingRead]:
        """The reads of words ``seat`` wrote that wait for an answer, oldest first."""
        with self.core.lock:
            return [read for read in self.pending if read.writer == seat and not read.disputed]

    def for_host(self, writer_seconds: float = WRITER_SECONDS) -> list[tuple[int, PendingRead]]:
        """The reads the host must settle, each with its index among all pending reads: those no
        writer can answer (a chip, a tile move), disputed ones, and those their writer left
        unanswered for ``writer_seconds`` of table time."""
        with self.core.lock:
            now = self.core.clock.now()
            return [(i, read) for i, read in enumerate(self.pending) if read.writer is None or read.disputed
                    or now - read.seen >= writer_seconds]

    def answered_by_writer(self, seat: str, seq: int, text: str) -> "Result":
        """``seat`` settles the read ``seq`` of a word they wrote, on their own phone: one of the
        readings offered, or what they typed. Accepted by the rules, it is played and settled; refused,
        the read goes to the host as disputed (the refusal is returned)."""
        with self.core.lock:
            read = next((r for r in self.pending if r.seq == seq), None)
            if read is None or read.writer != seat:
                raise EntryRefused(f"No reading of {seat}'s word is waiting for an answer.")
            if read.disputed:
                raise EntryRefused("The host decides this word now.")
            chosen = text.strip() if isinstance(text, str) else ""
            if not chosen or len(chosen) > 40 or not all(ch.isalpha() or ch in " '-" for ch in chosen):
                raise BadEntry("Tap one of the readings, or type the word you wrote (letters only).")
            event = {k: v for k, v in read.event.items() if k not in ("t", "confidence")}
            event["text"] = chosen
            result = self.core.submit(event, source=f"camera+seat:{seat}")
            if result.accepted:
                self._settle(read, "confirmed by the writer", f"seat:{seat}")
                if chosen.upper() == str(read.event.get("text", "")).upper():
                    self._learn_from(result, read.lesson)   # the images are of the letters read
            else:
                self.core.append("camera-settled", {"read": read.seq, "how": "disputed"}, f"seat:{seat}")
                self._dispute(read.seq)
                self.core.publish({"kind": "camera", "pending": len(self.pending)})
            return result

    def discard(self, index: int = 0, source: str = "host") -> dict[str, Any]:
        """The host discards pending read ``index``; returns its event."""
        with self.core.lock:
            read = self._read(index)
            self._settle(read, "discarded", source)
            self.core.publish({"kind": "camera", "pending": len(self.pending)})
            return dict(read.event)

    def _settle(self, read: PendingRead, how: str, source: str) -> None:
        self.core.append("camera-settled", {"read": read.seq, "how": how}, source)
        self._forget(read.seq)


def _same(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two pending reads are the same move (their times and confidences aside).

    >>> _same({"type": "write", "text": "CAT", "t": 1.0}, {"type": "write", "text": "CAT", "t": 2.5})
    True
    """
    ignored = ("t", "confidence")
    return {k: v for k, v in one.items() if k not in ignored} == {k: v for k, v in other.items() if k not in ignored}

