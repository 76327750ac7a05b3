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
    journal = journal_from(args, load_config(args.config))
    if args.list or not args.game_id:
        games = journal.games()
        if not games:
            print(f"no games in {journal.path}")
        for g in games:
            print(f"{g.id}  {g.setup['game']:<16} {', '.join(g.setup['players']):<24} {g.status}  ({g.created})")
        return 0 if args.list or games else 1
    session = Session.resume(journal, args.game_id)
    record = session.record()
    if args.output in (None, "-"):
        json.dump(record.to_json(), sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        from tabletop.records import write_record
        write_record(record, args.output)
        print(f"wrote {args.output}: {len(record.events)} events; " + session.game.standings(), file=sys.stderr)
    return 0


def _arguments(parser) -> None:
    parser.add_argument("game_id", nargs="?", help="the game's id (see --list)")
    parser.add_argument("-o", "--output", metavar="FILE", help="the record file (default: standard output)")
    parser.add_argument("--list", action="store_true", help="list the journal's games")
    parser.add_argument("--journal", metavar="FILE", help="SQLite journal (default: ~/.local/share/tabletop/journal.sqlite)")
    parser.add_argument("--config", metavar="FILE", help="TOML config")


run.arguments = _arguments
