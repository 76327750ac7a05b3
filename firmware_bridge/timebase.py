"""32-bit microsecond device clocks, unwrapped to monotonic 64-bit host values.

The box's clock wraps every 2**32 us (71.6 minutes). :class:`Unwrapper` turns each 32-bit stamp
into the 64-bit value nearest the last one it saw, so stamps less than 35 minutes apart (either
way) unwrap right; heartbeats every 250 ms keep it current.

>>> u = Unwrapper()
>>> u.unwrap(0xFFFF_FFF0), u.unwrap(0x10), u.unwrap(0xFFFF_FFFF)
(4294967280, 4294967312, 4294967295)
"""

from __future__ import annotations

WRAP = 1 << 32
HALF = 1 << 31


def diff32(later: int, earlier: int) -> int:
    """Signed difference of two 32-bit stamps, wrap-around included.

    >>> diff32(5, 0xFFFF_FFFB)
    10
    """
    d = (later - earlier) % WRAP
    return d - WRAP if d >= HALF else d


class Unwrapper:
    """Unwraps one device clock; :meth:`rebase` starts a new boot at a chosen 64-bit value.

    >>> u = Unwrapper()
    >>> u.rebase(100, 5_000_000)
    >>> u.unwrap(150)
    5000050
    """

    def __init__(self) -> None:
        self._last: int | None = None  # last device stamp, unwrapped, device coordinates
        self._offset = 0  # added to device coordinates

    def unwrap(self, t32: int) -> int:
        if self._last is None:
            self._last = t32
            return t32 + self._offset
        value = self._last + diff32(t32, self._last % WRAP)
        self._last = max(self._last, value)
        return value + self._offset

    def rebase(self, t32: int, value: int) -> None:
        """The box rebooted: map its stamp ``t32`` to ``value`` so time keeps going forward."""
        self._last = t32
        self._offset = value - t32

    @property
    def last(self) -> int | None:
        """The latest unwrapped value seen, or None."""
        return None if self._last is None else self._last + self._offset
