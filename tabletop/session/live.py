"""Running a live table: devices from the config, the web pages, the clock, the host's keyboard."""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any

from tabletop.errors import UserError
from tabletop.session.core import EntryRefused, Result, Session

log = logging.getLogger(__name__)

CONSOLE_HELP = """Type at the host console (or use the host page):
  draw | clue-read | recognise | right | wrong | undo | pause | resume | buzz NAME | scores
  the key of any action the game offers now (roll, end-round, pass, end...; 'help' lists them)
  {"type": ...}   any event as JSON            quit   stop (the game stays resumable)"""


def open_devices(session: Session, config: dict, say) -> list:
    """Attach the configured inputs and outputs; return their closers."""
    from tabletop.session.devices import (CameraInput, ChipCameraInput, DiceCameraInput, GpioPanel, SerialBuzzers,
                                          TableOutputs, open_camera, sand_timer_on_mock_pins)
    closers: list = []
    lights = None
    extra: dict[str, Any] = {}
    buzzers = config["buzzers"]
    kind = buzzers.get("kind", "auto")
    if session.table.uses_buzzers and kind in ("serial", "auto") and buzzers.get("serial_port"):
        box = SerialBuzzers(session, buzzers["serial_port"])
        closers.append(box.close)
        lights = box.leds
        extra = {"timers": [box.timer], "beep": box.beep}
        say(f"buzzer box on {buzzers['serial_port']}")
    elif session.table.uses_buzzers and kind in ("gpio", "auto"):
        panel = GpioPanel(session, config.get("pins") or None)
        closers.append(panel.close)
        lights = panel.leds
        say(f"buzz-in panel on GPIO{' (mock pins: not a Raspberry Pi)' if panel.mock else ''}")
    sand = None
    if session.table.uses_sand_timer and kind != "none":
        sand = sand_timer_on_mock_pins(session, config.get("pins") or None)
        sand.run_in_background()
    outputs = TableOutputs(session, sand_timer=sand, lights=lights, **extra)
    closers.insert(0, outputs.close)
    cam_kind = config["camera"].get("kind", "auto")
    if cam_kind not in ("none", "synthetic"):
        camera = open_camera(cam_kind, int(config["camera"].get("index", 0)))
        from tabletop.games import spec as game_spec
        photo = game_spec(session.setup.game).photo
        dice = photo == "dice"
        if camera is not None:
            feed = DiceCameraInput(session, camera) if dice else ChipCameraInput(session, camera) \
                if photo == "chips" else CameraInput(session, camera)
            feed.run_in_background(float(config["camera"].get("fps", 8.0)))
            closers.insert(0, feed.close)
            say(f"camera: {type(camera).__name__}" + (" over the dice (labels from 'tabletop print-dice')" if dice else ""))
        elif dice:
            say("no camera found: type 'roll' (the table rolls) or the faces as a roll event")
        else:
            say("no camera found: players type their words on their pages (or the host does)")
    return closers


def console_command(session: Session, line: str) -> str:
    """One line typed at the host's keyboard; returns what to print."""
    from tabletop.session.devices import host_button
    line = line.strip()
    if not line:
        return ""
    word, _, rest = line.partition(" ")
    result: Result | dict | None
    try:
        if line.startswith("{"):
            from tabletop.records import parse_json
            event = parse_json(line, "that line")
            if not isinstance(event, dict):
                return "an event is a JSON object: {\"type\": ..., ...}"
            result = session.submit(event, source="console")
        elif word == "draw":
            result = session.draw(source="console")
        elif word in ("recognise", "right", "wrong"):
            result = host_button(session, word)
        elif word == "clue-read":
            result = session.host_action("clue-read", source="console")
        elif word == "undo":
            result = session.undo(source="console")
        elif word == "pause":
            session.pause("console")
            return "paused"
        elif word == "resume":
            session.unpause("console")
            return "playing"
        elif word == "buzz":
            result = session.buzz(rest.strip(), source="console")
        elif word == "scores":
            return session.game.standings()
        elif word in ("help", "?"):
            keys = ", ".join(a.key for a in session.game.actions())
            return CONSOLE_HELP + (f"\n  now: {keys}" if keys else "")
        elif any(a.key == word for a in session.game.actions()):
            result = session.host_action(word, source="console")
        else:
            return f"unknown command {word!r}; type help"
    except (EntryRefused, UserError) as refused:
        return str(refused)
    except Exception as error:          # the console never exits on what the host types
        log.exception("console command %r failed", line[:80])
        return f"that did not work ({type(error).__name__}: {str(error)[:120]}); type help"
    if result is None:
        return "nothing to do"
    return ""            # the session's subscriber prints every outcome and refusal


def run_table(session: Session, config: dict, *, host: str, port: int, voice: bool, terminal: bool,
              stdin=None, out=None, sock=None, lock=None) -> int:
    """Run a live table until the game is over or the host quits. ``sock``: the pages' socket,
    bound already; ``lock``: the game's :class:`~tabletop.session.journal.GameLock`, released at the end."""
    from tabletop.announce import Announcer, TerminalScoreboard
    from tabletop.web import WebServer
    stdin = sys.stdin if stdin is None else stdin
    out = out or sys.stdout
    say = lambda text: print(text, file=out, flush=True)
    lock = lock or session.journal.lock_game(session.game_id)
    server = WebServer(session, host=host, port=port, sock=sock).start()
    links = server.links()
    say(f"game {session.game_id}: {session.setup.game} ({session.setup.variant or 'default'}), "
        f"players {', '.join(session.setup.players)}")
    say(f"scoreboard:   {links['scoreboard']}")
    say(f"host console: {links['host']}")
    for seat, url in links["seats"].items():
        say(f"seat {seat}: {url}")
    session.subscribe(lambda m: m.get("result") and m["result"]["message"] and say(
        ("REFUSED " if m["result"]["status"] == "rejected" else "") + m["result"]["message"]))
    table = config["table"]
    announcer = Announcer(session, voice=voice, language=session.setup.language,
                          speed=int(table.get("speed", 160)), voice_name=table.get("voice_name") or None)
    if terminal:
        TerminalScoreboard(session)
    closers = open_devices(session, config, say)
    stop = threading.Event()

    def ticker():
        last_checkpoint = 0.0
        while not stop.is_set():
            try:
                session.tick()
                if time.monotonic() - last_checkpoint > 1.0:
                    session.checkpoint()
                    last_checkpoint = time.monotonic()
            except Exception as error:
                say(f"clock: {error!r}")
            stop.wait(0.1)

    threading.Thread(target=ticker, name="table-clock", daemon=True).start()
    say(CONSOLE_HELP)
    try:
        while not session.game.over:
            try:
                line = stdin.readline() if stdin is not None and not stdin.closed else ""
            except (UnicodeDecodeError, ValueError, OSError):
                say("that line could not be read (not UTF-8 text); type it again")
                continue
            if line == "":               # no keyboard (a service): wait for the pages and devices
                while not session.game.over:
                    time.sleep(0.5)
                break
            if line.strip() == "quit":
                break
            reply = console_command(session, line)
            if reply:
                say(reply)
        if session.game.over:
            session.finish()
            say(session.game.standings())
    except KeyboardInterrupt:
        say("stopped; resume with: tabletop resume " + session.game_id)
    finally:
        stop.set()
        session.checkpoint()
        for close in closers:
            try:
                close()
            except Exception:
                pass
        announcer.close()
        server.stop()
        if lock is not None:
            lock.release()
    return 0
