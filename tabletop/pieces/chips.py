"""Sequence Letters' chips on the printed picture board, read by :class:`vision.chips.ChipReader`
and followed by :class:`vision.chipwatch.ChipWatcher`: a chip put down is a ``play``, one taken
off an ``X``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from rules.squares import Square
from tabletop.pieces import PieceKind, register
from tabletop.pieces.demo_camera import DemoCamera
from tabletop.session.core import Session
from tabletop.session.result import Result


class ChipsDemo(DemoCamera):
    """The demo's camera over the picture board: a child's hand, then the board with the chip (or
    without the chip an X took off); a chip only a Z explains waits for the host."""

    same_fields = ("row", "col", "card")
    move_word, instead = "the chip", "the host enters the play"

    def __init__(self, session: Session, seed: int, say: Callable[[str], None]):
        from tabletop.session.devices import ChipCameraInput, SyntheticChipCamera

        self.camera = SyntheticChipCamera(session.board, seed=seed)
        super().__init__(session, ChipCameraInput(session, self.camera), say)
        say("   camera: synthetic photos of the printed picture board, chips read by the chip watcher")

    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:
        game: Any = self.session.game
        chips = {sq: game.chip_colours[side] for sq, side in game.chips.items()}
        square = Square(planned["row"], planned["col"])
        if planned["card"] == "X":
            chips.pop(square, None)
        else:
            chips[square] = game.chip_colours[game.side_of[player]]
        self.camera.show(chips)
        yield from [self.camera.hand_frame()] * 2 + [self.camera.read()] * 8

    def succeeded(self, results: list[Result], planned: dict[str, Any]) -> bool:
        return bool(results) and results[-1].accepted and results[-1].event.get("card") == planned["card"]

    def confirming(self, read: dict[str, Any]) -> str:
        return "the camera saw a chip where only a Z card fits; the host confirms the Z"

    def discarding(self, read: dict[str, Any]) -> str:
        return f"the camera saw a {read.get('card')} on row {read.get('row')}, column {read.get('col')}; " \
               "the host discards it"



def _camera_input(session: Session, camera: Any) -> Any:
    from tabletop.session.devices import ChipCameraInput

    return ChipCameraInput(session, camera)


def _read_photo(args: Any, game: Any) -> int:
    from tabletop.commands.score_chips import score_chips

    return score_chips(args, game)


CHIPS = register(PieceKind(
    name="chips", description="chips on the picture board",
    camera_input=_camera_input, demo_camera=ChipsDemo, read_photo=_read_photo, benchmark="chips",
    counted="chips seen by the camera",
    without_camera="no camera found: the host enters each chip's play"))
