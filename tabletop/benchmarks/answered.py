"""Photos someone has answered, as the ``--photos DIR`` benchmarks take them (tiles, labelled
dice, chips): each photo (``.jpg``, ``.jpeg``, ``.png``) with an answer file of the same name
ending in ``.json`` beside it, and the typed error for an answer that cannot be used.

    >>> from pathlib import Path
    >>> answered(Path("/nonexistent"))
    ([], [])
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


class AnswerError(ValueError):
    """An answer file that cannot be used; the message names the file and what is wrong."""


def answered(folder: Path) -> tuple[list[tuple[Path, Path]], list[str]]:
    """The photos in ``folder`` with an answer file beside them (photo, answer), in name order, and
    the names of those without one."""
    photos = sorted(p for p in folder.glob("*") if p.suffix.lower() in PHOTO_SUFFIXES) if folder.is_dir() else []
    pairs = [(p, p.with_suffix(".json")) for p in photos]
    return [(p, a) for p, a in pairs if a.exists()], [p.name for p, a in pairs if not a.exists()]


def answer_object(path: Path) -> dict[str, Any]:
    """The answer file ``path`` read: a JSON object, or :class:`AnswerError` naming the file."""
    try:
        answer = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise AnswerError(f"{path.name}: not readable JSON ({error})") from None
    if not isinstance(answer, dict):
        raise AnswerError(f"{path.name}: the answer must be a JSON object")
    return answer


def measure_folder(folder: str | Path, measure: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """``measure`` run on the folder ``--photos`` names; a missing folder or an answer that cannot
    be used is a :class:`tabletop.errors.UserError` that says which (``tabletop bench`` prints it).

    >>> measure_folder("/nonexistent", lambda folder: {})
    Traceback (most recent call last):
    tabletop.errors.UserError: --photos /nonexistent: no such folder
    """
    from tabletop.errors import UserError

    if not Path(folder).is_dir():
        raise UserError(f"--photos {folder}: no such folder")
    try:
        return measure(Path(folder))
    except AnswerError as error:
        raise UserError(f"--photos {folder}: {error}") from None
