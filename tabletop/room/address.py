"""Where a room is: ``mqtt://HOST:PORT/ROOM`` (``mqtts://`` for TLS), read and checked.

>>> RoomAddress.parse("mqtt://127.0.0.1:1883/club")
RoomAddress(host='127.0.0.1', port=1883, room='club', tls=False)
>>> RoomAddress.parse("mqtts://pi.local/class-4b").port
8883
>>> RoomAddress.parse("http://x/room")
Traceback (most recent call last):
...
tabletop.room.address.BadAddress: a room is named mqtt://HOST:PORT/ROOM (or mqtts:// for TLS), not 'http://x/room'
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

from tabletop.errors import UserError

#: a room's or a table's name: letters, digits, '-' and '_' (it becomes part of MQTT topics)
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class BadAddress(UserError):
    """A room address, room name or table name that cannot be used."""


def check_name(what: str, name: str) -> str:
    """``name`` if it can be a room's or table's name in a topic, else :class:`BadAddress`.

    >>> check_name("table", "3")
    '3'
    >>> check_name("table", "a/b")
    Traceback (most recent call last):
    ...
    tabletop.room.address.BadAddress: a table name is 1-40 letters, digits, '-' or '_', not 'a/b'
    """
    if not isinstance(name, str) or not NAME.match(name):
        raise BadAddress(f"a {what} name is 1-40 letters, digits, '-' or '_', not {str(name)[:60]!r}")
    return name


@dataclass(frozen=True)
class RoomAddress:
    """A broker and a room on it."""

    host: str
    port: int
    room: str
    tls: bool = False

    @classmethod
    def parse(cls, text: str) -> "RoomAddress":
        """Read ``mqtt://HOST[:PORT]/ROOM``; a bad one is a :class:`BadAddress` with the form to use."""
        url = urllib.parse.urlsplit(text.strip())
        form = f"a room is named mqtt://HOST:PORT/ROOM (or mqtts:// for TLS), not {text[:80]!r}"
        if url.scheme not in ("mqtt", "mqtts") or not url.hostname:
            raise BadAddress(form)
        try:
            port = url.port
        except ValueError:
            raise BadAddress(form) from None
        room = url.path.strip("/")
        if not room:
            raise BadAddress(form)
        tls = url.scheme == "mqtts"
        return cls(url.hostname, port or (8883 if tls else 1883), check_name("room", room), tls)

    @classmethod
    def broker(cls, text: str, room: str) -> "RoomAddress":
        """A broker given alone (``mqtt://HOST:PORT``) and the room's name beside it.

        >>> RoomAddress.broker("mqtt://localhost:1884", "club").port
        1884
        """
        base = text.strip().rstrip("/")
        if urllib.parse.urlsplit(base).path.strip("/"):
            return cls.parse(base)
        return cls.parse(f"{base}/{room}")

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}/{self.room}"
