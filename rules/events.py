"""Events: everything that happens at the table, as JSON-serialisable data.

Each event is a dict with a ``type``; most name a ``player``; ``t`` is the time in seconds on
the table's clock when it happened (the rules never read a clock: time arrives here). Each game
declares the event types it knows as a :data:`Schemas` table (the crossword games share
:data:`SCHEMAS`); the types and their fields are documented in docs/events.md.

Validation is strict and bounded, so that nothing malformed ever reaches a journal or a game:
the type is a known string, every field has its kind, numbers are finite, text is at most
:data:`MAX_TEXT` characters of valid Unicode, and lists are short.

>>> e = parse_event({"type": "write", "player": "Ann", "text": "market", "row": 9, "col": 8, "dir": "across"})
>>> e.type, e.player, e["text"], e.square, e.direction.value
('write', 'Ann', 'market', Square(row=9, col=8), 'across')
>>> parse_event({"type": "write", "player": "Ann"})
Traceback (most recent call last):
...
rules.errors.EventFormatError: a 'write' event needs 'text' (text)
>>> parse_event({"type": ["write"]})
Traceback (most recent call last):
...
rules.errors.EventFormatError: an event's 'type' must be text, not a list
>>> parse_event({"type": "pass", "player": "Ann", "t": float("inf")})
Traceback (most recent call last):
...
rules.errors.EventFormatError: 't' must be a finite number of seconds, not inf
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from rules.errors import EventFormatError
from rules.squares import Direction, Square

TEXT, INT, BOOL, NUM = "text", "whole number", "true/false", "number"
#: a list of text (``faces`` of a roll), a list of whole numbers (``[row, col]``)
TEXT_LIST, INT_LIST = "list of text", "list of whole numbers"
#: text or ``null`` (a crossed-out row of a letter-dice sheet)
TEXT_OR_NULL = "text or null"
#: rows of text, each a string or a short list of text (a tray of dice: ``["TAPE", ["QU", "I", "T", "S"]]``)
ROWS = "list of rows (text, or lists of text)"

#: the longest text any event field may hold (a clue's definition is the longest in practice)
MAX_TEXT = 1000
#: the longest list any event field may hold
MAX_LIST = 64
#: the largest whole number (rows, columns, counts) an event may hold
MAX_INT = 10**9
#: the largest time in seconds an event may carry (about 30 years)
MAX_TIME = 1e9

#: one event type's (required fields, optional fields), each field -> kind
Schema = tuple[Mapping[str, str], Mapping[str, str]]
#: event type -> schema
Schemas = Mapping[str, Schema]

#: The crossword games' event types. Every event may carry ``t``.
SCHEMAS: dict[str, Schema] = {
    "write": ({"player": TEXT, "text": TEXT, "row": INT, "col": INT, "dir": TEXT}, {"confidence": NUM}),
    "pass": ({"player": TEXT}, {}),
    "clue": ({"player": TEXT}, {"answer": TEXT, "definition": TEXT, "card": TEXT, "picture": TEXT}),
    "clue_read": ({"player": TEXT}, {}),
    "hand": ({"player": TEXT}, {}),
    "recognise": ({"player": TEXT, "target": TEXT}, {}),
    "answer": ({"player": TEXT}, {"text": TEXT, "correct": BOOL}),
    "challenge": ({"player": TEXT}, {"reason": TEXT}),
    "remove": ({}, {"player": TEXT}),
    "time": ({}, {}),
    "end": ({}, {"player": TEXT}),
}
EVENT_TYPES = tuple(SCHEMAS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_num(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and (isinstance(value, int) or math.isfinite(value)))


def _text_ok(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:        # a lone surrogate from a broken decoder
        return False
    return True


def _kind_ok(kind: str, value: Any) -> bool:
    if kind == TEXT:
        return _text_ok(value)
    if kind == TEXT_OR_NULL:
        return value is None or _text_ok(value)
    if kind == ROWS:
        return isinstance(value, list) and len(value) <= MAX_LIST and all(
            _text_ok(row) or (isinstance(row, list) and len(row) <= MAX_LIST and all(_text_ok(v) for v in row))
            for row in value)
    if kind == INT:
        return _is_int(value) and abs(value) <= MAX_INT
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == TEXT_LIST:
        return isinstance(value, list) and len(value) <= MAX_LIST and all(_text_ok(v) for v in value)
    if kind == INT_LIST:
        return isinstance(value, list) and len(value) <= MAX_LIST and all(
            _is_int(v) and abs(v) <= MAX_INT for v in value)
    return _is_num(value) and abs(value) <= MAX_INT


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    return {list: "a list", dict: "an object", type(None): "null", bool: "true/false",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Event:
    """One validated event. ``data`` keeps every field (unknown extra fields too) for the record."""

    type: str
    player: str | None
    t: float | None
    data: Mapping[str, Any] = field(repr=False, compare=True)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def by(self) -> str:
        """The player who did it (for event types whose schema requires ``player``).

        >>> parse_event({"type": "pass", "player": "Ann"}).by
        'Ann'
        """
        if self.player is None:
            raise EventFormatError(f"a {self.type!r} event needs 'player' (text)")
        return self.player

    @property
    def square(self) -> Square:
        """The square an event names with ``row`` and ``col``."""
        return Square(self.data["row"], self.data["col"])

    @property
    def direction(self) -> Direction:
        """The direction of a ``write``."""
        return Direction.parse(self.data["dir"])

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


def check_time(value: Any) -> float | None:
    """A valid ``t``: ``None``, or a finite number of seconds in range; else :class:`EventFormatError`.

    >>> check_time(12.5), check_time(None)
    (12.5, None)
    """
    if value is None:
        return None
    if not _is_num(value) or not -MAX_TIME <= value <= MAX_TIME:
        raise EventFormatError(f"'t' must be a finite number of seconds, not {_describe(value)}")
    return float(value) if isinstance(value, float) else value


def parse_event(raw: Mapping[str, Any], schemas: Schemas = SCHEMAS) -> Event:
    """Validate an event dict against ``schemas``; raise :class:`EventFormatError` if malformed."""
    if not isinstance(raw, Mapping):
        raise EventFormatError(f"an event must be a JSON object, not {_type_name(raw)}")
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise EventFormatError(f"an event's 'type' must be text, not {_type_name(kind)}")
    if kind not in schemas:
        shown = kind if len(kind) <= 40 else kind[:37] + "..."
        raise EventFormatError(f"unknown event type {shown!r}; the types are: {', '.join(schemas)}")
    for key in raw:
        if not isinstance(key, str) or not _text_ok(key) or len(key) > 64:
            raise EventFormatError(f"a {kind!r} event has a field name that is not short text: {_describe(key)}")
    required, optional = schemas[kind]
    for name, expected in required.items():
        if name not in raw:
            raise EventFormatError(f"a {kind!r} event needs {name!r} ({expected})")
    for name, expected in {**required, **optional}.items():
        if name in raw and not _kind_ok(expected, raw[name]):
            raise EventFormatError(f"in a {kind!r} event, {name!r} must be a {expected}"
                                   f"{' (at most %d characters)' % MAX_TEXT if 'text' in expected else ''}, "
                                   f"not {_describe(raw[name])}")
    t = check_time(raw.get("t"))
    for name, value in raw.items():          # fields no schema names: bounded plain values only
        if name not in required and name not in optional and name not in ("type", "t"):
            if not (value is None or isinstance(value, bool) or _text_ok(value) or (_is_num(value) and abs(value) <= MAX_INT)
                    or (isinstance(value, list) and len(value) <= MAX_LIST
                        and all(_text_ok(v) or _is_int(v) for v in value))):
                raise EventFormatError(f"in a {kind!r} event, the extra field {name!r} must be plain text, a "
                                       f"number or a short list, not {_describe(value)}")
    if kind == "write" and "dir" in raw:
        try:
            Direction.parse(raw["dir"])
        except ValueError as error:
            raise EventFormatError(str(error)) from None
    player = raw.get("player")
    return Event(kind, player, t, dict(raw))
