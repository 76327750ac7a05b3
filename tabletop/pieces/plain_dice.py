"""Plain letter dice (a family's box, a Boggle-style tray): the word grid's tray, read by
:class:`vision.plaindice.PlainDiceReader` through
:class:`tabletop.session.devices.tray_input.TrayCameraInput` once the dice lie still, when the
rules wait for the tray. ``play word-grid --dice SET.toml`` names the box's own dice
(:mod:`tabletop.dicesets`), which settle what one face alone cannot.

``tabletop score PHOTO --game word-grid`` reads a photo of the tray the same way (the ``dice``
kind's plain mode, ``tabletop.commands.score_dice``); the benchmark ``dice`` measures the reader.

The demo has no synthetic photos of plain dice: its table shakes the tray itself, and the camera
reads nothing there.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from tabletop.pieces import PieceKind, register
from tabletop.pieces.demo_camera import DemoCamera
from tabletop.session.core import Session


def _camera_input(session: Session, camera: Any) -> Any:
    from tabletop.session.devices.tray_input import TrayCameraInput

    return TrayCameraInput(session, camera, dice_set=session.dice_set)


class TrayDemo(DemoCamera):
    """The demo's camera over the tray: no synthetic photos of plain dice exist, so nothing is
    staged, and the table's own shake stands for the tray."""

    move_word, instead = "the tray", "the table shakes the tray"

    def __init__(self, session: Session, seed: int, say: Callable[[str], None]):
        super().__init__(session, _camera_input(session, None), say)
        say("   camera: the demo has no photos of plain dice; the table shakes the tray itself")

    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:
        return iter(())


def _read_photo(args: Any, game: Any) -> int:
    from tabletop.commands.score_dice import score_plain_dice

    return score_plain_dice(args)


PLAIN_DICE = register(PieceKind(
    name="plain-dice", description="plain letter dice in a tray (a family's box)",
    camera_input=_camera_input, demo_camera=TrayDemo, read_photo=_read_photo, benchmark="dice",
    counted="trays read by the camera",
    without_camera="no camera found: the host types the tray (a tray event), or types 'shake' (the table shakes)",
    camera_note=" over the tray (plain letter dice, read when they lie still)", needs_board=False))
