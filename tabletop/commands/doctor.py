"""``tabletop doctor``: check the camera, pins, serial device, tesseract, dictionaries, voice and journal.

Each check prints one line: ``ok``, ``--`` (missing but optional: a simulated twin stands in)
or ``!!`` (missing and needed), with what to do about it. Exit code 0 unless something needed is
missing.
"""

from __future__ import annotations

import glob
import os
import pathlib
import shutil
import subprocess

from tabletop.cli import command

OK, OPTIONAL, MISSING = "ok", "--", "!!"


def _camera(config) -> tuple[str, str]:
    kind = config["camera"]["kind"]
    if kind in ("none", "synthetic"):
        return OK, f"camera: {kind} (configured)"
    try:
        import picamera2  # noqa: F401
        return OK, "camera: picamera2 is installed (Raspberry Pi camera)"
    except Exception:
        pass
    devices = sorted(glob.glob("/dev/video*"))
    if devices:
        try:
            import cv2
            cap = cv2.VideoCapture(int(config["camera"].get("index", 0)))
            opened = cap.isOpened()
            cap.release()
        except Exception:
            opened = False
        if opened:
            return OK, f"camera: USB camera on {devices[0]} (OpenCV)"
        return OPTIONAL, f"camera: {', '.join(devices)} present but OpenCV cannot open it (permissions? group video)"
    return OPTIONAL, ("camera: none found (no picamera2, no /dev/video*): players type words on their pages; "
                      "on a Pi: pip install '.[pi]' and enable the camera")


def _pins(config) -> tuple[str, str]:
    try:
        from hardware.config import load_pins
        from hardware.pins import on_raspberry_pi
        load_pins(config.get("pins") or None)
    except Exception as error:
        return MISSING, f"pins: the [pins] config is unusable: {error}"
    if on_raspberry_pi():
        try:
            import lgpio  # noqa: F401
            return OK, "pins: Raspberry Pi GPIO through gpiozero + lgpio"
        except Exception:
            return MISSING, "pins: this is a Raspberry Pi but lgpio is missing: pip install '.[pi]'"
    return OPTIONAL, "pins: not a Raspberry Pi: gpiozero mock pins stand in for the buttons and the sand timer"


def _serial(config) -> tuple[str, str]:
    port = config["buzzers"].get("serial_port")
    found = sorted(glob.glob("/dev/ttyUSB*") + glob.glob("/dev/ttyACM*") + glob.glob("/dev/serial/by-id/*"))
    if port:
        if not os.path.exists(port) and "://" not in port:
            return MISSING, f"serial: the configured buzzer box {port} is not there (found: {', '.join(found) or 'none'})"
        try:
            from firmware_bridge.link import BuzzerLink
            with BuzzerLink.open(port, hello_timeout=2.0) as link:
                return OK, f"serial: buzzer box on {port} says hello ({link.hello})"
        except Exception as error:
            return MISSING, f"serial: {port} does not answer like a buzzer box: {error}"
    if found:
        return OPTIONAL, f"serial: no buzzer box configured; serial devices seen: {', '.join(found)} " \
                         "(set [buzzers] serial_port)"
    return OPTIONAL, "serial: no buzzer box configured or plugged in (GPIO buttons or the host console instead)"


def _tesseract() -> tuple[str, str]:
    exe = shutil.which("tesseract")
    if not exe:
        return MISSING, "tesseract: not installed: sudo apt-get install tesseract-ocr tesseract-ocr-eng"
    try:
        langs = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=10).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        langs = []
    missing = [lang for lang in ("eng", "ukr") if lang not in langs]
    if missing:
        return OPTIONAL, f"tesseract: installed, languages missing: {', '.join(missing)} (tesseract-ocr-{missing[0]})"
    return OK, f"tesseract: {exe} with eng, ukr"


