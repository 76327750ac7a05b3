"""The simulated table: a whole game played by scripted players through the real devices' twins.

Presses travel through the buzzer-box emulator on a pty and the host link (``firmware_bridge``);
words are rendered by the synthetic camera and read back by the vision tracker; the sand timer
runs on gpiozero mock pins; everything goes through a real journal and the session, which serves
the scoreboard while the game runs.
"""

from __future__ import annotations

import pathlib
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

from rules.game import GameSetup
from rules.record import replay
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal
from tabletop.session.planner import letters_of
from tabletop.session.runner import run_script



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
    camera_writes: int = 0
    camera_rolls: int = 0
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
        journal_path = str(pathlib.Path(tempfile.mkdtemp(prefix="tabletop-demo-")) / "journal.sqlite")
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
        say(f"  {event.get('t', 0):7.1f}s  {result.get('source') or '':<11} {tag}{result['message']}")
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

    from tabletop.session.devices import CameraInput, SyntheticCamera, TableOutputs, sand_timer_on_mock_pins
    sand = sand_timer_on_mock_pins(session) if session.table.uses_sand_timer else None
    outputs = TableOutputs(session, sand_timer=sand, lights=lights, **box_outputs)
    closers.insert(0, outputs.close)
    if sand is not None:
        say(f"   sand timer: gpiozero {'mock pins' if sand.mock else 'pins'}")

    write: Callable[[str, dict], None] | None = None
    if camera and spec.photo == "letters" and board is not None:
        synthetic = SyntheticCamera(board, seed=seed)
        cam = CameraInput(session, synthetic)
        synthetic.show({})
        cam.feed(synthetic.read(), clock.now())
        say("   camera: synthetic frames of the printed board, read by the vision tracker")

        def write(player: str, planned: dict) -> None:
            letters = {sq: ch for sq, ch in session.game.grid.items()}  # type: ignore[attr-defined]
            letters.update(letters_of(planned))
            synthetic.show(letters)
            done, failure = [], None
            try:                                    # the writer's hand is still over the board...
                done = cam.feed(synthetic.hand_frame(), clock.now())
                clock.advance(0.3)
            except Exception as error:
                failure = f"{type(error).__name__}: {error}"
            for _ in range(6 if failure is None and not done else 0):   # ...then it moves away
                try:
                    done = cam.feed(synthetic.read(), clock.now())
                except Exception as error:         # a broken camera pipeline must not stop the game
                    failure = f"{type(error).__name__}: {error}"
                    break
                if done:
                    break
                clock.advance(0.3)
            if done and done[-1].accepted:
                report.camera_writes += 1
                return
            while session.pending_reads:            # unsure reads wait for the host
                read = session.pending_reads[0]
                if read["text"] == planned["text"] and (read["row"], read["col"], read["dir"]) == (
                        planned["row"], planned["col"], planned["dir"]):
                    say(f"           the camera is unsure of {read['text']} "
                        f"(confidence {read.get('confidence')}); the host confirms it")
                    if session.confirm_read(0).accepted:
                        report.camera_writes += 1
                        report.confirmed_reads += 1
                        return
                else:
                    say(f"           the camera is unsure and reads {read['text']}; the host discards it")
                    session.discard_read(0)
            if failure:
                report.camera_failures += 1
                say(f"           the camera pipeline failed ({failure[:120]}); the host types the word in")
            else:
                seen = done[-1].event.get("text") if done else f"nothing ({cam.tracker.status})"
                say(f"           the camera read {seen}; the host types the word in")
            report.host_writes += 1
            session.submit(planned, source="host")
            cam.tracker.committed = [list(r) for r in session.game.grid.rows_text()]  # type: ignore[attr-defined]

    roll = None
    if camera and spec.photo == "dice":
        roll = _dice_camera(session, report, seed, say)
    if camera and spec.photo == "chips" and board is not None:
        write = _chip_camera(session, report, seed, say)
    if camera and spec.photo == "tiles" and board is not None:
        from tabletop.session.demo_tiles import tile_camera
        write = tile_camera(session, report, seed, say)

    script = demo.script(lambda: session.game, deck, seed=seed)
    try:
        run_script(session, script, buzz=buzz, write=write, roll=roll, pace=pace,
                   say=lambda note: say(f"           · {note}"))
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
        + (f"{report.camera_rolls} rolls read by the camera, " if spec.photo == "dice" else
           f"{report.camera_writes} chips seen by the camera, " if spec.photo == "chips" else
           f"{report.camera_writes} moves read by the camera, " if spec.photo == "tiles" else
           f"{report.camera_writes} words read by the camera, ")
        + f"{report.presses} presses through the buzzer box, "
        f"played in {report.seconds:.1f} s")
    return report


