"""``tabletop demo [GAME]``: play whole games on the simulated table (no hardware needed)."""

from __future__ import annotations

import pathlib

from tabletop.cli import command
from tabletop.errors import UserError


def _demo_games() -> list[str]:
    from tabletop.games import games
    return [g.game_id for g in games() if g.demo is not None]


@command("demo", "play a whole simulated game (camera, buzzer box and sand timer simulated) and serve the scoreboard")
def run(args) -> int:
    from tabletop.table.demo import play_demo
    if args.pace < 0 or args.pace > 10:
        raise UserError(f"--pace is real seconds per table second, from 0 to 10, not {args.pace:g}")
    if args.record:
        folder = pathlib.Path(args.record).resolve().parent
        if not folder.is_dir():
            raise UserError(f"cannot write the record {args.record}: no such folder {folder}")
        if pathlib.Path(args.record).is_dir():
            raise UserError(f"--record names a file, and {args.record} is a folder")
    demos = _demo_games()
    games = demos if args.game in (None, "all") else [args.game]
    if args.game not in (None, "all") and args.game not in demos:
        raise UserError(f"no demo for {args.game!r}; the demos are: {', '.join(demos)}")
    reports = []
    for game in games:
        record = args.record
        if record and len(games) > 1:
            path = pathlib.Path(record)
            record = str(path.with_name(f"{path.stem}-{game}{path.suffix or '.json'}"))
        reports.append(play_demo(game, seed=args.seed, record=record, journal_path=args.journal,
                                 serve=not args.no_serve, port=args.port, pace=args.pace,
                                 keep_serving=args.serve and game == games[-1],
                                 camera=not args.no_camera, voice=args.voice, terminal=args.terminal,
                                 language=args.language))
        print()
    for r in reports:
        same = "same totals on replay" if r.replay_totals == r.totals else f"REPLAY DIFFERS: {r.replay_totals}"
        print(f"{r.game}: " + ", ".join(f"{p} {v}" for p, v in r.totals.items())
              + (f"; {r.winner} wins" if r.winner else "") + f" ({same}; {r.seconds:.1f} s)")
    return 0 if all(r.replay_totals == r.totals for r in reports) else 1


def _arguments(parser) -> None:
    parser.add_argument("game", nargs="?", help=f"{', '.join(_demo_games())} (default: all, one after the other)")
    parser.add_argument("--record", metavar="FILE", help="write the game's record (JSON) for `tabletop replay`")
    parser.add_argument("--seed", type=int, default=7, help="the deck shuffle and the players' choices (default 7)")
    parser.add_argument("--journal", metavar="FILE", help="the SQLite journal (default: a fresh temporary file)")
    parser.add_argument("--port", type=int, default=0, help="scoreboard port (default: any free port)")
    parser.add_argument("--no-serve", action="store_true", help="do not serve the scoreboard")
    parser.add_argument("--serve", action="store_true", help="keep serving the scoreboard after the demo (Ctrl-C stops)")
    parser.add_argument("--no-camera", action="store_true", help="skip the synthetic camera (words go straight in)")
    parser.add_argument("--pace", type=float, default=0.02,
                        help="real seconds per table second (default 0.02; 1 = real time)")
    parser.add_argument("--voice", action="store_true", help="speak with espeak-ng")
    parser.add_argument("--language", choices=("en", "uk"), default="en", help="the game's language (default en)")
    parser.add_argument("--terminal", action="store_true", help="print a rich scoreboard after every turn")


run.arguments = _arguments