def _dictionaries() -> list[tuple[str, str]]:
    from tabletop.lexicons import DICT_DIR, SOURCES, WORDNET_DIR
    out = []
    for language, names in SOURCES.items():
        missing = [n for n in names if not (DICT_DIR / n).exists()]
        if missing:
            level = MISSING if language == "en" else OPTIONAL
            out.append((level, f"dictionary {language}: missing {', '.join(missing)} in {DICT_DIR} (./tabletop.sh setup)"))
        else:
            from tabletop.errors import UserError
            from tabletop.lexicons import builtin_lexicon
            try:
                lexicon = builtin_lexicon(language)
                out.append((OK, f"dictionary {language}: {lexicon.describe()} from {', '.join(names)}"))
            except UserError as error:
                out.append((MISSING, f"dictionary {language}: {error}"))
    if (pathlib.Path(WORDNET_DIR) / "index.noun").exists():
        out.append((OK, f"WordNet: {WORDNET_DIR} (phrases, clue definitions)"))
    else:
        out.append((OPTIONAL, f"WordNet: missing in {WORDNET_DIR} (sudo apt-get install wordnet-base)"))
    try:
        from tabletop.decks import builtin_decks
        decks = builtin_decks()
        out.append((OK if decks else OPTIONAL, f"clue decks: {', '.join(decks) or 'none'}"))
    except Exception as error:
        out.append((OPTIONAL, f"clue decks: {error}"))
    return out


def _voice(config) -> tuple[str, str]:
    from tabletop.announce import espeak_path
    exe = espeak_path()
    if exe:
        return OK, f"voice: {exe}" + ("" if config["table"]["voice"] else " (off in the config)")
    return OPTIONAL, "voice: espeak-ng not installed (sudo apt-get install espeak-ng); the table stays silent"


def _journal(path) -> tuple[str, str]:
    path = pathlib.Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        probe = path.parent / ".tabletop-doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as error:
        return MISSING, f"journal: cannot write in {path.parent}: {error.strerror}"
    if path.exists():
        from tabletop.errors import UserError
        from tabletop.session.journal import Journal
        try:
            journal = Journal(path, create=False)
            problems = journal.quick_check()
            games = journal.games()
            unreadable = journal.unreadable
            journal.close()
        except UserError as error:
            return MISSING, f"journal: {error}"
        if problems or unreadable:
            found = "; ".join((problems + unreadable)[:3])
            return MISSING, (f"journal: {path} is damaged ({found}); `tabletop export --all -o DIR --journal {path}` "
                             f"saves every readable game")
        return OK, f"journal: {path} (integrity ok, {len(games)} game(s))"
    return OK, f"journal: {path} (created at the first game)"


def _browser() -> tuple[str, str]:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    return (OK, f"chromium: {exe} (browser tests)") if exe else (OPTIONAL, "chromium: not installed (browser tests only)")


def _fonts() -> list[tuple[str, str]]:
    """The fonts the printed pieces need: DejaVu Sans Bold (dice labels), Noto Color Emoji (pictures)."""
    from vision.dicelabels import FONT
    from vision.picture_board import EMOJI_FONT

    return [(OK, f"labels' font: {FONT}") if FONT.exists() else
            (MISSING, f"labels' font {FONT} missing: install Debian's fonts-dejavu-core (./tabletop.sh setup)"),
            (OK, f"pictures' font: {EMOJI_FONT}") if EMOJI_FONT.exists() else
            (MISSING, f"pictures' font {EMOJI_FONT} missing: install Debian's fonts-noto-color-emoji (./tabletop.sh setup)")]


def _tile_network() -> tuple[str, str]:
    """The tile reader's network loads in ONNX Runtime (a damaged or missing file says so)."""
    from vision.errors import ModelMissing
    from vision.tiles import MODEL_PATH, TileModel

    try:
        TileModel(MODEL_PATH)
    except ModelMissing as error:
        return MISSING, f"tile network: {str(error)[:200]} (reinstall the checkout)"
    return OK, f"tile network: {MODEL_PATH.name} ({MODEL_PATH.stat().st_size // 1024} KB, ONNX Runtime)"


