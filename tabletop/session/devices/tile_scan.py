"""A phone as the camera over a board of letter tiles: the scan button's photo is read by
:class:`vision.tiles.TileReader` (the board found by its markers or, a boxed board without them,
by its grid: :mod:`vision.gridfind`), compared with the board as the game holds it, and the
tiles put down since become one move offered to the host (never submitted at once: a photo is
one look, not a steady watch). A photo that cannot be used says why and changes nothing.

>>> MOST_NEW
15
"""

from __future__ import annotations

import threading
from typing import Any

from rules.squares import Square
from tabletop.session.core import Session
from tabletop.session.devices.photo_scan import ScanRefused, photo_image
from tabletop.session.devices.tile_input import camera_view, event_for

#: more squares changed than this since the board the game holds: not one move (a bumped board,
#: another game's photo)
MOST_NEW = 15


class TileScanner:
    """Reads uploaded photos of ``session``'s board of tiles (the reader made on the first)."""

    def __init__(self, session: Session):
        self.session = session
        self._reader: Any = None
        self._lock = threading.Lock()

    def _tile_reader(self) -> Any:
        if self._reader is None:
            from rules.questique_tiles import alphabet
            from tabletop.lexicons import reading_index
            from vision.tiles import TileReader

            language = self.session.setup.language
            board = self.session.board
            assert board is not None                     # reads_photos() was checked first
            self._reader = TileReader(board, language, index=reading_index(self.session.lexicon, language,
                                                                           alphabet(language)))
        return self._reader

    def scan(self, data: bytes, source: str = "scan") -> dict[str, Any]:
        """Read the photo in ``data`` and offer the move it shows to the host: ``{"status":
        "offered", "message": ..., "words": [...]}``; raises :class:`ScanRefused`."""
        from vision.errors import VisionError
        from vision.gridfind import GridNotFound
        from vision.tiles import EMPTY
        from vision.tilewatch import TileMove

        image = photo_image(self.session, data)
        with self._lock:
            if self.session.table.writer(self.session.game) is None:
                raise ScanRefused("Nobody is playing a move now, so there is no move to offer.")
            try:
                read = self._tile_reader().read(image)
            except GridNotFound:                         # no markers, and no grid found for sure
                raise ScanRefused("The board's grid was not found in the photo: take it again from above, with "
                                  "the whole board in view and no glare on it.") from None
            except VisionError as error:
                raise ScanRefused(f"The board is not in the photo ({error}): take it again with the whole "
                                  "board in view.") from None
            before = camera_view(self.session.game)
            changed = [Square(r, c) for r, (old, new) in enumerate(zip(before, read.rows))
                       for c, (a, b) in enumerate(zip(old, new)) if a != b]
            put = tuple(sq for sq in changed if read.rows[sq.row][sq.col] != EMPTY)
            if not put:
                raise ScanRefused("No new tiles in the photo: the board reads as the table already has it.")
            if len(changed) > MOST_NEW:
                raise ScanRefused(f"{len(changed)} squares differ from the board as the table has it: that is "
                                  "not one move. Take the photo again, or enter the move by hand.")
            unsure = set(read.unsure)
            move = TileMove(put, tuple(read.rows[sq.row][sq.col] for sq in put),
                            tuple(sq for sq in changed if read.rows[sq.row][sq.col] == EMPTY),
                            any(sq in unsure for sq in changed), self.session.clock.now())
            event, _ask = event_for(self.session, move)
            if event is None:
                raise ScanRefused("The new tiles in the photo are not in one line, so they make no move: "
                                  "the host enters it.")
            from tabletop.session.camera_reads import CameraMove

            self.session.camera_move(CameraMove(event, None, sure=False), source)
        board = self.session.board
        assert board is not None
        if event["type"] == "take_blank":
            where = board.label(Square(event["row"], event["col"]))
            return {"status": "offered", "words": [], "message": f"Read a letter put on the blank at {where}: the host "
                                                                  "confirms it."}
        word = {key: event[key] for key in ("text", "row", "col", "dir")}
        where = board.label(Square(event["row"], event["col"]))
        return {"status": "offered", "words": [word],
                "message": f"Read {event['text']} ({where} {event['dir']}): the host confirms it."}
