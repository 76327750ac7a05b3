"""Reading and writing game record files, with their board and lexicon resolved.

A record's ``board`` is a built-in board name or a TOML path relative to the record file; its
``lexicon`` (optional) is a word list path relative to the record file that replaces the
built-in dictionary of the record's ``language``.
"""

from __future__ import annotations

import json
import os
import pathlib
from dataclasses import dataclass

from rules.board import Board
from rules.errors import RecordFormatError
from rules.lexicon import Lexicon
from rules.record import Record
from tabletop.errors import UserError
from tabletop.files import read_user_text
from tabletop.lexicons import builtin_lexicon, load_wordlist
from tabletop.resources import load_board


@dataclass
class LoadedRecord:
    """A record file with everything needed to replay it."""

    path: pathlib.Path
    record: Record
    board: Board | None
    lexicon: Lexicon


#: how deeply a record's JSON may nest (a real record nests 3 deep)
MAX_JSON_DEPTH = 32


def parse_json(text: str, where: str) -> object:
    """JSON text as Python data; bad JSON, absurd nesting or numbers are a :class:`UserError`.

    >>> parse_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> parse_json("[" * 100000, "x.json")
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: x.json nests more than 32 levels deep; a game record never does
    """
    if _depth(text) > MAX_JSON_DEPTH:
        raise UserError(f"{where} nests more than {MAX_JSON_DEPTH} levels deep; a game record never does")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise UserError(f"{where} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except ValueError as error:           # a number too long to convert, NaN or Infinity
        reason = "it holds a number of thousands of digits" if "digits" in str(error) else str(error)
        raise UserError(f"{where} is not valid game data: {reason}") from None
    except RecursionError:
        raise UserError(f"{where} nests too deeply to read") from None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number a record may hold")


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (a cheap scan before parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_JSON_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def read_record(path: str | os.PathLike) -> Record:
    """Parse a record file; a missing file, bad JSON or a bad field is a :class:`UserError`."""
    path = pathlib.Path(path)
    text = read_user_text(path, "record file")
    data = parse_json(text, str(path))
    if not isinstance(data, dict):
        raise UserError(f"{path}: a record must be a JSON object")
    try:
        return Record.from_json(data)
    except RecordFormatError as error:
        raise UserError(f"{path}: {error}") from None


def resolve(record: Record, base: str | os.PathLike) -> tuple[Board | None, Lexicon]:
    """The board and lexicon a record names, paths taken relative to ``base`` (the record's folder)."""
    from rules.errors import RecordFormatError as _Unknown
    from rules.games import game_class

    try:
        rules = game_class(record.game)
    except _Unknown as error:
        raise UserError(str(error)) from None
    board = load_board(record.board, relative_to=base, required=rules.board_layers) if rules.needs_board else None
    if record.lexicon:
        lexicon = load_wordlist(pathlib.Path(base) / record.lexicon)
    else:
        lexicon = builtin_lexicon(record.language)
    return board, amend(lexicon, record.extra)


def amend(lexicon: Lexicon, extra: dict) -> Lexicon:
    """House rules in a record: ``"add_words"`` and ``"remove_words"`` (lists) amend its dictionary."""
    changes = {}
    for key in ("add_words", "remove_words"):
        value = extra.get(key, [])
        if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
            raise UserError(f"{key!r} must be a list of words, not {value!r}"[:200])
        changes[key] = value
    return lexicon.amended(add=changes["add_words"], remove=changes["remove_words"])


def load_record(path: str | os.PathLike) -> LoadedRecord:
    """Read a record file and resolve its board and lexicon."""
    path = pathlib.Path(path)
    record = read_record(path)
    board, lexicon = resolve(record, path.parent)
    return LoadedRecord(path, record, board, lexicon)


def write_record(record: Record, path: str | os.PathLike) -> None:
    """Write a record file atomically (a crash never leaves half a file)."""
    path = pathlib.Path(path)
    if not path.parent.is_dir():
        raise UserError(f"cannot write {path}: no such folder {path.parent}")
    if path.is_dir():
        raise UserError(f"cannot write {path}: it is a folder")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            json.dump(record.to_json(), handle, indent=1, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}") from None
