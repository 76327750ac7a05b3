"""Each test gets its own gpiozero MockFactory (PWM-capable pins)."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.close()


class FakeClock:
    """A clock the test moves by hand: ``clock.t += 1.5``."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return FakeClock()
