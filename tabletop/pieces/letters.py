"""Handwritten letters: words written in dry-erase marker on the printed board (eXtraDICTION,
eXtraDICTION SP), read by :mod:`vision.reader` and followed frame by frame by
:class:`vision.tracker.Tracker`. The only kind read from a phone's photo too (the scan button).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from tabletop.pieces import PieceKind, register
from tabletop.pieces.demo_camera import DemoCamera
from tabletop.session.core import Session
from tabletop.session.result import Result


class LettersDemo(DemoCamera):
    """The demo's camera over the printed board: the writer's hand over the board, then the board
    with the new word, read by the tracker; unsure words wait for the host."""

    stops_on_pending = False     # the tracker keeps watching after an unsure read (its steady frames)

    def __init__(self, session: Session, seed: int, say: Callable[[str], None]):
        from tabletop.session.devices import CameraInput, SyntheticCamera

        self.synthetic = SyntheticCamera(session.board, seed=seed)
        super().__init__(session, CameraInput(session, self.synthetic), say)
        self.synthetic.show({})
        self.feed.feed(self.synthetic.read(), session.clock.now())
        say("   camera: synthetic frames of the printed board, read by the vision tracker")

    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:
        from tabletop.players.planner import letters_of

        letters = dict(self.session.game.grid.items())  # type: ignore[attr-defined]  # a crossword game
        letters.update(letters_of(planned))
        self.synthetic.show(letters)
        yield self.synthetic.hand_frame()       # the writer's hand is still over the board...
        for _ in range(6):                      # ...then it moves away
            yield self.synthetic.read()

    def confirming(self, read: dict[str, Any]) -> str:
        return f"the camera is unsure of {read['text']} (confidence {read.get('confidence')}); the host confirms it"

    def discarding(self, read: dict[str, Any]) -> str:
        return f"the camera is unsure and reads {read['text']}; the host discards it"

    def missed(self, results: list[Result], failure: str | None) -> str:
        if failure:
            return f"the camera pipeline failed ({failure[:120]}); the host types the word in"
        seen = results[-1].event.get("text") if results else f"nothing ({self.feed.status})"
        return f"the camera read {seen}; the host types the word in"


def _camera_input(session: Session, camera: Any) -> Any:
    from tabletop.session.devices import CameraInput

    return CameraInput(session, camera)


def _read_photo(args: Any, game: Any) -> int:
    from tabletop.commands.score_letters import score_letters

    return score_letters(args, game)


def _scanner(session: Session) -> Any:
    from tabletop.session.devices.photo_scan import PhotoScanner

    return PhotoScanner(session)


LETTERS = register(PieceKind(
    name="letters", description="handwritten letters",
    camera_input=_camera_input, demo_camera=LettersDemo, read_photo=_read_photo, benchmark="vision",
    counted="words read by the camera",
    without_camera="no camera found: players type their words on their pages (or the host does)",
    scanner=_scanner))
