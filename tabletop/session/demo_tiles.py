"""The demo's camera over a board of letter tiles (``tabletop demo questique``): a player's tiles
as the camera sees them go down: a hand over the board, then the board with the new tiles,
read by the tile watcher (:class:`~tabletop.session.devices.TileCameraInput`). A move with a
blank tile or a square read unsure waits for the host, who confirms it when it is the move
made; if the camera does not see the move, the host enters it."""

from __future__ import annotations

from typing import Any, Callable

from rules.squares import Square


def tile_camera(session: Any, report: Any, seed: int, say: Callable[[str], None]) -> Callable[[str, dict], None]:
    """The demo's ``write`` callback: each planned write shown to the camera and read back."""
    from tabletop.session.devices import SyntheticTileCamera, TileCameraInput
    from tabletop.session.devices.tile_input import camera_view

    camera = SyntheticTileCamera(session.board, seed=seed, language=session.setup.language)
    feed = TileCameraInput(session, camera)
    clock = session.clock
    say("   camera: synthetic photos of the printed board and tiles, read by the tile watcher")

    def on_board() -> dict[Square, str]:
        return {Square(r, c): ch for r, row in enumerate(camera_view(session.game)) for c, ch in enumerate(row) if ch != "."}

    def write(player: str, planned: dict) -> None:
        feed.watcher.committed = camera_view(session.game)     # tiles the host entered are on the board too
        tiles = on_board()
        dr, dc = (0, 1) if planned["dir"] == "across" else (1, 0)
        for k, ch in enumerate(planned["text"]):
            sq = Square(planned["row"] + k * dr, planned["col"] + k * dc)
            tiles.setdefault(sq, "?" if ch.islower() else ch)
        camera.show(tiles)
        results: list = []
        try:
            for frame in [camera.hand_frame()] * 2 + [camera.read()] * 8:
                results = feed.feed(frame, clock.now())
                if results or session.pending_reads:
                    break
                clock.advance(0.3)
        except Exception as error:                  # a broken camera pipeline must not stop the game
            say(f"           the camera failed ({type(error).__name__}: {error})")
        if results and results[-1].accepted:
            report.camera_writes += 1
            return
        while session.pending_reads:
            read = session.pending_reads[0]
            if all(read.get(k) == planned[k] for k in ("row", "col", "dir", "text")):
                say(f"           the camera saw {read['text']} (a blank or an unsure tile); the host confirms it")
                if session.confirm_read(0).accepted:
                    report.camera_writes += 1
                    report.confirmed_reads += 1
                    return
            else:
                say(f"           the camera read {read.get('text')}; the host discards it")
                session.discard_read(0)
        say(f"           the camera did not see the move ({feed.watcher.status}); the host enters it")
        report.host_writes += 1
        session.submit(planned, source="host")
    return write
