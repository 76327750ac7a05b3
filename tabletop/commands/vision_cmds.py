"""Camera commands: ``print-board`` (a printable board with markers and its JSON sidecar),
``calibrate`` (record stick-on markers round a board printed without them) and ``score``
(read one photo: the grid, the words and their scores)."""

from __future__ import annotations

import pathlib

from tabletop.cli import command
from tabletop.errors import UserError


def _board_games() -> list[str]:
    """The games with a built-in board (from the registry of games)."""
    from tabletop.games import games
    return [g.game_id for g in games() if g.board is not None]


def _photo_games() -> list[str]:
    """The games whose photos ``score`` reads."""
    from tabletop.games import games
    return [g.game_id for g in games() if g.pieces is not None]


def _pieces() -> list[str]:
    from tabletop import pieces
    return pieces.names()


def _board(args):
    from tabletop.games import spec
    from tabletop.resources import load_board

    if getattr(args, "board", None):
        return load_board(args.board)
    game = spec(args.game)
    if game.board is None:
        raise UserError(f"{args.game} has no board; give --board FILE.toml")
    return load_board(game.board)


def _image(path: str):
    from tabletop.files import read_image

    return read_image(path)


@command("print-board", "draw a printable board (PNG or PDF) with ArUco markers and a JSON sidecar of square boxes")
def print_board(args) -> int:
    from vision.printing import save_print

    from tabletop.resources import load_board

    if pathlib.Path(args.game).suffix == ".toml":
        board = load_board(args.game)
    elif args.game in _board_games():
        from tabletop.games import spec
        if "letters" in spec(args.game).rules.board_layers:
            return _print_picture_board(args)
        board = load_board(spec(args.game).board or args.game, required=spec(args.game).rules.board_layers)
    else:
        raise UserError(f"no board for {args.game!r}; choose one of: {', '.join(_board_games())} or a board .toml file")
    from tabletop.files import page_output

    out = page_output(args.out)
    from vision.printing import LEGEND

    title = board.name
    legend: tuple[str, ...] = LEGEND
    if args.game in _board_games():
        from tabletop.games import spec
        title = f"{spec(args.game).title}: {board.name}" if spec(args.game).title not in board.name else board.name
        legend = spec(args.game).legend or LEGEND
    image, sidecar = save_print(board, out, paper=args.paper, dpi=args.dpi, title=title, legend=legend)
    print(f"wrote {image} and {sidecar} ({board.rows}x{board.cols}, {args.paper}, {args.dpi} dpi)")
    advice = small_squares(board, args.paper)
    if advice:
        print(advice)
    return 0


#: below this a printed square is small for a child's handwriting, a tile or a camera's read
SMALL_SQUARE_MM = 10.0


def small_squares(board, paper: str) -> str | None:
    """The advice to print on A3 when ``board``'s squares come out smaller than
    :data:`SMALL_SQUARE_MM` on ``paper`` (``None``: they are large enough, or it is A3 already).

    >>> from tabletop.resources import load_board
    >>> print(small_squares(load_board("questique", required=()), "A4"))
    note: on A4 the 19x19 squares are 7.6 mm, small for writing in and for the camera; print it on A3 (--paper A3: 11.1 mm squares), or at a copy shop, if you can.
    >>> small_squares(load_board("extradiction", required=()), "A4") is None
    True
    """
    from vision.printing import square_mm

    dpi = 1000                        # fine enough that the size is the page's, not the pixels'
    side = square_mm(board, paper, dpi)
    if side >= SMALL_SQUARE_MM or paper == "A3":
        return None
    return (f"note: on {paper} the {board.rows}x{board.cols} squares are {side:g} mm, small for writing in and for "
            f"the camera; print it on A3 (--paper A3: {square_mm(board, 'A3', dpi):g} mm squares), or at a copy "
            "shop, if you can.")


def _print_picture_board(args) -> int:
    """``print-board sequence-letters``: the pictures, their coloured squares and letters, markers."""
    from vision.picture_board import print_picture_board
    from vision.printing import write_page

    from tabletop.games import spec
    from tabletop.resources import load_board

    game = spec(args.game)
    board = load_board(game.board or args.game, required=game.rules.board_layers)
    from tabletop.files import page_output

    out = page_output(args.out)
    page, sidecar = print_picture_board(board, args.paper, args.dpi, title=game.title)
    image, side = write_page(page, sidecar, out, args.dpi)
    print(f"wrote {image} and {side} ({board.rows}x{board.cols} pictures, {args.paper}, {args.dpi} dpi)")
    return 0


print_board.arguments = lambda p: (
    p.add_argument("game", help=f"a game ({', '.join(_board_games())}) or a board .toml file"),
    p.add_argument("--out", required=True, help="output file, .png or .pdf; the .json sidecar goes beside it"),
    p.add_argument("--paper", choices=("A4", "A3", "Letter"), default="A4", help="the paper size (default A4)"),
    p.add_argument("--dpi", type=int, default=200, help="resolution of the page image (default 200)"),
)