def _dice_camera(session: Session, report: DemoReport, seed: int, say):
    """The players' roll as the dice camera sees it: the dice tumble, come to rest and are read
    (:class:`~tabletop.session.devices.DiceCameraInput`); if the camera cannot read them, the
    host rolls for the table."""
    import random

    from rules.letter_dice_sets import DICE
    from tabletop.session.devices import DiceCameraInput, SyntheticDiceCamera

    camera = SyntheticDiceCamera(seed=seed)
    feed = DiceCameraInput(session, camera)
    clock = session.clock
    throws = random.Random(seed)
    say("   camera: synthetic photos of the dice with their printed labels, read by the roll watcher")

    def roll() -> None:
        faces = [throws.choice(die) for die in DICE[session.setup.language]]
        camera.roll(faces)
        results = []
        for frame in range(16):
            if frame == 3:
                camera.settle()
            try:
                results = feed.feed(camera.read(), clock.now())
            except Exception as error:          # a broken camera pipeline must not stop the game
                say(f"           the dice camera failed ({type(error).__name__}: {error})")
                break
            if results:
                break
            clock.advance(0.25)  # type: ignore[attr-defined]  # the simulated table runs a SimClock
        if results and results[-1].accepted:
            report.camera_rolls += 1
            return
        say(f"           the camera did not read the roll ({feed.watcher.status}); the host rolls for the table")
        session.submit({"type": "roll"}, source="host")
    return roll


def _chip_camera(session: Session, report: DemoReport, seed: int, say):
    """A child's chip as the camera sees it: a hand over the board, then the board with the chip
    (or without the chip an X took off), read by the chip watcher; if the camera does not see
    it, the host enters the play."""
    from rules.squares import Square
    from tabletop.session.devices import ChipCameraInput, SyntheticChipCamera

    camera = SyntheticChipCamera(session.board, seed=seed)
    feed = ChipCameraInput(session, camera)
    clock = session.clock
    say("   camera: synthetic photos of the printed picture board, chips read by the chip watcher")

    def on_board() -> dict:
        game = session.game
        return {sq: game.chip_colours[side] for sq, side in game.chips.items()}  # type: ignore[attr-defined]

    def place(player: str, planned: dict) -> None:
        game = session.game
        chips = on_board()
        square = Square(planned["row"], planned["col"])
        if planned["card"] == "X":
            chips.pop(square, None)
        else:
            chips[square] = game.chip_colours[game.side_of[player]]  # type: ignore[attr-defined]
        camera.show(chips)
        results = []
        try:
            for frame in [camera.hand_frame()] * 2 + [camera.read()] * 8:
                results = feed.feed(frame, clock.now())
                if results:
                    break
                clock.advance(0.3)  # type: ignore[attr-defined]  # the simulated table runs a SimClock
        except Exception as error:                  # a broken camera pipeline must not stop the game
            say(f"           the camera failed ({type(error).__name__}: {error})")
        if not results and session.pending_reads:     # a chip only a Z explains: the host confirms it
            read = session.pending_reads[0]
            if (read.get("row"), read.get("col"), read.get("card")) == (planned["row"], planned["col"], planned["card"]):
                say("           the camera saw a chip where only a Z card fits; the host confirms the Z")
                results = [session.confirm_read(0)]
                report.confirmed_reads += 1
            else:
                session.discard_read(0)
        if results and results[-1].accepted and results[-1].event.get("card") == planned["card"]:
            report.camera_writes += 1
            return
        if not results:
            say(f"           the camera did not see the chip ({feed.watcher.status}); the host enters the play")
            session.submit(planned, source="host")
        feed.watcher.committed = list(session.game.state()["grid"])
    return place
