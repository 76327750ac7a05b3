"""The GPIO buzz-in panel on mock pins: edge timestamps, first-edge debouncing, LEDs, host buttons."""

from __future__ import annotations

import doctest
import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

import hardware
import hardware.buzzpanel
import hardware.config
import hardware.edges
import hardware.pins
import hardware.sandtimer
from hardware import BuzzPanel, PinConfigError, load_pins
from hardware.pins import choose_pin_factory, on_raspberry_pi
from rules.arbitration import Arbiter

pytestmark = pytest.mark.hardware

BUTTONS = [p["button"] for p in hardware.DEFAULT_PINS["players"]]
LEDS = [p["led"] for p in hardware.DEFAULT_PINS["players"]]


@pytest.mark.parametrize("module", [hardware, hardware.buzzpanel, hardware.config, hardware.edges, hardware.pins,
                                    hardware.sandtimer])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_off_a_pi_the_mock_factory_is_chosen_and_says_so(caplog, monkeypatch, tmp_path):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(hardware.pins, "_shared_mock", None)
    assert not on_raspberry_pi(tmp_path / "no-model")
    with caplog.at_level(logging.INFO):
        setup = choose_pin_factory()
    assert setup.mock and isinstance(setup.factory, MockFactory)
    assert "MockFactory" in caplog.text
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    assert on_raspberry_pi(model)


def test_press_is_stamped_at_the_edge_not_when_the_callback_runs():
    class LateCallbackPin(MockPWMPin):
        def _call_when_changed(self):
            time.sleep(0.02)  # a busy callback thread: 20 ms late
            super()._call_when_changed()

    f = MockFactory(pin_class=LateCallbackPin)
    with BuzzPanel(pin_factory=f) as panel:
        pin = f.pin(BUTTONS[0])
        pin.drive_low()
        press = panel.presses.get_nowait()
        edge_us = round(f.ticks_diff(pin._last_change, panel.epoch) * 1e6)
        assert press.t_us == edge_us
        assert panel.now_us() - press.t_us >= 20_000


def test_presses_1ms_apart_are_ordered_right(factory):
    arbiter = Arbiter(range(6))
    arbiter.open(0)
    with BuzzPanel(pin_factory=factory, on_press=lambda p: arbiter.press(p.player, p.t_us)):
        order = [4, 0, 5, 2]
        for player in order:
            start = time.perf_counter()
            factory.pin(BUTTONS[player]).drive_low()
            while time.perf_counter() - start < 0.001:
                pass
    assert [b.player for b in arbiter.queue] == order


def test_chatter_and_a_held_button_make_one_press(factory):
    with BuzzPanel(pin_factory=factory) as panel:
        pin = factory.pin(BUTTONS[2])
        pin.drive_low()
        first = panel.presses.get_nowait()
        for _ in range(20):
            pin.drive_high()
            pin.drive_low()
        assert panel.presses.empty()
        pin.drive_high()
        assert panel.presses.empty()
        assert first.player == 2


def test_host_buttons_and_leds(factory):
    with BuzzPanel(pin_factory=factory) as panel:
        for name in ("recognise", "right", "wrong", "next"):
            factory.pin(hardware.DEFAULT_PINS["host"][name]).drive_low()
            assert panel.host_actions.get_nowait().name == name
        panel.light_only([3])
        assert [factory.pin(p).state for p in LEDS] == [0, 0, 0, 1, 0, 0]
        panel.light(0)
        assert panel.leds[:4] == (True, False, False, True)


def test_faulty_consumer_does_not_break_the_panel(factory, caplog):
    def boom(press):
        raise RuntimeError("consumer bug")

    with BuzzPanel(pin_factory=factory, on_press=boom) as panel:
        factory.pin(BUTTONS[1]).drive_low()
        assert "consumer bug" in caplog.text
        assert panel.players == 6


def test_bad_pin_config_is_a_readable_error():
    with pytest.raises(PinConfigError, match="GPIO24 is used twice"):
        load_pins({"players": [{"button": 24, "led": 2}]})
    with pytest.raises(PinConfigError, match="players\\[0\\] has no 'led'"):
        load_pins({"players": [{"button": 2}]})
    with pytest.raises(PinConfigError, match="unknown pin section"):
        load_pins({"lasers": {}})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 8)), min_size=1, max_size=12))
def test_random_presses_with_chatter_never_add_presses(bursts):
    f = MockFactory(pin_class=MockPWMPin)
    try:
        with BuzzPanel(pin_factory=f) as panel:
            expected = []
            for player, bounces in bursts:
                pin = f.pin(BUTTONS[player])
                if pin.state == 0:  # still held from an earlier burst: no new press
                    for _ in range(bounces):
                        pin.drive_high()
                        pin.drive_low()
                    continue
                expected.append(player)
                pin.drive_low()
                for _ in range(bounces):
                    pin.drive_high()
                    pin.drive_low()
            got = []
            while not panel.presses.empty():
                got.append(panel.presses.get_nowait().player)
            assert got == expected
    finally:
        f.close()