def _letter_network() -> tuple[str, str]:
    """The letter reader's network loads in ONNX Runtime (a damaged or missing file says so)."""
    from vision.errors import ModelMissing
    from vision.letters import MODEL_PATH, LetterModel

    try:
        LetterModel(MODEL_PATH)
    except ModelMissing as error:
        return MISSING, f"letter network: {error} (reinstall the checkout)"
    return OK, (f"letter network: {MODEL_PATH.name} ({MODEL_PATH.stat().st_size // 1024} KB, ONNX Runtime; "
                "trained on UNIPEN, UJI and CoMNIST handwriting, this model file CC BY-SA 4.0: vision/models/NOTICE)")


def _ukrainian_letter_network() -> tuple[str, str]:
    """The Ukrainian letter network loads, and tells its 33 letters apart."""
    import numpy as np

    from vision.errors import ModelMissing
    from vision.letters import UK_ALPHABET, UK_MODEL_PATH, LetterModel

    try:
        LetterModel(UK_MODEL_PATH, UK_ALPHABET).outputs(np.zeros((1, 28, 28), np.float32))
    except ModelMissing as error:
        return MISSING, f"Ukrainian letter network: {error} (reinstall the checkout)"
    return OK, (f"Ukrainian letter network: {UK_MODEL_PATH.name} ({UK_MODEL_PATH.stat().st_size // 1024} KB, "
                "ONNX Runtime; trained on CoMNIST, this model file CC BY-SA 4.0: vision/models/NOTICE)")


def _room(config) -> tuple[str, str]:
    """The room this table joins ([room] url): its address, credentials and whether the broker answers."""
    import socket
    from tabletop.errors import UserError
    room = config.get("room") or {}
    if not room.get("url"):
        return OPTIONAL, "room: this table is on its own ([room] url and table join a room of tables: docs/room.md)"
    try:
        from tabletop.room.address import RoomAddress, check_name
        from tabletop.room.broker import load_credentials
        address = RoomAddress.parse(str(room["url"]))
        check_name("table", str(room.get("table") or ""))
        load_credentials(room.get("credentials") or None)
    except UserError as error:
        return MISSING, f"room: {error}"
    try:
        socket.create_connection((address.host, address.port), timeout=2).close()
    except OSError as error:
        return OPTIONAL, (f"room: the broker {address.host}:{address.port} does not answer ({error.strerror or error}); "
                          "the table plays on and its outbox catches up when it does")
    return OK, f"room: table {room['table']} of {address}, the broker answers"


def checks(config, journal_path) -> list[tuple[str, str]]:
    out = [_camera(config), _pins(config), _serial(config), _tesseract()]
    out += _dictionaries()
    out += [_voice(config), _journal(journal_path), _room(config), _browser(), _letter_network(), _ukrainian_letter_network(),
            _tile_network()]
    return out + _fonts()


@command("doctor", "check the camera, pins, serial device, tesseract, dictionaries and voice; say what is missing")
def run(args) -> int:
    from tabletop.config import load_config
    from tabletop.session.journal import default_path
    config = load_config(args.config)
    print(f"config: {config.get('source', 'defaults (no config file found)')}")
    results = checks(config, args.journal or config["table"].get("journal") or default_path())
    for level, text in results:
        print(f"  {level}  {text}")
    missing = [text for level, text in results if level == MISSING]
    print(f"{len(missing)} problem(s): the table cannot run until they are fixed." if missing
          else "Ready: everything needed is here ('--' lines are optional; simulated twins stand in).")
    return 1 if missing else 0


def _arguments(parser) -> None:
    parser.add_argument("--config", metavar="FILE", help="TOML config")
    parser.add_argument("--journal", metavar="FILE", help="the SQLite journal to check")


run.arguments = _arguments
