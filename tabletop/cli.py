"""The ``tabletop`` command line.

Each sub-command lives in its own module under :mod:`tabletop.commands` and registers itself
with :func:`command`; this module only collects them, so adding a command never edits a shared
file.

>>> from tabletop.cli import build_parser
>>> build_parser().parse_args(["replay", "game.json"]).command
'replay'
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Callable

from tabletop.errors import UserError

#: name -> (help, run(args) -> exit code); ``run.arguments(parser)``, if set, adds the arguments
_COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str):
    """Register a sub-command: decorate ``run(args) -> int``; give it ``.arguments(parser)``.

    >>> @command("hello", "say hello")
    ... def hello(args):
    ...     return 0
    >>> "hello" in _COMMANDS
    True
    """

    def register(run):
        _COMMANDS[name] = (help, run)
        return run

    return register


def _load_commands() -> None:
    import tabletop.commands as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"tabletop.commands.{info.name}")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every registered sub-command."""
    _load_commands()
    parser = argparse.ArgumentParser(prog="tabletop", description="A smart table for physical word games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in sorted(_COMMANDS):
        help_text, run = _COMMANDS[name]
        parser_for = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments = getattr(run, "arguments", None)
        if add_arguments is not None:
            add_arguments(parser_for)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _help, run = _COMMANDS[args.command]
    try:
        return int(run(args) or 0)
    except UserError as error:
        print(f"tabletop {args.command}: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(f"tabletop {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:              # the output went to a pager or `head` that has closed
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
