"""bench vision's hands part (tabletop.benchmarks.hands): later letters read three ways, per language."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.benchmarks import hands
from tabletop.resources import load_board
from vision.letters import model_for

pytestmark = [pytest.mark.slow, pytest.mark.vision, pytest.mark.timeout(300)]


def _consistent(result: dict) -> None:
    assert result["writers"] == 2 and result["later_letters"] > 0 and result["letters_learnt"] > 0
    for way in hands.WAYS:
        low, high = result[f"{way}_95ci"]
        assert 0.5 < result[way] <= 1 and low <= result[way] <= high, way


def test_quick_latin_hands_read_with_the_network_given(capsys):
    from vision.synth.realdata import HELD_OUT_CONTRIBUTORS, load_handwriting

    held = load_handwriting().of(HELD_OUT_CONTRIBUTORS)
    if not len(held):
        pytest.skip("the held-out handwriting is not on this machine")
    result = hands.measure_hands(load_board("extradiction"), held, np.random.default_rng([2026, 17]), quick=True,
                                 log=lambda *_: None, model=model_for("en"))
    _consistent(result)
    hands.print_lines(result)
    assert "likeness alone" in capsys.readouterr().out


def test_quick_ukrainian_hands():
    result = hands.measure_hands_uk(load_board("extradiction"), quick=True, log=lambda *_: None)
    if "not_measured" in result:
        pytest.skip(result["not_measured"])
    _consistent(result)
