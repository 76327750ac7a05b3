"""``print-tiles``: a whole set of letter tiles to print and cut out, with a sidecar."""

from __future__ import annotations

from tabletop.cli import command
from tabletop.errors import UserError


def _tile_games() -> list[str]:
    from tabletop.games import games
    return [g.game_id for g in games() if g.pieces == "tiles"]


@command("print-tiles", "print a game's set of letter tiles (Questique) to cut out, as a PDF or PNG pages")
def print_tiles(args) -> int:
    from rules.questique_tiles import TILES
    from vision.printing import PAPER_MM, write_pages
    from vision.tileprint import tile_pages

    from tabletop.files import page_output
    from tabletop.games import spec
    from tabletop.resources import load_board

    if args.game not in _tile_games():
        raise UserError(f"{args.game!r} has no letter tiles; print-tiles prints those of: {', '.join(_tile_games())}")
    if args.language not in TILES:
        raise UserError(f"the tiles come in {', '.join(TILES)}, not {args.language!r}")
    if args.paper not in PAPER_MM:
        raise UserError(f"--paper is one of {', '.join(PAPER_MM)}, not {args.paper!r}")
    board_name = spec(args.game).board
    if board_name is None:
        raise UserError(f"{args.game!r} has no built-in board for its tiles to fit")
    board = load_board(board_name, required=())   # each tile fits one of its printed squares
    out = page_output(args.out or f"{args.game}-tiles-{args.language}.pdf")
    try:
        pages, sidecar = tile_pages(board, args.language, args.paper, args.dpi)
    except FileNotFoundError as error:
        raise UserError(str(error)) from None
    written, side = write_pages(pages, sidecar, out, args.dpi)
    print(f"wrote {', '.join(str(p) for p in written)} and {side}: {len(sidecar['tiles'])} tiles of "
          f"{sidecar['tile_mm']} mm on {len(pages)} page{'s' if len(pages) > 1 else ''} (for the {sidecar['square_mm']} mm squares of "
          f"print-board {args.game} --paper {args.paper}); print at 100 %")
    from tabletop.commands.vision_cmds import small_squares
    advice = small_squares(board, args.paper)
    if advice:
        print(advice)
    return 0


print_tiles.arguments = lambda p: (
    p.add_argument("game", help="the game: questique"),
    p.add_argument("language", help="the tile set: en or uk"),
    p.add_argument("--out", help="a .pdf (all pages) or .png (one file a page); default GAME-tiles-LANGUAGE.pdf"),
    p.add_argument("--paper", default="A4", help="A4, A3 or Letter, as the board was printed (default A4)"),
    p.add_argument("--dpi", type=int, default=200, help="resolution (default 200)"),
)
