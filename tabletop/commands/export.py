"""``tabletop export GAME_ID``: write a journaled game's record (DESIGN.md format) for ``tabletop replay``."""

from __future__ import annotations

import json
import sys

from tabletop.cli import command


@command("export", "write a journaled game's record (JSON) that tabletop replay accepts")
def run(args) -> int:
    from tabletop.config import load_config
    from tabletop.commands.play import journal_from
    from tabletop.session.core import Session
    from tabletop.records import write_record
    journal = journal_from(args, load_config(args.config), create=False)
    problems = journal.quick_check()
    if problems:
        print(f"warning: the journal {journal.path} is damaged: {'; '.join(problems[:3])}; "
              f"what can still be read is listed and exported", file=sys.stderr)
    if args.all:
        return _export_all(journal, args.output)
    if args.list or not args.game_id:
        games = _listed(journal)
        if not games:
            print(f"no games in {journal.path}")
        for g in games:
            players = ", ".join(str(p) for p in g.setup.get("players", []))
            print(f"{g.id}  {str(g.setup.get('game')):<16} {players:<24} {g.status}  ({g.created})")
        _warn(journal.unreadable)
        return 0 if args.list or games else 1
    session = Session.resume(journal, args.game_id)
    _warn(session.resume_warnings)
    record = session.record()
    if args.output in (None, "-"):
        json.dump(record.to_json(), sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        write_record(record, args.output)
        print(f"wrote {args.output}: {len(record.events)} events; " + session.game.standings(), file=sys.stderr)
    return 0


def _listed(journal) -> list:
    """The journal's games; when even the list cannot be read, a UserError that says what is left
    to try (not ``export --list`` again: that is what failed)."""
    from tabletop.errors import UserError
    from tabletop.session.journal import JournalDamaged
    try:
        return journal.games()
    except JournalDamaged as damaged:
        raise UserError(f"the journal {journal.path} is too damaged to list its games ({damaged.reason}): keep a "
                        f"copy of the file; `sqlite3 {journal.path} .recover` may still save its rows") from None


def _warn(lines: list[str]) -> None:
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)


def _export_all(journal, folder: str | None) -> int:
    """Every readable game into ``folder`` as ``<id>.json``; the others are named, not fatal."""
    import pathlib

    from tabletop.errors import UserError
    from tabletop.records import write_record
    from tabletop.session.core import Session
    if not folder or folder == "-":
        raise UserError("--all writes one file a game: give a folder with -o DIR")
    out = pathlib.Path(folder)
    if not out.is_dir():
        raise UserError(f"no such folder: {out}")
    written = 0
    for info in _listed(journal):
        try:
            session = Session.resume(journal, info.id)
            write_record(session.record(), out / f"{info.id}.json")
            written += 1
            _warn(session.resume_warnings)
        except UserError as error:
            print(f"skipped {info.id}: {error}", file=sys.stderr)
    _warn(journal.unreadable)
    print(f"wrote {written} game record(s) to {out}", file=sys.stderr)
    return 0 if written else 1


def _arguments(parser) -> None:
    parser.add_argument("game_id", nargs="?", help="the game's id (see --list)")
    parser.add_argument("-o", "--output", metavar="FILE", help="the record file (default: standard output)")
    parser.add_argument("--list", action="store_true", help="list the journal's games")
    parser.add_argument("--all", action="store_true", help="write every readable game to the folder -o DIR")
    parser.add_argument("--journal", metavar="FILE", help="SQLite journal (default: ~/.local/share/tabletop/journal.sqlite)")
    parser.add_argument("--config", metavar="FILE", help="TOML config")


run.arguments = _arguments
