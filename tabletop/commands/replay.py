"""``tabletop replay FILE [--json]``: replay a game record, print each scoring turn and the totals.

An illegal event stops the replay with exit code 1 and a message naming the event's 1-based
position and the reason.
"""

from __future__ import annotations

import json
import sys

from rules.errors import RecordFormatError
from rules.record import ReplayError, replay
from tabletop.cli import command
from tabletop.errors import UserError
from tabletop.records import load_record


def format_game(game) -> str:
    """The human-readable replay: one line a scoring turn, then totals and winner."""
    s = game.setup
    where = f" on {game.board.name}" if game.board is not None else ""
    lines = [f"{s.game}{f' ({s.variant})' if s.variant else ''}{where}: {', '.join(s.players)}",
             f"  dictionary: {game.lexicon.describe()}"]
    lines.extend(game.report())
    lines.append("Totals: " + ", ".join(f"{p} {v}" for p, v in game.totals.items()))
    lines.append(f"Winner: {game.winner}" if game.winner else "Winner: none (a tie)")
    return "\n".join(lines)


@command("replay", "replay a game record: every scoring turn, the totals and the winner")
def run(args) -> int:
    loaded = load_record(args.file)
    try:
        game = replay(loaded.record, loaded.board, loaded.lexicon)
    except RecordFormatError as error:
        raise UserError(f"{args.file}: {error}") from None
    except ReplayError as error:
        if args.json:
            print(json.dumps({"error": str(error), "position": error.position}))
        print(f"tabletop replay: {args.file}: {error}", file=sys.stderr)
        return 1
    if args.json:
        result = game.result_json()
        result["dictionary"] = {"name": game.lexicon.name, "version": game.lexicon.version,
                                "words": len(game.lexicon)}
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_game(game))
    return 0


def _arguments(parser) -> None:
    parser.add_argument("file", help="a game record (JSON, DESIGN.md format)")
    parser.add_argument("--json", action="store_true", help="print one JSON object: turns, totals, winner")


run.arguments = _arguments
