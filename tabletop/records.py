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
    board: Board
    lexicon: Lexicon


def read_record(path: str | os.PathLike) -> Record:
    """Parse a record file; a missing file, bad JSON or a bad field is a :class:`UserError`."""
    path = pathlib.Path(path)
    text = read_user_text(path, "record file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    try:
        return Record.from_json(data)
    except RecordFormatError as error:
        raise UserError(f"{path}: {error}") from None


def resolve(record: Record, base: str | os.PathLike) -> tuple[Board, Lexicon]:
    """The board and lexicon a record names, paths taken relative to ``base`` (the record's folder)."""
    board = load_board(record.board, relative_to=base)
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
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        json.dump(record.to_json(), handle, indent=1, ensure_ascii=False)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
