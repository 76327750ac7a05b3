"""Letter dice with the labels ``tabletop print-dice`` prints, read by :class:`vision.dice.DiceReader`
and followed by :class:`vision.dicewatch.DiceWatcher`: the dice at rest after a roll are a
``roll`` of the faces seen, when the rules wait for one.

Plain letter dice (a family's box, a Boggle-style tray) are the same kind's other mode:
``tabletop score PHOTO --pieces dice --plain`` (or ``--dice SET.toml``, the box's own dice) reads
them with :class:`vision.plaindice.PlainDiceReader` (``tabletop.commands.score_dice``), and
``tabletop play letter-dice --dice SET.toml`` reads the rolls of the box's dice with it
(:class:`tabletop.session.devices.tray_input.PlainRollInput`); the benchmark ``dice`` measures both.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from tabletop.pieces import PieceKind, register
from tabletop.pieces.demo_camera import DemoCamera
from tabletop.session.core import Session


class DiceDemo(DemoCamera):
    """The demo's camera over the dice: they tumble, come to rest and are read; if the camera cannot
    read them, the host rolls for the table."""

    frame_seconds = 0.25
    move_word, instead = "the roll", "the host rolls for the table"

    def __init__(self, session: Session, seed: int, say: Callable[[str], None]):
        from tabletop.session.devices import DiceCameraInput, SyntheticDiceCamera

        self.camera = SyntheticDiceCamera(seed=seed)
        super().__init__(session, DiceCameraInput(session, self.camera), say)
        self.throws = random.Random(seed)
        say("   camera: synthetic photos of the dice with their printed labels, read by the roll watcher")

    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:
        from rules.letter_dice_sets import DICE

        self.camera.roll([self.throws.choice(die) for die in DICE[self.session.setup.language]])
        for frame in range(16):
            if frame == 3:
                self.camera.settle()
            yield self.camera.read()



def _camera_input(session: Session, camera: Any) -> Any:
    """The printed labels' roll watcher; with the box's own plain dice (``play --dice``), the plain
    dice reader's roll input."""
    from tabletop.session.devices import DiceCameraInput
    from tabletop.session.devices.tray_input import PlainRollInput

    if session.dice_set is not None:
        return PlainRollInput(session, camera, dice_set=session.dice_set)
    return DiceCameraInput(session, camera)


def _read_photo(args: Any, game: Any) -> int:
    from tabletop.commands.score_dice import score_dice

    return score_dice(args, game)


DICE = register(PieceKind(
    name="dice", description="letter dice (printed labels, or plain dice with --plain)",
    camera_input=_camera_input, demo_camera=DiceDemo, read_photo=_read_photo, benchmark="dice",
    counted="rolls read by the camera",
    without_camera="no camera found: type 'roll' (the table rolls) or the faces as a roll event",
    camera_note=" over the dice (labels from 'tabletop print-dice', or the box's plain dice with --dice)", needs_board=False))
