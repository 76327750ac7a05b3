"""The Raspberry Pi's own table devices, built from gpiozero parts.

- :class:`~hardware.buzzpanel.BuzzPanel`: one button and one LED per player, and the host's
  recognise / right / wrong / next buttons; presses are stamped at the GPIO edge.
- :class:`~hardware.sandtimer.SandTimer`: an LED bar draining over the period, a tonal buzzer
  for the last seconds and the end, a tilt switch that restarts it when flipped.

Every pin goes through a gpiozero pin factory; off a Raspberry Pi the mock factory is chosen
automatically (and logged), so everything here runs and is tested on a laptop. Pin numbers come
from a config dict (:mod:`hardware.config`; the wiring is in ``hardware/WIRING.md``). This package
imports nothing from ``tabletop``, ``vision``, ``firmware_bridge`` or ``rules``.

>>> from hardware import BuzzPanel
>>> panel = BuzzPanel()
>>> panel.mock
True
>>> panel.close()
"""

from hardware.buzzpanel import BuzzPanel, HostAction, PanelPress
from hardware.config import DEFAULT_PINS, PinConfigError, load_pins
from hardware.pins import PinSetup, choose_pin_factory, on_raspberry_pi
from hardware.sandtimer import SandTimer

__all__ = [
    "BuzzPanel", "HostAction", "PanelPress", "SandTimer", "DEFAULT_PINS", "PinConfigError", "load_pins",
    "PinSetup", "choose_pin_factory", "on_raspberry_pi",
]
