"""``tabletop room init|serve``: a room of tables over MQTT (docs/room.md)."""

from __future__ import annotations

import pathlib
import time

from tabletop.cli import command
from tabletop.errors import UserError


def _init(args) -> int:
    from tabletop.room.broker import init_room
    tables = [t.strip() for t in args.tables.split(",") if t.strip()] if not args.tables.isdigit() \
        else [str(n) for n in range(1, int(args.tables) + 1)]
    if not tables:
        raise UserError("name the tables: --tables 6 (tables 1 to 6) or --tables 1,2,blue")
    tls = (args.tls_cert, args.tls_key) if args.tls_cert and args.tls_key else None
    if bool(args.tls_cert) != bool(args.tls_key):
        raise UserError("TLS needs both --tls-cert and --tls-key")
    files = init_room(args.folder, args.room, tables, port=args.port, tls=tls)
    import os
    closed = [str(p) for p in files.folder.resolve().parents if p.stat().st_mode & 0o001 == 0]
    if os.geteuid() == 0 and closed:
        print(f"warning: as root, mosquitto drops to its own user, which cannot enter {closed[0]}; "
              f"choose a folder it can reach (e.g. under /srv or /tmp), or `chmod o+x` the folders above")
    print(f"room {args.room}: {len(tables)} tables, files in {files.folder} (private: 0600)")
    print(f"  broker:   mosquitto -c {files.conf}   (or: tabletop room serve --with-broker {files.folder} ...)")
    print(f"  room:     tabletop room serve --broker mqtt{'s' if tls else ''}://HOST:{args.port} {args.room} "
          f"--credentials {files.credentials('room')}")
    print(f"  table T:  tabletop play GAME --players ... --room mqtt{'s' if tls else ''}://HOST:{args.port}/{args.room} "
          f"--table T --room-credentials {files.folder}/table-T.toml")
    return 0


def _serve(args) -> int:
    from tabletop.room.address import RoomAddress
    from tabletop.room.broker import RoomFiles, load_credentials, protection, start_broker
    from tabletop.room.service import RoomService
    from tabletop.room.web import RoomServer
    credentials_file = args.credentials
    broker = None
    broker_url = args.broker or "mqtt://127.0.0.1:1883"
    if args.with_broker:
        files = RoomFiles(pathlib.Path(args.with_broker))
        if not files.conf.exists():
            raise UserError(f"no {files.conf}: run `tabletop room init {args.with_broker} {args.room}` first")
        if args.broker is None:                      # the port room init chose
            port = _listener(files.conf)[0]
            broker_url = f"mqtt{'s' if 'certfile' in files.conf.read_text(encoding='utf-8') else ''}://127.0.0.1:{port}"
    address = RoomAddress.broker(broker_url, args.room)
    if args.with_broker:
        credentials_file = credentials_file or str(files.credentials("room"))
        _port_free(files.conf)
        log_file = files.folder / "mosquitto.log"
        broker = start_broker(files.conf, log_file)
        time.sleep(0.5)
        if broker.poll() is not None:
            said = log_file.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
            raise UserError("mosquitto did not start: " + " / ".join(said))
        print(f"broker: mosquitto (process {broker.pid}) with {files.conf}, its log in {log_file}")
    credentials = load_credentials(credentials_file, args.ca_file)
    roster = {t.strip() for t in args.tables.split(",")} if args.tables else None
    journal = args.journal or f"room-{address.room}.sqlite"
    service = RoomService(address, journal, credentials=credentials, roster=roster,
                          export_dir=args.export, room_unique=args.room_unique).start()
    server = RoomServer(service, host=args.host, port=args.port, token=args.token).start()
    print(f"room {address.room} on {address.host}:{address.port}; journal {journal}")
    print(f"room page:    {server.url}/")
    print(f"room console: {server.url}/console?token={server.token}", flush=True)
    for line in protection(address.tls, bool(credentials.username)):
        print(line, flush=True)
    import signal

    def stop(signum, frame):          # systemd's stop, or kill: end as Ctrl-C does (the broker with it)
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            time.sleep(1)
            if broker is not None and broker.poll() is not None:
                print("the broker stopped; the room waits for it (tables keep their outboxes)")
                broker = None
    except KeyboardInterrupt:
        print("room stopped; `tabletop room serve` again carries on from its journal")
    finally:
        server.stop()
        service.close()
        if broker is not None:
            broker.terminate()
            broker.wait(timeout=5)
    return 0


def _listener(conf: pathlib.Path) -> tuple[int, str]:
    """The port and address of the listener in mosquitto.conf ``conf`` (1883 on all by default)."""
    import re
    found = re.search(r"^listener (\d+)(?: (\S+))?", conf.read_text(encoding="utf-8"), re.M)
    return (int(found.group(1)), found.group(2) or "0.0.0.0") if found else (1883, "0.0.0.0")


def _port_free(conf: pathlib.Path) -> None:
    """Refuse, with what to do, when the broker's port is taken (often Debian's own mosquitto
    service, which the package starts on port 1883)."""
    import socket
    port, host = _listener(conf)
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            raise UserError(f"port {port} is taken, so this room's mosquitto cannot listen there: is Debian's own "
                            f"mosquitto service running (`sudo systemctl disable --now mosquitto`)? Or make the "
                            f"room on another port: `tabletop room init ... --port {port + 1}`") from None


@command("room", "a room of tables over MQTT: `room init` (broker passwords and ACL), `room serve`")
def run(args) -> int:
    return _init(args) if args.action == "init" else _serve(args)


def _arguments(parser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    init = sub.add_parser("init", help="write mosquitto's password file, ACL and config for a room")
    init.add_argument("folder", help="where to write them (e.g. ./club-room)")
    init.add_argument("room", help="the room's name (letters, digits, - and _)")
    init.add_argument("--tables", default="6", help="how many tables (1..N) or their names: 1,2,blue (default 6)")
    init.add_argument("--port", type=int, default=1883, help="the broker's port (default 1883)")
    init.add_argument("--tls-cert", metavar="FILE", help="the broker's certificate (TLS; tables use mqtts://)")
    init.add_argument("--tls-key", metavar="FILE", help="the broker's private key")
    serve = sub.add_parser("serve", help="run the room service: leaderboard, console, duplicate play")
    serve.add_argument("room", help="the room's name")
    serve.add_argument("--broker", help="mqtt://HOST:PORT (default: this machine, on the port of --with-broker's "
                       "config, else 1883)")
    serve.add_argument("--with-broker", metavar="FOLDER", help="start mosquitto with the config `room init` wrote")
    serve.add_argument("--credentials", metavar="FILE", help="the room's file from `room init` (room.toml)")
    serve.add_argument("--ca-file", metavar="FILE", help="with mqtts://: the CA of the broker's certificate")
    serve.add_argument("--tables", help="only these tables (comma-separated); others are refused")
    serve.add_argument("--journal", metavar="FILE", help="the room's own journal (default room-ROOM.sqlite)")
    serve.add_argument("--export", metavar="FOLDER", help="where `end` writes the records and standings")
    serve.add_argument("--room-unique", action="store_true", help="duplicate letter-dice rounds: also score "
                       "each word only if no other table wrote it from the same roll")
    serve.add_argument("--host", default="0.0.0.0", help="serve the room page on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, default=8090, help="the room page's port (default 8090)")
    serve.add_argument("--token", help="the console's token (default: a new one, printed)")


run.arguments = _arguments
