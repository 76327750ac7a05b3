"""Pin numbers (BCM GPIO numbers) from a config dict, checked; defaults match ``WIRING.md``.

>>> pins = load_pins({"players": [{"button": 5, "led": 17}, {"button": 6, "led": 27}]})
>>> len(pins["players"]), pins["host"]["recognise"]
(2, 23)
>>> load_pins({"players": [{"button": 5, "led": 5}]})
Traceback (most recent call last):
...
hardware.config.PinConfigError: GPIO5 is used twice: players[0].button and players[0].led
"""

from __future__ import annotations

import copy

DEFAULT_PINS: dict = {
    "players": [
        {"button": 5, "led": 17},
        {"button": 6, "led": 27},
        {"button": 13, "led": 22},
        {"button": 19, "led": 10},
        {"button": 26, "led": 9},
        {"button": 21, "led": 11},
    ],
    "host": {"recognise": 23, "right": 24, "wrong": 25, "next": 8},
    "sand_timer": {"leds": [12, 16, 20, 7, 3], "buzzer": 18, "tilt": 4},
}

HOST_BUTTONS = ("recognise", "right", "wrong", "next")


class PinConfigError(ValueError):
    """The pin configuration is unusable; the message names the offending entry."""


def load_pins(config: dict | None = None) -> dict:
    """``config`` merged over :data:`DEFAULT_PINS` (top-level sections replace), then checked."""
    pins = copy.deepcopy(DEFAULT_PINS)
    for key, value in (config or {}).items():
        if key not in pins:
            raise PinConfigError(f"unknown pin section {key!r}; expected one of {', '.join(pins)}")
        pins[key] = copy.deepcopy(value)
    used: dict[int, str] = {}

    def claim(gpio, where: str) -> None:
        if not isinstance(gpio, int) or not 0 <= gpio <= 27:
            raise PinConfigError(f"{where} must be a BCM GPIO number 0-27, not {gpio!r}")
        if gpio in used:
            raise PinConfigError(f"GPIO{gpio} is used twice: {used[gpio]} and {where}")
        used[gpio] = where

    if not pins["players"]:
        raise PinConfigError("players: at least one player station is needed")
    for i, station in enumerate(pins["players"]):
        for part in ("button", "led"):
            if part not in station:
                raise PinConfigError(f"players[{i}] has no {part!r} pin")
            claim(station[part], f"players[{i}].{part}")
    for name in HOST_BUTTONS:
        if name not in pins["host"]:
            raise PinConfigError(f"host has no {name!r} button pin")
        claim(pins["host"][name], f"host.{name}")
    timer = pins["sand_timer"]
    for i, gpio in enumerate(timer.get("leds", [])):
        claim(gpio, f"sand_timer.leds[{i}]")
    for part in ("buzzer", "tilt"):
        if timer.get(part) is not None:
            claim(timer[part], f"sand_timer.{part}")
    return pins
