"""The buzz-in buttons: the USB buzzer box (:mod:`firmware_bridge`) and the Pi's own panel
(:mod:`hardware`), each feeding a :class:`~tabletop.session.devices.presses.PressOrderer`; and
the host's physical buttons, which find the game's actions by their keys."""

from __future__ import annotations

from tabletop.session.core import Session
from tabletop.session.host_commands import HOST_BUTTONS, press_button
from tabletop.session.result import Result
from tabletop.session.devices.dispatch import Dispatcher
from tabletop.session.devices.presses import PressOrderer


class SerialBuzzers:
    """The USB buzzer box: presses become buzz-ins; LEDs, timer and buzzer follow the game."""

    def __init__(self, session: Session, url: str, *, hello_timeout: float = 3.0):
        from firmware_bridge.link import BuzzerLink
        self.session = session
        self.players = list(session.setup.players)
        self.dispatch = PressOrderer(session, "buzzer-box")
        self.presses = 0
        self.link = BuzzerLink.open(url, on_press=self._on_press, hello_timeout=hello_timeout)
        session.set_device("buzzers", f"buzzer box on {url}")

    def _on_press(self, press) -> None:
        if 0 <= press.player < len(self.players):
            self.presses += 1
            self.dispatch.add(self.players[press.player], press.t_us, press.player)

    def leds(self, players: set[str]) -> None:
        mask = sum(1 << i for i, p in enumerate(self.players) if p in players)
        self.link.leds(mask)

    def timer(self, seconds: float | None) -> None:
        """The box's own timer LEDs: run ``seconds`` (``None``: stop)."""
        if seconds is None:
            self.link.timer_stop()
        else:
            self.link.timer_start(max(1, int(seconds * 1000)))

    def beep(self, kind: str) -> None:
        self.link.buzz(220 if kind == "refused" else 880, 250)

    def close(self) -> None:
        self.dispatch.close()
        self.link.close()


class GpioPanel:
    """The Raspberry Pi's buzz-in panel (mock pins off a Pi): player buttons, LEDs, host buttons."""

    def __init__(self, session: Session, pins: dict | None = None, pin_factory=None):
        from hardware.buzzpanel import BuzzPanel
        self.session = session
        self.players = list(session.setup.players)
        self.dispatch = Dispatcher("gpio-host")
        self.presses = PressOrderer(session, "gpio")
        self.panel = BuzzPanel(pins, pin_factory=pin_factory, on_press=self._on_press, on_host=self._on_host)
        session.set_device("buzzers", "GPIO buttons" + (" (mock pins)" if self.panel.mock else ""))

    @property
    def mock(self) -> bool:
        return self.panel.mock

    def _on_press(self, press) -> None:
        if 0 <= press.player < len(self.players):
            self.presses.add(self.players[press.player], press.t_us, press.player)

    def _on_host(self, action) -> None:
        def press() -> None:
            host_button(self.session, action.name)
        self.dispatch.put(press)

    def leds(self, players: set[str]) -> None:
        self.panel.light_only([i for i, p in enumerate(self.players) if p in players])

    def close(self) -> None:
        self.presses.close()
        self.dispatch.close()
        self.panel.close()


def host_button(session: Session, name: str) -> Result | None:
    """A physical host button (:func:`tabletop.session.host_commands.press_button`)."""
    return press_button(session, name, "host-button")


__all__ = ["HOST_BUTTONS", "GpioPanel", "SerialBuzzers", "host_button"]
