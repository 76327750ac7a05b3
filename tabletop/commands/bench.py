"""``tabletop bench NAME``: run one of the benchmarks in :mod:`tabletop.benchmarks`."""

from __future__ import annotations

import importlib
import pkgutil

import tabletop.benchmarks as benchmarks
from tabletop.cli import command
from tabletop.errors import UserError


def available() -> list[str]:
    """Names of the benchmarks that ship, e.g. ``['buzzers', 'rules', 'vision']``."""
    return sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__))


@command("bench", "measure a path against its budget and print the numbers")
def run(args) -> int:
    if args.name not in available():
        raise UserError(f"no benchmark called {args.name!r}; choose one of: {', '.join(available())}")
    module = importlib.import_module(f"tabletop.benchmarks.{args.name}")
    return module.run(args)


def _arguments(parser) -> None:
    parser.add_argument("name", help="which benchmark: " + ", ".join(available()))
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (for smoke tests)")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")


run.arguments = _arguments
