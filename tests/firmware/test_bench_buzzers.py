"""`tabletop bench buzzers --quick --json` runs and meets the issue's ordering and corruption targets."""

from __future__ import annotations

import argparse
import json

import pytest

from tabletop.benchmarks import buzzers

pytestmark = [pytest.mark.slow, pytest.mark.firmware, pytest.mark.timeout(240)]


def test_quick_benchmark_prints_numbers(capsys):
    assert buzzers.run(argparse.Namespace(quick=True, json=True)) == 0
    numbers = json.loads(capsys.readouterr().out)
    assert numbers["gpio_mock"]["ordered_right_fraction_by_spacing_us"]["1000"] == 1.0
    corruption = numbers["serial_emulator"]["corruption_1pct"]
    assert corruption["false"] == corruption["lost"] == corruption["doubled"] == 0
    assert numbers["decoder_resync_1pct"]["intact_frames_lost"] == 0
    firmware = numbers["serial_firmware_simavr"]
    assert firmware["pairs_ordered_right_fraction_by_spacing_us"]["50"] == 1.0


def test_the_phone_numbers_carry_the_cheat_bound():
    """The cheat measure alone (no firmware): the issue's forged stamp never wins, nor the best believed forge."""
    from tabletop.session.devices.phones import MAX_CLAIM
    phones = buzzers.phone_path(trials=200)
    assert phones["forged_2_9s_wins"] == 0 and phones["best_believed_forge_wins"] == 0
    assert phones["cheat_gain_ms"]["max"] <= phones["allowance_ms"]["max"] <= MAX_CLAIM * 1000
    assert phones["honest_presses_ordered_by_arrival"] < 0.01
