"""Errors the vision pipeline raises: each says, in a sentence, what went wrong.

>>> str(BoardNotFound("2 of 4 markers visible"))
'board not found: 2 of 4 markers visible'
"""

from __future__ import annotations


class VisionError(Exception):
    """Base class of every error :mod:`vision` raises on purpose."""


class BoardNotFound(VisionError):
    """The board is not (reliably) in the frame; nothing was read rather than a wrong read."""

    def __init__(self, reason: str):
        super().__init__(f"board not found: {reason}")
        self.reason = reason


class BadImage(VisionError):
    """The input is not a usable image (empty, wrong shape or dtype, unreadable file)."""


class ModelMissing(VisionError):
    """A network file is absent or unreadable (the message says which, and how to make it)."""
