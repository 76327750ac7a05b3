"""GPIO edges with the time they happened, and first-edge presses.

gpiozero 2 hands every pin change to ``pin.when_changed(ticks, state)``, where ``ticks`` is the
pin factory's timestamp of the edge itself (taken by the GPIO library when the edge was seen,
or by the mock pin when it was driven), not of the moment the callback runs. :class:`EdgeInput`
passes those edges on in microseconds since its factory's epoch.

>>> from hardware.pins import choose_pin_factory
>>> f = choose_pin_factory().factory
>>> edges = []
>>> button = EdgeInput(5, pin_factory=f, on_edge=lambda down, t: edges.append(down))
>>> f.pin(5).drive_low(); f.pin(5).drive_high()
>>> edges
[True, False]
>>> button.close()
"""

from __future__ import annotations

from typing import Callable

from gpiozero import DigitalInputDevice

EdgeCallback = Callable[[bool, int], None]


class EdgeInput(DigitalInputDevice):
    """A pulled-up, active-low input that reports ``on_edge(down, t_us)`` for every edge."""

    def __init__(self, pin, *, pin_factory=None, on_edge: EdgeCallback | None = None, epoch=None) -> None:
        super().__init__(pin, pull_up=True, pin_factory=pin_factory)
        self.on_edge = on_edge
        self.epoch = self.pin_factory.ticks() if epoch is None else epoch

    def ticks_to_us(self, ticks) -> int:
        """A factory tick value as integer microseconds since :attr:`epoch`."""
        return round(self.pin_factory.ticks_diff(ticks, self.epoch) * 1_000_000)

    def _pin_changed(self, ticks, state) -> None:
        if self.on_edge is not None:
            self.on_edge(bool(self._state_to_value(state)), self.ticks_to_us(ticks))
        super()._pin_changed(ticks, state)


class FirstEdge:
    """Edges in, presses out: a press is stamped at its first edge; chatter after it, and a button
    held down, make nothing until the button has stayed released for ``rearm_us``.

    >>> f = FirstEdge()
    >>> [f.edge(d, t) for d, t in [(True, 10), (False, 40), (True, 90), (False, 30_000), (True, 60_000)]]
    [10, None, None, None, 60000]
    """

    def __init__(self, rearm_us: int = 20_000) -> None:
        self.rearm_us = rearm_us
        self._armed = True
        self._released_at: int | None = None

    def edge(self, down: bool, t_us: int) -> int | None:
        """Feed one edge; returns ``t_us`` if this edge is a press."""
        if not down:
            if not self._armed and self._released_at is None:
                self._released_at = t_us
            return None
        if self._armed or (self._released_at is not None and t_us - self._released_at >= self.rearm_us):
            self._armed, self._released_at = False, None
            return t_us
        self._released_at = None  # bounced back down, or held
        return None
