"""Frames from a camera over a board of letter tiles, through the tile watcher, becoming the
moves they show: tiles put down in one line are a ``write`` of the whole word they make (the
tiles already in that line included: :func:`rules.placement.infer_write`) by the player whose
turn it is; a letter put on a blank's square is a ``take_blank``. A move the camera cannot be sure of waits for the host (the host
page's camera reads, or ``confirm`` at the console): a square read unsure, or a blank tile put
down (the photo cannot say which letter it stands for: the dictionary's guess is offered).
"""

from __future__ import annotations

from typing import Any

from rules.errors import NotInOneLine
from rules.placement import infer_write
from tabletop.session.camera_reads import CameraMove
from tabletop.session.core import Session
from tabletop.session.devices.camera_feed import CameraFeed

#: a blank tile as the camera reads it
BLANK = "?"


def camera_view(game: Any) -> list[str]:
    """The board as the camera sees it: capitals, ``?`` for every blank tile (a played blank,
    whose letter is lowercase in the game's grid, and the exclusion blanks on excluded stars).

    >>> class G: state = lambda self: {"grid": ["Ab.", "..."], "excluded": [[1, 2]]}
    >>> camera_view(G())
    ['A?.', '..?']
    """
    state = game.state()
    rows = [[BLANK if ch.islower() else ch for ch in row] for row in state["grid"]]
    for r, c in state.get("excluded", []):
        rows[r][c] = BLANK
    return ["".join(row) for row in rows]


def event_for(session: Session, move: Any) -> tuple[dict[str, Any] | None, bool]:
    """The event a :class:`vision.tilewatch.TileMove` stands for in ``session``'s game, and
    whether the host must confirm it (None: no event)."""
    grid = session.game.state()["grid"]
    if not move.squares:                                # tiles only gone: no move of the rules
        return None, False
    doubtful = move.unsure or bool(move.taken)         # a tile seen gone as well: misread, or bumped
    if len(move.squares) == 1:
        sq = move.squares[0]
        if grid[sq.row][sq.col].islower():               # the letter a blank stood for, put on it
            return {"type": "take_blank", "row": sq.row, "col": sq.col}, doubtful
    try:
        write = infer_write(grid, dict(zip(move.squares, move.letters)))
    except NotInOneLine:                                # tiles put down apart: no one word
        return None, False
    return {**write.event(), "text": fill_blanks(session, write.text)}, doubtful or BLANK in write.text


def fill_blanks(session: Session, text: str) -> str:
    """``text`` with each ``?`` (a new blank tile) as the lowercase letter that makes it a
    dictionary word (the first such, in the set's alphabet order); left ``?`` when none does."""
    if BLANK not in text:
        return text
    from rules.questique_tiles import alphabet

    letters = alphabet(session.setup.language)
    lexicon = session.lexicon
    options = [""]
    for ch in text:
        options = [o + (c.lower() if ch == BLANK else ch) for o in options for c in (letters if ch == BLANK else ch)]
        if len(options) > 5000:
            return text
    for option in options:
        if option.upper() in lexicon:
            return option
    return text


class TileCameraInput(CameraFeed):
    """Frames -> :class:`vision.tilewatch.TileWatcher` -> ``write`` events for the player whose turn it is."""

    def __init__(self, session: Session, camera: Any, *, still_seconds: float = 0.6):
        super().__init__()
        from vision.tiles import TileReader
        from vision.tilewatch import TileWatcher

        if session.board is None:
            raise ValueError(f"{session.setup.game} has no board for the camera to read")
        self.session, self.camera = session, camera
        self.watcher = TileWatcher(TileReader(session.board, session.setup.language),
                                   baseline=camera_view(session.game), still_seconds=still_seconds)

    def event_for(self, move: Any) -> tuple[dict[str, Any] | None, bool]:
        """The event a move stands for, and whether the host must confirm it (None: no event)."""
        return event_for(self.session, move)

    def feed(self, frame: Any, t: float) -> list:
        """One frame at table time ``t``; returns the session's results of the moves it saw."""
        moves = self.watcher.feed(frame, t)
        self.session.set_device("camera", self.watcher.status)
        results = []
        for move in moves:
            event, ask = self.event_for(move)
            if event is None:
                self.session.set_device("camera", "the camera saw tiles that make no move: the host enters it")
                continue
            if event["type"] == "take_blank" and ask:
                self.session.set_device("camera", "a letter seems to be on a blank's square: the host enters it")
                continue
            result = self.session.camera_move(CameraMove(event, t, sure=not ask))
            if result is not None:
                results.append(result)
        if results:                                  # what the rules accepted is the board now
            self.resync()
        return results

    def resync(self) -> None:
        """Take the board as the rules hold it as what the camera has seen (after the host entered a move)."""
        self.watcher.committed = camera_view(self.session.game)
