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
import importlib.util
import pathlib
import pkgutil
import re
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


#: how a command module declares a command: ``@command("name", "help")`` on one line
_DECLARED = re.compile(r'^@command\("([^"]+)",\s*"([^"]*)"\)', re.M)


def _index() -> dict[str, tuple[str, str]]:
    """command -> (module, help), read from the command modules' source without importing them
    (so ``tabletop replay`` imports only what replay needs)."""
    import tabletop.commands as package

    found: dict[str, tuple[str, str]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        spec = importlib.util.find_spec(f"tabletop.commands.{info.name}")
        if spec is None or spec.origin is None:
            continue
        text = pathlib.Path(spec.origin).read_text(encoding="utf-8")
        for name, help_text in _DECLARED.findall(text):
            found[name] = (f"tabletop.commands.{info.name}", help_text)
    return found


def _load_commands(only: str | None = None) -> dict[str, tuple[str, str]]:
    """Import the command modules (only ``only``'s, when it names a command); return the index."""
    index = _index()
    modules = [index[only][0]] if only in index else sorted({module for module, _ in index.values()})
    for module in modules:
        importlib.import_module(module)
    return index


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command; with ``only``, only that command's module is
    imported and the others are listed by name and help."""
    index = _load_commands(only)
    parser = argparse.ArgumentParser(prog="tabletop", description="A smart table for physical word games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in sorted(set(_COMMANDS) | set(index)):
        help_text = _COMMANDS[name][0] if name in _COMMANDS else index[name][1]
        parser_for = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments = getattr(_COMMANDS[name][1], "arguments", None) if name in _COMMANDS else None
        if add_arguments is not None and (only not in index or name == only):   # a module's other commands: not now
            add_arguments(parser_for)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``tabletop`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(only=first)
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
