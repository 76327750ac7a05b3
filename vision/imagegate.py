"""The one gate every image passes before it is decoded: the CLI's files, the scan uploads, a
phone's camera.

An image's pixel count, not its file size, decides what decoding it costs: a 0.9 MB PNG may
declare 30000x30000 pixels (2.7 GB decoded). So :func:`decode` reads the width and height from
the header first (Pillow's lazy ``Image.open``: PNG, JPEG, WebP, BMP, GIF... nothing decoded),
refuses more than :data:`MAX_PIXELS` pixels or :data:`MAX_BYTES` bytes with a sentence
(:class:`TooLarge`; what is no image: :class:`NotAnImage`; both are :class:`ImageRefused`), and lets at most :data:`DECODERS` decodes run at once (the others wait
up to :data:`WAIT` seconds, then are refused: the table is busy). Big photos are decoded at a
half, a quarter or an eighth of their size when the caller only needs ``max_side`` pixels
(JPEG decodes straight to the smaller size).

>>> image_size(b"not an image")
Traceback (most recent call last):
...
vision.imagegate.NotAnImage: The photo is not an image (PNG, JPEG, WebP, BMP or GIF).
>>> import cv2, numpy as np
>>> ok, png = cv2.imencode(".png", np.zeros((40, 60, 3), np.uint8))
>>> image_size(png.tobytes()), decode(png.tobytes()).shape
((60, 40), (40, 60, 3))
"""

from __future__ import annotations

import io
import re
import threading
import warnings

from vision.errors import BadImage

#: the most pixels an image may declare (a 48-megapixel phone camera fits; a decompression bomb does not)
MAX_PIXELS = 50_000_000
#: the largest image file read
MAX_BYTES = 64 * 1024 * 1024
#: how many images may be decoded at once (each may take ~150 MB while decoding)
DECODERS = 2
#: how long an image waits for a free decoder before it is refused (seconds)
WAIT = 20.0

_decoders = threading.BoundedSemaphore(DECODERS)


class ImageRefused(BadImage):
    """The image is refused before (or instead of) decoding it; the message is a sentence."""


class NotAnImage(ImageRefused):
    """Empty, not an image format the gate knows, or damaged past decoding."""


class TooLarge(ImageRefused):
    """More bytes, or more declared pixels, than the gate lets through."""


class DecodersBusy(ImageRefused):
    """Every decoder stayed busy for the whole wait: send it again in a moment."""


def image_size(data: bytes, what: str = "photo", max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The (width, height) ``data``'s header declares, nothing decoded; :class:`ImageRefused` for
    what is not an image or declares more than ``max_pixels``."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
    except Image.DecompressionBombError as error:       # Pillow's own limit, far above ours
        declared = re.search(r"\((\d+) pixels\)", str(error))
        pixels = f"{int(declared.group(1)) / 1e6:,.0f} megapixels" if declared else "far too many pixels"
        raise TooLarge(f"The {what} declares {pixels}: at most {max_pixels / 1e6:.0f} megapixels are read.") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise NotAnImage(f"The {what} is not an image (PNG, JPEG, WebP, BMP or GIF).") from None
    if width * height > max_pixels:
        raise TooLarge(f"The {what} is {width}x{height} pixels: at most {max_pixels / 1e6:.0f} megapixels "
                           "are read.")
    return width, height


def check(data: bytes, what: str = "photo", max_bytes: int = MAX_BYTES, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The checks of :func:`decode` without decoding: the byte limit, then the header's size."""
    if len(data) > max_bytes:
        raise TooLarge(f"The {what} is {len(data) / 1e6:.1f} MB: at most {max_bytes / 1e6:.0f} MB is read.")
    if not data:
        raise NotAnImage(f"The {what} is empty.")
    return image_size(data, what, max_pixels)


def _reduction(width: int, height: int, max_side: int | None) -> int:
    """The largest of 1, 2, 4, 8 that keeps the longer side at least ``max_side``."""
    factor = 1
    while max_side is not None and factor < 8 and max(width, height) // (factor * 2) >= max_side:
        factor *= 2
    return factor


def decode(data: bytes, what: str = "photo", *, max_side: int | None = None, max_bytes: int = MAX_BYTES,
           max_pixels: int = MAX_PIXELS, wait: float = WAIT):
    """``data`` decoded to a BGR array once it passed :func:`check`, at most :data:`DECODERS` at once.

    ``max_side``: the caller shrinks the image to this many pixels on its longer side anyway, so
    a big one is decoded at 1/2, 1/4 or 1/8 of its size when that still leaves ``max_side``.
    """
    import cv2
    import numpy as np

    width, height = check(data, what, max_bytes, max_pixels)
    flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}[_reduction(width, height, max_side)]
    if not _decoders.acquire(timeout=wait):
        raise DecodersBusy(f"The table is busy reading other images: send the {what} again in a moment.")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:
        image = None
    finally:
        _decoders.release()
    if image is None:
        raise NotAnImage(f"The {what} could not be decoded (a damaged PNG or JPEG?).")
    return image
