"""The simulated table: a whole game played by scripted players through the real devices' twins.

Presses travel through the buzzer-box emulator on a pty and the host link (``firmware_bridge``);
words are rendered by the synthetic camera and read back by the vision tracker; the sand timer
runs on gpiozero mock pins; everything goes through a real journal and the session, which serves
the scoreboard while the game runs.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rules.game import GameSetup
from rules.record import replay
from tabletop import pieces
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal
from tabletop.table.demo_journals import new_demo_journal
from tabletop.table.runner import run_script



@dataclass
class DemoReport:
    game: str
    game_id: str
    totals: dict
    winner: str | None
    seconds: float
    table_seconds: float
    events: int
    rejected: int
    camera_writes: int = 0      #: moves read by the camera (words, tiles, chips or rolls)
    host_writes: int = 0
    camera_failures: int = 0
    confirmed_reads: int = 0
    presses: int = 0
    sand_timer_starts: int = 0
    journal: str = ""
    record: str | None = None
    replay_totals: dict = field(default_factory=dict)


def play_demo(game_id: str, *, seed: int = 7, record: str | None = None, journal_path: str | None = None,
              serve: bool = True, port: int = 0, pace: float = 0.0, camera: bool = True, buzzer_box: bool = True,
              voice: bool = False, out=None, variant: str | None = None,
              terminal: bool = False, keep_serving: bool = False, language: str = "en") -> DemoReport:
    from tabletop.announce import Announcer
    from tabletop.i18n import translate
    from tabletop.decks import builtin_deck
    from tabletop.lexicons import builtin_lexicon
    from tabletop.resources import load_board

    started = time.monotonic()
    from tabletop.games import spec as game_spec
    spec = game_spec(game_id)
    demo = spec.demo
    if demo is None:
        from tabletop.errors import UserError
        raise UserError(f"{game_id} has no demo yet")
    out = out or sys.stdout
    say = lambda text: print(text, file=out, flush=True)
    board = load_board(spec.board, required=spec.rules.board_layers) if spec.board else None
    if language not in spec.languages:
        from tabletop.errors import UserError
        raise UserError(f"{game_id} is played in {', '.join(spec.languages)}, not {language!r}")
    lexicon = builtin_lexicon(language)
    deck = builtin_deck(language).shuffled(seed) if spec.table.uses_clue_deck else None
    if journal_path is None:
        journal_path = str(new_demo_journal())
    journal = Journal(journal_path)
    clock = SimClock()
    setup = GameSetup(game_id, demo.players, variant=variant or demo.variant, seed=seed, language=language,
                      options=dict(demo.options))
    session = Session.create(journal, setup, spec.board or "", board=board, lexicon=lexicon, clock=clock,
                             deck=deck)
    say(f"== {game_id} ({setup.variant or 'standard'}) · players {', '.join(setup.players)} · game {session.game_id}")
    say(f"   journal: {journal_path}")

    server = None
    if serve:
        from tabletop.web import WebServer
        server = WebServer(session, port=port).start()
        links = server.links()
        say(f"   scoreboard: {links['scoreboard']}   host console: {links['host']}")

    def show(message: dict) -> None:
        result = message.get("result")
        if not result:
            return
        event, status = result["event"], result["status"]
        if not result["message"]:
            return
        tag = "REFUSED " if status == "rejected" else ""
        say(f"  {event.get('t', 0):7.1f}s  {result.get('source') or '':<11} {tag}{translate(result['message'], language)}")
        if result.get("turn") and status == "accepted" and event.get("type") == "write":
            say("           scores: " + ", ".join(f"{p} {v}" for p, v in session.game.totals.items()))

    session.subscribe(show)
    announcer = Announcer(session, voice=voice, language=language)
    if terminal:
        from tabletop.announce import TerminalScoreboard
        TerminalScoreboard(session)

    # -- devices --------------------------------------------------------------------------------
    report = DemoReport(game_id, session.game_id, {}, None, 0, 0, 0, 0, journal=journal_path)
    closers = []
    buzz = None
    lights = None
    box_outputs: dict = {}
    if buzzer_box and session.table.uses_buzzers:
        from firmware_bridge.emulator import DeviceEmulator
        from tabletop.session.devices import SerialBuzzers
        box = DeviceEmulator(players=len(setup.players), seed=seed).start()
        buzzers = SerialBuzzers(session, box.path)
        closers += [buzzers.close, box.close]
        say(f"   buzzer box: emulator on {box.path} (protocol over a pty), {len(setup.players)} buttons")
        lights = buzzers.leds
        box_outputs = {"timers": [buzzers.timer], "beep": buzzers.beep}
        index = {p: i for i, p in enumerate(setup.players)}

        def buzz(player: str) -> None:
            before = buzzers.presses
            box.tap(index[player])
            deadline = time.monotonic() + 3
            while buzzers.presses == before and time.monotonic() < deadline:
                time.sleep(0.001)
            buzzers.dispatch.drain()
            if buzzers.presses == before:
                say(f"           (the box did not deliver {player}'s press)")

    from tabletop.session.devices import TableOutputs, sand_timer_on_mock_pins
    sand = sand_timer_on_mock_pins(session) if session.table.uses_sand_timer else None
    outputs = TableOutputs(session, sand_timer=sand, lights=lights, **box_outputs)
    closers.insert(0, outputs.close)
    if sand is not None:
        say(f"   sand timer: gpiozero {'mock pins' if sand.mock else 'pins'}")

    kind = pieces.kind(spec.pieces) if spec.pieces else None
    eye = None
    if camera and kind is not None and (board is not None or not kind.needs_board):
        eye = kind.demo_camera(session, seed, say)

    script = demo.script(lambda: session.game, deck, seed=seed)
    try:
        run_script(session, script, buzz=buzz, write=eye.play if eye else None, roll=eye.roll if eye else None,
                   pace=pace, say=lambda note: say(f"           · {note}"))
        outputs.drain()
    finally:
        for close in closers:
            try:
                close()
            except Exception:
                pass
    session.finish()
    game = session.game
    entries = journal.entries(session.game_id)
    if eye is not None:
        counts = eye.counts
        report.camera_writes, report.confirmed_reads = counts.camera, counts.confirmed
        report.host_writes, report.camera_failures = counts.host, counts.failures
    report.totals, report.winner = game.totals, game.winner
    report.events = len(game.events)
    report.rejected = sum(1 for e in entries if e.status == "rejected")
    report.table_seconds = clock.now()
    report.sand_timer_starts = outputs.timer_starts
    report.presses = sum(1 for e in entries if e.source == "buzzer-box")
    say("== Final: " + game.standings())                   # the game's own words: scores, stars or a line
    check = replay(session.record(), board, lexicon)
    report.replay_totals = check.totals
    if record:
        from tabletop.records import write_record
        write_record(session.record(), record)
        report.record = record
        say(f"   record written to {record} (tabletop replay {record})")
    if server is not None:
        if keep_serving:
            say(f"   the scoreboard stays up at {server.url}/ — press Ctrl-C to stop")
            try:
                while True:
                    time.sleep(1)
            except KeyboardInterrupt:
                pass
        else:
            say("   the scoreboard closes now that the demo is over (--serve keeps it up)")
        server.stop()
    announcer.close()
    journal.close()
    report.seconds = time.monotonic() - started
    say(f"   {report.events} events ({report.rejected} refused), {report.table_seconds:.0f} s of table time, "
        + (f"{report.camera_writes} {kind.counted}, " if kind is not None else "")
        + f"{report.presses} presses through the buzzer box, "
        f"played in {report.seconds:.1f} s")
    return report
