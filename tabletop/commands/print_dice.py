"""``print-dice``: a printable sheet of letter-dice labels (PNG or PDF) and its JSON sidecar."""

from __future__ import annotations


from tabletop.cli import command
from tabletop.errors import UserError


@command("print-dice", "print letter-dice labels to stick on blank dice (PNG or PDF), with a JSON sidecar naming each face")
def print_dice(args) -> int:
    from rules.letter_dice_sets import DICE
    from vision.diceprint import dice_sheet
    from vision.printing import write_page

    if args.language not in DICE:
        raise UserError(f"there are dice for {', '.join(DICE)}, not {args.language!r}")
    from tabletop.files import page_output

    out = page_output(args.out or f"dice-{args.language}.pdf")
    try:
        page, sidecar = dice_sheet(DICE[args.language], language=args.language, paper=args.paper, dpi=args.dpi,
                                   label_mm=args.label_mm)
    except ValueError as error:
        raise UserError(str(error)) from None
    image, side = write_page(page, sidecar, out, args.dpi)
    print(f"wrote {image} and {side}: {len(sidecar['labels'])} labels of {args.label_mm:g} mm, "
          f"one row a die ({args.paper}, {args.dpi} dpi); print at 100 % (no 'fit to page')")
    return 0


print_dice.arguments = lambda p: (
    p.add_argument("language", help="the dice set: en or uk"),
    p.add_argument("--out", help="output file, .png or .pdf (default dice-LANGUAGE.pdf); the .json sidecar goes beside it"),
    p.add_argument("--label-mm", type=float, default=14.0, help="a label's side in mm (default 14, for 16 mm dice)"),
    p.add_argument("--paper", choices=("A4", "A3", "Letter"), default="A4", help="the paper size (default A4)"),
    p.add_argument("--dpi", type=int, default=300, help="resolution of the page image (default 300)"),
)
