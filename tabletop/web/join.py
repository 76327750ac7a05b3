"""Joining a seat by QR code or short code: ``/join/CODE`` sends a phone to that seat's page,
``/qr/CODE.svg`` is the QR code of that link, ``/api/join`` lists the codes to show.

The codes themselves are :mod:`tabletop.session.join_codes`; this module adds what HTTP needs:
a brake on wrong codes (:class:`WrongCodes`: a few a minute from one address, and a few dozen
from all of them together, are refused unread beyond that) and the QR image, drawn on the
server with segno (pure Python).

>>> guard = WrongCodes(per_client=2, overall=10, seconds=60.0, clock=lambda: 0.0)
>>> guard.allowed("10.0.0.5")
True
>>> guard.wrong("10.0.0.5"); guard.wrong("10.0.0.5")
>>> guard.allowed("10.0.0.5"), guard.allowed("10.0.0.6")
(False, True)
"""

from __future__ import annotations

import collections
import io
import threading
import time
from typing import Callable


class WrongCodes:
    """How many wrong codes were tried lately, per client address and in all: while either is at
    its limit, further codes are refused without being looked up."""

    def __init__(self, per_client: int = 5, overall: int = 30, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.per_client, self.overall, self.seconds = per_client, overall, seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._all: collections.deque[float] = collections.deque()
        self._by_client: dict[str, collections.deque[float]] = {}

    def _forget_old(self, times: collections.deque[float], now: float) -> None:
        while times and now - times[0] > self.seconds:
            times.popleft()

    def allowed(self, client: str) -> bool:
        """Whether a code from ``client`` may be looked up now."""
        with self._lock:
            now = self._clock()
            self._forget_old(self._all, now)
            mine = self._by_client.get(client)
            if mine is not None:
                self._forget_old(mine, now)
                if not mine:
                    del self._by_client[client]
                    mine = None
            return len(self._all) < self.overall and (mine is None or len(mine) < self.per_client)

    def wrong(self, client: str) -> None:
        """``client`` tried a code that is no seat's."""
        with self._lock:
            now = self._clock()
            self._all.append(now)
            self._by_client.setdefault(client, collections.deque()).append(now)

    def wait(self) -> int:
        """Whole seconds to wait before trying again (at least 1)."""
        return max(1, round(self.seconds))


def qr_svg(text: str, *, inline: bool = False) -> bytes:
    """The QR code of ``text`` as an SVG image (black on white, with its quiet zone); ``inline``:
    a bare ``<svg>`` element at half the size, to put in a page (the camera's link on the host console).

    >>> qr_svg("http://192.168.1.20:8000/join/ABCDE").startswith(b"<?xml")
    True
    >>> qr_svg("http://192.168.1.20:8000/camera?token=x", inline=True).startswith(b"<svg")
    True
    """
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4 if inline else 8, border=4, dark="#000", light="#fff",
                                     xmldecl=not inline, svgns=True, nl=not inline)
    return out.getvalue()
