"""`tabletop demo word-grid`: two rounds on the simulated table, the sand timer on mock pins, the
players' words from the tray, a record that replays to the same totals."""

from __future__ import annotations

import io
import json

import pytest

from tabletop.cli import main
from tabletop.i18n import translate

pytestmark = [pytest.mark.hardware]


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_word_grid_demo_plays_two_rounds(tmp_path, capsys, language):
    from tabletop.table.demo import play_demo

    out = io.StringIO()
    record = tmp_path / "grid.json"
    report = play_demo("word-grid", record=str(record), out=out, pace=0.0, serve=False, language=language)
    text = out.getvalue()                                  # the console speaks the game's language
    said = [translate(sentence, language) for sentence in (
        "Round 1: the 4x4 tray is ready. Turn the sand timer!", "Round 2: the 4x4 tray is ready. Turn the sand timer!")]
    assert all(sentence in text for sentence in said), said
    assert {"en": "The game ends.", "uk": "Гра закінчується."}[language] in text and report.rejected == 0
    assert report.sand_timer_starts == 2 and "mock pins" in text
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == report.totals and sum(report.totals.values()) > 0 and len(result["rounds"]) == 2
    assert sum(len(words) for words in result["rounds"][0].values()) == 12      # 3 players x 4 words
