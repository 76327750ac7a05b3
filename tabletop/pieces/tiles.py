"""Letter tiles (Questique, any boxed board): tiles put down in one line are read by
:class:`vision.tiles.TileReader` and followed by :class:`vision.tilewatch.TileWatcher`; a board
without markers is found by its grid (:mod:`vision.gridfind`) or read through ``score --corners``;
the scan button reads a phone's photo (:mod:`tabletop.session.devices.tile_scan`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from rules.squares import Square
from tabletop.pieces import PieceKind, register
from tabletop.pieces.demo_camera import DemoCamera
from tabletop.session.core import Session


class TilesDemo(DemoCamera):
    """The demo's camera over a board of tiles: a hand over the board, then the board with the new
    tiles; a move with a blank or an unsure tile waits for the host."""

    def __init__(self, session: Session, seed: int, say: Callable[[str], None]):
        from tabletop.session.devices import SyntheticTileCamera, TileCameraInput

        self.camera = SyntheticTileCamera(session.board, seed=seed, language=session.setup.language)
        super().__init__(session, TileCameraInput(session, self.camera), say)
        say("   camera: synthetic photos of the printed board and tiles, read by the tile watcher")

    def stage(self, player: str | None, planned: dict[str, Any]) -> Iterator[Any]:
        from tabletop.session.devices.tile_input import camera_view

        tiles = {Square(r, c): ch for r, row in enumerate(camera_view(self.session.game))
                 for c, ch in enumerate(row) if ch != "."}
        dr, dc = (0, 1) if planned["dir"] == "across" else (1, 0)
        for k, ch in enumerate(planned["text"]):
            tiles.setdefault(Square(planned["row"] + k * dr, planned["col"] + k * dc), "?" if ch.islower() else ch)
        self.camera.show(tiles)
        yield from [self.camera.hand_frame()] * 2 + [self.camera.read()] * 8

    def confirming(self, read: dict[str, Any]) -> str:
        return f"the camera saw {read['text']} (a blank or an unsure tile); the host confirms it"



def _camera_input(session: Session, camera: Any) -> Any:
    from tabletop.session.devices import TileCameraInput

    return TileCameraInput(session, camera)


def _scanner(session: Session) -> Any:
    from tabletop.session.devices.tile_scan import TileScanner

    return TileScanner(session)


def _read_photo(args: Any, game: Any) -> int:
    from tabletop.commands.score_tiles import score_tiles

    return score_tiles(args, game.board if game.pieces == "tiles" else None)


TILES = register(PieceKind(
    name="tiles", description="letter tiles",
    camera_input=_camera_input, demo_camera=TilesDemo, read_photo=_read_photo, benchmark="tiles",
    counted="moves read by the camera",
    without_camera="no camera found: players type their words on their pages (or the host does)",
    takes_corners=True, scanner=_scanner))
