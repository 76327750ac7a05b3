"""Running a live table: devices from the config, the web pages, the clock, the host's keyboard."""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any

from tabletop import pieces
from tabletop.session import host_commands
from tabletop.session.core import Session

log = logging.getLogger(__name__)

CONSOLE_HELP = """Type at the host console (or use the host page); 'help' lists every command:
  draw | recognise | right | wrong | next | undo | pause | resume | reads | confirm N | discard N
  window SECONDS | forget-hand NAME | buzz NAME | scores | the key of any action the game offers now
  {"type": ...}   any event as JSON            quit   stop (the game stays resumable)"""


def open_devices(session: Session, config: dict, say) -> list:
    """Attach the configured inputs and outputs; return their closers."""
    from tabletop.session.devices import GpioPanel, SerialBuzzers, TableOutputs, open_camera, sand_timer_on_mock_pins
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
    piece_kind = pieces.of_game(session.setup.game)
    if piece_kind is not None and cam_kind not in ("none", "synthetic"):
        camera = open_camera(cam_kind, int(config["camera"].get("index", 0)))
        if camera is not None:
            feed = piece_kind.camera_input(session, camera)
            feed.run_in_background(float(config["camera"].get("fps", 8.0)))
            closers.insert(0, feed.close)
            say(f"camera: {type(camera).__name__}{piece_kind.camera_note} ({piece_kind.description})")
        else:
            say(piece_kind.without_camera)
    return closers


def join_room(session: Session, config: dict, say) -> Any:
    """The table's link to its room (``[room] url`` and ``table``), started; ``None`` without a room."""
    room = config.get("room") or {}
    if not room.get("url"):
        return None
    from tabletop.room.address import RoomAddress
    from tabletop.room.broker import load_credentials
    from tabletop.room.link import TableLink
    address = RoomAddress.parse(str(room["url"]))
    credentials = load_credentials(room.get("credentials") or None, room.get("ca_file") or None)
    link = TableLink(session, address, str(room["table"]), credentials=credentials, say=say).start()
    say(f"room: table {link.table} of {address} (entries wait in {link.outbox.path} while the room is away)")
    return link


def console_command(session: Session, line: str) -> str:
    """One line typed at the host's keyboard (:func:`tabletop.session.host_commands.typed`); returns what to print."""
    return host_commands.typed(session, line)


def run_table(session: Session, config: dict, *, host: str, port: int, voice: bool, terminal: bool,
              stdin=None, out=None, sock=None, lock=None) -> int:
    """Run a live table until the game is over or the host quits. ``sock``: the pages' socket,
    bound already; ``lock``: the game's :class:`~tabletop.session.journal.GameLock`, released at the end."""
    from tabletop.announce import Announcer, TerminalScoreboard
    from tabletop.i18n import translate
    from tabletop.web import WebServer
    stdin = sys.stdin if stdin is None else stdin
    out = out or sys.stdout
    say = lambda text: print(text, file=out, flush=True)
    lock = lock or session.journal.lock_game(session.game_id)
    import pathlib

    secure = host not in ("127.0.0.1", "localhost", "::1") and session.journal.path != ":memory:"
    tls_folder = pathlib.Path(session.journal.path).parent / "tls" if secure else None   # phones' cameras need https
    server = WebServer(session, host=host, port=port, sock=sock, tls_folder=tls_folder).start()
    links = server.links()
    say(f"game {session.game_id}: {session.setup.game} ({session.setup.variant or 'default'}), "
        f"players {', '.join(session.setup.players)}")
    say(f"scoreboard:   {links['scoreboard']}")
    say(f"host console: {links['host']}")
    for seat, url in links["seats"].items():
        say(f"seat {seat}: {url}  (or scan its QR code on the scoreboard, or open {links['join'][seat]})")
    if "camera" in links:
        say(f"phone camera: {links['camera']} (or scan its QR code on the host console)"
            + (" - the phone warns once that the certificate is the table's own: accept it" if server.secure else ""))
        if server.tls_problem:
            say(f"  ({server.tls_problem}: a phone's browser gives the camera only to https pages)")
    language = session.setup.language        # the console speaks the game's language (tabletop.i18n)
    session.subscribe(lambda m: m.get("result") and m["result"]["message"] and say(
        ("REFUSED " if m["result"]["status"] == "rejected" else "") + translate(m["result"]["message"], language)))
    table = config["table"]
    announcer = Announcer(session, voice=voice, language=session.setup.language,
                          speed=int(table.get("speed", 160)), voice_name=table.get("voice_name") or None)
    if terminal:
        TerminalScoreboard(session)
    closers = open_devices(session, config, say)
    link = join_room(session, config, say)
    if link is not None:
        closers.insert(0, link.close)
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
                say(translate(reply, language))
        if session.game.over:
            session.finish()
            say(translate(session.game.standings(), language))
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
