"""``tabletop resume [GAME_ID]``: continue a game after a crash or a power cut, nothing lost."""

from __future__ import annotations

from tabletop.cli import command
from tabletop.commands.play import journal_from, room_options, table_options
from tabletop.errors import UserError


@command("resume", "continue a journaled game after a crash or a power cut")
def run(args) -> int:
    from tabletop.config import load_config
    from tabletop.session.core import Session
    from tabletop.table.live import run_table
    config = load_config(args.config)
    room_options(args, config)
    journal = journal_from(args, config)
    game_id = args.game_id
    if game_id is None:
        info = journal.latest_unfinished()
        if info is None:
            raise UserError(f"no unfinished game in {journal.path}")
        game_id = info.id
    from tabletop.web import WebServer
    host = args.host or config["web"]["host"]
    sock = WebServer.bind(host, config["web"]["port"] if args.port is None else args.port)
    lock = journal.lock_game(game_id)            # before resuming: it settles pending entries
    session = Session.resume(journal, game_id)
    if session.table.uses_clue_deck:
        try:
            from tabletop.decks import deck_of_kind, load_deck
            deck_ref = session.setup_data.get("deck")
            kind = session.table.deck_kind(session.game)
            deck = load_deck(deck_ref) if deck_ref else deck_of_kind(kind, session.setup.language)
            session.deck = deck.shuffled(session.setup.seed)
        except UserError as error:
            print(f"no clue deck: {error}")
    for warning in session.resume_warnings:
        print(f"warning: {warning}")
    print(f"resumed {game_id} at {session.clock.now():.1f} s with {len(session.game.events)} events; "
          + session.game.standings())
    voice = config["table"]["voice"] if args.voice is None else args.voice
    return run_table(session, config, host=host, port=sock.getsockname()[1], voice=voice,
                     terminal=args.terminal, sock=sock, lock=lock)


def _arguments(parser) -> None:
    parser.add_argument("game_id", nargs="?", help="the game to resume (default: the latest unfinished one)")
    table_options(parser)


run.arguments = _arguments
