"""mosquitto for a room: ``tabletop room init`` writes a password file, an ACL and a config;
``tabletop room serve --with-broker`` runs mosquitto with them (a one-laptop room).

The ACL: table ``T`` (user ``table-T``) may write only under ``tabletop/ROOM/tables/T/`` and
read only the room's commands; only the room service (user ``room``) may write the commands.
Anonymous clients are refused. TLS is optional (``--tls-cert``/``--tls-key``): without it the
passwords and every message cross the network in clear text (:func:`protection`).

>>> print(acl_text("club", ["1", "2"]).splitlines()[1])
topic readwrite tabletop/club/#
"""

from __future__ import annotations

import os
import pathlib
import secrets
import shutil
import subprocess
import tomllib
from dataclasses import dataclass

from tabletop.errors import UserError
from tabletop.room.address import check_name
from tabletop.room.mqtt import Credentials

ROOM_USER = "room"


def table_user(table: str) -> str:
    return f"table-{table}"


def acl_text(room: str, tables: list[str]) -> str:
    """The mosquitto ACL of ``room`` with ``tables``."""
    lines = [f"user {ROOM_USER}", f"topic readwrite tabletop/{room}/#", ""]
    for table in tables:
        lines += [f"user {table_user(table)}", f"topic write tabletop/{room}/tables/{table}/#",
                  f"topic read tabletop/{room}/commands/all", f"topic read tabletop/{room}/commands/{table}", ""]
    return "\n".join(lines)


def conf_text(folder: pathlib.Path, port: int, tls: tuple[str, str] | None = None, bind: str = "0.0.0.0") -> str:
    """mosquitto.conf for the room in ``folder``."""
    lines = ["# made by `tabletop room init`", "per_listener_settings false", "allow_anonymous false",
             f"password_file {folder / 'passwd'}", f"acl_file {folder / 'acl'}",
             "persistence true", f"persistence_location {folder}/", "autosave_interval 5",
             "max_queued_messages 100000", "max_inflight_messages 100", "max_packet_size 1048576",
             f"listener {port} {bind}"]
    if tls:
        lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
    return "\n".join(lines) + "\n"


def _write_private(path: pathlib.Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


@dataclass(frozen=True)
class RoomFiles:
    """What ``room init`` made in ``folder``."""

    folder: pathlib.Path

    @property
    def broker_folder(self) -> pathlib.Path:
        """mosquitto's own files: password file, ACL, config, persistence."""
        return self.folder / "broker"

    @property
    def conf(self) -> pathlib.Path:
        return self.broker_folder / "mosquitto.conf"

    def credentials(self, who: str) -> pathlib.Path:
        """``room`` or a table's name -> its credentials file."""
        return self.folder / ("room.toml" if who == ROOM_USER else f"table-{who}.toml")


def init_room(folder: str | os.PathLike, room: str, tables: list[str], *, port: int = 1883,
              tls: tuple[str, str] | None = None, bind: str = "0.0.0.0") -> RoomFiles:
    """Write the password file, the ACL, mosquitto.conf and one credentials file per user."""
    check_name("room", room)
    for table in tables:
        check_name("table", table)
    passwd_tool = shutil.which("mosquitto_passwd")
    if passwd_tool is None:
        raise UserError("mosquitto_passwd is not installed: `sudo apt-get install mosquitto` (./tabletop.sh setup does)")
    out = pathlib.Path(folder)
    files = RoomFiles(out)
    files.broker_folder.mkdir(parents=True, exist_ok=True)
    os.chmod(out, 0o711)                  # the broker may pass through to broker/, never list the passwords
    os.chmod(files.broker_folder, 0o700)
    passwd = files.broker_folder / "passwd"
    _write_private(passwd, "")
    users = [ROOM_USER] + [table_user(t) for t in tables]
    for user, who in zip(users, [ROOM_USER] + tables):
        password = secrets.token_urlsafe(18)
        subprocess.run([passwd_tool, "-b", str(passwd), user, password], check=True, capture_output=True)
        _write_private(files.credentials(who), f'room = "{room}"\nusername = "{user}"\npassword = "{password}"\n')
    _write_private(files.broker_folder / "acl", acl_text(room, tables))
    _write_private(files.conf, conf_text(files.broker_folder.resolve(), port, tls, bind))
    _give_to_broker_user(files.broker_folder)
    return files


def _give_to_broker_user(folder: pathlib.Path) -> None:
    """mosquitto started as root drops to the ``mosquitto`` user: let it read its own files."""
    if os.geteuid() != 0:
        return
    try:
        import pwd
        user = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    for path in [folder, *folder.iterdir()]:
        os.chown(path, user.pw_uid, user.pw_gid)


def load_credentials(path: str | os.PathLike | None, ca_file: str | None = None) -> Credentials:
    """A credentials file ``room init`` wrote (``None``: anonymous)."""
    if not path:
        return Credentials(ca_file=ca_file)
    try:
        data = tomllib.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read the room credentials {path}: {error}") from None
    if not isinstance(data.get("username"), str) or not isinstance(data.get("password"), str):
        raise UserError(f"{path} has no username and password (made by `tabletop room init`?)")
    return Credentials(data["username"], data["password"], ca_file or data.get("ca_file"))


def start_broker(conf: str | os.PathLike, log_file: str | os.PathLike) -> subprocess.Popen:
    """Run mosquitto with ``conf``, its log appended to ``log_file`` (a pipe nobody reads would
    fill and stop the broker); the caller stops it."""
    binary = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)
    if binary is None:
        raise UserError("mosquitto is not installed: `sudo apt-get install mosquitto` (./tabletop.sh setup does)")
    with open(log_file, "ab") as log:
        return subprocess.Popen([binary, "-c", str(conf)], stdout=log, stderr=log)


def protection(tls: bool, authenticated: bool) -> list[str]:
    """What the room's set-up protects, and what it does not, in sentences for the host.

    >>> protection(False, True)[0]
    'Protected: only the room service can send commands to the tables, and a table can write only under its own topic (password file and ACL).'
    """
    said = []
    if authenticated:
        said.append("Protected: only the room service can send commands to the tables, and a table can write "
                    "only under its own topic (password file and ACL).")
    else:
        said.append("NOT protected: the broker lets anyone in (no password file): anyone on the network can "
                    "send the tables commands and pose as a table. `tabletop room init` makes the passwords.")
    if tls:
        said.append("Protected: the link to the broker is encrypted (TLS): passwords, scores and sealed words "
                    "cannot be read on the network.")
    else:
        said.append("NOT protected: without TLS, passwords and every message (scores, sealed words before the "
                    "reveal) cross the network in clear text; anyone on the same Wi-Fi can read them. Use a "
                    "network you trust, or --tls-cert/--tls-key and mqtts://.")
    said.append("Never protected here: a person with the room laptop or a table's Pi (its journal and "
                "credentials file are readable by that user), and a broker run by someone else.")
    return said
