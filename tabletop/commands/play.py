"""``tabletop play GAME --players Ann,Ben``: a live game at the table."""

from __future__ import annotations

import pathlib

from tabletop.cli import command
from tabletop.errors import UserError


def journal_from(args, config, create: bool = True):
    """The journal the arguments or the config name (``create=False``: it must exist already)."""
    from tabletop.session.journal import Journal, default_path
    return Journal(args.journal or config["table"].get("journal") or default_path(), create=create)


@command("play", "play a game at the table: camera, buttons, timer, pages and journal")
def run(args) -> int:
    from rules import errors
    from rules.game import GameSetup
    from tabletop.config import load_config
    from tabletop.session.core import Session, load_game_parts
    from tabletop.table.live import run_table
    from tabletop.web import WebServer
    from tabletop.games import spec as game_spec
    config = load_config(args.config)
    room_options(args, config)
    spec = game_spec(args.game)
    players = tuple(p.strip() for p in (args.players or "").split(",") if p.strip())
    if not players:
        raise UserError("name the players: --players Ann,Ben")
    language = args.language or config["table"]["language"]
    variant = args.variant or (f"level{args.level}" if args.level else None)
    options = set_up_options(args.option or [])
    if args.pieces:
        options["pieces"] = args.pieces
    try:
        setup = GameSetup(args.game, players, variant=variant, seed=args.seed, language=language, rounds=args.rounds,
                          options=options)
    except errors.RecordFormatError as error:
        raise UserError(str(error)) from None
    board_ref = (args.board or spec.board or "") if spec.rules.needs_board else ""
    lexicon_ref = args.lexicon
    board, lexicon = load_game_parts({"game": args.game, "board": board_ref, "lexicon": lexicon_ref, "language": language})
    deck = None
    if spec.table.uses_clue_deck:            # the deck is checked before anything is journalled
        from rules.games import new_game
        from tabletop.decks import deck_of_kind, load_deck
        try:
            kind = spec.table.deck_kind(new_game(setup, board, lexicon))
            deck = (load_deck(args.deck) if args.deck else deck_of_kind(kind, language)).shuffled(args.seed)
        except errors.RecordFormatError as error:
            raise UserError(str(error)) from None
        except UserError as error:
            raise UserError(f"{error}: give a deck of your own with --deck FILE.toml (docs/decks.md), or play "
                            "in another language or at a level that uses the word cards") from None
    dice_set = box_dice(args.dice, args.game, setup) if args.dice else None     # checked before journaling
    host = args.host or config["web"]["host"]
    sock = WebServer.bind(host, config["web"]["port"] if args.port is None else args.port)   # before journaling
    journal = journal_from(args, config)
    try:
        session = Session.create(journal, setup, board_ref, lexicon_ref, board=board, lexicon=lexicon, deck=deck,
                                 deck_ref=str(pathlib.Path(args.deck).resolve()) if args.deck else None)
    except errors.RecordFormatError as error:
        sock.close()
        raise UserError(str(error)) from None
    session.dice_set = dice_set
    voice = config["table"]["voice"] if args.voice is None else args.voice
    return run_table(session, config, host=host, port=sock.getsockname()[1], voice=voice,
                     terminal=args.terminal, sock=sock)


def box_dice(path: str, game_id: str, setup) -> tuple[tuple[str, ...], ...]:
    """``--dice SET.toml``: the box's own plain letter dice for the camera's reader; a
    :class:`UserError` when the game reads no plain dice, the file is not a dice set, or the
    box has too few dice for the tray."""
    from rules.letter_dice import MOST_DICE
    from tabletop import pieces
    from tabletop.dicesets import load_dice_set

    from tabletop.games import games

    kind = pieces.of_game(game_id)
    if kind is None or kind.name not in PLAIN_DICE_KINDS:
        readers = ", ".join(g.game_id for g in games() if g.pieces in PLAIN_DICE_KINDS)
        raise UserError(f"--dice names the box's plain letter dice, which the camera reads in {readers}, "
                        f"not in {game_id}")
    dice = load_dice_set(path)
    if kind.name == "plain-dice":
        size = int(setup.option("size", 4))
        if len(dice) < size * size:
            raise UserError(f"{path} has {len(dice)} dice, and a {size}x{size} tray needs {size * size}")
    elif len(dice) > MOST_DICE:
        raise UserError(f"{path} has {len(dice)} dice, and letter dice roll at most {MOST_DICE}")
    return dice


