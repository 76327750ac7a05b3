"""The demo's camera, one loop for every kind of piece.

A simulated player's move is *staged* on a synthetic camera (the scene with the move made, a
hand over it first), its frames are fed to the kind's live camera input, and then:

* the move was read and accepted: the camera scored it;
* the camera was unsure: the host confirms the pending read that is the planned move (and
  discards any other);
* otherwise (not seen, misread, or the pipeline failed): the host enters the move by hand.

A kind subclasses :class:`DemoCamera` and says only how to stage a move
(:meth:`DemoCamera.stage`) and, where it differs, what counts as the same move and what is said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed
from tabletop.session.result import Result


@dataclass
class DemoCounts:
    """What became of the moves shown to the demo's camera."""

    camera: int = 0        #: read by the camera and accepted (confirmed ones included)
    confirmed: int = 0     #: of those, confirmed by the host after an unsure read
    host: int = 0          #: entered by the host instead
    failures: int = 0      #: of those, after the camera pipeline failed


class DemoCamera:
    """The show / feed / confirm / fall back loop; subclasses stage the moves of their pieces."""

    #: table seconds between two frames
    frame_seconds = 0.3
    #: stop feeding frames as soon as a read waits for the host
    stops_on_pending = True
    #: the fields that make a pending read the planned move
    same_fields: tuple[str, ...] = ("row", "col", "dir", "text")
    #: what the camera sees and what the host does when it does not: 'the chip', 'enters the play'
    move_word, instead = "the move", "the host enters it"

    def __init__(self, session: Session, feed: CameraFeed, say: Callable[[str], None]):
        self.session, self.feed, self.say = session, feed, say
        self.counts = DemoCounts()

    # -- what a kind says -----------------------------------------------------------------------
    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:  # pragma: no cover - overridden
        """Show ``player``'s ``planned`` move to the synthetic camera; yield the frames to feed, in order."""
        raise NotImplementedError

    def same_move(self, read: dict[str, Any], planned: dict[str, Any]) -> bool:
        """Whether the pending ``read`` is the ``planned`` move."""
        return all(read.get(k) == planned.get(k) for k in self.same_fields)

    def succeeded(self, results: list[Result], planned: dict[str, Any]) -> bool:
        """Whether the camera's ``results`` made the planned move."""
        return bool(results) and results[-1].accepted

    def confirming(self, read: dict[str, Any]) -> str:
        return f"the camera saw {read.get('text')} unsure; the host confirms it"

    def discarding(self, read: dict[str, Any]) -> str:
        return f"the camera read {read.get('text')}; the host discards it"

    def missed(self, results: list[Result], failure: str | None) -> str:
        """What is said when the host enters the move instead."""
        why = f"it failed: {failure[:120]}" if failure else self.feed.status
        return f"the camera did not see {self.move_word} ({why}); {self.instead}"

    # -- the loop -------------------------------------------------------------------------------
    def play(self, player: str | None, planned: dict[str, Any]) -> None:
        """Carry one planned move (the runner's ``write`` callback) through the camera."""
        session, clock = self.session, self.session.clock
        self.feed.resync()
        results: list[Result] = []
        failure = None
        try:
            for frame in self.stage(player, planned):
                results = self.feed.feed(frame, clock.now())
                if results or (self.stops_on_pending and session.pending_reads):
                    break
                clock.advance(self.frame_seconds)  # type: ignore[attr-defined]  # the demo runs a SimClock
        except Exception as error:                  # a broken camera pipeline must not stop the game
            failure = f"{type(error).__name__}: {error}"
        if self.succeeded(results, planned):
            self.counts.camera += 1
            return
        while session.pending_reads:                # unsure reads wait for the host
            read = session.pending_reads[0]
            if self.same_move(read, planned):
                self.say(f"           {self.confirming(read)}")
                if session.confirm_read(0).accepted:
                    self.counts.camera += 1
                    self.counts.confirmed += 1
                    return
            else:
                self.say(f"           {self.discarding(read)}")
                session.discard_read(0)
        self.say(f"           {self.missed(results, failure)}")
        self.counts.host += 1
        self.counts.failures += failure is not None
        session.submit(planned, source="host")
        self.feed.resync()

    def roll(self) -> None:
        """The runner's ``roll`` callback: the players roll, the camera reads it."""
        self.play(None, {"type": "roll"})
