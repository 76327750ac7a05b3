"""What the session refuses, as typed errors without transport details: the web layer maps
them to HTTP answers (400, 403, 409), the console prints them as one line.

>>> isinstance(BadEntry("Type something first."), EntryRefused)
True
"""

from __future__ import annotations


class EntryRefused(Exception):
    """An entry or host action the session refuses now (no window, too late, nothing due)."""


class BadEntry(EntryRefused):
    """An entry or host action that is malformed whenever it comes (empty text, no such clue)."""


class NotYourEntry(EntryRefused):
    """An entry from a seat that has nothing to enter in the window it names."""


class TooManyRefusals(EntryRefused):
    """A seat whose entries were refused too often lately: it waits before the next is even read."""