#: the kinds of piece whose camera reads plain dice with ``--dice`` (letter dice in their plain mode)
PLAIN_DICE_KINDS = ("dice", "plain-dice")


def set_up_options(pairs: list[str]) -> dict:
    """``--option KEY=VALUE`` pairs as a record's set-up fields; a value is JSON when it parses
    as JSON (``targets={"Ben": 3}``), else text (``first=Ben``).

    >>> set_up_options(['first=Ben', 'targets={"Ben": 3}', 'excluded=[[0, 0]]'])
    {'first': 'Ben', 'targets': {'Ben': 3}, 'excluded': [[0, 0]]}
    """
    import json

    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--option takes KEY=VALUE (for example first=Ben), not {pair[:60]!r}")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


def table_options(parser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML config (default: ~/.config/tabletop/config.toml)")
    parser.add_argument("--journal", metavar="FILE", help="SQLite journal (default: ~/.local/share/tabletop/journal.sqlite)")
    parser.add_argument("--host", help="address to serve the pages on (default from the config: 0.0.0.0)")
    parser.add_argument("--port", type=int, help="port of the pages (default from the config: 8080)")
    parser.add_argument("--voice", dest="voice", action="store_true", default=None, help="speak with espeak-ng")
    parser.add_argument("--no-voice", dest="voice", action="store_false", help="stay silent")
    parser.add_argument("--terminal", action="store_true", help="print a rich scoreboard after every turn")
    parser.add_argument("--room", metavar="URL", help="join a room of tables: mqtt://HOST:1883/ROOM (docs/room.md)")
    parser.add_argument("--table", help="this table's name in the room, e.g. 3")
    parser.add_argument("--room-credentials", metavar="FILE", help="the table's file from `tabletop room init`")


def room_options(args, config: dict) -> dict:
    """``--room``, ``--table`` and ``--room-credentials`` over the config's ``[room]``; checked
    before anything is journaled (a bad address or a room without a table name is a UserError)."""
    room = dict(config.get("room") or {})
    for key, value in (("url", args.room), ("table", args.table), ("credentials", args.room_credentials)):
        if value:
            room[key] = value
    if room.get("url"):
        from tabletop.room.address import RoomAddress, check_name
        RoomAddress.parse(str(room["url"]))
        if not room.get("table"):
            raise UserError("a table in a room needs its name: --table 3 (or [room] table in the config)")
        check_name("table", str(room["table"]))
    elif args.table:
        raise UserError("--table names this table in a room: give the room too (--room mqtt://HOST:1883/ROOM)")
    config["room"] = room
    return room


def _arguments(parser) -> None:
    from tabletop.games import games
    parser.add_argument("game", help="the game: " + "; ".join(f"{g.game_id} ({g.players_text()})" for g in games()))
    parser.add_argument("--players", help="comma-separated names in seat order, e.g. Ann,Ben,Cai")
    parser.add_argument("--variant", help="; ".join(f"{', '.join(g.rules.variants)} ({g.game_id})" for g in games()
                                                   if g.rules.variants))
    parser.add_argument("--level", type=int, choices=(1, 2, 3), help="eXtraDICTION level (same as --variant levelN)")
    parser.add_argument("--rounds", type=int, help="rounds agreed at the start (SP)")
    parser.add_argument("--language", help="en or uk (default from the config)")
    parser.add_argument("--board", help="a built-in board name or a board TOML file")
    parser.add_argument("--lexicon", help="house rules: a word list replacing the built-in dictionary")
    parser.add_argument("--deck", help="a clue deck TOML file (default: the built-in deck)")
    parser.add_argument("--seed", type=int, default=0, help="shuffles the clue deck and the Chance cards, "
                        "and the table's own tiles, cards and dice")
    parser.add_argument("--pieces", choices=("physical", "virtual"),
                        help="play with the real cards, tiles and dice (default) or the table's own from the seed")
    parser.add_argument("--dice", metavar="SET.toml",
                        help="word-grid or letter-dice with a camera: the box's own plain letter dice, each die's "
                             "six faces (examples/dice/classic-16.toml), read by the camera instead of printed labels")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a set-up field of the game's record (docs/games/), e.g. first=Ben, "
                             "'targets={\"Ben\": 3}'; may be repeated")
    table_options(parser)


run.arguments = _arguments
