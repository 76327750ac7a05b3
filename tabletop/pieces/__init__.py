"""What the camera reads, one kind of piece at a time: one registry from a piece to a rule.

A :class:`PieceKind` (handwritten ``letters``, letter ``tiles``, Sequence ``chips``, letter
``dice``, ``plain-dice`` in the word grid's tray) says everything the application does with photos of those pieces:

* its camera input for a live session (frames -> the moves they show -> the session);
* its photo read for ``tabletop score`` (and, where it reads a phone's photo, the scan button);
* its demo camera (synthetic photos of the simulated players' moves, read back);
* its benchmark (``tabletop bench NAME``).

A game's :class:`~tabletop.games.GameSpec` names its kind (``pieces="tiles"``); ``play``,
``demo``, ``score``, the scan button and ``bench`` all ask this registry, so adding a kind is one
module in this package that calls :func:`register` (docs/adding-a-game.md, "Adding a piece
kind"); no list elsewhere names it.

>>> [k.name for k in kinds()]
['chips', 'dice', 'letters', 'plain-dice', 'tiles']
>>> kind("tiles").description
'letter tiles'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from tabletop.errors import UserError
from tabletop.registry import import_all

if TYPE_CHECKING:
    from tabletop.pieces.demo_camera import DemoCamera
    from tabletop.session.core import Session
    from tabletop.session.devices.camera_feed import CameraFeed


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece the camera reads, and every path from a photo of it to the rules."""

    name: str
    #: what the pieces are, for help texts: 'handwritten letters'
    description: str
    #: ``camera_input(session, camera)``: the live input that turns frames into the session's moves
    camera_input: Callable[["Session", Any], "CameraFeed"]
    #: ``demo_camera(session, seed, say)``: the demo's synthetic camera over these pieces
    demo_camera: Callable[["Session", int, Callable[[str], None]], "DemoCamera"]
    #: ``read_photo(args, game)``: ``tabletop score``'s read of one photo (prints; returns the exit code)
    read_photo: Callable[[Any, Any], int]
    #: the ``tabletop bench`` benchmark that measures this kind's reader
    benchmark: str
    #: what the demo's summary counts: 'words read by the camera'
    counted: str
    #: said when the live table has no camera: how the moves come in instead
    without_camera: str
    #: said after the camera's name when the live table opens it
    camera_note: str = ""
    #: whether the pieces lie on the game's board (the camera input reads that board)
    needs_board: bool = True
    #: whether ``score --corners`` applies (a board without markers)
    takes_corners: bool = False
    #: ``scanner(session)``: reads a phone's photo for the scan button (``None``: not read from photos)
    scanner: Callable[["Session"], Any] | None = None


_KINDS: dict[str, PieceKind] = {}


def register(piece_kind: PieceKind) -> PieceKind:
    """Add a kind of piece (its module calls this once, at import)."""
    _KINDS[piece_kind.name] = piece_kind
    return piece_kind


def _discover() -> None:
    import_all("tabletop.pieces", skip=("demo_camera",))


def kinds() -> list[PieceKind]:
    """Every kind of piece, by name."""
    _discover()
    return [_KINDS[name] for name in sorted(_KINDS)]


def names() -> list[str]:
    """The names of :func:`kinds`: the choices of ``score --pieces``."""
    return [k.name for k in kinds()]


def kind(name: str) -> PieceKind:
    """The kind called ``name``; a :class:`~tabletop.errors.UserError` naming the kinds if unknown.

    >>> kind("marbles")
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: no kind of piece called 'marbles'; the kinds are: chips, dice, letters, plain-dice, tiles
    """
    _discover()
    try:
        return _KINDS[name]
    except KeyError:
        raise UserError(f"no kind of piece called {name!r}; the kinds are: {', '.join(names())}") from None


def of_game(game_id: str) -> PieceKind | None:
    """The kind of piece the camera reads in ``game_id`` (``None``: nothing to read).

    >>> of_game("questique").name
    'tiles'
    """
    from tabletop.games import spec

    name = spec(game_id).pieces
    return None if name is None else kind(name)
