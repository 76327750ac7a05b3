"""Choosing the pin factory: real pins on a Raspberry Pi, gpiozero's MockFactory anywhere else.

>>> setup = choose_pin_factory()
>>> setup.mock, type(setup.factory).__name__
(True, 'MockFactory')
"""

from __future__ import annotations

from typing import Any

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

log = logging.getLogger(__name__)

_MODEL = Path("/proc/device-tree/model")
_shared_mock: MockFactory | None = None


@dataclass(frozen=True)
class PinSetup:
    """The factory every device of a panel or timer uses, and whether its pins are simulated."""

    factory: Any  # a gpiozero pin factory (real or MockFactory)
    mock: bool
    reason: str


def on_raspberry_pi(model_file: Path = _MODEL) -> bool:
    """True on a Raspberry Pi (its device tree names the model)."""
    try:
        return "raspberry pi" in model_file.read_text(errors="replace").lower()
    except OSError:
        return False


def choose_pin_factory(factory: object | None = None) -> PinSetup:
    """The pin factory to use: ``factory`` if given, real pins on a Pi (or when
    ``GPIOZERO_PIN_FACTORY`` names one), else one shared MockFactory with PWM-capable pins.
    """
    global _shared_mock
    if factory is not None:
        return PinSetup(factory, isinstance(factory, MockFactory), "given")
    if os.environ.get("GPIOZERO_PIN_FACTORY") or on_raspberry_pi():
        if Device.pin_factory is None:
            Device.ensure_pin_factory()
        real = Device.pin_factory
        return PinSetup(real, isinstance(real, MockFactory), f"gpiozero chose {type(real).__name__}")
    if _shared_mock is None:
        _shared_mock = MockFactory(pin_class=MockPWMPin)
        log.warning("no Raspberry Pi found: using gpiozero's MockFactory (simulated pins)")
    return PinSetup(_shared_mock, True, "no Raspberry Pi found: gpiozero MockFactory (simulated pins)")
