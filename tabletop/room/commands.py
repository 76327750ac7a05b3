"""What the room tells its tables, on ``tabletop/ROOM/commands/all`` (every table) or
``.../commands/TABLE`` (one), checked on both sides.

Only the room service may publish there (the broker's ACL); a table checks every command's
shape too and ignores one it has seen (each carries the room's ``id``, growing).

>>> c = Command.make(7, "roll", faces=["C", "A", "T", "*"])
>>> Command.parse(c.encode()).args["faces"]
['C', 'A', 'T', '*']
>>> Command.parse(b'{"v": 1, "id": 1, "command": "explode"}')
Traceback (most recent call last):
...
tabletop.room.messages.Refused: 'explode' is not a room command; they are: deck, end, message, next, pause, resend, resume, roll, seats
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tabletop.room.messages import VERSION, Refused, decode, encode


def _nothing(args: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _message(args: Mapping[str, Any]) -> dict[str, Any]:
    text = args.get("text")
    if not isinstance(text, str) or not 0 < len(text.strip()) <= 500:
        raise Refused("a broadcast is 1 to 500 characters of text")
    return {"text": text.strip()}


def _roll(args: Mapping[str, Any]) -> dict[str, Any]:
    faces = args.get("faces")
    if not isinstance(faces, list) or not 1 <= len(faces) <= 20 or \
            not all(isinstance(f, str) and 0 < len(f) <= 6 for f in faces):
        raise Refused("a duplicate roll names 1 to 20 faces")
    out: dict[str, Any] = {"faces": faces}
    if "round" in args:
        out["round"] = _whole(args, "round", 1, 10_000)
    return out


def _whole(args: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = args.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{key!r} must be a whole number from {low} to {high}")
    return value


def _deck(args: Mapping[str, Any]) -> dict[str, Any]:
    return {"seed": _whole(args, "seed", 0, 2**31)}


def _resend(args: Mapping[str, Any]) -> dict[str, Any]:
    game_id = args.get("game_id")
    if not isinstance(game_id, str) or not 0 < len(game_id) <= 80:
        raise Refused("a resend names the game")
    return {"game_id": game_id, "after": _whole(args, "after", 0, 10**9)}


def _seats(args: Mapping[str, Any]) -> dict[str, Any]:
    seating = args.get("seating")
    if not isinstance(seating, dict) or not all(isinstance(k, str) and isinstance(v, list) for k, v in seating.items()):
        raise Refused("a seating is table -> player names")
    return {"seating": seating}


#: command -> its argument check
CHECKS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "next": _nothing, "pause": _nothing, "resume": _nothing, "end": _nothing, "message": _message,
    "roll": _roll, "deck": _deck, "resend": _resend, "seats": _seats}


@dataclass(frozen=True)
class Command:
    """One command of the room: its number ``id``, its name and its checked arguments."""

    id: int
    name: str
    args: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def make(cls, id: int, name: str, **args: Any) -> "Command":
        """A command, its arguments checked (a bad one is :class:`~tabletop.room.messages.Refused`)."""
        if name not in CHECKS:
            raise Refused(f"{name[:40]!r} is not a room command; they are: {', '.join(sorted(CHECKS))}")
        return cls(id, name, CHECKS[name](args))

    @classmethod
    def parse(cls, payload: bytes) -> "Command":
        data = decode(payload)
        if data.get("v") != VERSION:
            raise Refused(f"a command says \"v\": {VERSION}")
        number, name = data.get("id"), data.get("command")
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise Refused("a command has a whole-number id")
        if not isinstance(name, str):
            raise Refused("a command is named")
        return cls.make(number, name, **{k: v for k, v in data.items() if k not in ("v", "id", "command")})

    def encode(self) -> bytes:
        return encode({"v": VERSION, "id": self.id, "command": self.name, **self.args})
