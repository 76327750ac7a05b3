"""``print-cards``: the Sequence Letters deck as a printable PDF (or PNG pages), with a sidecar."""

from __future__ import annotations

from tabletop.cli import command
from tabletop.errors import UserError


@command("print-cards", "print a game's deck of cards (Sequence Letters) as a PDF, or PNG pages, with a JSON sidecar")
def print_cards(args) -> int:
    from vision.cardprint import card_pages
    from vision.printing import write_pages

    from tabletop.games import spec
    from tabletop.resources import load_board

    game = spec(args.game)
    if "letters" not in game.rules.board_layers or game.board is None:
        raise UserError(f"{args.game} has no deck to print; print-cards prints the Sequence Letters deck")
    from tabletop.files import page_output

    out = page_output(args.out or f"{args.game}-cards.pdf")
    board = load_board(args.board or game.board, required=game.rules.board_layers)
    paper = PAPERS[args.paper]
    pages, sidecar = card_pages(board, dpi=args.dpi, paper=paper)
    written, side = write_pages(pages, sidecar, out, args.dpi)
    print(f"wrote {', '.join(str(p) for p in written)} and {side}: {len(sidecar['cards'])} cards on {len(pages)} "
          f"{paper} pages of 50x70 mm cards; print at 100 % on {paper} paper")
    return 0


#: --paper's values -> the page sizes of vision.printing (each page holds whole cards only)
PAPERS = {"a4": "A4", "letter": "Letter"}

print_cards.arguments = lambda p: (
    p.add_argument("--paper", type=str.lower, choices=tuple(PAPERS), default="a4",
                   help="the paper in the printer: a4 (12 cards a page) or letter (US Letter, 9 a page); default a4"),
    p.add_argument("game", help="the game: sequence-letters"),
    p.add_argument("--out", help="a .pdf (all pages) or .png (one file a page); default GAME-cards.pdf"),
    p.add_argument("--board", help="a board .toml file: its pictures' letters make the deck"),
    p.add_argument("--dpi", type=int, default=200, help="resolution (default 200)"),
)
