"""Reading a file a user named, with errors a person can act on.

Only regular files are read (a named pipe would hang, ``/dev/zero`` never ends), and only up
to :data:`MAX_TEXT_BYTES`.

>>> read_user_text("/nonexistent/x.json", "record file")
Traceback (most recent call last):
...
tabletop.errors.UserError: no such record file: /nonexistent/x.json
>>> read_user_text("/dev/zero", "word list")
Traceback (most recent call last):
...
tabletop.errors.UserError: /dev/zero is not a regular file, so it cannot be a word list
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import stat
from typing import Iterator

from tabletop.errors import UserError


#: the largest text file a user may hand us (a house word list of a few million words fits)
MAX_TEXT_BYTES = 64 * 1024 * 1024


@contextlib.contextmanager
def _reading(path: pathlib.Path, what: str) -> Iterator[None]:
    """Turn the OS's errors on reading ``path`` into UserErrors that say them (the file may change
    between a check and the read, so every read is wrapped, not only the check)."""
    try:
        yield
    except FileNotFoundError:
        raise UserError(f"no such {what}: {path}") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a {what}") from None
    except PermissionError:
        raise UserError(f"cannot read the {what} {path}: permission denied") from None
    except OSError as error:
        raise UserError(f"cannot read the {what} {path}: {error.strerror}") from None


def check_regular_file(path: pathlib.Path, what: str, max_bytes: int = MAX_TEXT_BYTES) -> None:
    """A UserError unless ``path`` is an existing regular file of at most ``max_bytes``."""
    with _reading(path, what):
        info = path.stat()
    if stat.S_ISDIR(info.st_mode):
        raise UserError(f"{path} is a folder, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise UserError(f"{path} is not a regular file, so it cannot be a {what}")
    if info.st_size > max_bytes:
        raise UserError(f"the {what} {path} is {info.st_size / 1e6:.0f} MB; at most {max_bytes / 1e6:.0f} MB is read")


def read_user_text(path: str | os.PathLike, what: str) -> str:
    """The UTF-8 text of ``path`` (a leading BOM dropped); a missing, unreadable, special or binary
    file is a UserError."""
    path = pathlib.Path(path)
    check_regular_file(path, what)
    with _reading(path, what):
        try:
            return path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as error:
            raise UserError(f"the {what} {path} is not UTF-8 text ({error.reason} at byte {error.start})") from None


#: the largest photo read (a 48-megapixel phone camera fits; a decompression bomb does not)
MAX_PIXELS = 50_000_000
MAX_IMAGE_BYTES = 64 * 1024 * 1024


def _user_error(error: Exception) -> UserError:
    """The image gate's sentence as a UserError (lower-case first letter, no full stop, as the CLI says them)."""
    text = str(error).rstrip(".")
    return UserError(text[:1].lower() + text[1:])


def image_size(data: bytes, what: str = "photo") -> tuple[int, int]:
    """The (width, height) a PNG/JPEG/... declares in its header, read without decoding it
    (:func:`vision.imagegate.image_size`); a UserError for what is not an image or is too large.

    >>> image_size(b"not an image")
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: the photo is not an image (PNG, JPEG, WebP, BMP or GIF)
    """
    from vision import imagegate

    try:
        return imagegate.image_size(data, what, MAX_PIXELS)
    except imagegate.ImageRefused as error:
        raise _user_error(error) from None


def decode_image(data: bytes, what: str = "photo"):
    """Decode image bytes to a BGR array through the image gate (:func:`vision.imagegate.decode`:
    byte and pixel limits read from the header first, decodes bounded)."""
    from vision import imagegate

    try:
        return imagegate.decode(data, what, max_bytes=MAX_IMAGE_BYTES, max_pixels=MAX_PIXELS)
    except imagegate.ImageRefused as error:
        raise _user_error(error) from None


def read_image(path: str | os.PathLike, what: str = "photo"):
    """A photo file as a BGR array: a regular file, a sane size, checked before decoding."""
    path = pathlib.Path(path)
    check_regular_file(path, what, MAX_IMAGE_BYTES)
    with _reading(path, what):
        data = path.read_bytes()
    try:
        return decode_image(data, what)
    except UserError as error:
        raise UserError(f"{path}: {error}") from None


def page_output(path: str | os.PathLike) -> pathlib.Path:
    """Where a printable page goes: a ``.png`` or ``.pdf`` path in a folder that exists, else a
    UserError saying which.

    >>> page_output("board.pdf").name
    'board.pdf'
    >>> page_output("board.gif")
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: --out must end in .png or .pdf, not 'board.gif'
    """
    out = pathlib.Path(path)
    if out.suffix.lower() not in (".png", ".pdf"):
        raise UserError(f"--out must end in .png or .pdf, not {out.name!r}")
    if not out.parent.exists():
        raise UserError(f"no such directory: {out.parent}")
    return out

