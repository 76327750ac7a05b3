"""Errors the application reports to a person, with the exit code that goes with them."""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (a missing file, a bad option); printed without a traceback.

    >>> str(UserError("no such record: x.json"))
    'no such record: x.json'
    """

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
