"""Reading a file a user named, with errors a person can act on.

>>> read_user_text("/nonexistent/x.json", "record file")
Traceback (most recent call last):
...
tabletop.errors.UserError: no such record file: /nonexistent/x.json
"""

from __future__ import annotations

import os
import pathlib

from tabletop.errors import UserError


def read_user_text(path: str | os.PathLike, what: str) -> str:
    """The UTF-8 text of ``path`` (a leading BOM dropped); a missing, unreadable or binary file is a UserError."""
    path = pathlib.Path(path)
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError(f"no such {what}: {path}") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a {what}") from None
    except PermissionError:
        raise UserError(f"cannot read the {what} {path}: permission denied") from None
    except UnicodeDecodeError as error:
        raise UserError(f"the {what} {path} is not UTF-8 text ({error.reason} at byte {error.start})") from None