@command("calibrate", "record where stick-on markers lie round a board printed without them")
def calibrate(args) -> int:
    from vision import calibration
    from vision.errors import VisionError

    import numpy as np

    board = _board(args)
    corners = None
    if args.corners:
        try:
            corners = np.array([[float(v) for v in c.split(",")] for c in args.corners], np.float32)
            assert corners.shape == (4, 2)
        except (ValueError, AssertionError):
            raise UserError("--corners takes four X,Y pixel pairs, e.g. --corners 10,10 900,12 905,880 8,870") from None
    try:
        record = calibration.calibrate(_image(args.photo), board.rows, board.cols, corners)
    except VisionError as error:
        raise UserError(str(error)) from None
    calibration.save(record, args.out)
    print(f"wrote {args.out}: markers {', '.join(record['markers'])} recorded round the {board.rows}x{board.cols} grid")
    return 0


calibrate.arguments = lambda p: (
    p.add_argument("photo", help="a photo of the empty board with the stick-on markers"),
    p.add_argument("--game", default="extradiction-sp", help=f"the game whose board it is: {', '.join(_board_games())}"),
    p.add_argument("--board", help="a board .toml file (instead of --game)"),
    p.add_argument("--corners", nargs=4, metavar="X,Y", help="the grid's four corners in the photo (default: found)"),
    p.add_argument("--out", default="calibration.json", help="where to write the calibration (JSON)"),
)


def _board_language(args) -> str | None:
    """The ``language`` a ``--board`` file names (``language = "uk"``: a board printed for
    Ukrainian play), or None (no such line, or no board file: its reader reports a bad file)."""
    import tomllib

    if not getattr(args, "board", None):
        return None
    try:
        language = tomllib.loads(pathlib.Path(args.board).read_text(encoding="utf-8")).get("language")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return language if isinstance(language, str) else None


@command("score", "read a photo of the board: the grid as read, the words found and their scores")
def score(args) -> int:
    from tabletop import pieces
    from tabletop.games import spec

    game = spec(args.game)
    name = args.pieces or game.pieces
    if name is None:
        raise UserError(f"photos of {args.game} are not read yet; the games read from photos are: "
                        f"{', '.join(_photo_games())}")
    kind = pieces.kind(name)
    if args.corners and not kind.takes_corners:
        raise UserError("--corners is for --pieces tiles (a board without markers); "
                        "for a handwritten board with stick-on markers use 'tabletop calibrate'")
    if getattr(args, "language", None) is None:
        args.language = _board_language(args) or "en"
    if (getattr(args, "plain", False) or getattr(args, "dice", None)) and name not in ("dice", "plain-dice"):
        raise UserError("--plain and --dice are for letter dice (--pieces dice or plain-dice)")
    return kind.read_photo(args, game)


score.arguments = lambda p: (
    p.add_argument("photo", help="a camera photo of the board (PNG, JPEG, ...)"),
    p.add_argument("--game", default="extradiction-sp", help=f"the game: {', '.join(_photo_games())}"),
    p.add_argument("--board", help="a board .toml file (instead of the game's built-in board)"),
    p.add_argument("--json", action="store_true",
                   help='print {"grid": [...], "words": [...], "score": N} (tiles: N is the stars covered; '
                        '{"faces": [...]} for letter-dice; {"grid": [...], "winner": ...} for sequence-letters)'),
    p.add_argument("--pieces", choices=_pieces(),
                   help="what the photo shows (default: the game's): handwritten letters, letter tiles, chips, dice "
                        "or plain dice in a tray"),
    p.add_argument("--corners", nargs=4, metavar="X,Y",
                   help="tiles on a board without markers: the grid's four outer corners in the photo, "
                        "from its top-left clockwise"),
    p.add_argument("--calibration", help="a file from 'tabletop calibrate' (board with stick-on markers)"),
    p.add_argument("--lexicon", help="a word list (one word a line) instead of the built-in dictionary"),
    p.add_argument("--language", default=None,
                   help="the language written (en, uk): the letter model, the built-in dictionary, the tile set "
                        "or dice set (default: the --board file's 'language', else en)"),
    p.add_argument("--plain", action="store_true",
                   help='--pieces dice: plain letter dice (a Boggle-style tray), not printed labels; '
                        'prints {"dice": [{"face", "center", "confidence"}], "grid": [...]}'),
    p.add_argument("--dice", metavar="SET.toml",
                   help="--pieces dice: plain letter dice, and the box's own dice (each die's six faces, "
                        "examples/dice/classic-16.toml), which settle M/W and the like"),
)
