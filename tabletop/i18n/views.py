"""Which texts of a view (scoreboard, host, seat), a result or an API answer are sentences for
people, and translating them all: :func:`texts_of`, :func:`translate_view`.

A view is JSON: a sentence is a string under one of :data:`TEXT_KEYS` (a log line's
``message``, a window's ``prompt``, a button's ``label``, the game's ``status``...); every other
string is data (a player's name, a word, a letter, a key) and stays as it is.

>>> list(texts_of({"status": "Round 1 of 3: roll the dice.", "players": ["Ann"], "log": [{"message": "Ann passes."}]}))
['Round 1 of 3: roll the dice.', 'Ann passes.']
>>> translate_view({"status": "rejected", "message": "Ann passes."}, lambda text: text.upper())
{'status': 'rejected', 'message': 'ANN PASSES.'}
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

#: the keys whose string values are sentences (or labels) shown to people
TEXT_KEYS = frozenset({"message", "public_message", "error", "prompt", "label", "status", "title", "reason",
                       "best_label", "clue", "explain", "warning", "nothing"})

#: the key of the devices' statuses (a name -> a sentence each: ``{"camera": "watching the board"}``)
DEVICES = "devices"

#: values of those keys that are codes, not sentences (a result's ``status``)
CODES = frozenset({"accepted", "rejected", "ignored", "waiting", "ok", ""})


def texts_of(data: Any, key: str | None = None) -> Iterator[str]:
    """Every sentence in ``data`` (a view, a result's JSON, an API answer), in order."""
    if isinstance(data, dict):
        for name, value in data.items():
            if name == DEVICES and isinstance(value, dict):        # each device's status is a sentence
                yield from (status for status in value.values() if isinstance(status, str) and status not in CODES)
                continue
            yield from texts_of(value, name)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from texts_of(value, key)
    elif isinstance(data, str) and key in TEXT_KEYS and data not in CODES:
        yield data


def translate_view(data: Any, translate: Callable[[str], str], key: str | None = None) -> Any:
    """A copy of ``data`` with every sentence (:func:`texts_of`) put through ``translate``."""
    if isinstance(data, dict):
        return {name: ({device: translate(status) if isinstance(status, str) and status not in CODES else status
                        for device, status in value.items()} if name == DEVICES and isinstance(value, dict)
                       else translate_view(value, translate, name)) for name, value in data.items()}
    if isinstance(data, list):
        return [translate_view(value, translate, key) for value in data]
    if isinstance(data, str) and key in TEXT_KEYS and data not in CODES:
        return translate(data)
    return data
