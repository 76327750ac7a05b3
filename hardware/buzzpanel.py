"""The buzz-in panel: a button and an LED per player, and the host's four buttons.

Presses are stamped at the GPIO edge (see :mod:`hardware.edges`) in microseconds since the
panel was made, debounced by first edge (a bouncy switch keeps the stamp of its first contact),
and handed to ``on_press(PanelPress)`` or, without a callback, to the ``presses`` queue. Feed
them to ``rules.arbitration.Arbiter.press(player, t_us)``.

>>> panel = BuzzPanel(pins={"players": [{"button": 5, "led": 17}, {"button": 6, "led": 27}]})
>>> panel.factory.pin(6).drive_low()
>>> panel.presses.get_nowait().player
1
>>> panel.light_only([1]); panel.leds
(False, True)
>>> panel.close()
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from typing import Callable, Iterable

from gpiozero import LED

from hardware.config import HOST_BUTTONS, load_pins
from hardware.edges import EdgeInput, FirstEdge
from hardware.pins import choose_pin_factory

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PanelPress:
    """A player's press: index into the config's ``players`` and the edge time in us."""

    player: int
    t_us: int


@dataclass(frozen=True)
class HostAction:
    """A host button: ``name`` is one of recognise, right, wrong, next."""

    name: str
    t_us: int


class BuzzPanel:
    """Player stations and host buttons on GPIO, every pin through one pin factory."""

    def __init__(
        self,
        pins: dict | None = None,
        *,
        pin_factory=None,
        on_press: Callable[[PanelPress], None] | None = None,
        on_host: Callable[[HostAction], None] | None = None,
        rearm_us: int = 20_000,
    ) -> None:
        self.pins = load_pins(pins)
        setup = choose_pin_factory(pin_factory)
        self.factory, self.mock = setup.factory, setup.mock
        if self.mock:
            log.info("BuzzPanel: %s", setup.reason)
        self.on_press, self.on_host = on_press, on_host
        self.presses: queue.Queue[PanelPress] = queue.Queue()
        self.host_actions: queue.Queue[HostAction] = queue.Queue()
        self.epoch = self.factory.ticks()
        self._devices: list = []
        self._buttons: list[EdgeInput] = []
        self._leds: list[LED] = []
        try:
            for i, station in enumerate(self.pins["players"]):
                first = FirstEdge(rearm_us)
                self._buttons.append(self._own(EdgeInput(
                    station["button"], pin_factory=self.factory, epoch=self.epoch,
                    on_edge=self._player_handler(i, first))))
                self._leds.append(self._own(LED(station["led"], pin_factory=self.factory)))
            for name in HOST_BUTTONS:
                first = FirstEdge(rearm_us)
                self._own(EdgeInput(
                    self.pins["host"][name], pin_factory=self.factory, epoch=self.epoch,
                    on_edge=self._host_handler(name, first)))
        except Exception:
            self.close()
            raise

    def _player_handler(self, i: int, first: FirstEdge) -> Callable[[bool, int], None]:
        def on_edge(down: bool, t: int) -> None:
            self._player_edge(i, first, down, t)
        return on_edge

    def _host_handler(self, name: str, first: FirstEdge) -> Callable[[bool, int], None]:
        def on_edge(down: bool, t: int) -> None:
            self._host_edge(name, first, down, t)
        return on_edge

    @property
    def players(self) -> int:
        return len(self._buttons)

    def now_us(self) -> int:
        """The panel's clock (the same one presses are stamped with)."""
        return round(self.factory.ticks_diff(self.factory.ticks(), self.epoch) * 1_000_000)

    # ---- LEDs --------------------------------------------------------------------------------
    @property
    def leds(self) -> tuple[bool, ...]:
        return tuple(bool(led.value) for led in self._leds)

    def light(self, player: int, on: bool = True) -> None:
        """Light (or put out) one player's LED: ``panel.light(0)``."""
        self._leds[player].value = bool(on)

    def light_only(self, players: Iterable[int]) -> None:
        """Exactly these players' LEDs lit, e.g. the winner of the race."""
        lit = set(players)
        for i, led in enumerate(self._leds):
            led.value = i in lit

    def close(self) -> None:
        """Release every pin."""
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> "BuzzPanel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- internals ---------------------------------------------------------------------------
    def _own(self, device):
        self._devices.append(device)
        return device

    def _player_edge(self, player: int, first: FirstEdge, down: bool, t_us: int) -> None:
        stamp = first.edge(down, t_us)
        if stamp is None:
            return
        press = PanelPress(player, stamp)
        if self.on_press is None:
            self.presses.put(press)
            return
        try:
            self.on_press(press)
        except Exception:  # a faulty consumer must not break the GPIO callback thread
            log.exception("on_press callback failed")

    def _host_edge(self, name: str, first: FirstEdge, down: bool, t_us: int) -> None:
        stamp = first.edge(down, t_us)
        if stamp is None:
            return
        action = HostAction(name, stamp)
        if self.on_host is None:
            self.host_actions.put(action)
            return
        try:
            self.on_host(action)
        except Exception:
            log.exception("on_host callback failed")
