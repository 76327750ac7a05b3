"""``tabletop bench NAME``: run one of the benchmarks in :mod:`tabletop.benchmarks`."""

from __future__ import annotations

import importlib
import pkgutil

import tabletop.benchmarks as benchmarks
from tabletop.cli import command
from tabletop.errors import UserError


#: modules of tabletop.benchmarks that are no benchmark of their own (no ``run``): the shared
#: helpers, and parts that ``bench vision``, ``bench rules`` or ``bench tiles`` runs
HELPERS = ("answered", "answers", "farboards", "glare", "hands", "outsider", "piece_photos", "plaindice", "questique_moves", "scenes",
           "stats", "taps", "tile_photos", "ukrainian")


def available() -> list[str]:
    """Names of the benchmarks that ship, e.g. ``['buzzers', 'rules', 'startup', 'vision']``."""
    return sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__) if info.name not in HELPERS)


@command("bench", "measure a path against its budget and print the numbers")
def run(args) -> int:
    if args.name not in available():
        raise UserError(f"no benchmark called {args.name!r}; choose one of: {', '.join(available())}")
    module = importlib.import_module(f"tabletop.benchmarks.{args.name}")
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        console.print(f"bench {args.name}: measuring (this takes a while; the numbers come at the end)")
        return module.run(args)
    with Progress(SpinnerColumn(), TextColumn(f"bench {args.name}: measuring"), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        progress.add_task("measure", total=None)
        return module.run(args)


def _arguments(parser) -> None:
    parser.add_argument("name", help="which benchmark: " + ", ".join(available()))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (for smoke tests)")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    parser.add_argument("--photos", metavar="DIR", help="tiles, dice and chips: measure answered photos in DIR "
                        "instead, each with an answer file NAME.json beside it (tiles: corners, rows, language; "
                        "labelled dice: language, each die's top and state; chips: board, rows)")
    parser.add_argument("--plain", action="store_true", help="dice --photos only: the photos are of plain letter dice "
                        "(answers: each die's face and box) rather than the printed labels")
    parser.add_argument("--no-dictionary", action="store_true", help="tiles --photos only: read each square on its "
                        "own, without the language's dictionary that `tabletop score` reads words with")


run.arguments = _arguments
